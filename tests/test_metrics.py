"""Metrics on hand-computed cases: P/R/F1 conventions, f1-n/f1-e, LCS ratio, optimal matching, hierarchy."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pp_graph.evaluate.metrics import (
    PRF,
    Item,
    LabelScores,
    SegmentScores,
    assign,
    hierarchy_compatible,
    lcs_ratio,
    longest_common_substring,
    match_items,
    name_labels,
    same_label,
    span_score,
)

# A toy hierarchy: contact > email; data > contact, location.
BROADER = {"email": {"contact"}, "contact": {"data"}, "location": {"data"}, "data": set()}


def anc(c: str) -> set[str]:
    out, todo = {c}, [c]
    while todo:
        for b in BROADER.get(todo.pop(), ()):
            if b not in out:
                out.add(b)
                todo.append(b)
    return out


def test_prf_basic_and_empty_conventions():
    p = PRF.one_to_one(2, 4, 5)
    assert (p.precision, p.recall) == (0.5, 0.4)
    assert p.f1 == pytest.approx(2 * 0.5 * 0.4 / 0.9)
    assert PRF.one_to_one(0, 0, 0).f1 == 1.0  # nothing to find, nothing found
    assert PRF.one_to_one(0, 3, 0).f1 == 0.0  # empty gold, something predicted
    assert PRF.one_to_one(0, 0, 2).f1 == 0.0  # empty prediction, gold non-empty
    assert PRF.one_to_one(0, 0, 2).precision == 0.0


def test_segment_scores_split_empty_and_nonempty_gold():
    s = SegmentScores()
    s.add(PRF.one_to_one(1, 1, 1))  # F1 1
    s.add(PRF.one_to_one(1, 2, 2))  # F1 0.5
    s.add(PRF.one_to_one(0, 0, 0))  # empty gold, empty prediction: 1
    s.add(PRF.one_to_one(0, 1, 0))  # empty gold, a prediction: 0
    assert s.f1 == pytest.approx((1 + 0.5 + 1 + 0) / 4)
    assert s.f1_n == pytest.approx(0.75)
    assert s.f1_e == pytest.approx(0.5)
    m = s.micro
    assert (m.tp_pred, m.n_pred, m.n_gold) == (2, 4, 3)
    assert m.f1 == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))
    assert math.isnan(SegmentScores().f1_n)


def test_label_scores_macro_micro_and_unmapped():
    ls = LabelScores(("a", "b", "c"))
    ls.add({"a"}, {"a", "b"})
    ls.add({"b"}, set(), unmapped=1)
    ls.add(set(), set())
    # a: tp1 fp0 fn0 → 1; b: tp0 fp1 fn1 → 0; c never seen → not averaged
    assert ls.macro_f1 == pytest.approx(0.5)
    m = ls.micro
    assert (m.tp_pred, m.n_pred, m.n_gold) == (1, 3, 2)  # the unmapped prediction is a false positive
    assert ls.per_segment.f1_e == 1.0


def test_longest_common_substring_and_symmetric_ratio():
    assert longest_common_substring("email address", "your email") == len("email")
    assert longest_common_substring("", "x") == 0
    assert lcs_ratio("abc", "abc") == 1.0
    # symmetric: a short span inside a long one is not rewarded either way
    assert lcs_ratio("email", "email address") == lcs_ratio("email address", "email") == pytest.approx(5 / 13)
    assert lcs_ratio("", "") == 0.0


def test_span_score_relaxed_threshold_and_offsets():
    gold = Item("email addresses", 10, 25)
    assert span_score(Item("email addresses", 10, 25), gold) == 1.0
    near = Item("email address", 10, 23)  # 13/15 = 0.867 < 0.9 → not counted
    assert span_score(near, gold) == 0.0
    long_gold = Item("your e-mail addresses", 0, 21)
    close = Item("your e-mail address", 0, 19)  # 19/21 = 0.905 ≥ 0.9 → counts the ratio
    assert span_score(close, long_gold) == pytest.approx(19 / 21)
    # same text elsewhere in the segment is another mention
    assert span_score(Item("your e-mail addresses", 40, 61), long_gold) == 0.0
    # without offsets, text decides
    assert span_score(Item("cookies"), Item("cookies")) == 1.0


def test_assign_optimal_not_greedy():
    # Greedy on row 0 takes (0,0)=0.95 and leaves row 1 with 0: total 0.95. Optimal: (0,1)+(1,0) = 1.8.
    w = [[0.95, 0.9], [0.9, 0.0]]
    assert assign(w) == [(0, 1), (1, 0)]
    assert assign([]) == []
    assert assign([[0.0, 0.0]]) == []  # zero-weight pairs are not matches
    assert assign([[0.0], [1.0], [0.5]]) == [(1, 0)]  # rectangular


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 0.9, 0.95, 1.0]), min_size=3, max_size=3), min_size=1, max_size=4))
def test_assign_matches_brute_force(w):
    got = sum(w[i][j] for i, j in assign(w))
    rows, cols = len(w), 3
    best = 0.0
    for perm in itertools.permutations(range(max(rows, cols)), rows):
        best = max(best, sum(w[i][j] for i, j in enumerate(perm) if j < cols))
    assert got == pytest.approx(best)


def test_match_items_one_to_one_with_labels():
    gold = [Item("email", 0, 5, "email"), Item("phone", 10, 15, "phone")]
    pred = [Item("email", 0, 5, "email"), Item("email", 0, 5, "contact"), Item("phone", 10, 15, "email")]
    m = match_items(pred, gold, same_label)
    assert m.prf.tp_pred == 1.0 and (m.prf.n_pred, m.prf.n_gold) == (3, 2)
    # without labels each gold span is used once, even though two predictions share it
    m2 = match_items(pred, gold)
    assert m2.prf.tp_pred == 2.0
    assert match_items([], gold).prf.f1 == 0.0
    assert match_items([], []).prf.f1 == 1.0


def test_hierarchy_compatible_narrower_only():
    ok = hierarchy_compatible(anc)
    assert ok(Item("x", label="email"), Item("x", label="contact"))  # narrower prediction counts
    assert ok(Item("x", label="contact"), Item("x", label="contact"))
    assert not ok(Item("x", label="data"), Item("x", label="contact"))  # broader does not
    assert not ok(Item("x", label="location"), Item("x", label="contact"))
    gold = [Item("e-mail", 0, 6, "contact")]
    assert match_items([Item("e-mail", 0, 6, "email")], gold, same_label).prf.tp_pred == 0.0
    assert match_items([Item("e-mail", 0, 6, "email")], gold, ok).prf.tp_pred == 1.0


def test_name_labels_exact_and_most_specific_rollup():
    labels = {"Contact": frozenset({"contact"}), "Generic": frozenset({"data"}), "Loc": frozenset({"location"})}
    assert name_labels(["email", "data"], labels, anc, hierarchy=False) == ({"Generic"}, 1)
    # email rolls up to Contact only (Generic is an ancestor but not the most specific)
    assert name_labels(["email", "data"], labels, anc, hierarchy=True) == ({"Contact", "Generic"}, 0)
    assert name_labels(["unknown"], labels, anc, hierarchy=True) == (set(), 1)
    assert name_labels([], labels, anc, hierarchy=True) == (set(), 0)


def test_percentile_nearest_rank() -> None:
    from pp_graph.evaluate.metrics import percentile

    values = [float(v) for v in range(1001)]  # 0 … 1000
    assert percentile(values, 0.025) == 25.0 and percentile(values, 0.975) == 975.0
    assert percentile([3.0], 0.5) == 3.0 and math.isnan(percentile([], 0.5))


def test_bootstrap_interval_is_a_point_for_identical_units_and_nan_below_two_units() -> None:
    from pp_graph.evaluate.metrics import PRF, bootstrap_macro_f1

    unit = {"a": PRF.one_to_one(1.0, 2, 1), "b": PRF.one_to_one(0.0, 0, 1)}  # a: P .5 R 1 → F1 2/3; b: F1 0
    iv = bootstrap_macro_f1([unit, unit, unit], ["a", "b"], resamples=50)
    assert iv.low == pytest.approx(1 / 3) and iv.high == pytest.approx(1 / 3)
    assert iv.units == 3 and iv.resamples == 50 and iv.level == 0.95
    one = bootstrap_macro_f1([unit], ["a", "b"])
    assert math.isnan(one.low) and math.isnan(one.high) and one.units == 1


def test_bootstrap_interval_spreads_with_disagreeing_units_and_covers_the_estimate() -> None:
    from pp_graph.evaluate.metrics import PRF, bootstrap_macro_f1, macro_f1_of

    good = {"a": PRF.one_to_one(1.0, 1, 1)}
    bad = {"a": PRF.one_to_one(0.0, 1, 1)}
    units = [good] * 5 + [bad] * 5
    iv = bootstrap_macro_f1(units, ["a"], resamples=400, seed=3)
    total = {"a": PRF.one_to_one(5.0, 10, 10)}
    assert macro_f1_of(total, ["a"]) == pytest.approx(0.5)
    assert iv.low < 0.5 < iv.high
    assert iv.low > 0.15 and iv.high < 0.85
    assert iv == bootstrap_macro_f1(units, ["a"], resamples=400, seed=3)


def _naive_lcs(a: str, b: str) -> int:
    return max((k for i in range(len(a)) for k in range(1, len(a) - i + 1) if a[i : i + k] in b), default=0)


@given(st.text(alphabet="abc ", max_size=12), st.text(alphabet="abc ", max_size=12))
def test_longest_common_substring_matches_the_definition(a: str, b: str) -> None:
    assert longest_common_substring(a, b) == _naive_lcs(a, b)
