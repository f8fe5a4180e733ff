"""Killing a `--jobs N` batch: the workers stop with it, finished files are kept whole, a rerun resumes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interactive import as_at_a_terminal

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "policies"
EXE = Path(sys.executable).parent / "pp-graph"


def _inputs(folder: Path, n: int = 6, copies: int = 20) -> Path:
    folder.mkdir()
    text = (FIXTURES / "tinyshop.example.md").read_text(encoding="utf-8")
    for i in range(n):
        (folder / f"site{i}.example.md").write_text((text + "\n\n") * copies, encoding="utf-8")
    return folder


def _group_gone(pgid: int, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow  # three real batches with process pools, each killed and resumed (~10 s each)
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGKILL"])
def test_killed_batch_leaves_no_workers_and_resumes(tmp_path: Path, sig: str) -> None:
    src, out = _inputs(tmp_path / "in"), tmp_path / "out"
    cmd = [str(EXE), "convert", str(src), "-o", str(out), "-j", "2", "--no-progress"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, preexec_fn=as_at_a_terminal
    )
    try:
        end = time.monotonic() + 120
        while not list(out.glob("*.report.json")) and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "the batch finished before it could be interrupted"
        if sig == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group gets it
        else:
            os.kill(proc.pid, getattr(signal, sig))  # kill PID: the parent alone
        proc.wait(timeout=30)
        # Workers included: nothing of the batch is left running, writing or hanging.
        assert _group_gone(proc.pid, 20), "workers outlived the batch"
    finally:
        if proc.poll() is None or not _group_gone(proc.pid, 0.1):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if sig != "SIGKILL":
        assert proc.returncode == 130
        assert b"run the same command again to resume" in proc.stderr.read()  # type: ignore[union-attr]
    assert not list(out.glob(".*.tmp")), "a half-written file was left behind"
    done = sorted(p.name.removesuffix(".report.json") for p in out.glob("*.report.json"))
    assert 1 <= len(done) < 6
    for site in done:  # what was finished is whole
        assert json.loads((out / f"{site}.report.json").read_text())["output"] == f"{site}.trig"
        assert (out / f"{site}.trig").read_text().rstrip().endswith("}")
    again = subprocess.run([*cmd[:-1], "--json"], capture_output=True, text=True, timeout=300)
    report = json.loads(again.stdout)
    assert again.returncode == 0, again.stderr
    assert report["unchanged"] >= len(done) and report["unchanged"] + report["converted"] == 6


def _ignore_term_and_wait(ready: Path) -> None:
    """A worker that outlives SIGTERM, as one does that is sending its result back after the first signal."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    ready.write_text(str(os.getpid()))
    time.sleep(120)


def test_stopping_the_pool_ends_a_worker_that_survives_sigterm(tmp_path: Path) -> None:
    """_stop must not leave a live worker behind: the interpreter's exit would join the pool's manager thread and
    hang on it (seen once at the end of a full test run: a worker stuck after the first signal)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from pp_graph.batch import _stop, _TrackingContext

    ready = tmp_path / "ready"
    context = _TrackingContext(multiprocessing.get_context())
    pool = ProcessPoolExecutor(max_workers=1, mp_context=context)  # type: ignore[arg-type]
    pool.submit(_ignore_term_and_wait, ready)
    end = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < end:
        time.sleep(0.05)
    pid = int(ready.read_text())
    try:
        assert len(context.processes) == 1  # the batch holds its own handle on the worker
        _stop(pool, context.processes)
        gone = False
        end = time.monotonic() + 10
        while time.monotonic() < end and not gone:
            try:
                os.kill(pid, 0)
                done, _ = os.waitpid(pid, os.WNOHANG)
                gone = done == pid
            except (ProcessLookupError, ChildProcessError):
                gone = True
            time.sleep(0.05)
        assert gone, "the worker that ignored SIGTERM is still running after _stop"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
