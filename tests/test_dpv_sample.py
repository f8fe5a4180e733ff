"""The labelled DPV sample is well-formed, and the scorer counts what it says it counts."""

from __future__ import annotations

from collections import Counter

from pp_graph.evaluate.dpv_sample import NONE, Gold, load_sample, score


def test_sample_is_well_formed() -> None:
    sample = load_sample()  # every gold concept is a DPV concept of its kind (checked at load)
    assert Counter(g.kind for g in sample) == {"data": 300, "purpose": 300}
    assert len({g.id for g in sample}) == 600
    assert all(g.end - g.start == len(g.mention) for g in sample)


def test_score_counts_right_wrong_alternatives_and_missing() -> None:
    gold = [
        Gold("d1", "data", "a.example", 0, 5, "email", "pd:EmailAddress", ()),
        Gold("d2", "data", "a.example", 9, 13, "data", "dpv:PersonalData", ("pd:Tracking",)),
        Gold("d3", "data", "a.example", 20, 27, "content", NONE, ()),
        Gold("d4", "data", "a.example", 30, 33, "age", "pd:Age", ()),
    ]
    preds = {
        ("data", "a.example", 0, 5): "https://w3id.org/dpv/pd#EmailAddress",
        ("data", "a.example", 9, 13): "pd:Tracking",
        ("data", "a.example", 20, 27): "pd:Communication",
    }
    s = score(gold, preds)["data"]
    assert (s.predicted, s.right, s.gold_mentions, s.found) == (3, 2, 3, 2)
    assert s.confusions == Counter({("pd:Communication", NONE): 1})
