"""Overlap resolution: rank, then length, then position decide; what was taken stays."""

from __future__ import annotations

from pp_graph.anonymize.recognizers.base import Entity
from pp_graph.anonymize.resolve import Occupied, clip, resolve


def cand(rank: int, type_: str, start: int, end: int) -> tuple[int, int, Entity]:
    return (rank, -(end - start), Entity(type_, start, end, type_.lower()))


def spans(ents: list[Entity]) -> set[tuple[str, int, int]]:
    return {(x.type, x.start, x.end) for x in ents}


def test_the_lower_rank_wins_an_overlap_whatever_its_length() -> None:
    got = resolve([cand(40, "PHONE_NUMBER", 0, 19), cand(16, "CREDIT_CARD", 0, 16)], [])
    assert spans(got) == {("CREDIT_CARD", 0, 16)}


def test_at_one_rank_the_longer_span_wins_then_the_earlier() -> None:
    assert spans(resolve([cand(20, "A", 5, 8), cand(20, "B", 3, 10)], [])) == {("B", 3, 10)}
    assert spans(resolve([cand(20, "B", 6, 10), cand(20, "A", 4, 8)], [])) == {("A", 4, 8)}


def test_taken_spans_are_never_displaced_and_touching_spans_both_stay() -> None:
    taken = [Entity("PERSON", 10, 20, "ner")]
    got = resolve([cand(1, "EMAIL_ADDRESS", 15, 30), cand(1, "GPE", 20, 25), cand(1, "AGE", 0, 10)], taken)
    assert spans(got) == {("PERSON", 10, 20), ("GPE", 20, 25), ("AGE", 0, 10)}
    assert got[0] is taken[0]  # appended to the list given


def test_occupied_answers_for_half_open_spans() -> None:
    occ = Occupied()
    occ.take(10, 20)
    assert occ.free(0, 10) and occ.free(20, 30)
    assert not occ.free(19, 21) and not occ.free(5, 11) and not occ.free(12, 13) and not occ.free(0, 40)


def test_clip_cuts_structured_entities_out_of_a_model_span() -> None:
    text = "12 Main St 97403 before Friday"
    hard = [Entity("ZIP_CODE", 11, 16, "zip")]
    assert clip([("STREET_ADDRESS", 0, 23)], hard, text) == [("STREET_ADDRESS", 0, 10)]
