"""GDPR transparency (make eval): the transparency rules, rules + a learned layer, and a TF-IDF baseline.

The dataset's 115 training/development policies are split by a hash of each document id, fixed before any
document was read (pp_graph/resources/data/splits/gdpr-transparency.toml holds the test ids); the rules were
written looking at the train part only and the learned layer is fitted on it. ``--split test`` (make eval) reads
the test documents once, at the end; ``--split train`` scores the rules in sample and the learned layer out of
fold, its per-requirement modes and thresholds chosen without the scored fold (nested).

The learned layer is the one `pp-graph train gdpr` writes (pp_graph.extract.learned.transparency), on the pipeline's
lines (one per passage). Its document answer is the graph's: a policy addresses R when any line holds a statement
of R (rules' or learned), so no separate document threshold that the graph could not express.

Per requirement, two levels: document ("does the policy address R anywhere?", F1 per requirement, macro over the
21) and passage ("which passages address R?", a passage counts when its line is predicted; micro over all
passage × requirement pairs; a gold passage no line overlaps counts as missed). Targets (test): rules ≥ 0.80
document macro-F1; with the learned layer ≥ 0.90 and passage micro-F1 ≥ 0.80. Skips cleanly when the dataset
is absent. Exit 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
from _shared import SHARED, target

from pp_graph.comply.rules import rules
from pp_graph.evaluate.gdpr import doc_paths, read_doc
from pp_graph.evaluate.learn_gdpr import (
    Passages,
    choose,
    fit_and_score,
    nested_predict,
    out_of_fold,
    passages,
    per_doc,
    predict,
    score,
)

DATASET = Path(os.environ.get("GDPR_TRANSPARENCY_DIR", SHARED / "datasets" / "gdpr-transparency" / "policies"))


def load(split: str) -> Passages:
    t0 = time.perf_counter()
    docs = [read_doc(p) for p in doc_paths(DATASET, split)]
    p = passages(docs)
    print(f"{split}: {len(docs)} policies, {len(p.lines)} lines, rules applied in {time.perf_counter() - t0:.1f} s")
    return p


def report(name: str, p: Passages, pass_pred: np.ndarray) -> tuple[list[float], float]:
    per, (prec, rec, f1) = score(p, pass_pred)
    macro = sum(per) / len(per)
    print(f"{name:34s} document macro-F1 {macro:.3f}   passage micro P {prec:.3f} R {rec:.3f} F1 {f1:.3f}")
    return per, f1


def main() -> int:
    ap = argparse.ArgumentParser(description="Score the transparency rules, rules + learned layer and a baseline.")
    ap.add_argument("--split", default="test", choices=("train", "test"), help="the split scored (default test)")
    split = ap.parse_args().split
    if not DATASET.is_dir():
        print(f"skip: GDPR transparency dataset not found at {DATASET} (set GDPR_TRANSPARENCY_DIR)")
        return 0
    reqs = [r.id for r in rules().requirements]
    train = load("train")
    t0 = time.perf_counter()
    oof = out_of_fold(train)
    choices = choose(train, oof, reqs)
    print(f"modes and thresholds chosen on 5-fold out-of-fold scores over train in {time.perf_counter() - t0:.1f} s")
    print("  " + ", ".join(f"{c.requirement} {c.mode}@{c.threshold}" for c in choices if c.mode != "rules"))
    if split == "train":  # rules in sample; learners out of fold, and their choices made without the fold
        test, base = train, out_of_fold(train, with_rules=False)
        combined = nested_predict(train, oof, reqs)
    else:
        test = load("test")  # the only read of the test split
        combined = predict(test, fit_and_score(train, test), choices)
        base = fit_and_score(train, test, with_rules=False)
    print(f"\n== GDPR transparency, {split} split")
    r_per, _ = report("rules only", test, test.rules)
    l_per, l_pass = report("rules + learned layer", test, combined)
    b_per, _ = report("baseline TF-IDF + LR (words, 0.5)", test, base >= 0.5)
    docs_with = per_doc(test, test.gold).sum(axis=0)
    print(f"\n{'requirement':38s} docs  rules  learned  baseline   (document F1)")
    for k, r in enumerate(rules().requirements):
        print(f"{r.label:38s} {int(docs_with[k]):>4}  {r_per[k]:.2f}   {l_per[k]:.2f}     {b_per[k]:.2f}")
    if split != "test":
        return 0
    failed = target("rules-only document macro-F1 ≥ 0.80", sum(r_per) / len(r_per) >= 0.80)
    failed |= target("rules + learned document macro-F1 ≥ 0.90", sum(l_per) / len(l_per) >= 0.90)
    failed |= target("rules + learned passage micro-F1 ≥ 0.80", l_pass >= 0.80)
    return failed


if __name__ == "__main__":
    sys.exit(main())
