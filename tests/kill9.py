"""A writer process killed with kill -9 mid-append, for the ledger's durability tests: one helper for the plain
ledger, group commit and the acknowledged-entry checks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pp_graph.plane.db import connect
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger


def kill_9(script: str, *args: str, settle: float) -> list[int]:
    """Run ``script`` (it prints "ready" once set up), let it write for ``settle`` seconds, kill -9 it: the numbers
    it printed before dying (the entries it had acknowledged; none for a script that prints only "ready")."""
    p = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE)
    assert p.stdout is not None and p.stdout.readline().strip() == b"ready"
    time.sleep(settle)
    os.kill(p.pid, signal.SIGKILL)
    acked = [int(line) for line in p.stdout.read().split() if line.strip()]
    p.wait()
    return acked


def assert_acknowledged_kept(path: Path, keys: PlaneKeys, acked: list[int], since: int) -> None:
    """The ledger verifies and holds every acknowledged entry (``since``: the first entry to read)."""
    assert acked, "nothing was acknowledged before the kill"
    led = Ledger(connect(path), keys)
    rep = led.verify()
    assert rep.ok, rep.problem
    assert rep.size > max(acked)
    entries = dict(led.entries(since, max(acked) + 1))
    assert all(seq in entries and entries[seq]["event"] == "egress" for seq in acked)
    led.conn.close()
