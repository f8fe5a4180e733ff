"""OPP-115 (make eval): train the learned layer on the train split, then score both configurations on a split.

Configurations: the rules alone, and the rules + the learned layer (per-label mode and threshold chosen where
learn_opp115.CHOOSE_ON says: practice categories on the fixed dev subset of train, data and purposes on grouped
cross-validation over train). The split is required (``--split test`` in make eval): the test split is read on
purpose only. Skips cleanly when the dataset is absent. OPP-115 is licensed for research only and is never copied
into this repository; the trained model goes to benchmarks/.work/ (git-ignored) and must not be shared. Also prints
the training time and the cost of --model on converting the corpus. Exit 1 when a target for the learned
configuration is missed (figures are printed first).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from statistics import mean

from _shared import CORPUS, OPP115, ROOT, target

from pp_graph.batch import convert_batch
from pp_graph.evaluate.learn_opp115 import train_opp115
from pp_graph.evaluate.opp115 import SPLITS, Opp115Result, evaluate_opp115
from pp_graph.evaluate.report import interval_line, label_table
from pp_graph.extract.learned.model import load_model

MODEL = ROOT / "benchmarks" / ".work" / "opp115-model"
# Targets of the learned configuration on the fixed test split (issue 12).
TARGETS = {"practice categories": 0.77, "data classes (exact)": 0.60, "purpose classes (exact)": 0.72}


def show(name: str, res: Opp115Result) -> None:
    print(f"\n== {name}: {res.policies} policies in {res.seconds:.1f} s")
    print(label_table(res.tasks(), per_label="practice categories"))
    print(interval_line("practice categories macro-F1", res.category_interval()))


def _macro(rows: list[dict], key: str) -> str:
    return f"{mean(r[key] for r in rows):.3f}" if rows else "  -  "


def print_choices(man: dict) -> None:
    """Macro-F1 per kind on the dev subset (scored by a model fitted without it, but in sample for the kinds
    chosen there) and, when any kind was chosen on CV, on train out of fold (in sample for those kinds); where
    each kind was chosen. Labels without gold segments on a subset are left out of its mean."""
    kinds = {lab["name"]: lab["kind"] for lab in man["labels"]}
    cv = man.get("cv_report") or {}
    print("\nlabels (chosen on)             dev: rules  chosen | CV over train: rules  chosen")
    for kind in ("practice", "data", "purpose"):
        names = [n for n in man["choices"] if kinds[n] == kind]
        dev = [man["dev_report"][n] for n in names if man["dev_report"][n]["support"]]
        line = f"{kind + ' (' + man['split']['choose_on'][kind] + ')':30s}      {_macro(dev, 'rules_f1')}"
        line += f"   {_macro(dev, 'f1')} |"
        if cv:
            c = [cv[n] for n in names if cv[n]["support"]]
            line += f"                {_macro(c, 'rules_f1')}   {_macro(c, 'f1')}"
        if not dev:
            line += "  (no dev support)"
        print(line)
    modes = Counter(c["mode"] for c in man["choices"].values())
    print("modes:", ", ".join(f"{m} {n}" for m, n in sorted(modes.items())))
    print("in sample: each kind's figures on the subset it was chosen on")


def conversion_cost(model: Path) -> None:
    """Policies/min converting the corpus (--jobs 2) without and with the learned layer: the cost of --model."""
    if not CORPUS.is_dir():
        print(f"skip conversion cost: corpus not found at {CORPUS}")
        return
    print(f"\nconverting {CORPUS.name}/ (--jobs 2)   policies  seconds  policies/min")
    for name, options in (("rules", {}), ("rules + --model", {"learned": str(model)})):
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            rep = convert_batch([CORPUS], Path(out), options=options, jobs=2, force=True)
            dt = time.perf_counter() - t0
        n = rep.totals()["policies"]
        print(f"{name:32s} {n:>8}  {dt:>7.1f}  {n / dt * 60:>12.1f}  ({rep.count('failed')} failed)")


def main() -> int:
    ap = argparse.ArgumentParser(description="Train the learned layer on train, score both configurations.")
    ap.add_argument("--split", required=True, choices=SPLITS, help="the split scored (targets apply to test)")
    split = ap.parse_args().split  # a usage error (exit 2) before anything is read
    if not (OPP115 / "sanitized_policies").is_dir():
        print(f"skip: OPP-115 not found at {OPP115} (set OPP115_DIR)")
        return 0
    t0 = time.perf_counter()
    man = train_opp115(OPP115, MODEL)
    print(
        f"trained {man['model_digest']} on {man['dataset']['policies']} train policies in "
        f"{time.perf_counter() - t0:.1f} s → {MODEL.relative_to(ROOT)} (research use only; do not share)"
    )
    print_choices(man)
    rules = evaluate_opp115(OPP115, "offline", split=split)
    show(f"OPP-115 {split}, rules (offline backend)", rules)
    learned = evaluate_opp115(OPP115, "offline", split=split, learned=load_model(MODEL))
    show(f"OPP-115 {split}, rules + learned layer {man['model_digest']}", learned)
    print("\nmacro-F1           rules  rules+learned")
    for task in TARGETS:
        print(f"{task:28s} {rules.tasks()[task].macro_f1:.3f}  {learned.tasks()[task].macro_f1:.3f}")
    print("anchors (segment-level macro-F1 over the categories): Polisis ≈ 0.75, PrivBERT ≈ 0.83")
    conversion_cost(MODEL)
    if split != "test":
        return 0
    failed = 0
    for task, want in TARGETS.items():
        failed |= target(f"{task} macro-F1 ≥ {want} with the learned layer", learned.tasks()[task].macro_f1 >= want)
    return failed


if __name__ == "__main__":
    sys.exit(main())
