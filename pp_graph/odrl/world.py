"""The state of the world (current time, memberships, duty reports) and the hierarchies matching walks:
ODRL actions (odrl:includedIn, skos:exactMatch), DPV concepts (skos:broader), collections (odrl:partOf)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, XSD
from rdflib.term import Node

from pp_graph.errors import InputError
from pp_graph.graph.namespaces import ODRL
from pp_graph.odrl.terms import REPORT, SKOS_BROADER, SKOS_EXACT, state_name
from pp_graph.resources import ONTOLOGIES

ODRL_VOCAB = ONTOLOGIES / "vendor" / "odrl" / "ODRL22.ttl"
ODRL_PROFILE = ONTOLOGIES / "odrl-profile.ttl"
CURRENT_TIME = "currentTime"  # the suite's convention: <…/currentTime> dct:issued "…"^^xsd:dateTime


@dataclass(frozen=True)
class DutyState:
    report: Node  # the duty report in the state of the world
    performance: str
    deontic: str


@dataclass
class World:
    now: datetime | None = None
    now_literal: Literal | None = None
    part_of: dict[Node, set[Node]] = field(default_factory=dict)
    duties: dict[Node, DutyState] = field(default_factory=dict)
    source: str = "(no state of the world)"


def read_world(g: Graph | None, source: str, extra: Iterable[Graph] = ()) -> World:
    """The world from the state graph; memberships may also be stated in the policy or request graphs."""
    w = World(source=source)
    for graph in [*([g] if g is not None else []), *extra]:
        for s, o in graph.subject_objects(ODRL.partOf):
            w.part_of.setdefault(s, set()).add(o)
    if g is None:
        return w
    stamps = [(s, o) for s, o in g.subject_objects(DCTERMS.issued) if str(s).endswith(CURRENT_TIME)]
    if len(stamps) > 1:
        raise InputError(source, f"{len(stamps)} current times (…/currentTime dct:issued); state one")
    if stamps:
        lit = stamps[0][1]
        if not isinstance(lit, Literal) or not isinstance(lit.toPython(), datetime):
            raise InputError(source, f"the current time {lit!r} is not an xsd:dateTime")
        w.now_literal = lit
        w.now = aware(lit.toPython())
    for rep in g.subjects(RDF.type, REPORT.DutyReport):
        rule = g.value(rep, REPORT.rule)
        if rule is None:
            raise InputError(source, f"the duty report {rep} names no report:rule")
        perf, deon = g.value(rep, REPORT.performanceState), g.value(rep, REPORT.deonticState)
        w.duties[rule] = DutyState(rep, state_name(perf or REPORT.Unknown), state_name(deon or REPORT.NonSet))
    return w


def aware(t: datetime) -> datetime:
    """A time without a zone is read as UTC, so it compares with zoned times."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


@cache
def _vocab_edges() -> dict[Node, frozenset[Node]]:
    """Action inclusion from the ODRL 2.2 vocabulary and our profile (DPV actions), exact matches both ways."""
    g = Graph().parse(ODRL_VOCAB, format="turtle")
    g.parse(ODRL_PROFILE, format="turtle")
    edges: dict[Node, set[Node]] = {}
    _add_edges(g, edges)
    return {k: frozenset(v) for k, v in edges.items()}


def _add_edges(g: Graph, edges: dict[Node, set[Node]]) -> None:
    for s, o in g.subject_objects(ODRL.includedIn):
        edges.setdefault(s, set()).add(o)
    for s, o in g.subject_objects(SKOS_EXACT):
        edges.setdefault(s, set()).add(o)
        edges.setdefault(o, set()).add(s)
    for s, o in g.subject_objects(SKOS_BROADER):
        edges.setdefault(s, set()).add(o)


class Hierarchy:
    """Which terms a term falls under: itself, what includes it (actions), what is broader (DPV concepts),
    what it is part of (collections, from the state of the world)."""

    def __init__(self, graphs: Iterable[Graph], world: World) -> None:
        from pp_graph.vocab.dpv import vocabulary

        self._dpv = vocabulary()
        local: dict[Node, set[Node]] = {}
        for g in graphs:
            _add_edges(g, local)
        self._local = local
        self._world = world
        self._memo: dict[Node, frozenset[Node]] = {}

    def above(self, term: Node) -> frozenset[Node]:
        found = self._memo.get(term)
        if found is None:
            seen = {term}
            todo = [term]
            while todo:
                for nxt in self._edges_of(todo.pop()):
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            found = self._memo[term] = frozenset(seen)
        return found

    def _edges_of(self, t: Node) -> set[Node]:
        out = set(_vocab_edges().get(t, ())) | self._local.get(t, set()) | self._world.part_of.get(t, set())
        if isinstance(t, URIRef):
            out |= {URIRef(b) for b in self._dpv.broader.get(str(t), ())}
        return out

    def falls_under(self, term: Node, general: Node) -> bool:
        return general in self.above(term)


def is_date(lit: Node) -> bool:
    return isinstance(lit, Literal) and lit.datatype == XSD.date
