"""Passwords and PINs written without a colon (issue 28 §4) are flagged by risk detection and replaced by the
anonymizer, also inside a long text; the prose of a privacy policy about passwords is not a secret."""

from __future__ import annotations

import pytest

from pp_graph.anonymize import anonymize, recognize
from pp_graph.risk import ActionContext, RiskEngine
from pp_graph.risk.detect import detect

PD = "https://w3id.org/dpv/pd#"
FILLER = " ".join(["The weekly report covers sales, travel and the team offsite in spring."] * 60)
SECRETS = [
    ("the wifi password hunter2 works again", "hunter2", "Password"),
    ("my password is 'swordfish' for now", "swordfish", "Password"),
    ("use password Tr0ub4dor&3 to log in", "Tr0ub4dor&3", "Password"),
    ("my pin is 4711 by the way", "4711", "PINCode"),
    ("card pin 902113 please", "902113", "PINCode"),
    ("passcode 55k!x9 for the door", "55k!x9", "Password"),
]
POLICY_PROSE = [
    "Your password is encrypted before it is stored.",
    "The password is stored hashed and salted.",
    "We send a password reset link to your address.",
    "Passwords are never shared with third parties.",
    "Choose a password of at least eight characters.",
    "Accounts are password-protected; a PIN may be required for payments.",
    "We use a 4-digit PIN for the card.",
]


@pytest.mark.parametrize(("sentence", "secret", "category"), SECRETS)
def test_a_secret_without_a_colon_is_flagged_in_a_long_text(sentence: str, secret: str, category: str) -> None:
    text = f"{FILLER} {sentence}. {FILLER}"
    hits = [d for d in detect(text, ner=False) if d.category == PD + category]
    assert len(hits) == 1 and secret in text[hits[0].start : hits[0].end]


@pytest.mark.parametrize(("sentence", "secret", "category"), SECRETS)
def test_the_anonymizer_replaces_the_secret(sentence: str, secret: str, category: str) -> None:
    ents = [e for e in recognize(sentence, ner=False) if e.type == "SECRET"]
    assert [sentence[e.start : e.end] for e in ents] == [secret]
    for level in (1, 5):
        out = anonymize(sentence, level=level).text
        assert secret not in out


@pytest.mark.parametrize(("sentence", "secret", "category"), SECRETS[:2])
def test_the_guard_denies_a_secret_in_prose(sentence: str, secret: str, category: str) -> None:
    g = RiskEngine(None).guard(
        ActionContext(text=f"{FILLER} {sentence}.", recipients=("first_party",), likelihood=0.05)
    )
    assert g.decision.decision == "deny" and g.text is None


@pytest.mark.parametrize("sentence", POLICY_PROSE)
def test_policy_prose_about_passwords_is_not_a_secret(sentence: str) -> None:
    cats = {d.category for d in detect(sentence, ner=False)}
    assert not cats & {PD + "Password", PD + "PINCode"}
    assert not [e for e in recognize(sentence, ner=False) if e.type == "SECRET"]
