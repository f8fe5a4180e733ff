"""ODRL evaluation beyond the conformance cases: DPV purposes and their hierarchy, delivery channels, logical
constraints, compact policies, what is not supported (never Satisfied), bad input, determinism."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Graph

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.odrl import evaluate, to_dict, to_graph, to_turtle
from pp_graph.odrl.terms import REPORT

PREFIXES = """
@prefix odrl: <http://www.w3.org/ns/odrl/2/> .
@prefix dpv: <https://w3id.org/dpv#> .
@prefix pd: <https://w3id.org/dpv/pd#> .
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix dct: <http://purl.org/dc/terms/> .
"""
NOW = PREFIXES + '<http://example.com/request/currentTime> dct:issued "2025-03-04T10:00:00Z"^^xsd:dateTime .'


def ttl(text: str) -> Graph:
    return Graph().parse(data=PREFIXES + text, format="turtle")


def purpose_policy(operator: str, right: str) -> Graph:
    return ttl(f"""
ex:p a odrl:Set ; odrl:uid ex:p ; odrl:permission ex:r .
ex:r a odrl:Permission ; odrl:target pd:Contact ; odrl:action dpv:Share ; odrl:assignee ex:acme ;
  odrl:constraint ex:c .
ex:c odrl:leftOperand odrl:purpose ; odrl:operator odrl:{operator} ; odrl:rightOperand {right} .
""")


def request(purpose: str = "dpv:DirectMarketing", target: str = "pd:EmailAddress", extra: str = "") -> Graph:
    return ttl(f"""
ex:q a odrl:Request ; odrl:permission ex:qr .
ex:qr a odrl:Permission ; odrl:assignee ex:acme ; odrl:action dpv:Share ; odrl:target {target} ;
  odrl:constraint [ odrl:leftOperand odrl:purpose ; odrl:operator odrl:eq ; odrl:rightOperand {purpose} ] {extra} .
""")


def constraint_state(rep: object) -> str:
    (rule,) = rep.rules  # type: ignore[attr-defined]
    return next(p.state for p in rule.premises if p.kind == "Constraint")


@pytest.mark.parametrize(
    ("operator", "right", "asked", "state"),
    [
        ("eq", "dpv:DirectMarketing", "dpv:DirectMarketing", "Satisfied"),
        ("eq", "dpv:Marketing", "dpv:DirectMarketing", "Unsatisfied"),  # eq is the same concept, not a narrower one
        ("neq", "dpv:Marketing", "dpv:DirectMarketing", "Satisfied"),
        ("neq", "dpv:DirectMarketing", "dpv:DirectMarketing", "Unsatisfied"),
        ("isA", "dpv:Marketing", "dpv:DirectMarketing", "Satisfied"),  # skos:broader in DPV
        ("isA", "dpv:Marketing", "dpv:PersonalisedAdvertising", "Satisfied"),  # two steps up
        ("isA", "dpv:Marketing", "dpv:ServiceProvision", "Unsatisfied"),
        ("isAnyOf", "(dpv:ServiceProvision dpv:Marketing)", "dpv:Advertising", "Satisfied"),
        ("isAnyOf", "(dpv:ServiceProvision dpv:Personalisation)", "dpv:DirectMarketing", "Unsatisfied"),
        ("isNoneOf", "(dpv:Marketing)", "dpv:DirectMarketing", "Unsatisfied"),
        ("isNoneOf", "(dpv:Marketing)", "dpv:ServiceProvision", "Satisfied"),
    ],
)
def test_purpose_constraints_follow_the_dpv_hierarchy(operator: str, right: str, asked: str, state: str) -> None:
    rep = evaluate(purpose_policy(operator, right), request(asked))
    assert constraint_state(rep) == state
    (rule,) = rep.rules
    assert rule.activation == ("Active" if state == "Satisfied" else "Inactive")


def test_targets_and_actions_match_narrower_terms() -> None:
    rep = evaluate(purpose_policy("isA", "dpv:Marketing"), request())
    (rule,) = rep.rules
    states = {p.kind: p.state for p in rule.premises}
    assert states == {"Target": "Satisfied", "Party": "Satisfied", "Action": "Satisfied", "Constraint": "Satisfied"}
    assert rep.verdict == "permitted"
    wider = evaluate(purpose_policy("isA", "dpv:Marketing"), request(target="pd:Tracking"))
    assert {p.kind: p.state for p in wider.rules[0].premises}["Target"] == "Unsatisfied"


def test_a_missing_purpose_is_undetermined_not_satisfied() -> None:
    req = ttl(
        "ex:q a odrl:Request ; odrl:permission ex:qr . "
        "ex:qr odrl:assignee ex:acme ; odrl:action dpv:Share ; odrl:target pd:EmailAddress ."
    )
    rep = evaluate(purpose_policy("isA", "dpv:Marketing"), req)
    assert constraint_state(rep) == "Undetermined"
    assert rep.rules[0].activation == "Undetermined"
    assert rep.verdict == "undetermined"


def test_an_unsupported_operator_is_reported_and_never_satisfied() -> None:
    rep = evaluate(purpose_policy("hasPart", "dpv:Marketing"), request())
    assert constraint_state(rep) == "Unsupported"
    prem = next(p for p in rep.rules[0].premises if p.kind == "Constraint")
    assert "not supported" in prem.message
    g = to_graph(rep)
    assert (None, REPORT.satisfactionState, REPORT.Satisfied) in g  # the target, party and action reports
    states = {str(o) for o in g.objects(None, REPORT.satisfactionState)}
    assert "urn:pp-graph:ontology#Unsupported" in states


def test_an_active_prohibition_with_a_purpose_decides() -> None:
    pol = ttl("""
