"""``evaluate(policy, request, state)``: read the three inputs, evaluate, decide the verdict."""

from __future__ import annotations

from pathlib import Path

from rdflib import Graph
from rdflib.term import Node

from pp_graph.errors import InputError
from pp_graph.graph.namespaces import ODRL
from pp_graph.odrl.evaluator import evaluate_rules
from pp_graph.odrl.model import Policy, Request, parse_policy, parse_request
from pp_graph.odrl.rdf_input import parse_quietly, refuse_ill_typed
from pp_graph.odrl.report import PolicyReport, RuleReport
from pp_graph.odrl.terms import (
    ACTIVATION_UNDETERMINED,
    ACTIVE,
    NOT_APPLICABLE,
    NOT_PERMITTED,
    PERMITTED,
    PROHIBITED,
    SATISFIED,
    VERDICT_UNDETERMINED,
)
from pp_graph.odrl.world import Hierarchy, World, read_world

Source = Graph | str | Path


def load_graph(src: Source, what: str) -> tuple[Graph, str]:
    """A graph and the name errors give it: a Graph passes through, a path is parsed (Turtle, or by suffix)."""
    if isinstance(src, Graph):
        return src, f"the {what} graph"
    path = Path(src)
    name = str(path)
    if not path.is_file():
        raise InputError(name, f"the {what} file {'is a folder' if path.is_dir() else 'does not exist'}")
    fmt = {".jsonld": "json-ld", ".json": "json-ld", ".nt": "nt", ".rdf": "xml", ".xml": "xml"}.get(
        path.suffix.lower(), "turtle"
    )
    try:
        g = parse_quietly(source=path, format=fmt)
    except Exception as e:  # rdflib's parsers raise many unrelated types; all mean "not valid RDF"
        problem = " ".join(str(e).split())[:300]
        raise InputError(name, f"not valid {fmt} ({what}): {problem}") from None
    return refuse_ill_typed(g, name), name


def evaluate(
    policy: Source, request: Source, state: Source | None = None, policy_iri: Node | None = None
) -> PolicyReport:
    """The compliance report of ``request`` against ``policy`` in ``state`` (graphs or file paths)."""
    pg, pname = load_graph(policy, "policy")
    rg, rname = load_graph(request, "request")
    sg, sname = load_graph(state, "state of the world") if state is not None else (None, "(no state of the world)")
    pol = parse_policy(pg, pname, policy_iri)
    req = parse_request(rg, rname)
    return evaluate_parsed(pol, req, sg, sname)


def evaluate_parsed(pol: Policy, req: Request, state: Graph | None, sname: str) -> PolicyReport:
    world, hier = prepare(pol, state, sname, req.graph)
    return evaluate_prepared(pol, req, world, hier)


def prepare(pol: Policy, state: Graph | None, sname: str, *extra: Graph) -> tuple[World, Hierarchy]:
    """The world and the hierarchies one policy is evaluated in; reusable for every request that adds no
    hierarchy or membership of its own (an agent's calls against one site)."""
    world = read_world(state, sname, extra=(pol.graph, *extra))
    hier = Hierarchy((pol.graph, *extra, *([state] if state is not None else [])), world)
    return world, hier


def evaluate_prepared(pol: Policy, req: Request, world: World, hier: Hierarchy) -> PolicyReport:
    rules = evaluate_rules(pol, req, world, hier)
    verdict, deciding = decide(rules, pol.conflict)
    report = PolicyReport(pol.iri, req.iri, world.now_literal, rules, verdict, deciding)
    unknown = unknown_terms(rules)
    if unknown:
        report.verdict = NOT_APPLICABLE
        report.notes.append(unknown)
    return report


def decide(rules: list[RuleReport], conflict: Node | None) -> tuple[str, list[Node]]:
    """Prohibited when a prohibition is active (a conflict strategy of odrl:perm lets an active permission win);
    permitted when a permission is active; an undecided prohibition or permission leaves it undetermined."""

    def having(kind: str, state: str) -> list[Node]:
        return [r.rule for r in rules if r.kind == kind and r.activation == state]

    banned, allowed = having("Prohibition", ACTIVE), having("Permission", ACTIVE)
    if banned and not (allowed and conflict == ODRL.perm):
        return PROHIBITED, banned
    if allowed and conflict == ODRL.perm:
        return PERMITTED, allowed
    unsure_ban = having("Prohibition", ACTIVATION_UNDETERMINED)
    if unsure_ban:
        return VERDICT_UNDETERMINED, unsure_ban  # fail closed: a prohibition that may apply is not ignored
    if allowed:
        return PERMITTED, allowed
    unsure = having("Permission", ACTIVATION_UNDETERMINED)
    if unsure:
        return VERDICT_UNDETERMINED, unsure
    return NOT_PERMITTED, []


def unknown_terms(rules: list[RuleReport]) -> str:
    """A note when the request matches no rule's target, party or action at all (it names nothing the policy
    knows); empty when some rule matches one of them or states none (applies to any)."""
    attempted = [r for r in rules if r.attempt == "Attempted"]
    if not attempted:
        return ""
    for r in attempted:
        matchers = [p for p in r.premises if p.kind in ("Target", "Party", "Action")]
        if not matchers or any(p.state == SATISFIED for p in matchers):
            return ""
    asked = {p.kind.lower(): p.request_value for r in attempted for p in r.premises if p.request_value is not None}
    named = ", ".join(f"{k} {v}" for k, v in sorted(asked.items(), key=lambda kv: kv[0]))
    return f"the request names nothing this policy knows: no rule matches its {named or 'terms'}"
