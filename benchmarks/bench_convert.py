"""Conversion throughput of the offline extractor on the real 40-policy corpus.

Prints characters/second and policies/minute for --jobs 1 and --jobs 2 (the CI machine has 2 cores), and the
time for one pathological run-on line (a 30,000-word "sentence" without full stops, dense with trigger words, as a
mangled table or an export without sentence punctuation can give), which must stay far from quadratic, and the
same for a second such line without third parties, commas or brackets (so that the rules looking for a recipient,
a subject or a clause break after or before each trigger find none and read on to the line's ends) and with runs
of spaces. The 10 s limit is for a machine like the CI one.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from _shared import CORPUS, target

from pp_graph.batch import convert_batch
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.model import Policy

RUN_ON_WORDS = 30_000
# Policy words dense with triggers, parties and data; whitespace-separated.
_VOCAB = re.findall(
    r"\S+",
    "we you our third parties share collect use store retain delete cookies information data email address with to "
    "for by and or the a of as long as necessary secure protect access others public may will not never providers "
    "advertisers which who that , ( ) ' - 100% days years until",
)
# Phrases with keeping and handing verbs, data, pronouns, "the app", "and we" and runs of spaces; no third party,
# no recipient noun, no comma, bracket or full stop.
_PHRASES_NO_PARTY = [
    "we keep it and",
    "the app keeps",
    "we store it with a",
    "information we store",
    "we transfer it",
    "and we share your email address with",
    "we rent your name to",
    "it is stored and kept",
    "they",
    "you",
    "our",
    " " * 40,
]


def run_on_seconds(words: int = RUN_ON_WORDS, vocab: list[str] = _VOCAB) -> float:
    """Offline extraction time of one line of ``words`` policy words without full stops: words or phrases of
    ``vocab`` in a fixed pseudo-random order (a run of spaces counts as a word)."""
    import random

    rng = random.Random(1)
    parts: list[str] = []
    n = 0
    while n < words:
        parts.append(rng.choice(vocab))
        n += len(parts[-1].split()) or 1
    line = " ".join(parts)
    policy = Policy(
        "example.com",
        "A first paragraph long enough not to read as a title line.\n\n" + line + "\n",
        "run-on.txt",
        "text/plain",
    )
    backend = get_backend("offline")
    t0 = time.perf_counter()
    extract(policy, backend)
    return time.perf_counter() - t0


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
    run_on = run_on_seconds()
    print(f"run-on line of {RUN_ON_WORDS:,} words: {run_on:.1f} s")
    run_on_np = run_on_seconds(vocab=_PHRASES_NO_PARTY)
    print(f"run-on line of {RUN_ON_WORDS:,} words without parties: {run_on_np:.1f} s")
    missed = target(">= 60 policies/min on 2 cores, --jobs 2", rate >= 60)
    missed = target(f"run-on line of {RUN_ON_WORDS:,} words <= 10 s", run_on <= 10) or missed
    return target(f"run-on line of {RUN_ON_WORDS:,} words without parties <= 10 s", run_on_np <= 10) or missed


if __name__ == "__main__":
    sys.exit(main())
