"""Decide a law's checklist for one policy: addressed, denied, missing, or not applicable (with the reason)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pp_graph.comply.facts import Evidence, PolicyFacts
from pp_graph.comply.laws import Condition, Item, Law

ADDRESSED, DENIED, MISSING, NOT_APPLICABLE = "addressed", "denied", "missing", "not applicable"
# A policy-like text addresses at least this many requirements and states at least one data practice.
MIN_REQUIREMENTS = 3


@dataclass(frozen=True, slots=True)
class ItemResult:
    item: Item
    status: str
    evidence: tuple[Evidence, ...] = ()
    reason: str = ""


@dataclass
class PolicyChecklist:
    file: str
    site: str
    law: Law
    results: list[ItemResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return all(r.status != MISSING for r in self.results)


class StaleGraph(Exception):
    """The graph was converted before the transparency stage: convert it again (no answer is given for it)."""


def _holds(c: Condition, facts: PolicyFacts) -> bool:
    if c.requirement is not None:
        return c.requirement in facts.statements
    return bool(facts.path_values(c.path) & c.concepts)


def decide(item: Item, facts: PolicyFacts) -> ItemResult:
    by = facts.statements.get(item.requirement, {})
    if by.get(True):
        return ItemResult(item, ADDRESSED, tuple(by[True]))
    if by.get(False):
        return ItemResult(item, DENIED, tuple(by[False]))
    if item.applies_when and not any(_holds(c, facts) for c in item.applies_when):
        return ItemResult(item, NOT_APPLICABLE, (), item.reason)
    return ItemResult(item, MISSING)


def looks_like_policy(facts: PolicyFacts) -> bool:
    return facts.practices > 0 and len(facts.statements) >= MIN_REQUIREMENTS


def checklist(facts: PolicyFacts, law: Law) -> PolicyChecklist:
    """The law's items for one policy. StaleGraph when the graph has no transparency facts at all."""
    if facts.rules_version is None:
        raise StaleGraph(
            f"{facts.file}: converted before the transparency requirements were extracted; "
            "convert it again (pp-graph convert --force) to answer a checklist"
        )
    out = PolicyChecklist(facts.file, facts.site, law)
    if not looks_like_policy(facts):
        out.warnings.append(
            f"{facts.file}: does not look like a privacy policy (no data practice or fewer than "
            f"{MIN_REQUIREMENTS} transparency requirements addressed); every requirement is reported missing"
        )
        out.results = [ItemResult(it, MISSING) for it in law.items]
        return out
    out.results = [decide(it, facts) for it in law.items]
    return out
