"""For tests that press Ctrl-C on a child process.

A shell starts background jobs with SIGINT ignored, and a child inherits that: run that way (a CI step, `make test
&`), a Ctrl-C test would see its SIGINT ignored and fail for a reason that is not the program's. The child restores
the default disposition first, as a program started at a terminal has it.
"""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


def as_at_a_terminal() -> None:
    """preexec_fn for subprocess.Popen: SIGINT back to its default, so Python turns it into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def serving(cmd: list[str]) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Run a `serve` command as at a terminal; yield it and the base URL its first line prints. Killed at the end
    if the test has not stopped it."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_at_a_terminal)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        yield proc, url.group(0)
    finally:
        if proc.poll() is None:
            proc.kill()
