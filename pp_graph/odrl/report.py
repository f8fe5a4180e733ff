"""A compliance report as plain records: what the evaluator found, before it is written as RDF, JSON or a table."""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib.term import Node


@dataclass
class PremiseReport:
    kind: str  # Target / Party / Action / Constraint
    state: str  # Satisfied / Unsatisfied / Unsupported / Undetermined
    key: str  # stable name inside its rule report (for deterministic report IRIs)
    constraint: Node | None = None
    left: tuple[Node, ...] = ()  # the left operand's values as evaluated (the current time, the request's purpose…)
    operator: Node | None = None
    right: tuple[Node, ...] = ()
    logical: Node | None = None
    rule_values: tuple[Node, ...] = ()  # target / party / action premises: what the rule names
    request_value: Node | None = None  # … and what the request names
    children: list[PremiseReport] = field(default_factory=list)
    message: str = ""

    def walk(self) -> list[PremiseReport]:
        out = [self]
        for c in self.children:
            out.extend(c.walk())
        return out


@dataclass
class RuleReport:
    kind: str  # Permission / Prohibition / Duty
    rule: Node
    rule_request: Node | None
    attempt: str | None  # Attempted / NotAttempted (permissions, prohibitions)
    activation: str  # Active / Inactive / Undetermined
    premises: list[PremiseReport] = field(default_factory=list)
    conditions: list[RuleReport] = field(default_factory=list)  # the duties of a permission
    performance: str | None = None
    deontic: str | None = None
    node: Node | None = None  # a duty report taken from the state of the world keeps its IRI
    message: str = ""

    def all_premises(self) -> list[PremiseReport]:
        return [q for p in self.premises for q in p.walk()]


@dataclass
class PolicyReport:
    policy: Node
    request: Node | None
    created: Node | None  # the state of the world's current time (never the clock: same input, same report)
    rules: list[RuleReport]
    verdict: str
    deciding: list[Node] = field(default_factory=list)  # the rules the verdict rests on
    notes: list[str] = field(default_factory=list)
