"""Batch conversion of the 40-policy corpus: the process pool (--jobs 2) against a local Dask cluster of 2 workers.

Prints both wall times and whether the graphs are byte-identical. Target (issue 17): Dask within 15% of --jobs 2.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _shared import corpus_files, target

from pp_graph.batch import convert_batch

BIN = Path(sys.executable).parent


def start_cluster(port: int) -> list[subprocess.Popen[bytes]]:
    addr = f"tcp://127.0.0.1:{port}"
    procs = [
        subprocess.Popen(
            [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    procs += [
        subprocess.Popen(
            [str(BIN / "dask"), "worker", addr, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(2)
    ]
    from distributed import Client

    for _ in range(60):
        try:
            with Client(addr, timeout=5) as c:
                c.wait_for_workers(2, timeout=60)
            return procs
        except (OSError, TimeoutError):
            time.sleep(1)
    raise SystemExit("the local Dask cluster did not start")


def main() -> int:
    files = corpus_files()
    if not files:
        print("../shared/corpus/policies is not available")
        return 1
    port = 8786 + os.getpid() % 1000
    procs = start_cluster(port)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            convert_batch(files, Path(tmp) / "pool", jobs=2)
            pool = time.perf_counter() - t0
            t0 = time.perf_counter()
            convert_batch(files, Path(tmp) / "dask", executor="dask", scheduler=f"tcp://127.0.0.1:{port}")
            dask = time.perf_counter() - t0
            same = all(
                (Path(tmp) / "pool" / f.name).read_bytes() == f.read_bytes()
                for f in (Path(tmp) / "dask").glob("*.trig")
            )
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
    print(
        f"{len(files)} policies: --jobs 2 {pool:.1f} s, Dask (2 workers) {dask:.1f} s "
        f"({100 * (dask / pool - 1):+.0f}%); graphs byte-identical: {same}"
    )
    return target("Dask within 15% of --jobs 2, same bytes", dask <= 1.15 * pool and same)


if __name__ == "__main__":
    sys.exit(main())
