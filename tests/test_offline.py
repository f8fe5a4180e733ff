"""Behaviour of the offline extractor on small hand-written policies."""

from __future__ import annotations

from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.pipeline import extract
from pp_graph.load.sources import policy_from_text
from pp_graph.model import AttributeKind, PracticeType, Role
from pp_graph.vocab.dpv import DPV, PD

FP = PracticeType.FIRST_PARTY_COLLECTION_USE
SHARE = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE


def run(text: str):  # type: ignore[no-untyped-def]
    return extract(policy_from_text(text, "shop.example"), OfflineBackend())


def test_collection_with_data_and_purpose() -> None:
    ex = run("We collect your email address and phone number to show you ads.\n")
    r = ex.results[0]
    assert [p.type for p in r.practices] == [FP]
    assert {d.concept for d in r.data} >= {PD + "EmailAddress", PD + "TelephoneNumber"}
    assert DPV + "Advertising" in {p.concept for p in r.purposes}
    roles = {(rel.role, rel.entity.split(":")[0]) for rel in r.relations}
    assert (Role.DATA_COLLECTED, "data") in roles and (Role.PURPOSE_ARGUMENT, "purpose") in roles
    assert (Role.DATA_COLLECTOR, "party") in roles


def test_sharing_receiver_and_negation() -> None:
    ex = run("We share your IP address with advertising partners. We do not sell your personal information.\n")
    r = ex.results[0]
    shares = [p for p in r.practices if p.type == SHARE]
    assert [p.negated for p in shares] == [False, True]  # one practice per sentence
    receivers = [
        r.parties[int(x.entity.split(":")[1])].name
        for x in r.relations
        if x.role == Role.DATA_RECEIVER and x.practice == 0
    ]
    assert receivers == ["advertising partners"]
    ex2 = run("We don’t sell your personal information to data brokers.\n")
    assert [p.negated for p in ex2.results[0].practices] == [True]


def test_third_party_collection() -> None:
    ex = run("Advertisers may collect your device identifiers through cookies.\n")
    assert [p.type for p in ex.results[0].practices] == [PracticeType.THIRD_PARTY_COLLECTION_USE]


def test_retention_period_and_place() -> None:
    ex = run("We store your account information on servers in the United States for five years.\n")
    r = ex.results[0]
    assert [p.type for p in r.practices] == [PracticeType.DATA_STORAGE_RETENTION_DELETION]
    kinds = {a.kind: a for a in r.attributes}
    assert kinds[AttributeKind.RETENTION_PERIOD].value == "P5Y"
    assert kinds[AttributeKind.STORAGE_PLACE].span.text == "United States"


def test_list_items_inherit_the_lead_in_practice() -> None:
    ex = run("We collect the following information:\n* Your precise location.\n* Your photos.\n\nOther text.\n")
    items = ex.results[1:3]
    for r in items:
        assert [(p.type, p.inherited) for p in r.practices] == [(FP, True)]
        assert r.practices[0].span.text == "collect"


def test_heading_gives_context_to_a_triggerless_line() -> None:
    ex = run("## Information We Share\n\nAdvertising partners: your email address.\n")
    r = ex.results[1]
    assert [(p.type, p.inherited) for p in r.practices] == [(SHARE, True)]


def test_no_practice_without_data() -> None:
    ex = run("We use reasonable efforts to keep this page up to date.\n")
    assert ex.results[0].practices == []


def test_deterministic() -> None:
    text = "We collect your email address. We share it with service providers for analytics.\n"
    a, b = run(text), run(text)
    assert [r.practices for r in a.results] == [r.practices for r in b.results]
    assert [r.relations for r in a.results] == [r.relations for r in b.results]
