"""The ODRL export of every corpus policy passes the W3C ODRL shapes (converted once per module)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.export import export_store
from pp_graph.export.odrl import validate_odrl
from pp_graph.store.embedded import EmbeddedStore, open_store

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "policies"


@pytest.fixture(scope="module")
def corpus_store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus/policies is not available")
    from pp_graph.batch import convert_batch

    out = tmp_path_factory.mktemp("corpus-out")
    report = convert_batch([CORPUS], out, fmt="trig", backend="offline", options={}, jobs=2)
    assert report.count("converted") == 40
    return open_store([out])


@pytest.mark.slow
def test_every_corpus_policy_exports_valid_odrl(corpus_store: EmbeddedStore) -> None:
    graphs = export_store("odrl", corpus_store)
    assert len(graphs) == 40
    failures = {p: r.text for p, g in graphs.items() if not (r := validate_odrl(g, profile=False)).conforms}
    assert not failures, next(iter(failures.values()))
    # Our profile shapes are slower in pyshacl; check them on a few whole policies.
    for p in sorted(graphs)[:3]:
        rep = validate_odrl(graphs[p])
        assert rep.conforms, rep.text


@pytest.mark.slow
def test_corpus_stats_match_the_conversion_reports(corpus_store: EmbeddedStore) -> None:
    from pp_graph.query.stats import corpus_stats

    st = corpus_stats(corpus_store)
    assert st.policies == 40 and st.practices > 1000 and st.data_mentions > st.data_classes > 50
