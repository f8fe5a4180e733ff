"""The LLM backend on German and French policies, through the real openai client against the local test server.

The test "model" answers the way the prompts ask: spans copied from the segment in its own language, classes as
English DPV terms. The graph must hold those classes and every offset must point into the original text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from llm_server import FakeLLMServer, segments_of, user_text
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from pp_graph.api import convert_policy
from pp_graph.extract.llm.backend import LLMBackend
from pp_graph.load.sources import load_policy
from pp_graph.model import PolicyExtraction, PracticeType
from pp_graph.validate import validate
from pp_graph.vocab.dpv import DPV, PD

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "languages"
DETECTED = URIRef("urn:pp-graph:ontology#detectedLanguage")

# What the model finds, per language: phrase → class (data, purposes), (kind, recipient) or practice type.
WORDS: dict[str, dict[str, dict[str, Any]]] = {
    "de": {
        "data": {"E-Mail-Adresse": "pd:EmailAddress", "IP-Adresse": "pd:IPAddress"},
        "purposes": {
            "Betrug zu verhindern": "dpv:FraudPreventionAndDetection",
            "personalisierte Werbung": "dpv:PersonalisedAdvertising",
        },
        "parties": {"Wir": ("first_party", "first_party"), "Werbepartner": ("third_party", "advertising")},
        "practices": {
            "erheben": "first-party-collection-use",
            "geben": "third-party-sharing-disclosure",
            "speichern": "data-storage-retention-deletion",
        },
        "periods": {"für 30 Tage": "P30D"},
    },
    "fr": {
        "data": {"adresse e-mail": "pd:EmailAddress", "adresse IP": "pd:IPAddress"},
        "purposes": {
            "prévenir la fraude": "dpv:FraudPreventionAndDetection",
            "publicité ciblée": "dpv:PersonalisedAdvertising",
        },
        "parties": {"Nous": ("first_party", "first_party"), "annonceurs": ("third_party", "advertising")},
        "practices": {
            "collectons": "first-party-collection-use",
            "partageons": "third-party-sharing-disclosure",
            "conservons": "data-storage-retention-deletion",
        },
        "periods": {"pendant 30 jours": "P30D"},
    },
}
ROLES = {  # practice type → (data role, first-party role)
    "first-party-collection-use": ("Data-Collected", "Data-Collector"),
    "third-party-sharing-disclosure": ("Data-Shared", "Data-Sharer"),
    "data-storage-retention-deletion": ("Data-Retained", "Data-Holder"),
}


def _found(text: str, table: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(w, v) for w, v in table.items() if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def _relations(n: int, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Practice 0 of the segment → its data, purposes, period, the first party and a third party."""
    practices = re.search(rf'<practices n="{n}">\n(.*?)</practices>', user_text(body), re.S)
    entities = re.search(rf'<entities n="{n}">\n(.*?)</entities>', user_text(body), re.S)
    found = [t for t in ROLES if practices and f" {t}" in practices.group(1)]
    if not found or entities is None:
        return []
    data_role, party_role = ROLES[found[0]]
    role = {"data": data_role, "purpose": "Purpose-Argument", "attr": "Retention-Period"}
    out = [{"practice": 0, "role": party_role, "entity": "party:first"}]
    for ref, kind, rest in re.findall(r"^((data|purpose|party|attr):\d+): (.*)$", entities.group(1), re.M):
        if kind in role:
            out.append({"practice": 0, "role": role[kind], "entity": ref})
        elif rest.endswith(" third_party") and found[0] == "third-party-sharing-disclosure":
            out.append({"practice": 0, "role": "Data-Receiver", "entity": ref})
    return out


