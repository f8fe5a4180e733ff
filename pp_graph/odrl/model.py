"""ODRL policies and requests read from RDF into plain records; malformed input is an InputError naming it.

A compact policy's policy-level target, assignee, assigner and action are copied onto every rule that does not
state its own (ODRL 2.2 Information Model §2.7.1). Rules keep every value they state: several targets or
assignees mean the rule applies to each (an atomic rule per value).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import RDF
from rdflib.term import Node

from pp_graph.errors import InputError
from pp_graph.graph.namespaces import ODRL
from pp_graph.odrl.terms import INHERITED, LOGICAL, POLICY_CLASSES, RULE_KINDS, SOTW


@dataclass(frozen=True)
class Constraint:
    iri: Node
    left: Node | None = None
    operator: Node | None = None
    right: tuple[Node, ...] = ()
    logical: URIRef | None = None  # odrl:and / or / xone / andSequence for a logical constraint
    children: tuple[Constraint, ...] = ()


@dataclass(frozen=True)
class Action:
    iri: Node  # the action (rdf:value of a refined action)
    refinements: tuple[Constraint, ...] = ()


@dataclass(frozen=True)
class Rule:
    iri: Node
    kind: str  # Permission / Prohibition / Duty
    targets: tuple[Node, ...] = ()
    assignees: tuple[Node, ...] = ()
    assigners: tuple[Node, ...] = ()
    actions: tuple[Action, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    duties: tuple[Rule, ...] = ()


@dataclass(frozen=True)
class Policy:
    iri: Node
    rules: tuple[Rule, ...]
    conflict: Node | None = None
    graph: Graph = field(default_factory=Graph, compare=False, repr=False)


@dataclass(frozen=True)
class RequestRule:
    iri: Node
    action: Node
    target: Node | None
    assignee: Node | None
    facts: dict[Node, tuple[Node, ...]] = field(default_factory=dict)  # leftOperand -> the values the request states


@dataclass(frozen=True)
class Request:
    iri: Node
    rules: tuple[RequestRule, ...]
    graph: Graph = field(default_factory=Graph, compare=False, repr=False)


def items(g: Graph, node: Node) -> list[Node]:
    """An rdf:List's members, or the node itself."""
    if isinstance(node, BNode) and (node, RDF.first, None) in g:
        return list(Collection(g, node))
    return [node]


def values(g: Graph, s: Node, p: URIRef) -> tuple[Node, ...]:
    """Every object of ``s p``, lists expanded, in a stable order."""
    out: list[Node] = []
    for o in g.objects(s, p):
        out.extend(items(g, o))
    return tuple(sorted(set(out), key=_order))


def _order(n: Node) -> tuple[int, str]:
    return (isinstance(n, BNode), str(n))


def policies(g: Graph, source: str) -> list[Node]:
    found = {s for cls in POLICY_CLASSES for s in g.subjects(RDF.type, cls)}
    found |= {s for p in RULE_KINDS for s in g.subjects(p, None) if (s, RDF.type, ODRL.Request) not in g}
    found -= set(g.subjects(RDF.type, ODRL.Request))
    if not found:
        raise InputError(source, "no ODRL policy in it (a subject typed odrl:Set, odrl:Offer, odrl:Agreement ...)")
    return sorted(found, key=_order)


def parse_policy(g: Graph, source: str, iri: Node | None = None) -> Policy:
    found = policies(g, source)
    if iri is None:
        if len(found) > 1:
            names = ", ".join(str(p) for p in found[:5])
            raise InputError(source, f"{len(found)} ODRL policies in it ({names}); name the one to evaluate")
        iri = found[0]
    elif iri not in found:
        raise InputError(source, f"no ODRL policy {iri} in it")
    inherited = {p: values(g, iri, p) for p in INHERITED}
    rules = [
        parse_rule(g, r, kind, source, inherited)
        for p, kind in RULE_KINDS.items()
        for r in sorted(g.objects(iri, p), key=_order)
    ]
    if not rules:
        raise InputError(source, f"the policy {iri} has no rule (odrl:permission, odrl:prohibition, odrl:obligation)")
    return Policy(iri, tuple(rules), g.value(iri, ODRL.conflict), g)


