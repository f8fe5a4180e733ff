"""One policy converted on a worker: the backend a pool or Dask worker makes once, and the conversion of one file
into its graph and report (atomic writes). The batch (``pp_graph.batch``) and the Dask runner (``pp_graph.scale.dask``)
both run these; neither imports the other for it.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pp_graph.errors import OutputError, PPGraphError
from pp_graph.extract.learned.layers import Layers, load_layers
from pp_graph.graph.serialize import SUFFIX, write_quads
from pp_graph.load.sources import load_policy
from pp_graph.load.versions import output_stem
from pp_graph.outfiles import atomic_stream, atomic_write

__all__ = ["REPORT_SUFFIX", "FileResult", "Progress", "backend_key", "convert_one", "init_worker"]

REPORT_SUFFIX = ".report.json"

# A step inside one file: (file, step, step number, number of steps); see pipeline.extract.
Progress = Callable[[str, str, int, int], None]


@dataclass
class FileResult:
    source: str
    status: str  # converted | unchanged | failed | skipped
    site: str | None = None
    output: str | None = None
    error: str | None = None
    report: dict[str, Any] = field(default_factory=dict)


_BACKEND: Any = None
_PROGRESS: Any = None  # the pool's progress queue, or the caller's callback inline
_IN_POOL = False  # this process is a pool worker (set by die_with_parent)
_INIT_ERROR: PPGraphError | None = None  # a pool worker's backend could not be made: said at the first file
_LEARNED = Layers()  # the learned layers (convert --model DIR, --gdpr-model DIR); none by default
_BACKEND_KEY: tuple[str, str, tuple[str, ...]] | None = None  # what they were made from (a Dask worker is reused)


def backend_key() -> tuple[str, str, tuple[str, ...]] | None:
    return _BACKEND_KEY


def make_backend(backend: str, options: dict[str, Any], learned: tuple[str, ...]) -> None:
    global _BACKEND, _LEARNED, _BACKEND_KEY
    from pp_graph.extract.registry import get_backend

    _BACKEND = get_backend(backend, **options)
    _LEARNED = load_layers(learned)
    _BACKEND_KEY = (backend, repr(sorted(options.items())), learned)


def init_worker(
    backend: str,
    options: dict[str, Any],
    progress: Any = None,
    parent: int | None = None,
    learned: tuple[str, ...] = (),
) -> None:
    global _PROGRESS, _INIT_ERROR, _IN_POOL
    _PROGRESS = progress
    if parent is None:
        make_backend(backend, options, learned)
        return
    _IN_POOL = True
    die_with_parent(parent)
    try:
        make_backend(backend, options, learned)
    except PPGraphError as e:  # raised here, it would only break the pool, with a traceback
        _INIT_ERROR = e


def die_with_parent(parent: int) -> None:
    """A pool worker must not outlive the batch: killed (even by SIGKILL) or interrupted, the parent's
    workers stop too, removing the file they were writing, instead of writing on and then hanging."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group; the parent decides
    signal.signal(signal.SIGTERM, exit_on_signal)  # SystemExit runs atomic_stream's clean-up
    try:  # Linux: the kernel sends SIGTERM when the parent dies
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:  # elsewhere (and as a back-up): notice being re-parented
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os.kill(os.getpid(), signal.SIGTERM)


def exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # caught again in convert_one, which ends the worker (see there)


def report_step(label: str) -> Callable[[str, int, int], None] | None:
    progress = _PROGRESS
    if progress is None:
        return None
    if callable(progress):  # inline
        return lambda name, i, n: progress(label, name, i, n)
    return lambda name, i, n: progress.put((label, name, i, n))  # a pool worker: through the queue


def convert_one(
    path: str,
    label: str,
    site: str | None,
    out_dir: str,
    fmt: str,
    input_digest: str,
    settings: str,
    max_bytes: int | None,
    valid_from: str | None = None,
) -> FileResult:
    from pp_graph.api import convert_stream

    if _INIT_ERROR is not None:
        raise _INIT_ERROR
    src = Path(path)
    t0 = time.perf_counter()
    try:
        step = report_step(label)
        policy = load_policy(src, site=site, label=label, max_bytes=max_bytes, valid_from=valid_from)
        graph, conv_report, quads = convert_stream(
            policy, _BACKEND, learned=_LEARNED.learned, on_stage=step, transparency=_LEARNED.transparency
        )
        if step is not None:
            step("write", 0, 0)
        stem = output_stem(policy.site, policy.valid_from)
        out = Path(out_dir) / f"{stem}{SUFFIX[fmt]}"
        t_write = time.perf_counter()
        report = conv_report.to_dict()
        # the quads are made as they are written, from the builder's pairs: the extraction is gone by then
        atomic_stream(out, lambda fh: write_quads(quads, fmt, fh))
        report.update(
            characters=len(policy.text),
            input_digest=input_digest,
            settings_digest=settings,
            format=fmt,
            graph=str(graph),
            output=out.name,
            # Reading, extraction, the graph and writing it: what the file cost.
            seconds=round(time.perf_counter() - t0, 4),
            write_seconds=round(time.perf_counter() - t_write, 4),
        )
        if policy.valid_from:
            report["valid_from"] = policy.valid_from
        atomic_write(Path(out_dir) / f"{stem}{REPORT_SUFFIX}", json.dumps(report, indent=1, sort_keys=True))
        return FileResult(label, "converted", policy.site, out.name, report=report)
    except SystemExit as e:
        if _IN_POOL:  # the temp file is already removed; the pool would catch SystemExit and wait on, orphaned
            os._exit(e.code if isinstance(e.code, int) else 1)
        raise
    except PPGraphError as e:
        if getattr(e, "fatal", False):
            # e.g. a refused API key or an unwritable folder: every further policy would fail the same
            # way; stop the batch, naming the file it happened in.
            if isinstance(e, OutputError):
                raise  # names the output file already
            raise type(e)(f"{label}: {e}") from e
        msg = str(e)
        return FileResult(label, "failed", error=msg if msg.startswith(f"{label}: ") else f"{label}: {msg}")
    except Exception as e:  # one bad policy must not sink the batch; the message names it
        return FileResult(label, "failed", error=f"{label}: internal error: {type(e).__name__}: {e}")
