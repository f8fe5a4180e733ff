"""Run a query with a deadline the caller can also interrupt (Ctrl-C).

pyoxigraph has no timeout or cancellation of its own, but it releases the GIL while it evaluates, so the query runs
in a daemon thread and the caller waits for it in short slices: a timeout or a KeyboardInterrupt reaches the caller
at once, while the thread is left behind. A command line ends its process right after, which ends the query; a
long-running process (``serve``) bounds its queries' work instead (row caps), since an abandoned thread still runs.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from pp_graph.errors import QueryTimeout

T = TypeVar("T")
_BUDGET: ContextVar[tuple[float, str, float] | None] = ContextVar("pp_graph_budget", default=None)
_SLICE = 0.05  # seconds between checks for Ctrl-C while waiting


def with_deadline(fn: Callable[[], T], seconds: float | None, what: str) -> T:
    """``fn()``'s result, or QueryTimeout naming ``what`` after ``seconds``; exceptions of ``fn`` are re-raised."""
    if seconds is None:
        return fn()
    box: dict[str, object] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # handed to the waiting thread, raised there
            _drop_locals(e)
            box["error"] = e
        finally:
            done.set()

    threading.Thread(target=work, name=f"pp-graph {what}", daemon=True).start()
    end = time.monotonic() + seconds
    while not done.wait(min(_SLICE, max(end - time.monotonic(), 0.0))):
        if time.monotonic() >= end:
            raise QueryTimeout(what, seconds)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def _drop_locals(e: BaseException | None) -> None:
    """Clear the frames' locals along an exception's chain (file and line numbers stay for a report): objects
    bound to the worker thread, such as pyoxigraph's solutions, must not be freed on the waiting thread."""
    seen: set[int] = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if e.__traceback__ is not None:
            traceback.clear_frames(e.__traceback__)
        e = e.__cause__ or e.__context__


@contextmanager
def budget(seconds: float, what: str) -> Iterator[None]:
    """A time budget for the work done inside, in this thread: loops that call :func:`check_budget` (the embedded
    store's result rows, a page's lines) stop with QueryTimeout once it is spent, so the work itself ends."""
    token = _BUDGET.set((time.monotonic() + seconds, what, seconds))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def check_budget() -> None:
    """QueryTimeout when the budget of the enclosing :func:`budget` is spent; nothing outside one."""
    b = _BUDGET.get()
    if b is not None and time.monotonic() > b[0]:
        raise QueryTimeout(b[1], b[2])
