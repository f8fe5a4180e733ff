"""Fit and choose the transparency learned layer (pp_graph.extract.learned.transparency) on dataset documents.

Units are the pipeline's lines (one per dataset passage, as a policy is written one passage per line); a line's gold
is the labels of the passages it overlaps. Per requirement, the mode (rules / union / confirm) and threshold are
chosen on out-of-fold scores over the training documents (grouped k-fold), scoring each choice as the graph would
answer: a policy addresses R when any line holds a statement of R. The baseline is a logistic regression on the
line's words only, at 0.5. Nothing trained here is shipped: the dataset's licence allows evaluation and models
a user trains for themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pp_graph.evaluate.gdpr import GdprDoc, passages_hit
from pp_graph.extract.learned.transparency import Choice, Line, TransparencyModel, lines_of

FOLDS = 5
GRID = tuple(round(x, 2) for x in np.arange(0.05, 0.96, 0.05))


@dataclass
class Passages:
    """One row per line of every document: what the classifier sees, the rules' and the gold labels."""

    lines: list[Line]
    rules: np.ndarray  # (n, requirements) 0/1
    gold: np.ndarray  # (n, requirements) 0/1
    doc: np.ndarray  # (n,) document index
    unsegmented: int = 0  # gold (passage, requirement) pairs on passages no line overlaps: missed by any method

    @property
    def text(self) -> list[str]:
        return [ln.text for ln in self.lines]

    @property
    def headings(self) -> np.ndarray:
        return np.array([ln.is_heading for ln in self.lines], dtype=bool)


def passages(docs: Sequence[GdprDoc], backend: object = "offline", labels: dict[str, str] | None = None) -> Passages:
    """Run each document through the pipeline; ``labels`` maps the dataset's requirement labels to rule ids."""
    from pp_graph.comply.rules import rules
    from pp_graph.extract.pipeline import extract
    from pp_graph.extract.registry import get_backend
    from pp_graph.load.sources import policy_from_text

    reqs = [r.id for r in rules().requirements]
    to_id = labels or {r.label: r.id for r in rules().requirements}
    be = get_backend(backend) if isinstance(backend, str) else backend
    lines, rule_rows, gold_rows, doc, unsegmented = [], [], [], [], 0
    for d, gd in enumerate(docs):
        ex = extract(policy_from_text(gd.text, "dataset.invalid", name=f"{gd.id}.md"), be)  # type: ignore[arg-type]
        covered: set[int] = set()
        for res, ln in zip(ex.results, lines_of(ex.results), strict=True):
            hit = passages_hit(gd, [(res.segment.start, res.segment.end)])
            covered |= hit
            gold = {to_id[lb] for i in hit for lb in gd.gold[i] if lb in to_id}
            lines.append(ln)
            rule_rows.append([int(r in ln.rules) for r in reqs])
            gold_rows.append([int(r in gold) for r in reqs])
            doc.append(d)
        unsegmented += sum(len(g) for i, g in enumerate(gd.gold) if i not in covered)
    shape = (len(lines), len(reqs))
    return Passages(
        lines,
        np.array(rule_rows).reshape(shape),
        np.array(gold_rows).reshape(shape),
        np.array(doc),
        unsegmented,
    )


def subset(p: Passages, mask: np.ndarray) -> Passages:
    idx = np.flatnonzero(mask)
    return Passages([p.lines[i] for i in idx], p.rules[idx], p.gold[idx], p.doc[idx])


def _baseline_scores(train: Passages, test: Passages) -> np.ndarray:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=30000)
    xtr, xte = vec.fit_transform(train.text), vec.transform(test.text)
    out = np.zeros(test.gold.shape)
    for k in range(train.gold.shape[1]):
        if train.gold[:, k].min() != train.gold[:, k].max():
            clf = LogisticRegression(C=4.0, solver="liblinear", max_iter=1000).fit(xtr, train.gold[:, k])
            out[:, k] = clf.predict_proba(xte)[:, 1]
    return out


def fit_and_score(train: Passages, test: Passages, with_rules: bool = True) -> np.ndarray:
    """Scores of the test lines from classifiers fitted on all training lines (baseline: words only)."""
    if not with_rules:
        return _baseline_scores(train, test)
    from pp_graph.comply.rules import rules

    reqs = [r.id for r in rules().requirements]
    return TransparencyModel.fit(train.lines, train.gold, reqs).scores(test.lines)


