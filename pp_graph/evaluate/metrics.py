"""Scores for extraction: P/R/F1, per-segment f1 / f1-n / f1-e, relaxed span matching, class hierarchies.

Fixes over the released Pr2Graph evaluation code:

- the span ratio is symmetric: ``|longest common substring| / max(|pred|, |gold|)``, so a short prediction
  inside a long gold span (or the reverse) is not rewarded; a ratio ≥ 0.9 adds the ratio to the true
  positives, anything lower counts only if exact;
- predictions and gold items are paired one-to-one by an optimal assignment (scipy's linear_sum_assignment), not
  greedily, so the order of the items never changes the score;
- segments with empty gold are scored apart (f1-e) from the others (f1-n) instead of inflating one mean.

Conventions: P = matched predictions / predictions, R = matched gold / gold; with nothing predicted and
nothing in gold, P = R = F1 = 1 (the right answer was "nothing"); otherwise a zero denominator gives 0.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from pp_graph.extras import import_optional

SPAN_THRESHOLD = 0.9


# ---- precision / recall / F1 ----


@dataclass(frozen=True, slots=True)
class PRF:
    """Counts behind one score. ``tp_pred`` and ``tp_gold`` differ only for coverage-style matching."""

    tp_pred: float
    tp_gold: float
    n_pred: int
    n_gold: int

    @classmethod
    def one_to_one(cls, tp: float, n_pred: int, n_gold: int) -> PRF:
        return cls(tp, tp, n_pred, n_gold)

    @property
    def precision(self) -> float:
        if self.n_pred == 0:
            return 1.0 if self.n_gold == 0 else 0.0
        return self.tp_pred / self.n_pred

    @property
    def recall(self) -> float:
        if self.n_gold == 0:
            return 1.0 if self.n_pred == 0 else 0.0
        return self.tp_gold / self.n_gold

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    def __add__(self, other: PRF) -> PRF:
        return PRF(
            self.tp_pred + other.tp_pred,
            self.tp_gold + other.tp_gold,
            self.n_pred + other.n_pred,
            self.n_gold + other.n_gold,
        )


ZERO = PRF(0.0, 0.0, 0, 0)


@dataclass
class SegmentScores:
    """Per-segment results of one task, aggregated the paper's way and micro-averaged."""

    segments: list[PRF] = field(default_factory=list)

    def add(self, prf: PRF) -> None:
        self.segments.append(prf)

    @property
    def micro(self) -> PRF:
        return sum(self.segments, ZERO)

    @property
    def f1(self) -> float:
        """Mean per-segment F1 over all segments (the paper's 'f1')."""
        return _mean([s.f1 for s in self.segments])

    @property
    def f1_n(self) -> float:
        """Mean per-segment F1 over segments whose gold is non-empty."""
        return _mean([s.f1 for s in self.segments if s.n_gold > 0])

    @property
    def f1_e(self) -> float:
        """Mean per-segment F1 over segments whose gold is empty: 1 where nothing was predicted, else 0."""
        return _mean([s.f1 for s in self.segments if s.n_gold == 0])

    def summary(self) -> dict[str, float | int]:
        m = self.micro
        return {
            "precision": m.precision,
            "recall": m.recall,
            "micro_f1": m.f1,
            "f1": self.f1,
            "f1_n": self.f1_n,
            "f1_e": self.f1_e,
            "segments": len(self.segments),
            "n_pred": m.n_pred,
            "n_gold": m.n_gold,
        }


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


# ---- multi-label classification (one label set per segment) ----


