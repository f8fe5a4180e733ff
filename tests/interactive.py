"""For tests that press Ctrl-C on a child process.

A shell starts background jobs with SIGINT ignored, and a child inherits that: run that way (a CI step, `make test
&`), a Ctrl-C test would see its SIGINT ignored and fail for a reason that is not the program's. The child restores
the default disposition first, as a program started at a terminal has it.
"""

from __future__ import annotations

import signal


def as_at_a_terminal() -> None:
    """preexec_fn for subprocess.Popen: SIGINT back to its default, so Python turns it into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
