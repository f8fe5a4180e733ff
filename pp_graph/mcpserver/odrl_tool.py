"""The ``odrl_evaluate`` tool's work: an ODRL request evaluated into a FORCE compliance report.

Two forms. A policy and a request (and optionally a state of the world) given as Turtle, evaluated by
``pp_graph.odrl``; or an agent's action against a site's exported ODRL policy, built into a request and evaluated
the way the risk engine's ODRL check does (``pp_graph.risk.odrl_check``), with the policy lines the verdict rests on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rdflib import Graph

from pp_graph.errors import InputError
from pp_graph.vocab.dpv import compact

if TYPE_CHECKING:
    from pp_graph.odrl.model import Request
    from pp_graph.odrl.report import PolicyReport
    from pp_graph.risk.engine import RiskEngine
    from pp_graph.risk.odrl_check import SitePolicy
    from pp_graph.risk.signals import Profile

MAX_TURTLE = 200_000  # characters of one Turtle argument
ACTIONS = {"share": "dpv:Share", "transfer": "dpv:Transfer", "collect": "dpv:Collect", "use": "dpv:Use"}
_BASE = "https://pp-graph.invalid/mcp/"  # relative IRIs of a caller's Turtle resolve here, never to the server's folder
_PROBLEM = 300  # characters of the parser's message returned


def parse_turtle(text: object, where: str) -> Graph:
    """``text`` parsed as Turtle; InputError naming the argument when it is too long or not valid Turtle."""
    if not isinstance(text, str):
        raise InputError(where, f"expected Turtle as a string, got {type(text).__name__}")
    if len(text) > MAX_TURTLE:
        raise InputError(where, f"{len(text):,} characters is over the limit of {MAX_TURTLE:,}")
    from pp_graph.odrl.rdf_input import parse_quietly, refuse_ill_typed

    try:
        g = parse_quietly(data=text, format="turtle", publicID=f"{_BASE}{where}/")
    except Exception as e:  # rdflib's parser raises many unrelated types; all mean "not valid Turtle"
        problem = " ".join(str(e).split())[:_PROBLEM] or type(e).__name__
        raise InputError(where, f"not valid Turtle: {problem}") from None
    return refuse_ill_typed(g, where)


def evaluate_turtle(policy: str, request: str, state: str | None, limit: int) -> dict[str, Any]:
    """The compliance report of ``request`` against ``policy`` (in ``state``), all three Turtle texts."""
    from pp_graph.odrl import evaluate_parsed
    from pp_graph.odrl.model import parse_policy, parse_request

    pg, rg = parse_turtle(policy, "policy"), parse_turtle(request, "request")
    sg = parse_turtle(state, "state") if state is not None else None
    pol, req = parse_policy(pg, "policy"), parse_request(rg, "request")
    rep = evaluate_parsed(pol, req, sg, "state" if sg is not None else "(no state of the world)")
    return {"verdict": rep.verdict, "reports": [report_dict(rep, limit)]}


def evaluate_site(
    engine: RiskEngine,
    prof: Profile,
    action: str | None,
    data: Sequence[str],
    purposes: Sequence[str],
    recipients: Sequence[str],
    limit: int,
) -> dict[str, Any]:
    """An agent's action against the site's exported ODRL policy: the risk engine's ODRL verdict and evidence
    lines, and the report of every rule the request can meet (a rule whose action or target it cannot meet is
    inactive whatever else it says, and is left out)."""
    from pp_graph.risk.odrl_check import Call, request_of

    if action is not None and action not in ACTIONS:
        raise InputError("action", f"{action!r} is not an action; one of {', '.join(ACTIONS)}")
    if engine.odrl is None:
        raise InputError("site", "the server's risk engine evaluates no ODRL policies")
    call = Call(
        tuple(sorted({engine.resolve("data", d) for d in data})),
        tuple(sorted({engine.resolve("purpose", p) for p in purposes})),
        tuple(sorted({engine.resolve("recipient", r) for r in recipients})),
        engine.resolve("operation", ACTIONS[action]) if action else None,
    )
    found = engine.odrl.check(prof, call)  # the verdict check_egress applies, memoised with it
    req = request_of(call)
    return {
        "verdict": found["verdict"],
        "site": prof.site,
        "request": {
            "action": compact(str(req.rules[0].action)),
            "data": [compact(c) for c in call.categories],
            "purposes": [compact(p) for p in call.purposes],
            "recipients": list(call.recipients),
        },
        "reports": [_site_report(engine.odrl.site_policy(p), req, limit) for p in prof.policies],
        "evidence": found["rules"],
        "evidence_total": found["rule_count"],
        "policy": prof.describe(),
    }


def _site_report(site: SitePolicy, req: Request, limit: int) -> dict[str, Any]:
    """The report of one exported policy: its rules the request can meet, each with its premises; a rule stands
    for its group of rules a request cannot tell apart (``group`` lists them when there are several)."""
    from pp_graph.odrl.api import decide
    from pp_graph.odrl.evaluator import rule_report
    from pp_graph.odrl.report import PolicyReport
    from pp_graph.odrl.terms import NOT_APPLICABLE
    from pp_graph.risk.odrl_check import relevant

    pol = site.policy
    rules = [rule_report(pol.rules[i], q, pol, site.world, site.hier) for q in req.rules for i in relevant(site, q)]
    verdict, deciding = decide(rules, pol.conflict) if rules else (NOT_APPLICABLE, [])
    out = report_dict(PolicyReport(pol.iri, req.iri, site.world.now_literal, rules, verdict, deciding), limit)
    for r, d in zip(rules, out["rules"], strict=False):
        group = site.members.get(r.rule, ())
        if len(group) > 1:
            d["group"] = [str(m) for m in group]
    return out


def report_dict(rep: PolicyReport, limit: int) -> dict[str, Any]:
    """``pp_graph.odrl.to_dict`` with at most ``limit`` rule reports (``rule_total`` counts them all)."""
    from pp_graph.odrl import to_dict

    out = to_dict(rep)
    out["rule_total"] = len(out["rules"])
    out["rules"] = out["rules"][: max(0, limit)]
    return out
