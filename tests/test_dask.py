"""Batch conversion on a Dask cluster (scheduler + 2 workers started by the test on 127.0.0.1): same files as the
process pool, byte for byte; a bad scheduler address is a clear error."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pp_graph.batch import convert_batch
from pp_graph.cli import main
from pp_graph.errors import ConfigError

pytest.importorskip("distributed", reason="the 'distributed' package is not installed")
pytestmark = pytest.mark.slow  # local Dask clusters: `make test-slow`, to keep `make test` within its time
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = FIXTURES.parents[1]
BIN = Path(sys.executable).parent


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    addr = f"tcp://127.0.0.1:{port}"
    logs = tmp_path_factory.mktemp("dask")
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [
        subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=(logs / "scheduler.log").open("w"),
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    ]
    for i in range(2):
        procs.append(
            subprocess.Popen(
                [
                    str(BIN / "dask"),
                    "worker",
                    addr,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    "--name",
                    f"w{i}",
                ],
                stdout=(logs / f"worker{i}.log").open("w"),
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        )
    try:
        from distributed import Client

        deadline = time.monotonic() + 90
        while True:
            try:
                with Client(addr, timeout=5) as c:
                    c.wait_for_workers(2, timeout=60)
                break
            except (OSError, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)
        yield addr
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def _inputs(tmp: Path) -> Path:
    src = tmp / "in"
    shutil.copytree(FIXTURES / "policies", src)
    dated = src / "tinyshop.example"
    dated.mkdir()
    for stamp, name in (("20220101T000000Z", "base"), ("20230101T000000Z", "negation")):
        shutil.copy(FIXTURES / "versions" / f"{name}.md", dated / f"{stamp}.md")
    return src


def test_dask_gives_the_same_files_as_the_process_pool(scheduler: str, tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    local = convert_batch([src], tmp_path / "local", jobs=2)
    remote = convert_batch([src], tmp_path / "dask", executor="dask", scheduler=scheduler)
    assert [r.status for r in remote.files] == [r.status for r in local.files] == ["converted"] * 4
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "dask").iterdir())
    for n in names:
        if n.endswith(".trig"):
            assert (tmp_path / "local" / n).read_bytes() == (tmp_path / "dask" / n).read_bytes(), n
    # Resume works the same way: nothing changed, nothing sent to the cluster.
    again = convert_batch([src], tmp_path / "dask", executor="dask", scheduler=scheduler)
    assert [r.status for r in again.files] == ["unchanged"] * 4


def test_cli_executor_dask_and_bad_scheduler(scheduler: str, tmp_path: Path) -> None:
    src = _inputs(tmp_path)
    res = CliRunner().invoke(
        main, ["convert", str(src), "-o", str(tmp_path / "o"), "--executor", "dask", "--scheduler", scheduler]
    )
    assert res.exit_code == 0, res.output
    with pytest.raises(ConfigError, match="--scheduler"):
        convert_batch([src], tmp_path / "x", executor="dask")
    port = _free_port()
    bad = CliRunner().invoke(
        main,
        [
            "convert",
            str(src),
            "-o",
            str(tmp_path / "y"),
            "--force",
            "--executor",
            "dask",
            "--scheduler",
            f"tcp://127.0.0.1:{port}",
        ],
    )
    assert bad.exit_code == 2 and "cannot reach a Dask scheduler" in bad.output


def test_a_worker_killed_mid_batch_loses_nothing(scheduler: str, tmp_path: Path) -> None:
    from distributed import Client

    src = tmp_path / "in"
    src.mkdir()
    for f in (ROOT / "examples").glob("*.md"):
        if f.name != "SOURCE.md":
            shutil.copy(f, src / f.name)
    with Client(scheduler, timeout=10) as c:
        pids = sorted(c.run(os.getpid).values())
    killed: list[int] = []

    def on_done(_r: object) -> None:
        if not killed:  # the first result is in: kill a worker while the others are still converting
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    rep = convert_batch([src], tmp_path / "out", executor="dask", scheduler=scheduler, on_done=on_done)
    assert killed and [r.status for r in rep.files] == ["converted"] * 3
    local = convert_batch([src], tmp_path / "local")
    for r in local.files:
        assert (tmp_path / "out" / str(r.output)).read_bytes() == (tmp_path / "local" / str(r.output)).read_bytes()
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]  # no half-written file


def _grows_after_planning(tmp: Path) -> tuple[Path, Callable[[Any], None]]:
    """Inputs under a 600-byte limit, one over it; when the batch reports that one (after planning, before the
    run), tinyshop grows past the limit: the size the runner reads must be checked again, as in-process."""
    src = tmp / "in"
    shutil.copytree(FIXTURES / "policies", src)
    (src / "big.example.md").write_text("# Big\n\n" + "We collect your e-mail address. " * 40, encoding="utf-8")
    grown = src / "tinyshop.example.md"

    def on_done(r: Any) -> None:
        if r.source.startswith("big.example") and grown.stat().st_size <= 600:
            grown.write_text(grown.read_text(encoding="utf-8") + "\nWe keep logs. " * 40, encoding="utf-8")

    return src, on_done


def test_dask_applies_the_size_limit_as_in_process(scheduler: str, tmp_path: Path) -> None:
    statuses = {}
    for executor in ("process", "dask"):
        src, on_done = _grows_after_planning(tmp_path / executor)
        rep = convert_batch(
            [src], tmp_path / executor / "out", executor=executor, scheduler=scheduler, max_bytes=600, on_done=on_done
        )
        statuses[executor] = [(r.source, r.status, "over the size limit" in (r.error or "")) for r in rep.files]
    assert statuses["dask"] == statuses["process"]
    assert [s[1:] for s in statuses["dask"]] == [("failed", True), ("converted", False), ("failed", True)]
