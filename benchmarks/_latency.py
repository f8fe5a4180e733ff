"""Detection latency on one core: CPU time per sentence (``time.process_time``, so other jobs on a shared machine
count less than in wall time), over repeated runs, and the stages it goes to (``bench_anonymize.py --latency-only``).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pp_graph.anonymize import crf
from pp_graph.anonymize.recognizers import ner_entities, recognize, rule_entities

TARGET_P99_MS = 20.0
T = TypeVar("T")


def pct(xs: list[float], q: float) -> float:
    """The bench's percentile: the value at rank ⌊q·(n-1)⌋ of the sorted values."""
    s = sorted(xs)
    return s[int(q * (len(s) - 1))]


def timed(fn: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``fn(*args)`` and the CPU ms it took."""
    c = time.process_time()
    value = fn(*args)
    return value, (time.process_time() - c) * 1000


def run(texts: list[str], mode: str) -> list[float]:
    """CPU ms of ``recognize`` per text, in order."""
    return [timed(lambda t: recognize(t, mode=mode), t)[1] for t in texts]


def stages(texts: list[str]) -> dict[str, list[float]]:
    """CPU ms per text of the default mode's stages, each timed on its own (so they do not sum exactly to
    ``recognize``: it resolves overlaps and propagates names too)."""
    out: dict[str, list[float]] = {"patterns": [], "spacy": [], "crf": []}
    for t in texts:
        taken, ms_rules = timed(rule_entities, t)
        ents, ms_spacy = timed(ner_entities, t)
        rule = [(x.type, x.start, x.end) for x in taken]
        ner = [(x.type, x.start, x.end) for x in ents]
        ms_crf = timed(crf.predict, t, rule, ner)[1]
        for name, ms in (("patterns", ms_rules), ("spacy", ms_spacy), ("crf", ms_crf)):
            out[name].append(ms)
    return out


def _line(name: str, xs: list[float]) -> str:
    return f"| {name} | {statistics.median(xs):.2f} | {pct(xs, 0.9):.2f} | {pct(xs, 0.99):.2f} | {max(xs):.2f} |"


def report(texts: list[str], mode: str, runs: int) -> bool:
    """Prints per-run p50/p99, their medians, the first sentences' cost (warm-up), the stage breakdown and time by
    sentence length; True when the median p99 meets the target."""
    load = os.getloadavg()[0]
    first = run(texts[:20], mode)  # the first calls after loading, before any other run
    per_run = [run(texts, mode) for _ in range(runs)]
    print(f"Detection CPU ms per sentence ({len(texts)} sentences, mode {mode!r}, load average {load:.2f} at start):")
    print("\n| run | p50 | p90 | p99 | max |\n|---|---|---|---|---|")
    for i, xs in enumerate(per_run, 1):
        print(_line(str(i), xs))
    p50 = statistics.median(statistics.median(xs) for xs in per_run)
    p99 = statistics.median(pct(xs, 0.99) for xs in per_run)
    print(f"\nmedian of {runs} runs: p50 {p50:.2f} ms, p99 {p99:.2f} ms (target p99 ≤ {TARGET_P99_MS:.0f} ms)")
    later = [statistics.median(xs[i] for xs in per_run) for i in range(len(first))]
    print(f"warm-up: first 20 calls {sum(first):.1f} ms in all, the same 20 sentences later {sum(later):.1f} ms")
    print("\n| stage | p50 | p90 | p99 | max |\n|---|---|---|---|---|")
    for name, xs in stages(texts).items():
        print(_line(name, xs))
    _by_length(texts, per_run)
    print(f"load average at end {os.getloadavg()[0]:.2f}")
    return p99 <= TARGET_P99_MS


def _by_length(texts: list[str], per_run: list[list[float]]) -> None:
    med = [statistics.median(xs[i] for xs in per_run) for i in range(len(texts))]
    print("\n| characters | sentences | p50 ms | p99 ms |\n|---|---|---|---|")
    for lo, hi in ((0, 100), (100, 200), (200, 300), (300, 10**9)):
        xs = [m for t, m in zip(texts, med, strict=True) if lo <= len(t) < hi]
        if xs:
            label = f"{lo}–{hi - 1}" if hi < 10**9 else f"≥ {lo}"
            print(f"| {label} | {len(xs)} | {statistics.median(xs):.2f} | {pct(xs, 0.99):.2f} |")
