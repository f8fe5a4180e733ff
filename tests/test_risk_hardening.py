"""Risk decisions an attacker cannot game (issue 11 §5): bulk data, credentials, Art. 9 categories, names."""

from __future__ import annotations

import pytest

from pp_graph.risk import ActionContext, RiskEngine

PD = "https://w3id.org/dpv/pd#"


@pytest.fixture(scope="module")
def engine() -> RiskEngine:
    return RiskEngine(None)


@pytest.mark.parametrize("n", [300, pytest.param(20_000, marks=pytest.mark.slow)])
def test_bulk_e_mail_addresses_raise_the_tier(engine: RiskEngine, n: int) -> None:
    one = engine.decide(ActionContext(text="write to a0@x.org", recipients=("advertising",), likelihood=0.18))
    assert one.decision == "allow"  # a single address: the table's answer stands
    bulk = " ".join(f"a{i}@x.org" for i in range(n))
    d = engine.decide(ActionContext(text=bulk, recipients=("advertising",), likelihood=0.18))
    assert d.tier == "critical" and d.decision != "allow"
    few = engine.decide(ActionContext(text=" ".join(f"a{i}@x.org" for i in range(30)), likelihood=0.18))
    assert few.tier == "high"  # dozens: one step up (bulk_high)
    assert any("bulk" in r["rule"] and r["source"].startswith("rules.tsv:") for r in d.rules)


def test_credentials_never_leave(engine: RiskEngine) -> None:
    text = "password: hunter2xyz, SSN 514-69-0360, card 4111 1111 1111 1111, diagnosed with diabetes"
    d = engine.decide(ActionContext(text=text, recipients=("advertising",), likelihood=0.3))
    assert d.decision == "deny"
    assert d.rules and d.rules[0]["rule"].startswith("credentials never leave")
    assert PD + "Password" in d.rules[0]["categories"]
    # even to the first party with a perfect policy match
    d = engine.decide(ActionContext(text="my PIN is 4821", recipients=("first_party",), likelihood=0.05))
    assert d.decision == "deny"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Please forward this to Maria Gonzalez.", "Name"),
        ("As a devout Muslim I cannot attend.", "Religion"),
        ("I am gay and looking for support.", "Sexual"),
        ("My passport number is X1234567.", "Passport"),
        ("He is a trade union member.", "TradeUnionMembership"),
    ],
)
def test_special_categories_names_and_passports_are_detected(engine: RiskEngine, text: str, category: str) -> None:
    d = engine.decide(ActionContext(text=text, recipients=("advertising",)))
    assert PD + category in {c["iri"] for c in d.categories}


def test_special_categories_are_critical(engine: RiskEngine) -> None:
    d = engine.decide(ActionContext(text="I am gay.", recipients=("advertising",), likelihood=0.3))
    assert d.tier == "critical"


def test_guard_releases_nothing_with_a_secret(engine: RiskEngine) -> None:
    g = engine.guard(ActionContext(text="api_key = sk-abcdefghijklmnopqrstuvwx", recipients=("first_party",)))
    assert g.decision.decision == "deny" and g.text is None
    rec = g.record()
    assert rec["rules"][0]["source"].startswith("rules.tsv:") and "sk-abc" not in str(rec)