@dataclass
class LabelScores:
    """One-vs-rest counts per label over segments; macro F1 averages the labels of ``labels``."""

    labels: tuple[str, ...]
    per_label: dict[str, PRF] = field(default_factory=dict)
    extra_fp: int = 0  # predictions outside the label space (count against micro precision only)
    per_segment: SegmentScores = field(default_factory=SegmentScores)

    def add(self, gold: set[str], pred: set[str], unmapped: int = 0) -> None:
        for lab in self.labels:
            g, p = lab in gold, lab in pred
            self.per_label[lab] = self.per_label.get(lab, ZERO) + PRF.one_to_one(float(g and p), int(p), int(g))
        self.extra_fp += unmapped
        tp = len(gold & pred)
        self.per_segment.add(PRF.one_to_one(float(tp), len(pred) + unmapped, len(gold)))

    @property
    def micro(self) -> PRF:
        total = sum(self.per_label.values(), ZERO)
        return PRF(total.tp_pred, total.tp_gold, total.n_pred + self.extra_fp, total.n_gold)

    @property
    def macro_f1(self) -> float:
        """Mean F1 over labels that occur in gold or in predictions (a label never seen scores nothing)."""
        return macro_f1_of(self.per_label, self.labels)

    def summary(self) -> dict[str, object]:
        m = self.micro
        return {
            "macro_f1": self.macro_f1,
            "micro_precision": m.precision,
            "micro_recall": m.recall,
            "micro_f1": m.f1,
            "f1": self.per_segment.f1,
            "f1_n": self.per_segment.f1_n,
            "f1_e": self.per_segment.f1_e,
            "segments": len(self.per_segment.segments),
            "per_label": {
                lab: {
                    "precision": p.precision,
                    "recall": p.recall,
                    "f1": p.f1,
                    "support": p.n_gold,
                    "predicted": p.n_pred,
                }
                for lab, p in sorted(self.per_label.items())
            },
        }


def macro_f1_of(per_label: Mapping[str, PRF], labels: Sequence[str]) -> float:
    """Macro F1 over ``labels`` from summed counts, with LabelScores.macro_f1's rule for unseen labels."""
    seen = [prf for lab in labels if (prf := per_label.get(lab)) and (prf.n_gold or prf.n_pred)]
    return _mean([p.f1 for p in seen])


def percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0…1) of sorted values, by the nearest rank on the 0…n-1 index scale."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


@dataclass(frozen=True)
class Interval:
    """A percentile bootstrap interval and how it was drawn."""

    low: float
    high: float
    level: float
    resamples: int
    seed: int
    units: int  # documents resampled (fewer than 2: no interval)

    def summary(self) -> dict[str, object]:
        return {
            "low": self.low,
            "high": self.high,
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
            "unit": "policy",
            "units": self.units,
        }


def bootstrap_macro_f1(
    units: Sequence[Mapping[str, PRF]],
    labels: Sequence[str],
    resamples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> Interval:
    """Percentile bootstrap interval of macro F1, resampling whole units (documents) with replacement.

    Segments of one policy are not independent, so the policy is the unit; counts are pooled per label in each
    resample, as for the point estimate. Fixed seed: same input, same interval. Fewer than two units give NaN
    (one document would show a zero-width interval, which is not certainty).
    """
    import math
    import random

    nan = float("nan")
    if len(units) < 2:
        return Interval(nan, nan, level, resamples, seed, len(units))
    rng = random.Random(seed)
    scores: list[float] = []
    for _ in range(resamples):
        total: dict[str, PRF] = {}
        for unit in (units[rng.randrange(len(units))] for _ in units):
            for lab, prf in unit.items():
                total[lab] = total.get(lab, ZERO) + prf
        score = macro_f1_of(total, labels)
        if not math.isnan(score):  # a resample where no label occurs has no macro F1
            scores.append(score)
    scores.sort()
    tail = (1 - level) / 2
    return Interval(percentile(scores, tail), percentile(scores, 1 - tail), level, resamples, seed, len(units))


# ---- relaxed span matching ----


def longest_common_substring(a: str, b: str) -> int:
    """Length of the longest common (contiguous) substring (difflib, with no junk heuristics)."""
    if not a or not b:
        return 0
    return SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b)).size


def lcs_ratio(a: str, b: str) -> float:
    """Symmetric: |longest common substring| / max(|a|, |b|); 1.0 only for equal strings."""
    if not a or not b:
        return 0.0
    return longest_common_substring(a, b) / max(len(a), len(b))


@dataclass(frozen=True, slots=True)
class Item:
    """A span to match: offsets (or None if unknown), its text and an optional label."""

    text: str
    start: int | None = None
    end: int | None = None
    label: str | None = None


