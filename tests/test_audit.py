"""Data over-exposure audits: taint tracking, intent/necessity, committee, CLI, loaders, call graph."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from llm_server import FakeLLMServer

from pp_graph.audit.auditor import Auditor
from pp_graph.audit.chains import call_graph
from pp_graph.audit.committee import LLMCommittee
from pp_graph.audit.contracts import read_contract, read_contracts, read_tools
from pp_graph.audit.model import INTENDED, NECESSARY, OVER_EXPOSED, Trace
from pp_graph.audit.privacylens import case_trace, load_cases, parse_trajectory
from pp_graph.audit.synth import REWORDINGS, leaky_call, minimal_call, reword
from pp_graph.cli import main
from pp_graph.errors import ContractError, InputError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "audit"
SAMPLE = ROOT / "tests" / "fixtures" / "privacylens" / "sample.json"
FULL = ROOT.parent / "shared" / "datasets" / "privacylens" / "main_data.json"

CARD = "4539 1488 0343 6467"
LOG = {
    "transactions": [
        {
            "payment_date": "2025-03-14",
            "amount": "4,870.00",
            "card_number": CARD,
            "cvv": "512",
            "payee": "Northwind Traders",
        }
    ]
}


def trace(instruction: str, result: Any, args: Any, tool: str = "gmail.send_email", **step: Any) -> Trace:
    return Trace.from_dict(
        {
            "id": "t",
            "instruction": instruction,
            "steps": [
                {"tool": "bank.search", "args": {"q": "x"}, "result": result},
                {"tool": tool, "args": args, **step},
            ],
        }
    )


def by_path(flows: list[Any]) -> dict[str, Any]:
    return {f.source_path: f for f in flows}


def test_transaction_log_card_flagged_payment_date_not() -> None:
    body = f"Paid on 2025-03-14. Log: amount 4,870.00, card {CARD}, cvv 512, payee Northwind Traders."
    t = trace(
        "Email the auditor the payment date of the Northwind Traders invoice.", LOG, {"to": "a@b.example", "body": body}
    )
    flows = by_path(Auditor().flows(t))
    card = flows["$.transactions[0].card_number"]
    assert card.verdict == OVER_EXPOSED and card.kind is not None and card.kind.endswith("#PaymentCardNumber")
    assert card.risk is not None and card.risk["decision"] == "deny"
    assert flows["$.transactions[0].cvv"].verdict == OVER_EXPOSED
    assert flows["$.transactions[0].payment_date"].verdict == INTENDED
    assert flows["$.transactions[0].amount"].verdict == OVER_EXPOSED
    assert flows["$.transactions[0].payee"].verdict == INTENDED  # the instruction names the payee
    # offsets point at the value in the sink, the path at the leaf in the source
    assert body[slice(*card.sink_span)] == CARD and card.source_span == (0, len(CARD))


@pytest.mark.parametrize(
    ("source", "sink", "match"),
    [
        (CARD, "card 4539-1488-0343-6467 on file", "normalised"),
        ("+1 415 555 0137", "call (415) 555-0137 today", "normalised"),
        ("Dana.Whitfield@example.net", "write to dana.whitfield at example dot net", "email"),
        ("2025-03-14", "paid on 14/03/2025", "normalised"),
        ("2025-03-14", "paid on March 14, 2025", "normalised"),
        ("4,870.00", "amount: 4870 in total", "normalised"),
        ("Dana Whitfield", "Customer DANA WHITFIELD complained", "normalised"),
    ],
)
def test_reformatted_values_are_tracked(source: str, sink: str, match: str) -> None:
    t = trace("Send a note.", {"record": {"value_field": source}}, {"body": sink})
    flows = Auditor().flows(t)
    assert [f.match for f in flows] == [match]
    s, e = flows[0].sink_span
    assert sink[s:e].strip(" ,.") != "" and sink[s:e] in sink


def test_reworded_sentence_is_tracked_fuzzily() -> None:
    note = (
        "We met on Monday. Priya Raman missed the second day because of her chemotherapy appointment at Lisboa "
        "General. The roadmap was agreed."
    )
    post = "Thanks all! because of a chemotherapy appointment at lisboa general, priya raman missed the second day"
    flows = Auditor().flows(trace("Write a post thanking my team.", {"content": note}, {"content": post}))
    fuzzy = [f for f in flows if f.match == "fuzzy"]
    assert fuzzy and all(f.verdict == OVER_EXPOSED for f in fuzzy)
    assert any(f.kind and f.kind.endswith("Health") for f in flows)  # the detected term flows too


def test_unrelated_text_is_no_flow() -> None:
    note = "Priya Raman missed the second day because of her chemotherapy appointment at Lisboa General."
    flows = Auditor().flows(trace("Post.", {"content": note}, {"content": "Great offsite, thanks everyone!"}))
    assert flows == []


def test_contract_makes_required_field_necessary(tmp_path: Path) -> None:
    contract = tmp_path / "ticket.toml"
    contract.write_text(
        '[contract]\nname = "ticket.create"\nboundary = "tool"\npurpose = "dpv:CustomerCare"\nsite = "zendesk.com"\n'
        '[fields.customer_email]\nclasses = ["personal"]\nrequired = true\ncategory = "pd:EmailAddress"\n'
        '[fields.description]\nclasses = ["internal", "personal"]\nrequired = true\nfree_text = true\n'
    )
    sinks = read_contracts([tmp_path])
    assert sinks["ticket.create"].purpose and sinks["ticket.create"].site == "zendesk.com"
    result = {"customer": {"email": "dana@example.net", "phone": "+1 415 555 0137"}}
    args = {"customer_email": "dana@example.net", "description": "Broken box. Call +1 415 555 0137."}
    flows = by_path(Auditor(sinks=sinks).flows(trace("Open a refund ticket.", result, args, tool="ticket.create")))
    assert flows["$.customer.email"].verdict == NECESSARY
    assert "contract" in flows["$.customer.email"].reasons[0]
    assert flows["$.customer.phone"].verdict == OVER_EXPOSED  # a value inside free text is not required
    assert flows["$.customer.phone"].risk["site"] == "zendesk.com"


def test_contract_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[contract]\nname = "x"\nboundary = "wire"\n')
    with pytest.raises(ContractError, match=r"bad\.toml.*boundary.*'wire'"):
        read_contract(bad)
    bad.write_text(
        '[contract]\nname = "x"\nboundary = "tool"\npurpose = "dpv:CustomerCare"\n[fields.a]\nclasses = ["personal"]\n'
        'category = "pd:NoSuchThing"\n'
    )
    with pytest.raises(ContractError, match=r"fields\.a\.category.*pd:NoSuchThing"):
        read_contract(bad)


def test_schema_required_identifier_is_necessary() -> None:
    tools = read_tools(EXAMPLES / "tools.json")
    result = {"contacts": [{"mail": "kim@example.org", "notes": "Kim is on parental leave until June."}]}
    args = {"to": "kim@example.org", "subject": "Hi", "body": "Welcome back soon."}
    flows = by_path(Auditor(sinks=tools).flows(trace("Write Kim a hello.", result, args)))
    assert flows["$.contacts[0].mail"].verdict == NECESSARY
    assert "JSON schema" in flows["$.contacts[0].mail"].reasons[0]


# -- the committee, against a local OpenAI-compatible server --


def _committee_server(verdicts: dict[str, str]) -> FakeLLMServer:
    """Each model name answers its verdict for every flow it is shown."""

    def respond(body: dict[str, Any]) -> str:
        flows = json.loads(body["messages"][-1]["content"])["flows"]
        v = verdicts[body["model"]]
        return json.dumps(
            {"flows": [{"id": f["id"], "verdict": v, "reason": f"{v} by {body['model']}"} for f in flows]}
        )

    return FakeLLMServer(respond)


def test_committee_saying_necessary_cannot_clear_a_flagged_flow() -> None:
    body = f"Paid 2025-03-14 with card {CARD}."
    t = trace("Email the auditor the payment date.", LOG, {"body": body})
    with _committee_server({"m1": NECESSARY, "m2": NECESSARY, "m3": INTENDED}) as srv:
        flows = by_path(Auditor(committee=LLMCommittee(["m1", "m2", "m3"], base_url=srv.base_url)).flows(t))
        assert srv.count == 3
        sent = json.dumps(srv.requests)
    card = flows["$.transactions[0].card_number"]
    assert card.verdict == OVER_EXPOSED and card.risk is not None
    assert card.committee == {"votes": {NECESSARY: 2, INTENDED: 1}, "members": 3, "majority": NECESSARY}
    assert any("cannot clear" in r for r in card.reasons)
    assert flows["$.transactions[0].payment_date"].verdict == INTENDED
    assert CARD not in sent and "4539" not in sent  # the members never see values


def test_committee_majority_can_flag_and_a_minority_cannot() -> None:
    t = trace("Email the auditor the payment date.", LOG, {"body": "Paid 2025-03-14."})
    with _committee_server({"a": OVER_EXPOSED, "b": OVER_EXPOSED, "c": INTENDED}) as srv:
        flow = Auditor(committee=LLMCommittee(["a", "b", "c"], base_url=srv.base_url)).flows(t)[0]
    assert flow.verdict == OVER_EXPOSED and flow.reasons[-1].startswith("committee (2/3)")
    assert flow.risk is not None  # a flow the committee flags gets its decision too
    with _committee_server({"a": OVER_EXPOSED, "b": INTENDED, "c": INTENDED}) as srv:
        flow = Auditor(committee=LLMCommittee(["a", "b", "c"], base_url=srv.base_url)).flows(t)[0]
    assert flow.verdict == INTENDED


# -- the CLI --


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, ["audit", *args], input=input)


def test_cli_examples_json_and_default_form() -> None:
    opts = ["--tools", str(EXAMPLES / "tools.json"), "--contracts", str(EXAMPLES / "ticket.create.toml")]
    r = run("traces", str(EXAMPLES / "traces.jsonl"), *opts, "--format", "json")
    assert r.exit_code == 1, r.output
    records = json.loads(r.stdout)
    assert [x["id"] for x in records] == ["email-payment-date", "post-team-offsite", "ticket-refund"]
    assert all(set(x) == {"id", "flows", "summary"} for x in records)
    kinds = {x["id"]: x["summary"]["over_exposed_kinds"] for x in records}
    assert kinds["email-payment-date"]["pd:PaymentCardNumber"] == 2
    assert "pd:PhysicalHealth" in kinds["post-team-offsite"]
    assert {"pd:TelephoneNumber", "pd:BirthDate", "pd:PhysicalHealth"} <= set(kinds["ticket-refund"])
    default = run(str(EXAMPLES / "traces.jsonl"), *opts, "--format", "json")
    assert default.exit_code == 1 and default.stdout == r.stdout


def test_cli_canary_values_never_printed(tmp_path: Path) -> None:
    canaries = ["ZQX-CANARY-7731", "canary.person@example.org", "4916 3380 6429 1795", "Oswaldine Pemberforth"]
    result = {"profile": {"token_note": canaries[0], "email": canaries[1], "card": canaries[2], "name": canaries[3]}}
    body = " ".join(f"item {c}." for c in canaries)
    line = json.dumps(
        {
            "id": "c",
            "instruction": "Say hi.",
            "steps": [{"tool": "read", "result": result}, {"tool": "send", "args": {"body": body}}],
        }
    )
    for fmt in ("json", "table", "csv"):
        r = run("traces", "-", "--format", fmt, input=line + "\n")
        assert r.exit_code == 1
        assert "over-exposed" in r.output
        for c in canaries:
            assert c not in r.output and c.replace(" ", "") not in r.output


def test_cli_exit_codes_and_bad_lines() -> None:
    clean = {
        "id": "ok",
        "instruction": "Hi.",
        "steps": [{"tool": "a", "result": {"x": "nothing here at all"}}, {"tool": "b", "args": {"y": "hello"}}],
    }
    r = run("traces", "-", "--format", "json", input=json.dumps(clean) + "\n")
    assert r.exit_code == 0 and json.loads(r.stdout)[0]["summary"][OVER_EXPOSED] == 0
    r = run("traces", "-", "--format", "json", input=json.dumps(clean) + "\n{not json\n" + '{"id": "x", "steps": []}\n')
    assert r.exit_code == 1
    recs = json.loads(r.stdout)
    assert recs[1]["error"].startswith("line 2: invalid JSON") and recs[1]["line"] == 2
    assert "line 3" in recs[2]["error"] and "'steps' must be a non-empty list" in recs[2]["error"]
    r = run("traces", "-", "--graph", "/nonexistent-dir", input="")
    assert r.exit_code == 2
    r = run("traces", "-", "--contracts", str(EXAMPLES / "tools.json"), input="")
    assert r.exit_code == 2 and "not valid TOML" in r.output


def test_cli_privacylens_and_chains() -> None:
    r = run("privacylens", str(SAMPLE), "--format", "json")
    recs = json.loads(r.stdout)
    assert [x["id"] for x in recs] == ["main1", "main6"] and r.exit_code in (0, 1)
    r = run("chains", str(EXAMPLES / "tools.json"), "--format", "json")
    assert r.exit_code == 0
    rows = json.loads(r.stdout)
    assert rows[0]["source"] == "bank.search_transactions" and rows[0]["top_category"] == "pd:PaymentCardNumber"
    assert [x["rank"] for x in rows] == list(range(1, len(rows) + 1))
    assert all(x["source"] != x["sink"] for x in rows)
    assert not any(x["flows"].endswith("$.visibility") for x in rows)  # an enum takes nothing from a result


def test_call_graph_types() -> None:
    tools = read_tools(EXAMPLES / "tools.json")
    rows = call_graph(tools)
    ticket = next(x for x in rows if x["source"] == "shop.get_order" and x["sink"] == "ticket.create")
    assert "$.order.customer.email→$.customer_email" in ticket["flows"]
    assert "$.order.customer.name→$.customer_email" not in ticket["flows"]  # an e-mail field takes e-mails only


# -- PrivacyLens loader and the benchmark's call builder --


def test_trajectory_parsing() -> None:
    text = 'Action: A\nAction Input: {"q": 1}\nObservation: {"r": [1, 2]}\nAction: B\nAction Input: {"x": "y"}\n'
    steps = parse_trajectory(text, "t")
    assert [(s.tool, s.args, s.result) for s in steps] == [("A", {"q": 1}, {"r": [1, 2]}), ("B", {"x": "y"}, None)]
    with pytest.raises(InputError, match="before any 'Action:'"):
        parse_trajectory("Observation: {}", "t")


def test_privacylens_leaky_call_found_minimal_clean() -> None:
    case = next(c for c in load_cases(SAMPLE) if c["name"] == "main1")
    auditor = Auditor()
    for kind in REWORDINGS:
        call = leaky_call(case, kind, 0)
        t = case_trace(case, {"main1": call.args})
        flagged = [
            f.sink_span for f in auditor.flows(t) if f.verdict == OVER_EXPOSED and f.sink_step == len(t.steps) - 1
        ]
        found = [any(a < fe and fs < b for fs, fe in flagged) for a, b in call.items]
        assert sum(found) >= len(found) - 1, (kind, found)
    call = minimal_call(case)
    t = case_trace(case, {"main1": call.args})
    assert not [f for f in auditor.flows(t) if f.verdict == OVER_EXPOSED and f.sink_step == len(t.steps) - 1]


def test_rewording_is_seeded_and_deterministic() -> None:
    case = load_cases(SAMPLE)[0]
    assert leaky_call(case, "all", 7) == leaky_call(case, "all", 7)
    item = "Mr. Smithson paid 12,500 dollars in March, and the case was closed after 3.5 months."
    assert reword(item, "numbers", random.Random(1)) != item
    assert reword(item, "clauses", random.Random(1)) != item
    with pytest.raises(ValueError, match="unknown rewording"):
        reword(item, "paraphrase", random.Random(1))


@pytest.mark.slow
def test_full_privacylens_loads() -> None:
    if not FULL.is_file():
        pytest.skip("PrivacyLens main_data.json is not beside the repository")
    cases = load_cases(FULL)
    assert len(cases) == 493
    traces = [case_trace(c) for c in cases]
    assert sum(1 for t in traces if any(s.result is not None for s in t.steps)) >= 480


def test_over_exposed_flows_are_judged_against_the_sites_policy_graph(tmp_path: Path) -> None:
    from test_risk_engine import SITES

    from pp_graph.risk.engine import RiskEngine
    from pp_graph.store.embedded import EmbeddedStore

    (tmp_path / "ads.trig").write_text(SITES["ads.example"], encoding="utf-8")
    store = EmbeddedStore()
    store.load([tmp_path])
    auditor = Auditor(RiskEngine(store))
    result = {"contact": {"email": "kim@example.org", "phone": "+1 415 555 0137"}}
    args = {"message": "Reach Kim at kim@example.org or (415) 555-0137."}
    with_policy = by_path(auditor.flows(trace("Say hi to Kim.", result, args, site="ads.example")))
    email = with_policy["$.contact.email"]
    assert email.verdict == OVER_EXPOSED and email.risk is not None
    assert email.risk["policy"] == "ads.example" and email.risk["policy_match"] != "no_policy"
    assert email.risk["evidence"], "the decision cites the policy statements it matched"
    without = by_path(auditor.flows(trace("Say hi to Kim.", result, args, site="nowhere.example")))
    assert without["$.contact.email"].risk["policy_match"] == "no_policy"
    # the CLI reads the same graph
    line = json.dumps(
        {
            "id": "g",
            "instruction": "Say hi to Kim.",
            "steps": [{"tool": "crm.get", "result": result}, {"tool": "dm.send", "args": args, "site": "ads.example"}],
        }
    )
    r = run("traces", "-", "--graph", str(tmp_path), "--format", "json", input=line + "\n")
    assert r.exit_code == 1
    flows = json.loads(r.stdout)[0]["flows"]
    assert {f["risk"]["policy"] for f in flows} == {"ads.example"}


def test_batched_detection_equals_per_leaf_detection() -> None:
    from pp_graph.audit.facts import _detect_all
    from pp_graph.risk.detect import detect

    texts = [
        "card 4539 1488 0343 6467",
        "+1 415 555 0137",
        "born on 1987-06-02",
        "123",
        "Main Street",
        "mail dana@example.net about her diabetes",
        "",
        "nothing here",
        "192.168.0.1 and 10 Downing Street",
    ]
    assert _detect_all(texts) == [detect(t) for t in texts]


def test_cli_committee_options_reach_the_server() -> None:
    line = json.dumps(
        {
            "id": "k",
            "instruction": "Email the auditor the payment date.",
            "steps": [{"tool": "bank.search", "result": LOG}, {"tool": "mail", "args": {"body": "Paid 2025-03-14."}}],
        }
    )
    with _committee_server({"a": OVER_EXPOSED, "b": OVER_EXPOSED}) as srv:
        r = run(
            "-", "--committee", "a", "--committee", "b", "--llm-base-url", srv.base_url, "--format", "json", input=line
        )
        assert srv.count == 2
    assert r.exit_code == 1
    flow = json.loads(r.stdout)[0]["flows"][0]
    assert flow["verdict"] == OVER_EXPOSED and flow["committee"]["votes"] == {OVER_EXPOSED: 2}


def test_the_auditor_detects_in_its_engines_ner_mode() -> None:
    """The facts are detected in the engine's NER mode, not always in the default one."""
    from pp_graph.risk.engine import RiskEngine

    name = "Zqxwv Plortnik"  # on no name list: only the NER finds it
    t = trace("Send a note.", {"record": {"value_field": name}}, {"body": f"Customer {name}"})
    (default,) = Auditor().flows(t)
    assert default.kind is not None and default.kind.endswith("#Name")  # NER found the name
    (patterns,) = Auditor(RiskEngine(None, ner_mode="none")).flows(t)
    assert patterns.kind is None or not patterns.kind.endswith("#Name"), patterns.kind  # no NER ran