ex:p a odrl:Set ; odrl:uid ex:p ; odrl:permission ex:ok ; odrl:prohibition ex:no .
ex:ok a odrl:Permission ; odrl:target pd:Contact ; odrl:action odrl:use .
ex:no a odrl:Prohibition ; odrl:target pd:Contact ; odrl:action dpv:Share ;
  odrl:constraint [ odrl:leftOperand odrl:purpose ; odrl:operator odrl:isA ; odrl:rightOperand dpv:Marketing ] .
""")
    rep = evaluate(pol, request("dpv:Advertising"))
    assert rep.verdict == "prohibited"
    assert [str(r) for r in rep.deciding] == ["http://example.org/no"]
    assert evaluate(pol, request("dpv:ServiceProvision")).verdict == "permitted"


def logical_policy(op: str, items: str) -> Graph:
    return ttl(f"""
ex:p a odrl:Set ; odrl:uid ex:p ; odrl:permission ex:r .
ex:r a odrl:Permission ; odrl:action odrl:use ; odrl:constraint ex:l .
ex:l a odrl:LogicalConstraint ; odrl:{op} ({items}) .
ex:ch odrl:leftOperand odrl:deliveryChannel ; odrl:operator odrl:eq ; odrl:rightOperand ex:email .
ex:pu odrl:leftOperand odrl:purpose ; odrl:operator odrl:isA ; odrl:rightOperand dpv:Marketing .
ex:late odrl:leftOperand odrl:dateTime ; odrl:operator odrl:gt ; odrl:rightOperand "2026-01-01"^^xsd:date .
""")


@pytest.mark.parametrize(
    ("op", "items", "state"),
    [
        ("and", "ex:ch ex:pu", "Satisfied"),
        ("and", "ex:ch ex:late", "Unsatisfied"),
        ("andSequence", "ex:ch ex:pu", "Satisfied"),
        ("or", "ex:late ex:pu", "Satisfied"),
        ("or", "ex:late", "Unsatisfied"),
        ("xone", "ex:ch ex:late", "Satisfied"),
        ("xone", "ex:ch ex:pu", "Unsatisfied"),  # both hold: not exactly one
    ],
)
def test_logical_constraints_and_delivery_channel(op: str, items: str, state: str, tmp_path: Path) -> None:
    sotw = tmp_path / "sotw.ttl"
    sotw.write_text(NOW)
    req = request(
        extra="; odrl:constraint [ odrl:leftOperand odrl:deliveryChannel ; odrl:operator odrl:eq ; "
        "odrl:rightOperand ex:email ]"
    )
    rep = evaluate(logical_policy(op, items), req, sotw)
    assert constraint_state(rep) == state


def test_an_open_member_leaves_an_and_open_but_a_false_one_closes_it() -> None:
    no_time = request()  # no state of the world: the date constraint cannot be decided
    assert constraint_state(evaluate(logical_policy("and", "ex:pu ex:late"), no_time)) == "Undetermined"
    assert constraint_state(evaluate(logical_policy("or", "ex:pu ex:late"), no_time)) == "Satisfied"


def test_compact_policy_rules_inherit_policy_level_properties() -> None:
    pol = ttl("""
ex:p a odrl:Set ; odrl:uid ex:p ; odrl:target pd:Contact ; odrl:assignee ex:acme ;
  odrl:permission ex:r ; odrl:prohibition ex:n .