def span_score(pred: Item, gold: Item, threshold: float = SPAN_THRESHOLD) -> float:
    """1 for the same span; the LCS ratio if ≥ threshold and the spans overlap; else 0."""
    if pred.start is not None and gold.start is not None and pred.end is not None and gold.end is not None:
        if (pred.start, pred.end) == (gold.start, gold.end):
            return 1.0
        if pred.end <= gold.start or gold.end <= pred.start:
            return 0.0  # the same words elsewhere in the segment are another mention
    elif pred.text == gold.text:
        return 1.0
    r = lcs_ratio(pred.text, gold.text)
    return r if r >= threshold else 0.0


def assign(weights: Sequence[Sequence[float]]) -> list[tuple[int, int]]:
    """Maximum-weight one-to-one assignment (scipy's linear_sum_assignment); pairs with weight 0 are dropped.

    ``weights[i][j]`` ≥ 0 is the value of pairing row i with column j; the matrix may be rectangular.
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    if rows == 0 or cols == 0:
        return []
    optimize = import_optional("scipy.optimize", "learned", "evaluation's optimal span matching")
    r, c = optimize.linear_sum_assignment([list(row) for row in weights], maximize=True)
    return sorted((int(i), int(j)) for i, j in zip(r, c, strict=True) if weights[i][j] > 0)


Compatible = Callable[[Item, Item], bool]


@dataclass(frozen=True, slots=True)
class Matching:
    pairs: tuple[tuple[int, int, float], ...]  # (pred index, gold index, score)
    prf: PRF


def match_items(
    pred: Sequence[Item],
    gold: Sequence[Item],
    compatible: Compatible | None = None,
    threshold: float = SPAN_THRESHOLD,
) -> Matching:
    """Optimal one-to-one matching of predicted and gold spans; TP = sum of the pair scores.

    ``compatible`` (e.g. same label, or hierarchy-compatible class) gates a pair before its span score.
    """
    w = [[span_score(p, g, threshold) if compatible is None or compatible(p, g) else 0.0 for g in gold] for p in pred]
    pairs = tuple((i, j, w[i][j]) for i, j in assign(w))
    tp = sum(s for _, _, s in pairs)
    return Matching(pairs, PRF.one_to_one(tp, len(pred), len(gold)))


def same_label(p: Item, g: Item) -> bool:
    return p.label == g.label


def hierarchy_compatible(ancestors: Callable[[str], set[str]]) -> Compatible:
    """A predicted class matches a gold class if it is the same or narrower (gold ∈ ancestors(pred)).

    A broader prediction does not count: otherwise the top concept would match every gold class.
    """

    def ok(p: Item, g: Item) -> bool:
        return p.label is not None and g.label is not None and g.label in ancestors(p.label)

    return ok


# ---- classes → a coarser label space (OPP-115 values) ----


def name_labels(
    concepts: Iterable[str],
    label_concepts: Mapping[str, frozenset[str]],
    ancestors: Callable[[str], set[str]],
    hierarchy: bool,
) -> tuple[set[str], int]:
    """The labels a set of predicted concepts names, and how many concepts name none.

    Exact: a concept names a label if it is one of the label's concepts. Hierarchy-aware: a concept names
    the labels whose concepts are its ancestors (or itself), keeping only the most specific of those
    (e-mail address → Contact, not also the generic 'personal data' label).
    """
    named: set[str] = set()
    unmapped = 0
    for c in dict.fromkeys(concepts):
        if not hierarchy:
            hit = {lab for lab, cs in label_concepts.items() if c in cs}
        else:
            anc = ancestors(c)
            cand = {(lab, m) for lab, cs in label_concepts.items() for m in cs if m in anc}
            matched = {m for _, m in cand}
            # Drop a candidate whose concept is a strict ancestor of another candidate's concept.
            hit = {lab for lab, m in cand if not any(m != o and m in ancestors(o) for o in matched)}
        if hit:
            named |= hit
        else:
            unmapped += 1
    return named, unmapped


def group_by(items: Iterable[tuple[Hashable, Item]]) -> dict[Hashable, list[Item]]:
    out: dict[Hashable, list[Item]] = {}
    for key, it in items:
        out.setdefault(key, []).append(it)
    return out
