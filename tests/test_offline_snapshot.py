"""The offline extractor's outputs match the committed snapshot (see tests/offline_snapshot.py).

A refactoring of the rules must leave every digest unchanged; a deliberate behaviour change regenerates the
snapshot in a commit of its own that says why.
"""

from __future__ import annotations

import pytest
from offline_snapshot import CORPUS, OPP115, corpus_digests, corpus_files, load, opp115_digests

# A fast subset (the smallest policies and the largest) that runs with every test run; the slow tests cover all.
_FAST = 4


def _mismatches(expected: dict[str, str], actual: dict[str, str]) -> list[str]:
    return sorted(k for k in expected.keys() | actual.keys() if expected.get(k) != actual.get(k))


def _need_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus/policies is not available")


def test_snapshot_lists_every_corpus_policy() -> None:
    _need_corpus()
    assert sorted(load()["corpus"]) == [f.name for f in corpus_files()]


def test_corpus_subset_matches_snapshot() -> None:
    _need_corpus()
    files = sorted(corpus_files(), key=lambda p: p.stat().st_size)
    subset = [*files[:_FAST], files[-1]]
    expected = {k: v for k, v in load()["corpus"].items() if k in {f.name for f in subset}}
    assert _mismatches(expected, corpus_digests(subset)) == []


@pytest.mark.slow
def test_whole_corpus_matches_snapshot() -> None:
    _need_corpus()
    assert _mismatches(load()["corpus"], corpus_digests()) == []


@pytest.mark.slow
@pytest.mark.parametrize("split", ["train", "test"])
def test_opp115_predictions_match_snapshot(split: str) -> None:
    if not (OPP115 / "sanitized_policies").is_dir():
        pytest.skip("OPP-115 is not available under ../shared/datasets/opp115")
    assert _mismatches(load()["opp115"][split], opp115_digests(split)) == []
