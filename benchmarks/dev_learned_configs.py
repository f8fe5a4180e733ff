"""OPP-115 dev subset: learned-layer configurations compared where the practice choice is made (issue 12).

Each configuration's classifiers are fitted on train without the dev subset (the 'fit' split) and score the dev
subset; per label the mode (rules / union / learned) and threshold are then chosen on dev. Printed per label kind
(macro-F1 over labels with dev gold): the rules alone, the choice scored on the dev segments it was made on
(in-sample), and a cross-fit estimate (dev policies in two fixed halves; choose on one, score the other; counts
summed). The test split is never read. Usage: ``python benchmarks/dev_learned_configs.py [CONFIG ...]``.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _shared import OPP115

from pp_graph.evaluate import learn_opp115 as lo
from pp_graph.evaluate.opp115 import load_corpus, load_dev, load_mapping, split_ids
from pp_graph.extract.learned import model as lm
from pp_graph.extract.registry import get_backend

WORDS = ["text", "para", "context"]
# name: (feature blocks, rule-block scale, classifier)
CONFIGS: dict[str, tuple[list[str], float, str]] = {
    "svm_all_rules0.3": ([*WORDS, "para_chars", "rules"], 0.3, "svm"),  # the library's model
    "svm_words_rules0.3": ([*WORDS, "rules"], 0.3, "svm"),
    "svm_words_rules1": ([*WORDS, "rules"], 1.0, "svm"),
    "lr_words_rules1": ([*WORDS, "rules"], 1.0, "lr"),
    "svm_words_norules": (WORDS, 0.0, "svm"),
    "lr_words_norules": (WORDS, 0.0, "lr"),
}
TH = np.round(np.linspace(0.02, 0.98, 97), 2)


def classifier(kind: str) -> Any:
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import LinearSVC

    if kind == "lr":
        return LogisticRegression(C=4.0, class_weight="balanced", max_iter=3000)
    return LinearSVC(C=lm.C, class_weight="balanced", random_state=0, max_iter=5000)


def dev_scores(fit: list[lo.Prepared], dev: list[lo.Prepared], labels: list[lm.Label], cfg: tuple) -> np.ndarray:
    from scipy.sparse import csr_matrix, hstack

    blocks, rule_scale, clf = cfg
    xf, yf = lo.targets(fit, labels)
    xd = [u for p in dev for u in p.units]
    a, b = [], []
    for blk in blocks:
        v = lm._vectorizer(blk)
        v.fit(lm._column(xf, blk))
        w = rule_scale if blk == "rules" else 1.0
        a.append(v.transform(lm._column(xf, blk)) * w)
        b.append(v.transform(lm._column(xd, blk)) * w)
    xa, xb = csr_matrix(hstack(a)), csr_matrix(hstack(b))
    z = np.full((xb.shape[0], len(labels)), -20.0)
    for j in range(len(labels)):
        if yf[:, j].min() != yf[:, j].max():
            z[:, j] = classifier(clf).fit(xa, yf[:, j]).decision_function(xb)
    s, out, i = 1 / (1 + np.exp(-z)), [], 0
    for p in dev:  # segment score: the highest of its lines
        o = np.zeros((len(p.gold), len(labels)))
        for k in p.unit_segment:
            if k >= 0:
                o[k] = np.maximum(o[k], s[i])
            i += 1
        out.append(o)
    return np.vstack(out)


def _counts(g: np.ndarray, p: np.ndarray) -> np.ndarray:
    return np.array([(g & p).sum(), (~g & p).sum(), (g & ~p).sum()])


def _f1(c: np.ndarray) -> float:
    return 0.0 if c[0] == 0 else 2 * c[0] / (2 * c[0] + c[1] + c[2])


def _pred(r: np.ndarray, s: np.ndarray, mode: str, t: float) -> np.ndarray:
    return r if mode == "rules" else (s >= t) | (r if mode == "union" else False)


def _choose(g: np.ndarray, r: np.ndarray, s: np.ndarray, modes: tuple, floor: float) -> tuple[str, float, float]:
    best = ("rules", 0.5, _f1(_counts(g, r)))
    for mode in modes if g.sum() >= floor else ():
        for t in TH[::-1]:
            f = _f1(_counts(g, _pred(r, s, mode, t)))
            if f > best[2] + 1e-9:
                best = (mode, float(t), f)
    return best


def summary(labels: list[lm.Label], dev: list[lo.Prepared], s: np.ndarray, modes: tuple) -> dict[str, tuple]:
    gold, rules = lo._columns(labels, dev)
    half = np.array([int(hashlib.sha256(p.policy_id.encode()).hexdigest(), 16) % 2 for p in dev for _ in p.gold])
    out = {}
    for kind in ("practice", "data", "purpose"):
        cols = [j for j, lab in enumerate(labels) if lab.kind == kind and gold[:, j].sum()]
        rl, ins, cf = [], [], []
        for j in cols:
            g, r, sc = gold[:, j], rules[:, j], s[:, j]
            rl.append(_f1(_counts(g, r)))
            ins.append(_choose(g, r, sc, modes, lo.MIN_DEV_SUPPORT)[2])
            c = np.zeros(3)
            for h in (0, 1):
                on, off = half == h, half != h
                m, t, _ = _choose(g[on], r[on], sc[on], modes, lo.MIN_DEV_SUPPORT / 2)
                c += _counts(g[off], _pred(r[off], sc[off], m, t))
            cf.append(_f1(c))
        out[kind] = (np.mean(rl), np.mean(ins), np.mean(cf))
    return out


def main(names: list[str], progress: Callable[[str], None] = print) -> int:
    if not (OPP115 / "sanitized_policies").is_dir():
        print(f"skip: OPP-115 not found at {OPP115}")
        return 0
    mapping = load_mapping()
    labels = lo.labels_of(mapping)
    dev_ids = set(load_dev())
    backend = get_backend("offline")
    preps = [lo.prepare(p, mapping, labels, backend) for p in load_corpus(OPP115, split_ids("train"))]
    fit = [p for p in preps if p.policy_id not in dev_ids]
    dev = [p for p in preps if p.policy_id in dev_ids]
    print("config                 modes           kind      rules  dev-chosen(in-sample)  cross-fit")
    for name in names or list(CONFIGS):
        t0 = time.perf_counter()
        s = dev_scores(fit, dev, labels, CONFIGS[name])
        for modes in (("union", "learned"), ("union",)):
            for kind, (r, i, c) in summary(labels, dev, s, modes).items():
                print(f"{name:22s} {'+'.join(modes):15s} {kind:9s} {r:.3f}  {i:.3f}                  {c:.3f}")
        progress(f"  ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
