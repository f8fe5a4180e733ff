"""Conversion throughput of the offline extractor on the real 40-policy corpus.

Prints characters/second and policies/minute for --jobs 1 and --jobs 2 (the CI machine has 2 cores).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _shared import CORPUS, target

from pp_graph.batch import convert_batch


def main() -> int:
    if not CORPUS.is_dir():
        print(f"skip: corpus not found at {CORPUS}")
        return 0
    rate = 0.0
    print(f"{'jobs':>4}  {'policies':>8}  {'chars':>9}  {'seconds':>7}  {'policies/min':>12}  {'chars/s':>9}  triples")
    for jobs in (1, 2):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            rep = convert_batch([CORPUS], Path(out), jobs=jobs, force=True)
            dt = time.perf_counter() - t0
        tot = rep.totals()
        if rep.count("failed"):
            print(f"error: {rep.count('failed')} policies failed", file=sys.stderr)
            return 1
        print(
            f"{jobs:>4}  {tot['policies']:>8}  {tot['characters']:>9}  {dt:>7.1f}  "
            f"{tot['policies'] / dt * 60:>12.1f}  {tot['characters'] / dt:>9.0f}  {tot['triples']}"
        )
        rate = tot["policies"] / dt * 60
    return target(">= 60 policies/min on 2 cores, --jobs 2", rate >= 60)


if __name__ == "__main__":
    sys.exit(main())
