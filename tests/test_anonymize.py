"""Anonymization: recognisers, the five levels, placeholders, monotonicity, the verified guesser, the guard,
no raw value in any record, and every bad-input case of the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm_server import FakeLLMServer

import pp_graph
from pp_graph.anonymize import Entity, Guess, anonymize, apply_level, recognize
from pp_graph.anonymize.guesser import OpenAIGuesser, parse_guesses
from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.risk import ActionContext, RiskEngine

GRAPHS = Path(__file__).parent / "fixtures" / "graphs"
SAMPLE = Path(__file__).parent / "fixtures" / "pii-synth" / "sample.json"
TEXT = "Mail Jane Roe at jane@roe.org on 7/30/1964. Roe, our nurse at Acme Corp in Paris, is 64 years old."


def types_of(text: str) -> dict[str, str]:
    return {text[e.start : e.end]: e.type for e in recognize(text)}


@pytest.mark.parametrize(
    ("text", "value", "type_"),
    [
        ("Mail me at jane.roe@example.org today", "jane.roe@example.org", "EMAIL_ADDRESS"),
        ("My card 4111 1111 1111 1111 expires", "4111 1111 1111 1111", "CREDIT_CARD"),
        ("IBAN GB82WEST12345698765432 please", "GB82WEST12345698765432", "IBAN_CODE"),
        ("Here's my SSN: 514-69-0360", "514-69-0360", "US_SSN"),
        ("keep getting address 41.176.181.243 blocked", "41.176.181.243", "IP_ADDRESS"),
        ("My driver's license number is F162823540116", "F162823540116", "US_DRIVER_LICENSE"),
        ("My passport number is X1234567.", "X1234567", "PASSPORT"),
        ("My zip code is 90010-170", "90010-170", "ZIP_CODE"),
        ("My website is https://www.example.com.cy/", "https://www.example.com.cy/", "DOMAIN_NAME"),
        ("Call me on 618-226-1460 tonight", "618-226-1460", "PHONE_NUMBER"),
        ("She was born on 7/30/1964. Fine.", "7/30/1964", "DATE_TIME"),
        ("He just turned 50 years old", "50", "AGE"),
        ("Hello, this is Mr. Ronald Bodnar.", "Mr.", "TITLE"),
        ("Hello, this is Mr. Ronald Bodnar.", "Ronald Bodnar", "PERSON"),
        ("The bus station is on Villacher Strasse 89", "Villacher Strasse 89", "STREET_ADDRESS"),
        ("Barack Obama visited Microsoft in Germany with French delegates.", "Germany", "GPE"),
        ("Barack Obama visited Microsoft in Germany with French delegates.", "Microsoft", "ORGANIZATION"),
        ("Barack Obama visited Microsoft in Germany with French delegates.", "French", "NRP"),
    ],
)
def test_every_benchmark_type_is_recognised(text: str, value: str, type_: str) -> None:
    assert types_of(text).get(value) == type_, types_of(text)


def test_higher_priority_wins_overlaps() -> None:
    found = recognize("card 4111 1111 1111 1111", ner=False)
    assert [e.type for e in found] == ["CREDIT_CARD"]  # not also a phone number


# ---- levels ----


def level(text: str, n: int) -> str:
    return apply_level(text, recognize(text), n)[0]


def test_l1_generalises_the_most_specific_identifiers() -> None:
    out = level(TEXT, 1)
    assert "J. R." in out and "July 1964" in out and "an e-mail address" in out
    assert "Acme Corp" in out and "Paris" in out  # organisations and places wait for L2


def test_l2_generalises_more_types() -> None:
    out = level(TEXT, 2)
    assert "an organisation" in out and "a place" in out and "in their 60s" in out and "the 1960s" in out
    assert "Roe" not in out and "Paris" not in out


def test_l3_placeholders_are_consistent() -> None:
    t = "Jane Roe called. Later Jane wrote to Max Muster, and Jane Roe paid. Max replied from Paris to Paris."
    out = level(t, 3)
    assert out.count("[PERSON_1]") == 3 and out.count("[PERSON_2]") == 2 and out.count("[GPE_1]") == 2
    assert "Jane" not in out and "Max" not in out and "[PERSON_3]" not in out


def test_l4_rewrites_contextual_cues() -> None:
    out = level("My brother works at Deloitte as a nurse; call 0044 123.", 4)
    assert "brother" not in out and "nurse" not in out and "a relative" in out and "a professional" in out
    assert "0044" not in out and "123" not in out


def test_l5_generalises_sentences() -> None:
    t = "Call Jane Roe, jane@roe.org, 618-226-1460 (mobile) about the Zorblat merger."
    l4, l5 = level(t, 4), level(t, 5)
    assert "[DETAILS]" in l5 and "(mobile)" not in l5 and "mobile" in l4
    assert len(l5) < len(l4)


def test_levels_are_pure() -> None:
    ents = recognize(TEXT)
    for n in range(1, 6):
        assert apply_level(TEXT, ents, n) == apply_level(TEXT, ents, n)


def test_levels_reject_bad_arguments() -> None:
    with pytest.raises(InputError, match="level"):
        apply_level("x", [], 6)
    with pytest.raises(InputError, match="overlap"):
        apply_level("abcdef", [Entity("PERSON", 0, 3, "t"), Entity("GPE", 2, 5, "t")], 3)


def _tokens(s: str) -> list[str]:
    return re.findall(r"\w+", s.lower())


def test_privacy_rises_and_utility_falls_on_a_benchmark_sample() -> None:
    rows = json.loads(SAMPLE.read_text(encoding="utf-8"))
    priv, util = [], []
    for n in range(1, 6):
        hidden = total = kept = other = 0
        for r in rows:
            text = r["full_text"]
            out = apply_level(text, recognize(text), n)[0]
            out_toks = set(_tokens(out))
            for s in r["spans"]:
                total += 1
                hidden += s["entity_value"] not in out
            gold = [(s["start_position"], s["end_position"]) for s in r["spans"]]
            for m in re.finditer(r"\w+", text):
                if not any(a < m.end() and m.start() < b for a, b in gold):
                    other += 1
                    kept += m.group(0).lower() in out_toks
        priv.append(hidden / total)
        util.append(kept / other)
    assert priv == sorted(priv) and priv[0] < priv[-1], priv
    assert util == sorted(util, reverse=True) and util[0] > util[-1], util
    assert priv[2] >= 0.8, priv


# ---- the verified guesser and escalation ----


class ScriptedGuesser:
    name = "scripted"

    def __init__(self, *guesses: Guess) -> None:
        self.script = list(guesses)

    def guesses(self, rewritten: str) -> list[Guess]:
        return self.script


def test_hallucinated_guess_does_not_escalate() -> None:
    g = ScriptedGuesser(Guess("PERSON", "Walter White", "llm"))
    r = anonymize("Mail Jane Roe at jane@roe.org", 2, escalate=True, guesser=g)
    assert r.level == 2 and r.unnecessary_escalations == 1
    assert [v.supported for v in r.guesses] == [False]
    assert r.guesses[0].reason == "not in the original text"


def test_supported_guess_escalates_up_to_max_level() -> None:
    g = ScriptedGuesser(Guess("PERSON", "roe", "llm"))  # a token of the original name
    r = anonymize("Mail Jane Roe at jane@roe.org", 2, escalate=True, max_level=4, guesser=g)
    assert r.level == 4 and [x["level"] for x in r.levels_run] == [2, 3, 4]
    assert all(v.supported for v in r.guesses) and "maximum" in r.levels_run[-1]["why"]


def test_offline_guesser_escalates_while_values_survive() -> None:
    r = anonymize(TEXT, 1, escalate=True)
    assert r.level >= 2 and r.levels_run[0]["supported_guesses"] >= 1  # Acme Corp, Paris survive L1
    assert "Paris" not in r.text and "Acme" not in r.text


def test_llm_guesser_through_the_openai_client() -> None:
    answer = json.dumps({"guesses": [{"type": "PERSON", "value": "Jane Roe"}, {"type": "GPE", "value": "Atlantis"}]})
    with FakeLLMServer(lambda body: answer) as srv:
        g = OpenAIGuesser("test-model", base_url=srv.base_url, api_key="k")
        r = anonymize("Mail Jane Roe at jane@roe.org", 3, escalate=True, max_level=4, guesser=g)
        assert srv.count == 2  # asked after L3 and after L4
    assert [v.supported for v in r.guesses[:2]] == [True, False]
    assert r.level == 4


def test_parse_guesses() -> None:
    assert parse_guesses('noise {"guesses": [{"type": "PERSON", "value": "A"}]}')[0].value == "A"
    with pytest.raises(pp_graph.errors.PPGraphError):
        parse_guesses("no json here")


def test_a_guess_type_that_is_not_an_entity_type_never_reaches_the_record() -> None:
    # the model may put a value where the type belongs; the type is copied into decision records
    [g] = parse_guesses('{"guesses": [{"type": "Zqxwv Plortnik", "value": "Zqxwv Plortnik"}]}')
    assert g.type == "UNKNOWN"
    assert parse_guesses('{"guesses": [{"type": "PERSON", "value": "x"}]}')[0].type == "PERSON"


def test_python_front_door() -> None:
    r = pp_graph.anonymize("Mail Jane Roe at jane@roe.org", level=3)
    assert r.text == "Mail [PERSON_1] at [EMAIL_ADDRESS_1]"
    assert [(e.type, e.start, e.end) for e in r.entities] == [("PERSON", 5, 13), ("EMAIL_ADDRESS", 17, 29)]


# ---- the guard ----

CANARY = "Mail Zqxwv Plortnik at zqxwv.plortnik@canary-mail.org, card 4111 1111 1111 1111, SSN 514-69-0360."
CANARY_PARTS = ("Zqxwv", "Plortnik", "zqxwv", "canary-mail", "4111", "514-69")


def ctx(recipient: str, purpose: str, basis: str, lk: float) -> ActionContext:
    return ActionContext(text=CANARY, recipients=(recipient,), purposes=(purpose,), basis=basis, likelihood=lk)


def test_guard_three_outcomes() -> None:
    e = RiskEngine(None)
    allow = e.guard(ActionContext(text="Hello there", recipients=("first_party",), likelihood=0.1))
    assert allow.decision.decision == "allow" and allow.text == "Hello there" and allow.anonymized is None
    deny = e.guard(ctx("advertising", "dpv:Advertising", "background", 1.0))
    assert deny.decision.decision == "deny" and deny.text is None
    tr = e.guard(
        ActionContext(
            text="Mail Jane Roe at jane@roe.org",
            recipients=("advertising",),
            purposes=("dpv:Marketing",),
            basis="default",
            likelihood=0.5,
        )
    )
    assert tr.decision.decision == "transform" and tr.anonymized is not None
    assert tr.anonymized.start_level == int(tr.decision.level[1])
    assert tr.text is not None and "Jane" not in tr.text and "jane@roe.org" not in tr.text
    rec = tr.record()["anonymization"]
    assert rec["start_level"] == tr.decision.level and rec["levels_run"][0]["why"]


def test_guard_max_level_caps_the_start() -> None:
    g = RiskEngine(None).guard(
        ActionContext(
            text="Mail Jane Roe at jane@roe.org",
            recipients=("advertising",),
            purposes=("dpv:Marketing",),
            likelihood=0.7,
        ),
        max_level=2,
    )
    assert g.decision.level == "L4" and g.anonymized is not None and g.anonymized.level == 2


def test_no_raw_value_in_records_or_logs(tmp_path: Path) -> None:
    e = RiskEngine(None)
    for lk in (0.05, 0.3, 0.5, 1.0):
        g = e.guard(ctx("service_provider", "dpv:Marketing", "default", lk))
        blob = json.dumps(g.record())
        assert not any(p in blob for p in CANARY_PARTS), (g.decision.decision, blob)
        if g.decision.decision == "transform":
            assert g.text is not None and not any(p in g.text for p in CANARY_PARTS)
    lines = tmp_path / "in.jsonl"
    lines.write_text(json.dumps({"id": "c", "text": CANARY}) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["anonymize", str(lines), "--level", "3", "--adaptive"])
    assert res.exit_code == 0, res.output
    assert not any(p in res.output for p in CANARY_PARTS)
    res = CliRunner().invoke(
        main,
        [
            "guard",
            "--graph",
            str(GRAPHS),
            "--text",
            CANARY,
            "--likelihood",
            "0.2",
            "--recipient",
            "first_party",
            "--purpose",
            "dpv:ServiceProvision",
        ],
    )
    assert res.exit_code == 0 and json.loads(res.output)["decision"] == "transform", res.output
    assert not any(p in res.output for p in CANARY_PARTS)


# ---- CLI and bad input ----


def test_cli_text_and_jsonl(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["anonymize", "--text", "Mail Jane Roe at jane@roe.org", "--level", "2"])
    assert res.exit_code == 0 and json.loads(res.output)["text"] == "Mail a person at an e-mail address"
    f = tmp_path / "in.jsonl"
    f.write_text(
        '{"id": "a", "text": "My name is Jane Roe"}\n{"id": "b", "text": "Paris", "level": 2}\n', encoding="utf-8"
    )
    res = CliRunner().invoke(main, ["anonymize", str(f), "--level", "3"])
    out = [json.loads(x) for x in res.output.splitlines()]
    assert res.exit_code == 0 and [o["id"] for o in out] == ["a", "b"]
    assert out[0]["text"] == "My name is [PERSON_1]" and out[1]["level"] == 2


def test_every_bad_input_gets_an_error_record(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    lines = [
        b'{"id": 1, "text": "My name is Jane Roe"}',
        b'{"id": 2, "text": ""}',
        b'{"id": 3, "text": "' + b"a" * 1_000_000 + b'"}',
        b"\x00\x01\x02binary",
        b'{"id": 5, "text": "caf\xe9"}',
        b'{"id": 6, "text": ',
        b'{"id": 7, "text": "ok", "colour": "red"}',
        b'["not", "an", "object"]',
        b'{"id": 9, "text": 42}',
        b'{"id": 10, "text": "My name is Max Muster"}',
    ]
    f.write_bytes(b"\n".join(lines) + b"\n")
    res = CliRunner().invoke(main, ["anonymize", str(f)])
    assert res.exit_code == 1
    out = [json.loads(x) for x in res.output.splitlines() if x.startswith("{")]
    by_line = {o["line"]: o for o in out}
    assert by_line[1]["text"] == "My name is [PERSON_1]" and by_line[10]["text"] == "My name is [PERSON_1]"
    expect = {
        2: "is empty",
        3: "over the limit",
        4: "binary",
        5: "not UTF-8",
        6: "malformed JSON",
        7: "unknown key(s) colour",
        8: "expected a JSON object",
        9: "expected a string",
    }
    for n, msg in expect.items():
        assert msg in by_line[n]["error"], (n, by_line[n])
    assert by_line[7]["id"] == 7


def test_guard_batch_keeps_going(tmp_path: Path) -> None:
    f = tmp_path / "actions.jsonl"
    f.write_bytes(
        b'{"id": "ok", "text": "Mail Jane Roe at jane@roe.org", "recipient": "advertising", '
        b'"purpose": "dpv:Marketing", "likelihood": 0.5}\n{"id": "bad", "recipient": "nobody"}\n\xff\n'
    )
    res = CliRunner().invoke(main, ["guard", "--graph", str(GRAPHS), "--batch", str(f)])
    out = [json.loads(x) for x in res.output.splitlines() if x.startswith("{")]
    assert res.exit_code == 1 and len(out) == 3
    assert out[0]["decision"] == "transform" and "Jane" not in out[0]["text"] and "@" not in out[0]["text"]
    assert "not a recipient kind" in out[1]["error"] and "not UTF-8" in out[2]["error"]


def test_llm_rewriter_is_used_at_l4_and_rejected_when_it_leaks() -> None:
    from pp_graph.anonymize.llm import OpenAIRewriter

    answers = iter(["[PERSON_1] can be reached by e-mail.", "Jane Roe can be reached at [EMAIL_ADDRESS_1]."])
    with FakeLLMServer(lambda body: next(answers)) as srv:
        rw = OpenAIRewriter("test-model", base_url=srv.base_url, api_key="k")
        ok = anonymize("Mail Jane Roe at jane@roe.org", 4, rewriter=rw)
        leak = anonymize("Mail Jane Roe at jane@roe.org", 4, rewriter=rw)
        sent = [m["content"] for r in srv.requests for m in r["messages"]]
    assert ok.text == "[PERSON_1] can be reached by e-mail." and ok.levels_run[0]["by"] == "llm:test-model"
    assert "Jane" not in leak.text and leak.levels_run[0]["rewriter_rejected"] == "reintroduced an original value"
    assert not any("jane@roe.org" in c or "Jane Roe" in c for c in sent)  # the model only sees the L3 text
