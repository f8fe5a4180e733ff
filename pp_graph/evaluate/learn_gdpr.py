"""A learned layer for the transparency requirements, trained by the user on the GDPR transparency dataset.

Per requirement, a logistic regression over a passage's words (TF-IDF, 1-2 grams), the words of the heading above
it and the transparency rules' verdict on it (one bit per requirement): the rules propose, the classifier weighs.
Two thresholds per requirement, chosen on out-of-fold scores over the training documents (grouped 5-fold): one
for "does this passage address R", one (on the best passage's score) for "does the policy address R anywhere".
The baseline is the same learner on the passage's words only, at 0.5, without rules or headings.
Nothing trained here is shipped: the dataset's licence allows evaluation and models a user trains for themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from pp_graph.evaluate.gdpr import GdprDoc

FOLDS = 5
GRID = tuple(round(x, 2) for x in np.arange(0.05, 0.96, 0.05))


@dataclass
class Passages:
    text: list[str]
    heading: list[str]
    rules: np.ndarray  # (n, labels) 0/1
    gold: np.ndarray  # (n, labels) 0/1
    doc: np.ndarray  # (n,) document index


def passages(docs: Sequence[GdprDoc], rule_preds: Sequence[dict[str, set[int]]], labels: Sequence[str]) -> Passages:
    text, heading, rules, gold, doc = [], [], [], [], []
    for d, (gd, preds) in enumerate(zip(docs, rule_preds, strict=True)):
        head = ""
        for i, (s, e) in enumerate(gd.passages):
            line = gd.text[s:e]
            if line.startswith("## "):
                head = line[3:]
            text.append(line)
            heading.append(head)
            rules.append([int(i in preds.get(lb, ())) for lb in labels])
            gold.append([int(lb in gd.gold[i]) for lb in labels])
            doc.append(d)
    return Passages(text, heading, np.array(rules), np.array(gold), np.array(doc))


class Featurizer:
    def __init__(self, with_rules: bool = True) -> None:
        self.with_rules = with_rules
        self.words = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=30000)
        self.heads = TfidfVectorizer(min_df=2, sublinear_tf=True)

    def fit(self, p: Passages) -> Featurizer:
        self.words.fit(p.text)
        if self.with_rules:
            self.heads.fit(p.heading)
        return self

    def transform(self, p: Passages) -> csr_matrix:
        parts = [self.words.transform(p.text)]
        if self.with_rules:
            parts += [self.heads.transform(p.heading) * 0.5, csr_matrix(p.rules * 2.0)]
        return hstack(parts).tocsr()


def _fit_scores(train: Passages, test: Passages, with_rules: bool) -> np.ndarray:
    """(n_test, labels) probabilities from one classifier per label fitted on ``train``."""
    feat = Featurizer(with_rules).fit(train)
    xtr, xte = feat.transform(train), feat.transform(test)
    out = np.zeros(test.gold.shape)
    for k in range(train.gold.shape[1]):
        y = train.gold[:, k]
        if y.sum() == 0:
            continue
        clf = LogisticRegression(
            C=4.0, solver="liblinear", max_iter=1000, class_weight="balanced" if with_rules else None
        )
        clf.fit(xtr, y)
        out[:, k] = clf.predict_proba(xte)[:, 1]
    return out


def _subset(p: Passages, mask: np.ndarray) -> Passages:
    idx = np.flatnonzero(mask)
    return Passages([p.text[i] for i in idx], [p.heading[i] for i in idx], p.rules[idx], p.gold[idx], p.doc[idx])


def out_of_fold(p: Passages, with_rules: bool = True) -> np.ndarray:
    """Scores of every training passage from a model that did not see its document."""
    fold = p.doc % FOLDS
    scores = np.zeros(p.gold.shape)
    for f in range(FOLDS):
        scores[fold == f] = _fit_scores(_subset(p, fold != f), _subset(p, fold == f), with_rules)
    return scores


def _f1(tp: int, fp: int, fn: int) -> float:
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def doc_max(p: Passages, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per document: the best passage score and the gold (any passage) for each label."""
    docs = sorted(set(p.doc.tolist()))
    best = np.array([scores[p.doc == d].max(axis=0) for d in docs])
    gold = np.array([p.gold[p.doc == d].max(axis=0) for d in docs])
    return best, gold


def choose_thresholds(p: Passages, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(passage thresholds, document thresholds), each label's best F1 on out-of-fold scores."""
    best, dgold = doc_max(p, scores)
    pass_t, doc_t = np.full(scores.shape[1], 0.5), np.full(scores.shape[1], 0.5)
    for k in range(scores.shape[1]):
        pf = [_counts(scores[:, k] >= t, p.gold[:, k]) for t in GRID]
        df = [_counts(best[:, k] >= t, dgold[:, k]) for t in GRID]
        pass_t[k] = GRID[int(np.argmax([_f1(*c) for c in pf]))]
        doc_t[k] = GRID[int(np.argmax([_f1(*c) for c in df]))]
    return pass_t, doc_t


def _counts(pred: np.ndarray, gold: np.ndarray) -> tuple[int, int, int]:
    return int((pred & (gold == 1)).sum()), int((pred & (gold == 0)).sum()), int((~pred & (gold == 1)).sum())


def score(p: Passages, pass_pred: np.ndarray, doc_pred: np.ndarray) -> tuple[list[float], tuple[float, float, float]]:
    """Per-label document F1 (``doc_pred`` one row per document, in document order) and pooled passage P/R/F1."""
    _, dgold = doc_max(p, p.gold.astype(float))
    per = [_f1(*_counts(doc_pred[:, k].astype(bool), dgold[:, k])) for k in range(p.gold.shape[1])]
    tp, fp, fn = _counts(pass_pred.astype(bool).ravel(), p.gold.ravel())
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return per, (prec, rec, _f1(tp, fp, fn))


def fit_and_score(train: Passages, test: Passages, with_rules: bool = True) -> np.ndarray:
    """Scores of the test passages from classifiers fitted on all training passages."""
    return _fit_scores(train, test, with_rules)
