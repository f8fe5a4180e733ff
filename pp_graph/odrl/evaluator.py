"""ODRL 2.2 request evaluation: each rule of a policy against each requested permission, in a state of the world.

A permission is Active when every premise (target, party, action, constraint) is Satisfied and none of its
duties is Violated in the state of the world; a prohibition is Active when every premise is Satisfied. A
premise this evaluator cannot decide leaves the rule Undetermined, never Active by default.
"""

from __future__ import annotations

from rdflib import URIRef
from rdflib.term import Node

from pp_graph.odrl.constraints import evaluate_constraint
from pp_graph.odrl.model import Policy, Request, RequestRule, Rule
from pp_graph.odrl.report import PremiseReport, RuleReport
from pp_graph.odrl.terms import (
    ACTIVATION_UNDETERMINED,
    ACTIVE,
    INACTIVE,
    OPEN_STATES,
    SATISFIED,
    UNSATISFIED,
    UNSUPPORTED,
)
from pp_graph.odrl.world import Hierarchy, World

COLLECTION_REFINEMENT = URIRef("http://www.w3.org/ns/odrl/2/refinement")


def rule_report(rule: Rule, req: RequestRule, policy: Policy, world: World, hier: Hierarchy) -> RuleReport:
    premises: list[PremiseReport] = []
    if rule.targets:
        premises.append(match_premise("Target", rule.targets, req.target, policy, hier))
    if rule.assignees:
        premises.append(match_premise("Party", rule.assignees, req.assignee, policy, hier))
    if rule.actions:
        premises.append(_action(rule, req, world, hier))
    for i, c in enumerate(rule.constraints):
        premises.append(evaluate_constraint(c, req, world, hier, f"constraint/{i}"))
    duties = [duty_report(d, req, world, hier) for d in rule.duties]
    activation, why = activation_of([p.state for p in premises])
    if rule.kind == "Permission" and activation != INACTIVE:
        broken = [d for d in duties if d.deontic == "Violated"]
        if broken:
            activation, why = INACTIVE, f"its duty {broken[0].rule} is violated in the state of the world"
    return RuleReport(rule.kind, rule.iri, req.iri, "Attempted", activation, premises, duties, message=why)


def activation_of(states: list[str]) -> tuple[str, str]:
    if UNSATISFIED in states:
        return INACTIVE, ""
    open_ = [s for s in states if s in OPEN_STATES]
    if open_:
        kinds = ", ".join(sorted(set(open_)))
        return ACTIVATION_UNDETERMINED, f"{len(open_)} premise(s) could not be decided ({kinds})"
    return ACTIVE, ""


def duty_report(duty: Rule, req: RequestRule, world: World, hier: Hierarchy) -> RuleReport:
    """A duty's performance and deontic state come from the state of the world (FORCE duty reports there)."""
    premises = [evaluate_constraint(c, req, world, hier, f"constraint/{i}") for i, c in enumerate(duty.constraints)]
    activation, why = activation_of([p.state for p in premises])
    known = world.duties.get(duty.iri)
    if known is None:
        return RuleReport("Duty", duty.iri, None, None, activation, premises, [], "Unknown", "NonSet", message=why)
    return RuleReport(
        "Duty", duty.iri, None, None, activation, premises, [], known.performance, known.deontic, known.report, why
    )


def obligation_report(rule: Rule, req: RequestRule, world: World, hier: Hierarchy) -> RuleReport:
    rep = duty_report(rule, req, world, hier)
    rep.attempt, rep.rule_request = "NotAttempted", req.iri
    return rep


def match_premise(
    kind: str, allowed: tuple[Node, ...], asked: Node | None, policy: Policy, hier: Hierarchy
) -> PremiseReport:
    rep = PremiseReport(kind, UNSATISFIED, kind.lower(), rule_values=allowed, request_value=asked)
    if asked is None:
        rep.message = f"the request names no {'assignee' if kind == 'Party' else kind.lower()}"
        return rep
    if any(hier.falls_under(asked, a) for a in allowed):
        rep.state = SATISFIED
        return rep
    refined = [a for a in allowed if (a, COLLECTION_REFINEMENT, None) in policy.graph]
    if refined:
        rep.state = UNSUPPORTED
        rep.message = f"membership by odrl:refinement of {refined[0]} is not supported"
    return rep


def _action(rule: Rule, req: RequestRule, world: World, hier: Hierarchy) -> PremiseReport:
    rep = PremiseReport(
        "Action", UNSATISFIED, "action", rule_values=tuple(a.iri for a in rule.actions), request_value=req.action
    )
    for a in rule.actions:
        if not hier.falls_under(req.action, a.iri):
            continue
        kids = [evaluate_constraint(c, req, world, hier, f"action/refinement/{i}") for i, c in enumerate(a.refinements)]
        rep.children = kids
        states = [k.state for k in kids]
        rep.state = UNSATISFIED if UNSATISFIED in states else next((s for s in states if s in OPEN_STATES), SATISFIED)
        if rep.state == SATISFIED:
            return rep
    return rep


def evaluate_rules(policy: Policy, request: Request, world: World, hier: Hierarchy) -> list[RuleReport]:
    out: list[RuleReport] = []
    for req in request.rules:
        for rule in policy.rules:
            if rule.kind == "Duty":
                out.append(obligation_report(rule, req, world, hier))
            else:
                out.append(rule_report(rule, req, policy, world, hier))
    return out
