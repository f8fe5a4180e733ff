"""Self-contradictions (make eval): precision and recall of `pp-graph contradictions` on labelled cases.

tests/fixtures/contradictions/cases.jsonl holds short policy texts written for the project, each with the pairs of
lines a reader finds contradicting (half of the cases have one; the others cover each kind that must not be
reported: exceptions, unrelated data, other actors, other practices, conditions, de-identified data). The cues were
written against the dev cases (c01–c48); the test cases (c49–c92) were written afterwards. A pair counts when both
its lines match (denial line, affirmation line). Targets: precision ≥ 0.85 and recall ≥ 0.75 on each split.
Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from _shared import target

from pp_graph.contradict import find_in_text

CASES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "contradictions" / "cases.jsonl"


def found_pairs(text: str) -> set[tuple[int, int]]:
    """(denial line, affirmation line) of each contradiction found."""
    res = find_in_text(text)
    return {(res.line(c.denial.start) or 0, res.line(c.affirmation.start) or 0) for c in res.contradictions}


def score(cases: list[dict]) -> tuple[float, float, int, int, int, list[str]]:
    """Precision, recall, true positives, found, expected and the ids of the cases got wrong."""
    tp = found = expected = 0
    wrong = []
    for c in cases:
        gold = {tuple(p) for p in c["pairs"]}
        got = found_pairs(c["text"])
        tp, found, expected = tp + len(gold & got), found + len(got), expected + len(gold)
        if got != gold:
            wrong.append(f"{c['id']} ({c['kind']})")
    return (tp / found if found else 1.0), (tp / expected if expected else 1.0), tp, found, expected, wrong


def main() -> int:
    ap = argparse.ArgumentParser(description="Score self-contradiction detection on the labelled cases.")
    ap.add_argument("--split", default="all", choices=("dev", "test", "all"), help="cases scored (default all)")
    split = ap.parse_args().split
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    t0 = time.perf_counter()
    failed = 0
    for name in ("dev", "test", "all") if split == "all" else (split,):
        part = [c for c in cases if name == "all" or c["split"] == name]
        p, r, tp, found, expected, wrong = score(part)
        print(f"{name:4s} {len(part):3d} cases: precision {p:.3f} ({tp}/{found})  recall {r:.3f} ({tp}/{expected})")
        if wrong:
            print(f"     wrong: {', '.join(wrong)}")
        failed |= target(f"{name}: precision ≥ 0.85", p >= 0.85)
        failed |= target(f"{name}: recall ≥ 0.75", r >= 0.75)
    print(f"({time.perf_counter() - t0:.1f} s)")
    return failed


if __name__ == "__main__":
    sys.exit(main())
