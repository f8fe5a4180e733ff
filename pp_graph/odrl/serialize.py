"""A compliance report written out: RDF in the FORCE Compliance Report Model (Turtle), JSON, or table rows.

Report IRIs are name-based UUIDs of the policy, request, rule and premise path, so the same input gives the
same report byte for byte; dct:created is the state of the world's current time, never the clock.
"""

from __future__ import annotations

import uuid
from typing import Any

from rdflib import Graph, Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, XSD
from rdflib.term import Node

from pp_graph.graph.namespaces import ODRL, PPG
from pp_graph.odrl.report import PolicyReport, PremiseReport, RuleReport
from pp_graph.odrl.terms import OPEN_STATES, REPORT, state_iri

_NS = uuid.UUID("6f1c8a52-3c0e-5d2a-9b7e-0d2f4e6a8c10")


def node_id(*parts: object) -> URIRef:
    return URIRef("urn:uuid:" + str(uuid.uuid5(_NS, "|".join(str(p) for p in parts))))


def to_graph(rep: PolicyReport) -> Graph:
    g = Graph()
    for prefix, ns in (("report", REPORT), ("odrl", ODRL), ("ppg", PPG), ("dct", DCTERMS), ("xsd", XSD)):
        g.bind(prefix, ns)
    root = node_id(rep.policy, rep.request, "report")
    g.add((root, RDF.type, REPORT.PolicyReport))
    g.add((root, REPORT.policy, rep.policy))
    if rep.request is not None:
        g.add((root, REPORT.policyRequest, rep.request))
    if rep.created is not None:
        g.add((root, DCTERMS.created, rep.created))
    g.add((root, PPG.verdict, Literal(rep.verdict)))
    for r in rep.deciding:
        g.add((root, PPG.decidedBy, r))
    for note in rep.notes:
        g.add((root, PPG.note, Literal(note)))
    for rr in rep.rules:
        g.add((root, REPORT.ruleReport, _rule(g, rr, (rep.policy, rep.request))))
    _declare_extensions(g)
    return g


def _rule(g: Graph, r: RuleReport, scope: tuple[Node | None, ...]) -> URIRef:
    node = r.node if isinstance(r.node, URIRef) else node_id(*scope, r.rule, r.rule_request)
    g.add((node, RDF.type, REPORT[r.kind + "Report"]))
    g.add((node, REPORT.rule, r.rule))
    if r.rule_request is not None:
        g.add((node, REPORT.ruleRequest, r.rule_request))
    if r.attempt:
        g.add((node, REPORT.attemptState, REPORT[r.attempt]))
    g.add((node, REPORT.activationState, state_iri(r.activation)))
    if r.performance:
        g.add((node, REPORT.performanceState, REPORT[r.performance]))
    if r.deontic:
        g.add((node, REPORT.deonticState, REPORT[r.deontic]))
    if r.message:
        g.add((node, PPG.message, Literal(r.message)))
    for p in r.premises:
        g.add((node, REPORT.premiseReport, _premise(g, p, (*scope, r.rule, r.rule_request))))
    for d in r.conditions:
        g.add((node, REPORT.conditionReport, _rule(g, d, (*scope, r.rule))))
    return node


def _premise(g: Graph, p: PremiseReport, scope: tuple[object, ...]) -> URIRef:
    node = node_id(*scope, p.key)
    g.add((node, RDF.type, REPORT[p.kind + "Report"]))
    g.add((node, REPORT.satisfactionState, state_iri(p.state)))
    if p.constraint is not None:
        g.add((node, REPORT.constraint, p.constraint))
    if p.logical is not None:
        g.add((node, REPORT.constraintLogicalOperand, p.logical))
    for v in p.left:
        g.add((node, REPORT.constraintLeftOperand, v))
    if p.operator is not None:
        g.add((node, REPORT.constraintOperator, p.operator))
    for v in p.right:
        g.add((node, REPORT.constraintRightOperand, v))
    for v in p.rule_values:
        g.add((node, PPG.ruleValue, v))
    if p.request_value is not None:
        g.add((node, PPG.requestValue, p.request_value))
    if p.message:
        g.add((node, PPG.message, Literal(p.message)))
    for c in p.children:
        g.add((node, REPORT.premiseReport, _premise(g, c, scope)))
    return node


