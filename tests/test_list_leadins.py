"""List items under a lead-in ("We collect:", "We use it to:", "We share it with:") are read as the lead-in's
practice, each item supplying its data, purpose or recipient (docs/segments.md, "List lead-ins")."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import URIRef

from pp_graph.errors import DataFileError
from pp_graph.extract.offline import rights
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.graph.build import build_graph
from pp_graph.graph.namespaces import PPG, PR2G
from pp_graph.load.sources import policy_from_text
from pp_graph.model import PolicyExtraction
from pp_graph.vocab.dpv import compact

COLLECT, SHARE = "first-party-collection-use", "third-party-sharing-disclosure"

# Our own lead-ins, each naming no data, purpose or recipient itself, and the items that complete them.
LISTS = {
    "collect": ("We collect:", ["your email address", "your phone number"], COLLECT),
    "use": ("We use it to:", ["prevent fraud", "answer your questions"], COLLECT),
    "share": ("We share it with:", ["payment processors", "analytics providers"], SHARE),
}
# What each item names (its own mention), as the practice's data, purpose or recipient.
NAMED = {
    "your email address": "pd:EmailAddress",
    "your phone number": "pd:TelephoneNumber",
    "prevent fraud": "dpv:FraudPreventionAndDetection",
    "answer your questions": "dpv:CommunicationForCustomerCare",
    "payment processors": "payment processors",
    "analytics providers": "analytics providers",
}


def _markdown(lead: str, items: list[str], marker: str) -> str:
    lines = [f"{marker if marker != '1.' else f'{i}.'} {item}" for i, item in enumerate(items, 1)]
    return f"# Privacy notice\n\n{lead}\n\n" + "\n".join(lines) + "\n"


def _html(lead: str, items: list[str], _: str) -> str:
    lis = "".join(f"<li>{item}</li>" for item in items)
    return f"<html><body><h1>Privacy notice</h1><p>{lead}</p><ul>{lis}</ul></body></html>"


def _plain(lead: str, items: list[str], _: str) -> str:
    return "Privacy notice\n\n" + lead + "\n" + "".join(f"- {item}\n" for item in items)


SHAPES = {
    "markdown bullets": (_markdown, "*", "text/markdown"),
    "numbered list": (_markdown, "1.", "text/markdown"),
    "html list": (_html, "", "text/html"),
    "plain text dashes": (_plain, "", "text/plain"),
}


@pytest.fixture(scope="module")
def backend() -> object:
    return get_backend("offline")


def convert(text: str, backend: object, media: str = "text/markdown") -> PolicyExtraction:
    ex = extract(policy_from_text(text, "example.com", "example.com.md", media), backend)  # type: ignore[arg-type]
    ex.check_grounding()
    return ex


def item_facts(ex: PolicyExtraction) -> dict[str, list[tuple[str, bool, bool, tuple[str, ...]]]]:
    """Per line that states a practice (its words, list marker dropped): (type, negated, inherited, the data,
    purposes and recipients linked to it)."""
    out: dict[str, list[tuple[str, bool, bool, tuple[str, ...]]]] = {}
    for res in ex.results:
        for i, p in enumerate(res.practices):
            linked: list[str] = []
            for r in res.relations:
                kind, _, j = r.entity.partition(":")
                if r.practice != i or j == "first":
                    continue
                if kind == "data":
                    linked.append(compact(res.data[int(j)].concept or ""))
                elif kind == "purpose":
                    linked.append(compact(res.purposes[int(j)].concept or ""))
                elif kind == "party" and r.role.value == "Data-Receiver":
                    linked.append(res.parties[int(j)].name)
            words = res.segment.text.lstrip("*-0123456789. <li>").split("<", 1)[0].strip()
            out.setdefault(words, []).append((p.type.value, p.negated, p.inherited, tuple(sorted(linked))))
    return out


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", LISTS)
def test_items_take_the_practice_their_lead_in_announces(backend: object, shape: str, kind: str) -> None:
    lead, items, practice = LISTS[kind]
    write, marker, media = SHAPES[shape]
    ex = convert(write(lead, items, marker), backend, media)
    got = item_facts(ex)
    for item in items:
        assert got.get(item) == [(practice, False, True, (NAMED[item],))], (item, got)
    assert lead not in got  # the lead-in alone acts on nothing
    # the practice's trigger is the lead-in's verb; the item's mention, its evidence, lies in the item
    text = ex.policy.text
    for res in ex.results:
        for p in res.practices:
            assert text[p.span.start : p.span.end] in lead
            assert not res.segment.start <= p.span.start < res.segment.end
        for m in [*res.data, *res.purposes]:
            assert res.segment.start <= m.span.start < m.span.end <= res.segment.end


def test_a_negated_lead_in_keeps_its_negation(backend: object) -> None:
    text = "# Privacy notice\n\nWe do not share it with:\n\n- advertisers\n- data brokers\n"
    got = item_facts(convert(text, backend))
    assert got == {
        "advertisers": [(SHARE, True, True, ("advertisers",))],
        "data brokers": [(SHARE, True, True, ("data brokers",))],
    }


def test_a_bold_lead_in_is_a_lead_in(backend: object) -> None:
    # a line bold from end to end keeps its markers in the reading (a title): its colon still announces the list
    text = (
        "# Privacy notice\n\n**We collect the following information:**\n\n- your email address\n\n"
        "**We share it with:**\n\n- payment processors\n"
    )
    got = item_facts(convert(text, backend))
    assert got["your email address"] == [(COLLECT, False, True, ("pd:EmailAddress",))]
    assert got["payment processors"] == [(SHARE, False, True, ("payment processors",))]


def test_nested_lists_take_the_outer_lead_in(backend: object) -> None:
    text = (
        "# Privacy notice\n\nWe collect:\n\n- Account data:\n  - your name\n  - your email address\n"
        "- Usage data:\n  - the pages you visit\n"
    )
    got = item_facts(convert(text, backend))
    for item, concept in (
        ("your name", "pd:Name"),
        ("your email address", "pd:EmailAddress"),
        ("the pages you visit", "pd:BrowsingBehaviour"),
    ):
        assert got[item] == [(COLLECT, False, True, (concept,))], (item, got)


def test_an_item_with_its_own_trigger_keeps_its_own_practice(backend: object) -> None:
    text = (
        "# Privacy notice\n\nWe use it to:\n\n1. prevent fraud\n2. We also share your postal address with couriers.\n"
    )
    got = item_facts(convert(text, backend))
    assert got["prevent fraud"] == [(COLLECT, False, True, ("dpv:FraudPreventionAndDetection",))]
    [(practice, negated, inherited, _)] = got["We also share your postal address with couriers."]
    assert (practice, negated, inherited) == (SHARE, False, False)


@pytest.mark.parametrize(
    "text",
    [
        # a list under a heading with no lead-in
        "# Privacy notice\n\n## Office hours\n\n- Monday to Friday\n- your email address\n",
        # a lead-in whose subject is not the site
        "# Privacy notice\n\nAdvertisers may collect:\n\n- your email address\n",
        # items naming nothing the practice could act on
        "# Privacy notice\n\nWe collect:\n\n- Monday to Friday\n- weekends closed\n",
    ],
)
def test_lists_without_a_lead_in_of_the_sites_practice_produce_nothing(backend: object, text: str) -> None:
    assert item_facts(convert(text, backend)) == {}


def test_the_graph_links_the_item_practice_to_its_lead_in(backend: object) -> None:
    text = "# Privacy notice\n\nWe collect:\n\n- your email address\n"
    ex = convert(text, backend)
    ds, name = build_graph(ex)
    g = ds.graph(name)
    [practice] = list(g.subjects(PPG.inherited, None))
    [item_text] = list(g.objects(practice, PR2G.text))
    [lead_text] = list(g.objects(practice, PPG.inheritedFrom))
    assert str(g.value(lead_text, PR2G.value)) == "We collect:"
    assert str(g.value(item_text, PR2G.value)) == "- your email address"
    lead_at = text.index("We collect:")
    assert int(g.value(lead_text, PPG.start)) == lead_at
    trigger = g.value(practice, PPG.trigger)
    assert int(g.value(trigger, PPG.start)) == text.index("collect", lead_at)
    # the item's own words are the fact's evidence: its data mention, at its offsets
    [data] = list(g.objects(practice, PR2G.data))
    assert data == URIRef("https://w3id.org/dpv/pd#EmailAddress")
    spans = [m for m in g.subjects(PPG.denotes, data)]
    assert [int(g.value(m, PPG.start)) for m in spans] == [text.index("email address")]


def rights_of(ex: PolicyExtraction) -> list[tuple[str, str]]:
    return [
        (a.span.text, compact(a.concept or ""))
        for r in ex.results
        for a in r.attributes
        if a.kind.value == "user_right"
    ]


def test_rights_named_as_nouns_of_one_request(backend: object) -> None:
    text = "# Privacy notice\n\nYou can request **access to**, **erasure of**, and updates to your personal data.\n"
    got = rights_of(convert(text, backend))
    assert sorted(c for _, c in got) == ["eu-gdpr:A15", "eu-gdpr:A16", "eu-gdpr:A17"]
    # the evidence keeps the source text, markup and all
    assert ("erasure of", "eu-gdpr:A17") in got and ("updates to", "eu-gdpr:A16") in got
    text = "You may ask us for a copy of, or the correction of, the data we hold about you.\n"
    got = rights_of(convert(text, backend))
    assert sorted(c for _, c in got) == ["eu-gdpr:A15", "eu-gdpr:A16"]


@pytest.mark.parametrize(
    "text",
    [
        "You can request updates to the app at any time.",  # not about the reader's data
        "We ensure the erasure of your data after 30 days.",  # no request: a retention statement
    ],
)
def test_right_nouns_outside_a_request_name_no_right(backend: object, text: str) -> None:
    assert rights_of(convert(text + "\n", backend)) == []


def test_the_right_nouns_table_is_checked_against_dpv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "rights-requested.tsv"
    bad.write_text("access to\tdpv:Purpose\n", encoding="utf-8")
    monkeypatch.setattr(rights, "FILE", bad)
    rights.table.cache_clear()
    try:
        with pytest.raises(DataFileError, match=r"rights-requested.tsv: 'access to' → dpv:Purpose is not a right"):
            rights.requested_rights("You can request access to your data.")
    finally:
        rights.table.cache_clear()
