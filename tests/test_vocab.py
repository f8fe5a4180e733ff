"""The DPV index: cached hierarchy closures, scheme membership, compact/expand."""

from __future__ import annotations

from pp_graph.vocab.dpv import DPV, PD, PERSONAL_DATA, PURPOSE, compact, expand, vocabulary


def test_closures_are_cached_and_inverse() -> None:
    v = vocabulary()
    up = v.broader_closure(PD + "EmailAddressWork")
    assert up is v.broader_closure(PD + "EmailAddressWork")
    assert {PD + "EmailAddressWork", PD + "EmailAddress", PD + "Contact", PERSONAL_DATA} <= up
    assert all(PD + "EmailAddressWork" in v.narrower_closure(a) for a in up)
    assert v.narrower_closure(PERSONAL_DATA) is v.members(PERSONAL_DATA)


def test_ancestors_return_a_fresh_set() -> None:
    v = vocabulary()
    a = v.ancestors(PD + "EmailAddress")
    a.add("urn:x")
    assert "urn:x" not in v.ancestors(PD + "EmailAddress")
    assert v.descendants(PD + "Contact") == set(v.narrower_closure(PD + "Contact"))


def test_in_scheme() -> None:
    v = vocabulary()
    assert v.in_scheme(PD + "EmailAddress", PERSONAL_DATA) and v.in_scheme(PERSONAL_DATA, PERSONAL_DATA)
    assert not v.in_scheme(PD + "EmailAddress", PURPOSE) and v.in_scheme(DPV + "Marketing", PURPOSE)
    assert not v.in_scheme(PD + "NoSuchThing", PERSONAL_DATA)


def test_compact_expand_round_trip() -> None:
    for iri in (PD + "EmailAddress", DPV + "Marketing", "https://w3id.org/dpv/legal/eu/gdpr#A6-1-a"):
        assert expand(compact(iri)) == iri
    assert compact(PD + "Age") == "pd:Age" and compact("urn:other") == "urn:other"