def _declare_extensions(g: Graph) -> None:
    """Our states beyond FORCE's, declared in the report itself when used, so a reader sees what they are."""
    used = {str(o) for o in g.objects(None, REPORT.satisfactionState)} | {
        str(o) for o in g.objects(None, REPORT.activationState)
    }
    for state in OPEN_STATES:
        iri = PPG[state]
        if str(iri) in used:
            g.add((iri, RDFS.subClassOf, REPORT.SatisfactionState))
            g.add((iri, RDFS.comment, Literal(_EXPLAIN[state])))


_EXPLAIN = {
    "Unsupported": "The evaluator does not implement this operator, operand or datatype: neither satisfied nor not.",
    "Undetermined": "Neither the request nor the state of the world gives the value needed: not decided.",
}


def to_turtle(rep: PolicyReport) -> str:
    return to_graph(rep).serialize(format="turtle")


def to_dict(rep: PolicyReport) -> dict[str, Any]:
    return {
        "policy": str(rep.policy),
        "request": None if rep.request is None else str(rep.request),
        "created": None if rep.created is None else str(rep.created),
        "verdict": rep.verdict,
        "decidedBy": [str(r) for r in rep.deciding],
        "notes": list(rep.notes),
        "rules": [_rule_dict(r) for r in rep.rules],
    }


def _rule_dict(r: RuleReport) -> dict[str, Any]:
    return {
        "kind": r.kind,
        "rule": str(r.rule),
        "ruleRequest": None if r.rule_request is None else str(r.rule_request),
        "attemptState": r.attempt,
        "activationState": r.activation,
        "performanceState": r.performance,
        "deonticState": r.deontic,
        "message": r.message,
        "premises": [_premise_dict(p) for p in r.premises],
        "conditions": [_rule_dict(d) for d in r.conditions],
    }


def _premise_dict(p: PremiseReport) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": p.kind, "satisfactionState": p.state}
    if p.constraint is not None:
        d["constraint"] = str(p.constraint)
    if p.logical is not None:
        d["logicalOperand"] = str(p.logical)
    if p.operator is not None:
        d.update(leftOperand=[str(v) for v in p.left], operator=str(p.operator), rightOperand=[str(v) for v in p.right])
    if p.rule_values:
        d.update(ruleValues=[str(v) for v in p.rule_values], requestValue=p.request_value and str(p.request_value))
    if p.message:
        d["message"] = p.message
    if p.children:
        d["premises"] = [_premise_dict(c) for c in p.children]
    return d


def rows(rep: PolicyReport) -> list[dict[str, Any]]:
    """One row per rule and one per premise under it (indented by depth), for a table."""
    out: list[dict[str, Any]] = []
    for r in rep.rules:
        out.append({"item": f"{r.kind} {_short(r.rule)}", "state": r.activation, "detail": _rule_detail(r)})
        for p in r.premises:
            _premise_rows(p, 1, out)
        for d in r.conditions:
            perf = f"performance {d.performance}"
            out.append({"item": f"  duty {_short(d.rule)}", "state": d.deontic, "detail": perf})
    out.append({"item": "verdict", "state": rep.verdict, "detail": "; ".join(rep.notes)})
    return out


def _rule_detail(r: RuleReport) -> str:
    return "; ".join(x for x in (r.attempt or "", r.message) if x)


def _premise_rows(p: PremiseReport, depth: int, out: list[dict[str, Any]]) -> None:
    if p.logical is not None:
        what = _short(p.logical)
    elif p.kind == "Constraint":
        what = f"{_short(p.constraint)}: {' '.join(_short(v) for v in p.left) or '?'} {_short(p.operator)} " + " ".join(
            _short(v) for v in p.right
        )
    else:
        what = f"{_short(p.request_value)} within {', '.join(_short(v) for v in p.rule_values)}"
    detail = f"{what}{' - ' + p.message if p.message else ''}"
    out.append({"item": "  " * depth + p.kind, "state": p.state, "detail": detail})
    for c in p.children:
        _premise_rows(c, depth + 1, out)


def _short(n: object) -> str:
    if n is None:
        return "-"
    s = str(n)
    for sep in ("#", "/"):
        if sep in s and not s.startswith("urn:"):
            return s.rsplit(sep, 1)[-1] or s
    return s
