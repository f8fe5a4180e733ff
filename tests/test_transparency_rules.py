"""Precision of the transparency rules on sentences written for these tests: what a requirement's cue or fact must
not take as evidence (a cookie note for mandatory disclosure, a policy change for rectification, a contact line
for data categories), and phrasings it must take."""

from __future__ import annotations

import re

import pytest

from pp_graph.comply.rules import RULES_FILE, parse_rules
from pp_graph.errors import DataFileError
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.load.sources import policy_from_text


def found(text: str) -> dict[str, list[str]]:
    """Requirement id → the evidence spans the offline pipeline gives one line."""
    ex = extract(policy_from_text(text + "\n", "rules.example"), get_backend("offline"))
    out: dict[str, list[str]] = {}
    for res in ex.results:
        for m in res.requirements:
            out.setdefault(m.requirement, []).append(m.span.text)
    return out


@pytest.mark.parametrize(
    ("text", "requirement"),
    [
        # A consequence of refusing cookies is not a duty to give personal data.
        ("If you refuse our cookies, you may not be able to use some portions of this app.", "mandatory-disclosure"),
        ("We may store your records in accordance with mandatory legislation.", "mandatory-disclosure"),
        # A disclosure in good faith to stop fraud is no disclosure the law requires.
        ("We may disclose data on a good faith belief it is needed to prevent fraud or abuse.", "mandatory-disclosure"),
        # Objecting to a policy change, or an opted-out newsletter, is not the Art. 21 right.
        ("If you object to any changes to this notice, please stop using the app.", "right-object"),
        ("We send you our newsletter unless you have opted not to receive such information.", "right-object"),
        # "Contact us" without an address or number gives no contact details.
        ("If you have any questions about this notice, please contact us.", "controller-contact"),
        # A policy change mentioned near "your data" is no right to correct it.
        (
            "When this notice changes we will tell you about the change if we have your data on file.",
            "right-rectification",
        ),
        ("You must notify us of any changes to such personal information.", "right-rectification"),
        # An address line names "email" without saying that email addresses are processed.
        ("Email: privacy@lumen-tree.example", "data-categories"),
        ("If we change this notice, we will notify you by email.", "data-categories"),
        # Securing data is how it is protected, not a purpose it is processed for.
        ("We protect your data with encryption and security measures.", "processing-purpose"),
        # Keeping data secure is not keeping it for a period.
        ("We use encryption to keep your data secure.", "retention-period"),
    ],
)
def test_not_evidence(text: str, requirement: str) -> None:
    assert requirement not in found(text)


@pytest.mark.parametrize(
    ("text", "requirement", "evidence"),
    [
        ("We may disclose your information in response to subpoenas or court orders.", "mandatory-disclosure", None),
        ("You must provide a valid email address to register.", "mandatory-disclosure", "You must provide"),
        (
            "We may share data if we have a good faith belief that disclosure is needed to satisfy any law.",
            "mandatory-disclosure",
            None,
        ),
        ("Write to us at privacy@lumen-tree.example with any question.", "controller-contact", None),
        ("You have the ability to know, access, correct and delete your personal data.", "right-rectification", None),
        ("You may ask us to correct any errors in your personal data.", "right-rectification", None),
        ("You have the right to object to our processing of your data.", "right-object", None),
    ],
)
def test_evidence(text: str, requirement: str, evidence: str | None) -> None:
    spans = found(text).get(requirement)
    assert spans, f"{requirement} not found in {text!r}"
    if evidence is not None:
        assert evidence in spans


@pytest.mark.parametrize(
    ("veto", "problem"),
    [("fact_veto = ['(unclosed']", "not a valid regular expression"), ("fact_veto = 'x'", "must be a list")],
)
def test_fact_veto_is_validated(veto: str, problem: str) -> None:
    text = RULES_FILE.read_text(encoding="utf-8").replace("fact_veto = [", veto + "\nfact_veto_was = [", 1)
    with pytest.raises(DataFileError, match=re.escape(problem)):
        parse_rules(text.encode())
