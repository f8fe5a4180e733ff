"""One-line policies (issue 28): the corpus policies joined into one line of 0.25, 0.5 and 1 MB, converted.

Two texts per size: with the sentence punctuation kept ("sentences") and with every punctuation mark removed
("no punctuation", a policy whose structure cannot be recovered: read in windows, with a warning naming the file).
Each conversion runs `pp-graph convert` in its own process; the figures are its CPU seconds and peak resident
memory, less those of a baseline run on a one-paragraph policy (the interpreter, the rules and vocabularies).

Targets: peak memory above the baseline <= 150 MB per input MB; time roughly linear in the size (CPU seconds per
MB at the largest size <= 1.5x those at the smallest); the no-punctuation run warns, naming the file.

    python benchmarks/bench_oneline.py [--sizes 0.25,0.5,1] [--kinds sentences,bare]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _shared import corpus_files, corpus_texts, target

MB_LIMIT = 150.0  # peak MB above the baseline, per input MB
LINEAR = 1.5  # CPU s per MB at the largest size over that at the smallest
_PUNCT = re.compile(r"[^\w\s]")


def one_line(folder: Path, size: int, bare: bool) -> Path:
    """``oneline.example.md``: the corpus policies, their whitespace runs as one space, one after another on one
    line until ``size`` characters (``bare``: every punctuation mark removed)."""
    parts = corpus_texts(
        size, measure=lambda t: len(t) + 1, transform=lambda t: " ".join((_PUNCT.sub(" ", t) if bare else t).split())
    )
    path = folder / f"oneline-{'bare' if bare else 'sentences'}-{size}.example.md"
    path.write_text(" ".join(parts)[:size] + "\n", encoding="utf-8")
    return path


def run(policy: Path, out: Path) -> tuple[float, float, str]:
    """(CPU seconds, peak RSS in MB, stderr) of one `pp-graph convert` process."""
    exe = shutil.which("pp-graph") or str(Path(sys.executable).parent / "pp-graph")
    cmd = [exe, "convert", str(policy), "-o", str(out), "--force", "--no-progress"]
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"convert {policy.name} failed: {stderr[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stderr


def measure(tmp: Path, kind: str, sizes: list[float], base: tuple[float, float]) -> int:
    """Print one row per size; the targets of this kind of text."""
    rows: list[tuple[float, float, float]] = []
    missed = 0
    for mb in sizes:
        policy = one_line(tmp, int(mb * 1_000_000), kind == "bare")
        cpu, rss, stderr = run(policy, tmp / f"out-{policy.stem}")
        per_s, per_mb = (cpu - base[0]) / mb, (rss - base[1]) / mb
        rows.append((mb, per_s, per_mb))
        print(f"{kind:>9}  {mb:>5g}  {cpu:>7.1f}  {per_s:>7.1f}  {rss:>7.0f}  {per_mb:>9.0f}", flush=True)
        if kind == "bare":
            warned = f"{policy}:" in stderr and "without paragraph or sentence breaks" in stderr
            missed = target(f"{kind} {mb:g} MB: a warning naming the file", warned) or missed
    mb, per_s, per_mb = rows[-1]
    missed = target(f"{kind} {mb:g} MB: peak <= {MB_LIMIT:g} MB per input MB", per_mb <= MB_LIMIT) or missed
    if len(rows) > 1:
        ratio = per_s / max(rows[0][1], 1e-9)
        missed = (
            target(f"{kind}: CPU s per MB at {mb:g} MB <= {LINEAR:g}x at {rows[0][0]:g} MB", ratio <= LINEAR) or missed
        )
    return missed


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="0.25,0.5,1", help="input sizes in MB, smallest first")
    ap.add_argument("--kinds", default="sentences,bare", help="sentences (punctuation kept), bare (none)")
    args = ap.parse_args()
    if not corpus_files():
        print("skip: corpus not found")
        return 0
    sizes = sorted(float(s) for s in args.sizes.split(","))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        small = one_line(tmp, 2_000, False)
        base = run(small, tmp / "out-base")[:2]
        print(f"baseline (2,000 characters): {base[0]:.1f} CPU s, peak {base[1]:.0f} MB")
        print(f"{'text':>9}  {'MB':>5}  {'CPU s':>7}  {'s/MB':>7}  {'peak MB':>7}  {'MB per MB':>9}  (above baseline)")
        missed = 0
        for kind in args.kinds.split(","):
            missed = measure(tmp, kind, sizes, base) or missed
    return missed


if __name__ == "__main__":
    sys.exit(main())
