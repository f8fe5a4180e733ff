"""One big policy: a 5 MB file built by concatenating the corpus policies, converted in every output format.

Each format runs `pp-graph convert` in its own process, so the figures are what a user sees: wall and CPU
seconds (reading, extraction, graph, writing) and the peak resident memory of that process. Targets: <= 60 CPU
seconds per format (wall time equals it on an idle machine like the CI one; on a shared one it also counts the
other jobs), and memory that grows linearly with the input (the 5 MB run may use at most 6x the memory of a 1 MB
run, leaving room for the fixed cost of the interpreter and the vocabularies).

    python benchmarks/bench_big.py [--mb 5] [--formats trig,nq,...] [--no-linear] [--in-process]
    python benchmarks/bench_big.py --writers [--repeat 3]

--writers times the graph writers alone, per format, on the corpus policy with the most triples and on the big
policy (each converted once; the writing repeated, min and max of the CPU seconds). Targets: the big policy written
in <= 2 CPU s per format, the corpus policy in <= 0.2 CPU s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _shared import corpus_files, corpus_texts, target

FORMATS = ("trig", "nq", "jsonld", "ttl", "nt")


def big_policy(folder: Path, size: int) -> Path:
    """``big.example.md`` of at least ``size`` bytes: the corpus policies one after another, repeated as needed."""
    parts = corpus_texts(size, measure=lambda t: len(t.encode("utf-8")))
    path = folder / "big.example.md"
    path.write_text("\n\n".join(parts), encoding="utf-8")
    return path


def run(policy: Path, out: Path, fmt: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MB) of one `pp-graph convert` process."""
    exe = shutil.which("pp-graph") or str(Path(sys.executable).parent / "pp-graph")
    cmd = [exe, "convert", str(policy), "-o", str(out), "--format", fmt, "--force", "--no-progress"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    dt = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        assert proc.stderr is not None
        raise SystemExit(f"convert --format {fmt} failed ({proc.returncode}): {proc.stderr.read().decode()[-2000:]}")
    return dt, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def in_process(policy: Path, formats: list[str]) -> int:
    """Extract once, then write every format: CPU seconds of each step and the process's peak memory."""
    import resource

    from pp_graph.api import convert_policy
    from pp_graph.extract.registry import get_backend
    from pp_graph.graph.serialize import serialize_quads
    from pp_graph.load.sources import load_policy

    backend = get_backend("offline")
    t0 = time.process_time()
    conv = convert_policy(load_policy(policy, max_bytes=None), backend)
    base = time.process_time() - t0
    print(f"read + extract + graph: {base:.1f} CPU s, {len(conv.quads):,} triples")
    print(f"{'format':>6}  {'write CPU s':>11}  {'total CPU s':>11}  {'output bytes':>12}")
    missed = 0
    for fmt in formats:
        t = time.process_time()
        size = len(serialize_quads(conv.quads, fmt))
        w = time.process_time() - t
        print(f"{fmt:>6}  {w:>11.1f}  {base + w:>11.1f}  {size:>12,}", flush=True)
        missed = target(f"{policy.stat().st_size / 1e6:.1f} MB policy in {fmt} <= 60 CPU s", base + w <= 60) or missed
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return missed


def write_times(conv: object, formats: list[str], repeat: int) -> dict[str, tuple[float, float, int]]:
    """Per format: (min, max) CPU seconds of writing ``conv``'s graph ``repeat`` times, and the output bytes."""
    from pp_graph.graph.serialize import serialize_quads

    out: dict[str, tuple[float, float, int]] = {}
    for fmt in formats:
        times: list[float] = []
        for _ in range(repeat):
            t = time.process_time()
            data = serialize_quads(conv.quads, fmt)  # type: ignore[attr-defined]
            times.append(time.process_time() - t)
        out[fmt] = (min(times), max(times), len(data))
    return out


def writers(big: Path, formats: list[str], repeat: int) -> int:
    """The writers alone on the largest corpus policy (by triples) and on the big policy."""
    from pp_graph.api import convert_policy
    from pp_graph.extract.registry import get_backend
    from pp_graph.load.sources import load_policy

    backend = get_backend("offline")
    largest = max((convert_policy(load_policy(f), backend) for f in corpus_files()), key=lambda c: len(c.quads))
    convs = {largest.report.source: largest, big.name: convert_policy(load_policy(big, max_bytes=None), backend)}
    limits = {largest.report.source: 0.2, big.name: 2.0}
    print(f"{'policy':>18}  {'triples':>8}  {'format':>6}  {'write CPU s (min-max)':>21}  {'output bytes':>12}")
    missed = 0
    for name, conv in convs.items():
        for fmt, (lo, hi, size) in write_times(conv, formats, repeat).items():
            print(f"{name:>18}  {len(conv.quads):>8,}  {fmt:>6}  {lo:>10.3f} - {hi:<8.3f}  {size:>12,}", flush=True)
            missed = target(f"{name} written as {fmt} <= {limits[name]:g} CPU s", lo <= limits[name]) or missed
    return missed


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=5.0)
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--no-linear", action="store_true", help="skip the 1 MB run that checks memory growth")
    ap.add_argument("--in-process", action="store_true", help="extract once and time each writer (quicker)")
    ap.add_argument("--writers", action="store_true", help="time the writers alone (largest corpus policy, big one)")
    ap.add_argument("--repeat", type=int, default=3, help="--writers: times each graph is written")
    args = ap.parse_args()
    if not corpus_files():
        print("skip: corpus not found")
        return 0
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        big = big_policy(Path(tmp), int(args.mb * 1_000_000))
        print(f"input: {big.stat().st_size:,} bytes")
        if args.writers:
            return writers(big, args.formats.split(","), args.repeat)
        if args.in_process:
            return in_process(big, args.formats.split(","))
        print(f"{'format':>6}  {'seconds':>7}  {'CPU s':>7}  {'peak MB':>7}  {'output bytes':>12}")
        peaks: dict[str, float] = {}
        for fmt in args.formats.split(","):
            out = Path(tmp) / f"out-{fmt}"
            dt, cpu, rss = run(big, out, fmt)
            size = sum(p.stat().st_size for p in out.iterdir())
            print(f"{fmt:>6}  {dt:>7.1f}  {cpu:>7.1f}  {rss:>7.0f}  {size:>12,}", flush=True)
            peaks[fmt] = rss
            # CPU seconds: on a shared machine the wall time measures the other jobs too.
            missed = target(f"{args.mb:g} MB policy in {fmt} <= 60 CPU s", cpu <= 60) or missed
        if not args.no_linear:
            small_dir = Path(tmp) / "small"
            small_dir.mkdir()
            small = big_policy(small_dir, int(args.mb * 1_000_000 / 5))
            fmt = max(peaks, key=peaks.__getitem__)
            _, _, rss_small = run(small, Path(tmp) / "out-small", fmt)
            print(f"{fmt} at {small.stat().st_size:,} bytes: peak {rss_small:.0f} MB ({peaks[fmt] / rss_small:.1f}x)")
            missed = target("memory at 5x the input <= 6x", peaks[fmt] <= 6 * rss_small) or missed
    return missed


if __name__ == "__main__":
    sys.exit(main())