ex:r a odrl:Permission ; odrl:action odrl:use .
ex:n a odrl:Prohibition ; odrl:action dpv:Share ; odrl:assignee ex:other .
""")
    rep = evaluate(pol, request())
    by = {str(r.rule).rsplit("/", 1)[-1]: {p.kind: p.state for p in r.premises} for r in rep.rules}
    assert by["r"] == {"Target": "Satisfied", "Party": "Satisfied", "Action": "Satisfied"}
    assert by["n"] == {"Target": "Satisfied", "Party": "Unsatisfied", "Action": "Satisfied"}  # its own assignee wins
    assert rep.verdict == "permitted"


def test_a_request_naming_nothing_the_policy_knows_says_so() -> None:
    rep = evaluate(
        purpose_policy("isA", "dpv:Marketing"),
        ttl(
            "ex:q a odrl:Request ; odrl:permission ex:qr . ex:qr odrl:assignee ex:nobody ; "
            "odrl:action odrl:print ; odrl:target ex:thing ."
        ),
    )
    assert rep.verdict == "not-applicable"
    assert rep.notes and "nothing this policy knows" in rep.notes[0] and "odrl/2/print" in rep.notes[0]
    assert to_dict(rep)["notes"] == rep.notes


def test_same_input_same_report() -> None:
    one = to_turtle(evaluate(purpose_policy("isA", "dpv:Marketing"), request()))
    two = to_turtle(evaluate(purpose_policy("isA", "dpv:Marketing"), request()))
    assert one == two and "report:PermissionReport" in one


@pytest.mark.parametrize(
    ("which", "text", "needle"),
    [
        ("policy", "ex:p a odrl:Set ; odrl:permission", "not valid turtle"),
        ("policy", "ex:p a odrl:Set .", "has no rule"),
        ("policy", "ex:x ex:y ex:z .", "no ODRL policy"),
        (
            "policy",
            "ex:p a odrl:Set ; odrl:permission ex:r . ex:r odrl:constraint [ odrl:leftOperand odrl:purpose ] .",
            "has no odrl:operator, odrl:rightOperand",
        ),
        ("request", "ex:q a odrl:Request .", "asks for nothing"),
        (
            "request",
            "ex:q a odrl:Request ; odrl:permission ex:qr . ex:qr odrl:target ex:x .",
            "exactly one odrl:action",
        ),
        ("sotw", '<http://example.com/request/currentTime> dct:issued "soon" .', "not an xsd:dateTime"),
        (  # an ill-typed literal: was rdflib's logged traceback and a constraint decided on nothing
            "policy",
            "ex:p a odrl:Set ; odrl:permission ex:r . ex:r odrl:action odrl:use ; odrl:constraint [ "
            'odrl:leftOperand odrl:count ; odrl:operator odrl:lt ; odrl:rightOperand "abc"^^xsd:integer ] .',
            "the literal 'abc' is not a valid xsd:integer",
        ),
    ],
)
def test_bad_input_exits_2_naming_the_file(tmp_path: Path, which: str, text: str, needle: str) -> None:
    files = {
        "policy": PREFIXES + "ex:p a odrl:Set ; odrl:permission ex:r . ex:r odrl:action odrl:use .",
        "request": PREFIXES + "ex:q a odrl:Request ; odrl:permission ex:qr . ex:qr odrl:action odrl:read .",
        "sotw": NOW,
    }
    files[which] = PREFIXES + text
    paths = {}
    for k, v in files.items():
        paths[k] = tmp_path / f"{k}.ttl"
        paths[k].write_text(v)
    res = CliRunner().invoke(
        main,
        [
            "odrl",
            "evaluate",
            "--policy",
            str(paths["policy"]),
            "--request",
            str(paths["request"]),
            "--sotw",
            str(paths["sotw"]),
        ],
    )
    assert res.exit_code == 2, res.output
    assert f"{which}.ttl" in res.output and needle in res.output
    assert "Traceback" not in res.output


def test_evaluate_command_formats_and_exit_codes(tmp_path: Path) -> None:
    suite = Path(__file__).parent / "fixtures" / "odrl-test-suite"
    args = [
        "odrl",
        "evaluate",
        "--policy",
        str(suite / "policies" / "policy-19.ttl"),
        "--request",
        str(suite / "requests" / "request-1.ttl"),
    ]
    ok = CliRunner().invoke(main, [*args, "--sotw", str(suite / "sotw" / "dutyFulfilled.ttl"), "--format", "ttl"])
    assert ok.exit_code == 0, ok.output
    g = Graph().parse(data=ok.output, format="turtle")
    assert (None, REPORT.deonticState, REPORT.Fulfilled) in g
    bad = CliRunner().invoke(main, [*args, "--sotw", str(suite / "sotw" / "dutyViolated.ttl")])
    assert bad.exit_code == 1 and "Violated" in bad.output and "not-permitted" in bad.output
    with pytest.raises(InputError, match="does not exist"):
        evaluate(tmp_path / "missing.ttl", suite / "requests" / "request-1.ttl")