def responder(lang: str) -> Any:
    words = WORDS[lang]

    def answer(body: dict[str, Any]) -> str:
        props = body["response_format"]["json_schema"]["schema"]["properties"]["segments"]["items"]["properties"]
        out = []
        for n, text in segments_of(body).items():
            e: dict[str, Any] = {"n": n}
            if "relations" in props:
                e["relations"] = _relations(n, body)
            if "data" in props:
                e["data"] = [{"text": w, "occurrence": None, "class": c} for w, c in _found(text, words["data"])]
                e["purposes"] = [
                    {"text": w, "occurrence": None, "class": c} for w, c in _found(text, words["purposes"])
                ]
            if "parties" in props:
                e["parties"] = [
                    {"text": w, "occurrence": None, "kind": k, "recipient": r}
                    for w, (k, r) in _found(text, words["parties"])
                ]
                e["practices"] = [
                    {"text": w, "occurrence": None, "type": t, "negated": False, "from_heading": False}
                    for w, t in _found(text, words["practices"])
                ]
                e["attributes"] = [
                    {"text": w, "occurrence": None, "kind": "retention_period", "concept": None, "duration": d}
                    for w, d in _found(text, words["periods"])
                ]
            out.append(e)
        return json.dumps({"segments": out})

    return answer


def _convert(srv: FakeLLMServer, path: Path, tmp_path: Path, **opts: Any) -> Any:
    backend = LLMBackend(
        model="fake-model",
        base_url=srv.base_url,
        api_key="test-key",
        cache_path=str(tmp_path / "cache.sqlite"),
        timeout=5,
        **opts,
    )
    return convert_policy(load_policy(path), backend)


def _offsets_hold(ex: PolicyExtraction) -> None:
    text = ex.policy.text
    for r in ex.results:
        for item in [*r.data, *r.purposes, *r.parties, *r.practices, *r.attributes]:
            assert text[item.span.start : item.span.end] == item.span.text


@pytest.mark.parametrize(
    ("file", "lang", "email", "fraud"),
    [
        ("beispiel.example.md", "de", "E-Mail-Adresse", "Betrug zu verhindern"),
        ("exemple.example.md", "fr", "adresse e-mail", "prévenir la fraude"),
    ],
)
def test_llm_extracts_english_classes_at_offsets_of_the_original(
    tmp_path: Path, file: str, lang: str, email: str, fraud: str
) -> None:
    with FakeLLMServer(responder(lang)) as srv:
        conv = _convert(srv, FIXTURES / file, tmp_path)
        system = srv.requests[0]["messages"][0]["content"]
    assert "may be written in any language" in system and "never\n  translated" in system
    ex = conv.extraction
    text = ex.policy.text
    _offsets_hold(ex)
    data = [(d.span.start, d.span.end, d.concept) for r in ex.results for d in r.data]
    first = text.index(email)
    second = text.index(email, first + 1)  # the same words again, in the sharing paragraph
    assert (first, first + len(email), PD + "EmailAddress") in data
    assert (second, second + len(email), PD + "EmailAddress") in data
    assert any(c == PD + "IPAddress" for *_, c in data)
    purposes = {(p.span.start, p.concept) for r in ex.results for p in r.purposes}
    assert (text.index(fraud), DPV + "FraudPreventionAndDetection") in purposes
    types = {p.type for r in ex.results for p in r.practices}
    assert types == {
        PracticeType.FIRST_PARTY_COLLECTION_USE,
        PracticeType.THIRD_PARTY_SHARING_DISCLOSURE,
        PracticeType.DATA_STORAGE_RETENTION_DELETION,
    }
    assert conv.report.rejected == {} and conv.report.data_classes == 2
    assert conv.report.language["code"] == lang and conv.report.language["sure"]
    assert not any("backend reads" in w for w in conv.report.warnings)  # the LLM backend reads any language
    assert (conv.graph, DETECTED, Literal(lang, datatype=XSD.language)) in conv.dataset.graph(conv.graph)
    assert validate(conv.dataset).conforms


def test_prefilter_sends_every_segment_of_a_policy_offline_rules_cannot_read(tmp_path: Path) -> None:
    """The prefilter asks the English offline extractor which segments hold practices: on a German policy it would
    find none and send nothing. It sends them all instead."""
    with FakeLLMServer(responder("de")) as srv:
        conv = _convert(srv, FIXTURES / "beispiel.example.md", tmp_path, prefilter=True, no_cache=True)
    b = conv.report.backend
    assert b["segments_skipped"] == 0 and b["segments_sent"] == len(conv.extraction.segments)
    assert sum(len(r.practices) for r in conv.extraction.results) == 3
