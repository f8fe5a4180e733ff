"""Regenerate the OPP-115 test-split table (make eval). Skips cleanly when the dataset is absent.

OPP-115 is licensed for research only and is never copied into this repository; point OPP115_DIR at it.
"""

from __future__ import annotations

import sys

from _shared import OPP115

from pp_graph.evaluate.opp115 import evaluate_opp115
from pp_graph.evaluate.report import interval_line, label_table

ROOT = OPP115


def main() -> int:
    if not (ROOT / "sanitized_policies").is_dir():
        print(f"skip: OPP-115 not found at {ROOT} (set OPP115_DIR)")
        return 0
    split = sys.argv[1] if len(sys.argv) > 1 else "test"
    if split not in ("train", "test", "all"):
        print(f"usage: {sys.argv[0]} [train|test|all]  (default: test)", file=sys.stderr)
        return 2
    res = evaluate_opp115(ROOT, "offline", split)
    print(f"OPP-115 {split} split, offline backend: {res.policies} policies in {res.seconds:.1f} s")
    print(label_table(res.tasks(), per_label="practice categories"))
    print(interval_line("practice categories macro-F1", res.category_interval()))
    print("anchors (segment-level macro-F1 over the categories): Polisis ≈ 0.75, PrivBERT ≈ 0.83")
    return 0


if __name__ == "__main__":
    sys.exit(main())
