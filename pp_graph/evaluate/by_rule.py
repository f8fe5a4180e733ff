"""Per-rule scores of the offline extractor on OPP-115: how often each rule acted, and how often rightly.

A rule that made or changed a practice scores a true positive when the practice's category is in the
segment's gold labels and a false positive when it is not; a rule that vetoed or dropped a practice scores a
true positive when its category is absent from the gold and a false positive when the gold has it and the
segment's predictions lack it (a right practice lost; one found anyway by another trigger is not counted).
Sentence-wide vetoes that name no practice count as fired only.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.evaluate.opp115 import SPLIT_FILE, load_corpus, load_mapping, load_split, site_for
from pp_graph.model import Policy


@dataclass
class RuleScore:
    rule: str
    kind: str
    fired: int = 0
    tp: int = 0
    fp: int = 0

    def row(self) -> dict[str, object]:
        judged = self.tp + self.fp
        return {
            "rule": self.rule,
            "kind": self.kind,
            "fired": self.fired,
            "tp": self.tp,
            "fp": self.fp,
            "precision": round(self.tp / judged, 3) if judged else None,
        }


def evaluate_by_rule(
    root: Path, split: str = "train", split_file: Path = SPLIT_FILE, progress: Callable[[str], None] | None = None
) -> list[RuleScore]:
    """Scores per declared rule over the OPP-115 policies of ``split``, most false positives first."""
    from pp_graph.extract.offline.backend import OfflineBackend
    from pp_graph.extract.offline.explain import traced_extract
    from pp_graph.extract.offline.rules import declared

    if split not in ("train", "test", "all"):
        raise InputError("--split", f"unknown split {split!r}; use train, test or all")
    splits = load_split(split_file)
    ids = set(splits) if split == "all" else {p for p, s in splits.items() if s == split}
    corpus = load_corpus(root, ids)
    if not corpus:
        raise InputError(str(root.name or root), f"no OPP-115 policies of the {split} split found")
    category_of = {t.value: c for c, types in load_mapping().practice_types().items() for t in types}
    scores = {r.id: RuleScore(r.id, r.kind) for r in declared()}
    backend = OfflineBackend()
    for pol in corpus:
        if progress:
            progress(pol.policy_id)
        text, bounds = pol.text_and_offsets()
        ex, trace = traced_extract(Policy(site_for(pol), text, f"opp115-{pol.policy_id}.txt", "text/plain"), backend)
        gold = pol.gold(lambda a: [a.category.lower()])
        starts = [b[0] for b in bounds]

        def unit(pos: int, starts: list[int] = starts, bounds: list[tuple[int, int]] = bounds) -> int | None:
            k = bisect.bisect_right(starts, pos) - 1
            return k if k >= 0 and pos < bounds[k][1] else None

        predicted: list[set[str | None]] = [set() for _ in bounds]
        for res in ex.results:
            for p in res.practices:
                k = unit(p.span.start if not p.inherited else res.segment.start)
                if k is not None:
                    predicted[k].add(category_of.get(p.type.value))
        for e in trace.events:
            score = scores.setdefault(e.rule, RuleScore(e.rule, "?"))
            score.fired += 1
            k = unit(e.start)
            if e.action in ("vetoed", "dropped") and e.practice and k is not None:
                category = category_of.get(e.practice)
                if category not in gold[k]:
                    score.tp += 1
                elif category not in predicted[k]:
                    score.fp += 1  # a right practice lost (one found anyway by another trigger costs nothing)
        for res in ex.results:
            for p in res.practices:
                k = unit(p.span.start if not p.inherited else res.segment.start)
                if k is None:
                    continue
                right = category_of.get(p.type.value) in gold[k]
                for rid in dict.fromkeys(p.rules):
                    score = scores.setdefault(rid, RuleScore(rid, "?"))
                    if right:
                        score.tp += 1
                    else:
                        score.fp += 1
    return sorted(scores.values(), key=lambda s: (-s.fp, -s.fired, s.rule))
