"""Per-rule scores of the offline extractor on OPP-115: how often each rule acted, and how often rightly.

A rule that made or changed a practice scores a true positive when the practice's category is in the
segment's gold labels and a false positive when it is not; a rule that vetoed or dropped a practice scores a
true positive when its category is absent from the gold and a false positive when the gold has it and the
segment's predictions lack it (a right practice lost; one found anyway by another trigger is not counted).
Sentence-wide vetoes that name no practice count as fired only. A cue rule is judged as the drop when the gate
dropped the practice it scored, else as the practice. A mention tied to a practice judges the rules that made and
linked it: right when the OPP-115 data or purpose label its concept names (exactly) is in its segment's gold.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pp_graph.errors import InputError
from pp_graph.evaluate.metrics import name_labels
from pp_graph.evaluate.opp115 import (
    DATA_ATTRIBUTE,
    DEV_FILE,
    PURPOSE_ATTRIBUTE,
    SPLIT_FILE,
    Annotation,
    OppPolicy,
    load_corpus,
    load_mapping,
    scored_kinds,
    site_for,
    split_ids,
)
from pp_graph.model import Policy, PolicyExtraction

if TYPE_CHECKING:
    from pp_graph.extract.offline.backend import OfflineBackend
    from pp_graph.extract.offline.rules import Event


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
    root: Path,
    split: str = "train",
    split_file: Path = SPLIT_FILE,
    progress: Callable[[str], None] | None = None,
    dev_file: Path = DEV_FILE,
) -> list[RuleScore]:
    """Scores per declared rule over the OPP-115 policies of ``split``, most false positives first."""
    from pp_graph.extract.offline.backend import OfflineBackend
    from pp_graph.extract.offline.mentions import mention_rules
    from pp_graph.extract.offline.rules import declared
    from pp_graph.extract.offline.statement_rules import statement_rules

    ids = split_ids(split, split_file, dev_file)  # every split `evaluate opp115` offers, dev and fit too
    corpus = load_corpus(root, ids)
    if not corpus:
        raise InputError(str(root.name or root), f"no OPP-115 policies of the {split} split found")
    scores = {r.id: RuleScore(r.id, r.kind) for r in declared()}
    # the mention rules (data/rules/mentions.toml) are declared apart; a concept rule is judged on what it settled
    scores.update((r.id, RuleScore(r.id, f"mention-{r.kind}")) for r in mention_rules().rules)
    # and the statement rules (data/rules/statements.toml), judged on the practices they made
    scores.update((s.id, RuleScore(s.id, s.kind)) for s in statement_rules().statements)
    judge = _Judge(scores, OfflineBackend())
    for pol in corpus:
        if progress:
            progress(pol.policy_id)
        judge.policy(pol)
    return sorted(scores.values(), key=lambda s: (-s.fp, -s.fired, s.rule))


class _Judge:
    """Scores the rules' events and the rule ids of the practices and mentions, one policy at a time."""

    def __init__(self, scores: dict[str, RuleScore], backend: OfflineBackend) -> None:
        from pp_graph.vocab.dpv import vocabulary

        mapping = load_mapping()
        self.scores, self.backend, self.mapping = scores, backend, mapping
        self.category_of = {t: c for c, kinds in mapping.practice_types().items() for t in kinds}
        self.labels = {"data": mapping.labels(DATA_ATTRIBUTE), "purpose": mapping.labels(PURPOSE_ATTRIBUTE)}
        self.ancestors = vocabulary().ancestors

    def score(self, rule: str) -> RuleScore:
        return self.scores.setdefault(rule, RuleScore(rule, "?"))

    def policy(self, pol: OppPolicy) -> None:
        from pp_graph.extract.offline.explain import traced_extract

        text, bounds = pol.text_and_offsets()
        ex, trace = traced_extract(
            Policy(site_for(pol), text, f"opp115-{pol.policy_id}.txt", "text/plain"), self.backend
        )
        gold = pol.gold(lambda a: [a.category.lower()])
        starts = [b[0] for b in bounds]

        def unit(pos: int) -> int | None:
            k = bisect.bisect_right(starts, pos) - 1
            return k if k >= 0 and pos < bounds[k][1] else None

        predicted: list[set[str | None]] = [set() for _ in bounds]
        made: list[tuple[int, tuple[str, ...], set[str]]] = []  # (unit, rules, categories) per practice
        for res in ex.results:
            for i, p in enumerate(res.practices):
                k = unit(p.span.start if not p.inherited else res.segment.start)
                cats = {self.category_of[t] for t in scored_kinds(res, i) if t in self.category_of}
                if k is not None:
                    predicted[k] |= cats
                    made.append((k, p.rules, cats))
        self.events(trace.events, unit, gold, predicted)
        for k, rules, cats in made:
            # a kind the mapping scores no category for is not judged; one right category of several is right
            if cats:
                self.judged(rules, bool(cats & gold[k]))
        self.mentions(pol, ex, unit)

    def judged(self, rules: Iterable[str], right: bool) -> None:
        for rid in dict.fromkeys(rules):
            score = self.score(rid)
            if right:
                score.tp += 1
            else:
                score.fp += 1

    def events(
        self,
        events: list[Event],
        unit: Callable[[int], int | None],
        gold: list[set[str]],
        predicted: list[set[str | None]],
    ) -> None:
        """Vetoes and drops are judged once per practice they stopped; a cue rule that scored a practice the gate
        dropped is judged as the drop, one that scored a kept practice as the practice."""
        dropped = {(e.start, e.end, e.practice) for e in events if e.rule == "gate.cues" and e.action == "dropped"}
        for e in events:
            rule = self.score(e.rule)
            rule.fired += 1
            k = unit(e.start)
            if k is None or not e.practice:
                continue
            category = self.category_of.get(e.practice)
            stopped = e.action in ("vetoed", "dropped") or (
                e.action == "scored" and (e.start, e.end, e.practice) in dropped
            )
            if stopped:
                if category not in gold[k]:
                    rule.tp += 1
                elif category not in predicted[k]:  # a right practice lost (one found anyway costs nothing)
                    rule.fp += 1
            elif e.action == "scored":
                self.judged([e.rule], category in gold[k])

    def mentions(self, pol: OppPolicy, ex: PolicyExtraction, unit: Callable[[int], int | None]) -> None:
        """A mention tied to a practice (what the evaluation scores) judges its rule ids: right when the OPP-115
        label its concept names is in the gold of its segment."""
        gold = {
            kind: pol.gold(self._values(attribute))
            for kind, attribute in (("data", DATA_ATTRIBUTE), ("purpose", PURPOSE_ATTRIBUTE))
        }
        for res in ex.results:
            k = unit(res.segment.start)
            linked = {r.entity for r in res.relations}
            for kind, items in (("data", res.data), ("purpose", res.purposes)):
                for i, m in enumerate(items):
                    if k is None or f"{kind}:{i}" not in linked or not m.concept:
                        continue
                    named, _ = name_labels([m.concept], self.labels[kind], self.ancestors, False)
                    self.judged(m.rules, bool(named & gold[kind][k]))

    def _values(self, attribute: str) -> Callable[[Annotation], list[str]]:
        def values(a: Annotation) -> list[str]:
            return [t for k, v in a.values if k == attribute and (t := self.mapping.target(k, v)) is not None]

        return values
