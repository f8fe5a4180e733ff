"""Experiment (issue 26): how consistently the GDPR transparency dataset labels the same sentence, on train only.

Many app policies share template text. A line whose text (lower-cased, punctuation folded, over 40 characters)
recurs in two or more training documents should get the same requirements each time; where the annotators gave
a requirement to some copies and not others, no function of the line's text can be right on all of them. Printed:
how many training lines recur, the share of (text, requirement) pairs labelled inconsistently, and the passage
P/R/F1 ceiling of the best such function on those lines (the majority label per text and requirement). The test
split is never read. Skips cleanly when the dataset is absent.

Usage: ``python benchmarks/exp_gdpr_label_consistency.py``.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

from _shared import SHARED

from pp_graph.comply.rules import rules
from pp_graph.evaluate.gdpr import doc_paths, read_doc
from pp_graph.evaluate.learn_gdpr import Passages, passages

DATASET = Path(os.environ.get("GDPR_TRANSPARENCY_DIR", SHARED / "datasets" / "gdpr-transparency" / "policies"))
MIN_CHARS = 40  # shorter lines ("Contact us", "Changes") recur for reasons other than a shared template


def recurring(p: Passages) -> dict[str, list[int]]:
    """Normalised line text → the line indices holding it, for texts found in two or more documents."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, ln in enumerate(p.lines):
        t = re.sub(r"\W+", " ", ln.text.lower()).strip()
        if len(t) > MIN_CHARS:
            groups[t].append(i)
    return {t: ix for t, ix in groups.items() if len({int(p.doc[i]) for i in ix}) >= 2}


def main() -> int:
    if not DATASET.is_dir():
        print(f"skip: GDPR transparency dataset not found at {DATASET} (set GDPR_TRANSPARENCY_DIR)")
        return 0
    p = passages([read_doc(d) for d in doc_paths(DATASET, "train")])
    reqs = [r.id for r in rules().requirements]
    rep = recurring(p)
    print(f"train lines {len(p.lines)}; recurring in >= 2 documents: {sum(map(len, rep.values()))} in {len(rep)} texts")
    tp = fp = fn = 0
    pairs, mixed = Counter[str](), Counter[str]()
    for ix in rep.values():
        for k, rid in enumerate(reqs):
            pos, n = int(p.gold[ix, k].sum()), len(ix)
            if pos == 0:
                continue
            pairs[rid] += 1
            mixed[rid] += pos < n
            if 2 * pos >= n:
                tp, fp = tp + pos, fp + n - pos
            else:
                fn += pos
    total, inconsistent = sum(pairs.values()), sum(mixed.values())
    share = inconsistent / total
    print(f"(text, requirement) pairs with a positive copy: {total}; inconsistent: {inconsistent} ({share:.2f})")
    prec, rec = tp / (tp + fp), tp / (tp + fn)
    print(f"ceiling on these lines: P {prec:.3f} R {rec:.3f} F1 {2 * prec * rec / (prec + rec):.3f}")
    for rid, c in pairs.most_common():
        print(f"  {rid:32s} {mixed[rid]}/{c} inconsistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
