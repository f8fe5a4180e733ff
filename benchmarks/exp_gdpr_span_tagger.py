"""Experiment (issue 25 §4): detect data / purpose / recipient mentions as word spans, rules vs a learned tagger.

Gold: the GDPR transparency dataset's Data Categories, Processing Purpose and Data Recipients values (word spans
inside passages). The rules' spans: the offline extractor's data mentions, purpose mentions and party mentions.
The tagger: per kind, a linear classifier per word (the word, its neighbours, suffixes, and whether the rules put
the word inside a mention of each kind), a run of tagged words being a span. Its regularisation and threshold are
chosen on 5-fold CV grouped by document over the dataset's train split; the test split (data/splits/) is scored
once per final configuration. Span scores: a predicted span is right when it overlaps a gold span of its kind
(precision over predicted spans, recall over gold spans); word scores: per word inside / outside.

    python benchmarks/exp_gdpr_span_tagger.py GDPR_DIR
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pp_graph.evaluate.gdpr import read_doc, test_ids
from pp_graph.model import Policy

KINDS = {"data": "Data Categories", "purpose": "Processing Purpose", "recipient": "Data Recipients"}
WORD = re.compile(r"\w+|[^\w\s]")
CS = (0.1, 1.0)
THRESHOLDS = tuple(round(0.1 + 0.05 * i, 2) for i in range(17))
FOLDS = 5


@dataclass
class Doc:
    id: str
    words: list[tuple[str, int, int]]
    feats: list[dict[str, float]]
    gold: dict[str, list[tuple[int, int]]]  # kind → char spans
    rules: dict[str, list[tuple[int, int]]]
    inside: dict[str, np.ndarray]  # kind → per word gold 0/1


def _in(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a < e and s < b for a, b in spans)


def load(path: Path, backend) -> Doc:
    from pp_graph.extract.pipeline import extract

    doc = read_doc(path)
    raw = [p for p in json.loads(path.read_text(encoding="utf-8")) if " ".join(str(p.get("passage", "")).split())]
    gold: dict[str, list[tuple[int, int]]] = {k: [] for k in KINDS}
    for p, (ps, pe) in zip(raw, doc.passages, strict=True):
        line = doc.text[ps:pe]
        for a in p.get("annotations", []):
            kind = next((k for k, r in KINDS.items() if r == a["requirement"]), None)
            v = " ".join(str(a.get("value", "")).split())
            k = line.find(v) if v and kind else -1
            if k >= 0:
                gold[kind].append((ps + k, ps + k + len(v)))
    ex = extract(Policy(f"{doc.id}.example", doc.text, f"{doc.id}.md", "text/markdown"), backend)
    rules: dict[str, list[tuple[int, int]]] = {k: [] for k in KINDS}
    for res in ex.results:
        rules["data"] += [(d.span.start, d.span.end) for d in res.data]
        rules["purpose"] += [(d.span.start, d.span.end) for d in res.purposes]
        rules["recipient"] += [(d.span.start, d.span.end) for d in res.parties if d.kind.value != "first-party"]
    words = [(m.group(0), m.start(), m.end()) for m in WORD.finditer(doc.text)]
    feats = features(words, rules)
    inside = {k: np.array([int(_in(gold[k], s, e)) for _, s, e in words]) for k in KINDS}
    return Doc(doc.id, words, feats, gold, rules, inside)


def features(words: list[tuple[str, int, int]], rules: dict[str, list[tuple[int, int]]]) -> list[dict[str, float]]:
    low = [w.lower() for w, _, _ in words]
    tags = [[k for k in KINDS if _in(rules[k], s, e)] for _, s, e in words]
    out = []
    for i, (w, _, _) in enumerate(words):
        f = {"w=" + low[i]: 1.0, "suf=" + low[i][-3:]: 1.0, "title": float(w[:1].isupper())}
        for d in (-2, -1, 1, 2):
            j = i + d
            f[f"w{d}=" + (low[j] if 0 <= j < len(words) else "<s>")] = 1.0
        for d in (-1, 0, 1):
            j = i + d
            for k in tags[j] if 0 <= j < len(words) else ():
                f[f"r{d}={k}"] = 1.0
        out.append(f)
    return out


def spans_of(doc: Doc, on: np.ndarray) -> list[tuple[int, int]]:
    """Runs of tagged words (punctuation between two tagged words does not break a run)."""
    out: list[tuple[int, int]] = []
    for (_, s, e), flag in zip(doc.words, on, strict=True):
        if flag:
            if out and s - out[-1][1] <= 1:
                out[-1] = (out[-1][0], e)
            else:
                out.append((s, e))
    return out


def span_counts(pred: list[tuple[int, int]], gold: list[tuple[int, int]]) -> np.ndarray:
    """(predicted spans overlapping gold, predicted, gold spans overlapped, gold)."""
    return np.array([sum(_in(gold, *p) for p in pred), len(pred), sum(_in(pred, *g) for g in gold), len(gold)])


def f1s(c: np.ndarray) -> tuple[float, float, float]:
    p = c[0] / c[1] if c[1] else 0.0
    r = c[2] / c[3] if c[3] else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def prf(c: np.ndarray) -> str:
    return " / ".join(f"{v:.3f}" for v in f1s(c))


def fit(docs: list[Doc], kind: str, c: float):
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = DictVectorizer()
    x = vec.fit_transform([f for d in docs for f in d.feats])
    y = np.concatenate([d.inside[kind] for d in docs])
    clf = LogisticRegression(C=c, class_weight="balanced", max_iter=2000).fit(x, y)
    return lambda d: clf.predict_proba(vec.transform(d.feats))[:, 1]


def word_counts(doc: Doc, kind: str, on: np.ndarray) -> np.ndarray:
    g = doc.inside[kind].astype(bool)
    return np.array([(g & on).sum(), on.sum(), (g & on).sum(), g.sum()])


def evaluate(docs: list[Doc], kind: str, scores: dict[str, np.ndarray], t: float) -> tuple[np.ndarray, np.ndarray]:
    sc, wc = np.zeros(4), np.zeros(4)
    for d in docs:
        on = scores[d.id] >= t
        sc += span_counts(spans_of(d, on), d.gold[kind])
        wc += word_counts(d, kind, on)
    return sc, wc


def rules_counts(docs: list[Doc], kind: str) -> tuple[np.ndarray, np.ndarray]:
    sc, wc = np.zeros(4), np.zeros(4)
    for d in docs:
        on = np.array([_in(d.rules[kind], s, e) for _, s, e in d.words], dtype=bool)
        sc += span_counts(d.rules[kind], d.gold[kind])
        wc += word_counts(d, kind, on)
    return sc, wc


def choose(train: list[Doc], kind: str) -> tuple[float, float, float]:
    """(C, threshold, CV span F1): the best on out-of-fold scores over train."""
    fold = {d.id: int(hashlib.sha256(f"span-fold:{d.id}".encode()).hexdigest(), 16) % FOLDS for d in train}
    best = (CS[0], 0.5, -1.0)
    for c in CS:
        oof: dict[str, np.ndarray] = {}
        for k in range(FOLDS):
            model = fit([d for d in train if fold[d.id] != k], kind, c)
            oof.update({d.id: model(d) for d in train if fold[d.id] == k})
        for t in THRESHOLDS:
            f = f1s(evaluate(train, kind, oof, t)[0])[2]
            if f > best[2]:
                best = (c, t, f)
    return best


def main(argv: list[str]) -> int:
    from pp_graph.extract.registry import get_backend

    if not argv:
        print(__doc__)
        return 2
    root = Path(argv[0])
    backend = get_backend("offline")
    held = test_ids()
    files = sorted((root / "policies").glob("*.json"))
    train = [load(f, backend) for f in files if f.stem not in held]
    test = [load(f, backend) for f in files if f.stem in held]
    print(f"train {len(train)} documents, test {len(test)}")
    print("kind       source          CV span F1 | test span P / R / F1 | test word P / R / F1")
    for kind in KINDS:
        rs, _ = rules_counts(train, kind)
        ts, tw = rules_counts(test, kind)
        print(f"{kind:10s} rules           {f1s(rs)[2]:.3f}      | {prf(ts)} | {prf(tw)}  (gold spans: {int(ts[3])})")
        c, t, cvf = choose(train, kind)
        model = fit(train, kind, c)
        sc, wc = evaluate(test, kind, {d.id: model(d) for d in test}, t)
        print(f"{kind:10s} tagger C={c} t={t:.2f} {cvf:.3f}  | {prf(sc)} | {prf(wc)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