def parse_rule(
    g: Graph, r: Node, kind: str, source: str, inherited: dict[URIRef, tuple[Node, ...]] | None = None
) -> Rule:
    own = {p: values(g, r, p) for p in INHERITED}
    eff = {p: own[p] or (inherited or {}).get(p, ()) for p in INHERITED}
    actions = tuple(_action(g, a, source) for a in eff[ODRL.action])
    return Rule(
        iri=r,
        kind=kind,
        targets=eff[ODRL.target],
        assignees=eff[ODRL.assignee],
        assigners=eff[ODRL.assigner],
        actions=actions,
        constraints=tuple(parse_constraint(g, c, source) for c in values(g, r, ODRL.constraint)),
        duties=tuple(parse_rule(g, d, "Duty", source) for d in values(g, r, ODRL.duty)),
    )


def _action(g: Graph, a: Node, source: str) -> Action:
    value = g.value(a, RDF.value)
    if value is None:
        if isinstance(a, Literal):
            raise InputError(source, f"the action {a!r} is a literal; an ODRL action is an IRI such as odrl:read")
        return Action(a)
    refs = tuple(parse_constraint(g, c, source) for c in values(g, a, ODRL.refinement))
    return Action(value, refs)


def parse_constraint(g: Graph, c: Node, source: str, depth: int = 0) -> Constraint:
    if depth > 32:
        raise InputError(source, f"the logical constraint {c} nests more than 32 levels (a cycle?)")
    for op in LOGICAL:
        members = values(g, c, op)
        if members:
            kids = tuple(parse_constraint(g, m, source, depth + 1) for m in members)
            return Constraint(c, logical=op, children=kids)
    left, operator = g.value(c, ODRL.leftOperand), g.value(c, ODRL.operator)
    right = values(g, c, ODRL.rightOperand) or values(g, c, ODRL.rightOperandReference)
    missing = [n for n, v in (("odrl:leftOperand", left), ("odrl:operator", operator)) if v is None]
    if not right:
        missing.append("odrl:rightOperand")
    if missing:
        raise InputError(source, f"the constraint {c} has no {', '.join(missing)}")
    return Constraint(c, left, operator, right)


def parse_request(g: Graph, source: str) -> Request:
    found = sorted(set(g.subjects(RDF.type, ODRL.Request)), key=_order)
    if found:
        req = found[0]
        rules = [_request_rule(g, r, source) for r in values(g, req, ODRL.permission)]
        if not rules:
            raise InputError(source, f"the request {req} asks for nothing (no odrl:permission)")
        return Request(req, tuple(rules), g)
    found = sorted(set(g.subjects(RDF.type, SOTW.EvaluationRequest)), key=_order)
    if found:
        req = found[0]
        action = g.value(req, SOTW.requestedAction)
        if action is None:
            raise InputError(source, f"the request {req} names no sotw:requestedAction")
        rule = RequestRule(req, action, g.value(req, SOTW.requestedTarget), g.value(req, SOTW.requestingParty))
        return Request(req, (rule,), g)
    raise InputError(source, "no ODRL request in it (a subject typed odrl:Request with an odrl:permission)")


def _request_rule(g: Graph, r: Node, source: str) -> RequestRule:
    actions = values(g, r, ODRL.action)
    if len(actions) != 1:
        raise InputError(source, f"the requested permission {r} must name exactly one odrl:action, not {len(actions)}")
    one: dict[URIRef, Node | None] = {}
    for p in (ODRL.target, ODRL.assignee):
        vals = values(g, r, p)
        if len(vals) > 1:
            raise InputError(source, f"the requested permission {r} names {len(vals)} values of {p}; ask once each")
        one[p] = vals[0] if vals else None
    facts: dict[Node, list[Node]] = {}
    for c in values(g, r, ODRL.constraint):
        con = parse_constraint(g, c, source)
        if con.logical is not None or con.operator not in (ODRL.eq, ODRL.isAllOf) or con.left is None:
            raise InputError(source, f"a request states facts as 'leftOperand odrl:eq value'; {c} does not")
        facts.setdefault(con.left, []).extend(con.right)
    action = actions[0]
    if isinstance(action, BNode) and g.value(action, RDF.value) is not None:
        action = g.value(action, RDF.value)  # type: ignore[assignment]
    frozen = {k: tuple(v) for k, v in facts.items()}
    return RequestRule(r, action, one[ODRL.target], one[ODRL.assignee], frozen)
