"""Long texts: NER runs over every part of a text in bounded chunks, offsets mapped back; an entity across a
chunk cut is found whole and once; names found in one chunk propagate to the others."""

from __future__ import annotations

import itertools

import pytest

import pp_graph.risk.detect as detect_mod
from pp_graph.anonymize import recognize
from pp_graph.anonymize.chunks import cores, recognize_long
from pp_graph.risk import ActionContext, RiskEngine
from pp_graph.risk.detect import detect
from pp_graph.vocab.dpv import PD

FILLER = "The weather was mild and the meeting ran long. "  # no personal data
NER_ONLY = "Barack Obama visited the plant."  # a name only NER finds (no cue)


def test_cores_cover_the_text_at_boundaries() -> None:
    text = (FILLER * 30 + "\n\n") * 20
    cs = cores(text, 2_000)
    assert cs[0][0] == 0 and cs[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(cs))  # contiguous, no gap, no overlap
    assert all(1_000 <= e - s <= 2_000 for s, e in cs[:-1])
    assert all(text[e - 2 : e] in ("\n\n", ". ") for _, e in cs[:-1])  # cut after a paragraph or sentence


def test_ner_runs_on_a_long_text() -> None:
    text = FILLER * 600 + NER_ONLY + " " + FILLER * 50  # ≈ 31,000 characters
    at = text.index("Barack")
    names = [d for d in detect(text) if d.category == PD + "Name"]
    assert [(d.start, d.end) for d in names] == [(at, at + len("Barack Obama"))]


def test_chunked_equals_whole_text_recognition() -> None:
    text = " ".join(f"Mail Jane Roe at jane{i}@roe.org about Barack Obama in Paris." for i in range(60))
    whole = [(e.type, e.start, e.end) for e in recognize(text)]
    chunked = [(e.type, e.start, e.end) for e in recognize_long(text, size=600, overlap=120)]
    assert len(text) > 3_000 and chunked == whole


def test_entity_across_a_cut_is_found_whole_and_once() -> None:
    head = "word " * 36  # no sentence end: the cut falls at the last space before 200, inside the name
    text = head + "My name is Zqxwv Plortnik and " + "word " * 100
    cut = cores(text, 200)[0][1]
    start = text.index("Zqxwv")
    assert start < cut < start + len("Zqxwv Plortnik")  # the name straddles the first cut
    persons = [e for e in recognize_long(text, size=200, overlap=60) if e.type == "PERSON"]
    assert [(e.start, e.end) for e in persons] == [(start, start + len("Zqxwv Plortnik"))]


def test_a_name_propagates_across_chunks() -> None:
    text = "My name is Zqxwv Plortnik. " + FILLER * 40 + "Later Plortnik called back. " + FILLER * 5
    found = {text[e.start : e.end] for e in recognize_long(text, size=500, overlap=80) if e.type == "PERSON"}
    assert found == {"Zqxwv Plortnik", "Plortnik"}


def test_decision_record_says_how_far_ner_read(monkeypatch: pytest.MonkeyPatch) -> None:
    text = FILLER * 600 + NER_ONLY + " " + FILLER * 50
    engine = RiskEngine(None)
    full = engine.decide(ActionContext(text=text, recipients=("first_party",)))
    assert full.detection == {"chars": len(text), "ner_chars": len(text), "ner": "full", "mode": "hybrid"}
    assert any(c["iri"] == PD + "Name" for c in full.categories)
    monkeypatch.setattr(detect_mod, "NER_MAX_CHARS", 12_000)
    part = engine.decide(ActionContext(text=text, recipients=("first_party",)))
    assert part.detection is not None and part.detection["ner"] == "partial"
    assert 12_000 <= part.detection["ner_chars"] < text.index("Barack")
    assert not any(c["iri"] == PD + "Name" for c in part.categories)  # the name lies beyond what NER read
    assert any("NER read the first" in r for r in part.reasons)
    assert engine.decide(ActionContext(data=("pd:Name",))).detection is None