def out_of_fold(p: Passages, with_rules: bool = True, folds: int = FOLDS) -> np.ndarray:
    """Scores of every training line from a model that did not see its document."""
    fold = p.doc % folds
    scores = np.zeros(p.gold.shape)
    for f in range(folds):
        if (fold == f).any() and (fold != f).any():
            scores[fold == f] = fit_and_score(subset(p, fold != f), subset(p, fold == f), with_rules)
    return scores


def _f1(tp: int, fp: int, fn: int) -> float:
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def _counts(pred: np.ndarray, gold: np.ndarray) -> tuple[int, int, int]:
    pred = pred.astype(bool)
    return int((pred & (gold == 1)).sum()), int((pred & (gold == 0)).sum()), int((~pred & (gold == 1)).sum())


def per_doc(p: Passages, values: np.ndarray) -> np.ndarray:
    """Per document (in index order), the maximum of each column over its lines: "any line" for 0/1 values."""
    values = np.asarray(values)
    ids, row = np.unique(p.doc, return_inverse=True)
    out = np.full((len(ids), *values.shape[1:]), values.min() if values.size else 0, dtype=values.dtype)
    np.maximum.at(out, row, values)
    return out


def combine(
    rules_col: np.ndarray, score_col: np.ndarray, mode: str, threshold: float, headings: np.ndarray
) -> np.ndarray:
    """A requirement's line predictions under one mode: what TransparencyModel.apply writes into the graph, which
    adds no learned statement on a heading line (there it can only drop the rules' ones)."""
    learned = score_col >= threshold
    if mode == "union":
        return (rules_col == 1) | (learned & ~headings)
    if mode == "confirm":
        return learned & (~headings | (rules_col == 1))
    return rules_col == 1


def predict(p: Passages, scores: np.ndarray, choices: Sequence[Choice]) -> np.ndarray:
    heads = p.headings
    return np.stack(
        [combine(p.rules[:, k], scores[:, k], c.mode, c.threshold, heads) for k, c in enumerate(choices)], 1
    )


def choose(p: Passages, scores: np.ndarray, requirements: Sequence[str]) -> list[Choice]:
    """Per requirement, the mode and threshold with the best document F1 + line F1 on ``scores`` (out of fold);
    ties keep the rules (then the higher threshold)."""
    dgold, heads = per_doc(p, p.gold), p.headings
    out = []
    for k, rid in enumerate(requirements):
        best, pick = -1.0, Choice(rid, "rules", 1.0)
        options = [("rules", 1.0)] + [(m, t) for m in ("union", "confirm") for t in reversed(GRID)]
        for mode, t in options:
            pred = combine(p.rules[:, k], scores[:, k], mode, t, heads)
            value = _f1(*_counts(pred, p.gold[:, k])) + _f1(*_counts(per_doc(p, pred[:, None])[:, 0], dgold[:, k]))
            if value > best + 1e-9:
                best, pick = value, Choice(rid, mode, t)
        out.append(pick)
    return out


def nested_predict(p: Passages, scores: np.ndarray, requirements: Sequence[str], folds: int = FOLDS) -> np.ndarray:
    """Line predictions whose choices were made without the line's document: per fold, the modes and thresholds
    are chosen on the other folds' out-of-fold scores (choosing on the scores it is then judged on flatters)."""
    fold = p.doc % folds
    pred = np.zeros(p.gold.shape, dtype=bool)
    for f in range(folds):
        if (fold == f).any() and (fold != f).any():
            rest, here = fold != f, fold == f
            choices = choose(subset(p, rest), scores[rest], requirements)
            pred[here] = predict(subset(p, here), scores[here], choices)
    return pred


def score(p: Passages, pass_pred: np.ndarray) -> tuple[list[float], tuple[float, float, float]]:
    """Per-requirement document F1 (a document addresses R when any line is predicted) and pooled line P/R/F1."""
    dgold, dpred = per_doc(p, p.gold), per_doc(p, pass_pred.astype(int))
    per = [_f1(*_counts(dpred[:, k], dgold[:, k])) for k in range(p.gold.shape[1])]
    tp, fp, fn = _counts(pass_pred.ravel(), p.gold.ravel())
    fn += p.unsegmented
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return per, (prec, rec, _f1(tp, fp, fn))
