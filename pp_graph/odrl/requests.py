"""ODRL requests built from other things: a site's stated practice (an exported rule), an agent's call."""

from __future__ import annotations

from rdflib import Graph, URIRef
from rdflib.namespace import RDF
from rdflib.term import Node

from pp_graph.graph.namespaces import ODRL
from pp_graph.odrl.model import Constraint, Request, RequestRule, Rule

PURPOSE = ODRL.purpose


def purposes_of(constraints: tuple[Constraint, ...]) -> tuple[Node, ...]:
    """The purposes a rule's constraints name (isA / eq / isAnyOf, inside an odrl:or or odrl:and too)."""
    out: list[Node] = []
    for c in constraints:
        if c.logical is not None:
            out.extend(purposes_of(c.children))
        elif c.left == PURPOSE and c.operator in (ODRL.isA, ODRL.eq, ODRL.isAnyOf):
            out.extend(c.right)
    return tuple(sorted(set(out), key=str))


def request_for_rule(rule: Rule) -> Request:
    """A site's stated practice as a request "may the site do this?": its action on its target, by its assignee,
    for every purpose it names (each must be allowed)."""
    rules: list[RequestRule] = []
    targets: tuple[Node | None, ...] = rule.targets or (None,)
    assignees: tuple[Node | None, ...] = rule.assignees or (None,)
    purposes = purposes_of(rule.constraints)
    facts: dict[Node, tuple[Node, ...]] = {PURPOSE: purposes} if purposes else {}
    for a in rule.actions:
        for t in targets:
            for who in assignees:
                iri = URIRef(f"{rule.iri}/request/{len(rules)}")
                rules.append(RequestRule(iri, a.iri, t, who, facts))
    return Request(URIRef(f"{rule.iri}/request"), tuple(rules), Graph())


def party_types(g: Graph) -> Graph:
    """The parties a policy names, as members of their types (odrl:partOf), so a preference about dpv:ThirdParty
    covers every party typed so (and, through DPV's hierarchy, what is broader)."""
    out = Graph()
    for p in set(g.objects(None, ODRL.assignee)):
        for t in g.objects(p, RDF.type):
            if t != ODRL.Party:
                out.add((p, ODRL.partOf, t))
    return out
