"""Graph-driven decisions on the real corpus: the same action scores differently for two sites."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.batch import convert_batch
from pp_graph.risk import ActionContext, RiskEngine
from pp_graph.risk.signals import query_text
from pp_graph.store.embedded import EmbeddedStore

SITES = ("google.com", "amazon.com")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> RiskEngine:
    corpus = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "policies"
    if not all((corpus / f"{s}.md").is_file() for s in SITES):
        pytest.skip("../shared/corpus/policies is not available")
    out = tmp_path_factory.mktemp("risk-corpus")
    report = convert_batch([corpus / f"{s}.md" for s in SITES], out)
    assert report.ok
    store = EmbeddedStore()
    store.load([out])
    return RiskEngine(store)


def test_same_action_differs_by_policy(engine: RiskEngine) -> None:
    # Location data to an advertising network for advertising: Google's policy declares it (with the
    # purpose and the recipient kind), Amazon's only declares sharing "personal information" generically.
    ctx = {
        "data": ("pd:Location",),
        "purposes": ("dpv:Advertising",),
        "recipients": ("advertising",),
        "basis": "default",
    }
    g = engine.decide(ActionContext(site="google.com", **ctx))
    a = engine.decide(ActionContext(site="amazon.com", **ctx))
    assert g.components["L"] < a.components["L"] and g.risk < a.risk
    # Google states the purpose as personalised ads (narrower than advertising) or advertising itself
    assert g.likelihood["match"] in {"exact", "broader", "narrower"} and a.likelihood["match"] in {
        "generic",
        "no_purpose",
        "category_only",
    }
    # AMRSF alone allows Google and transforms Amazon. Google's "we do not share your personal information with
    # companies … outside of Google except in the following cases" is a prohibition with a stated exception: the
    # ODRL verdict is undetermined, so AMRSF's verdict stands and the reason cites the line. Amazon's policy
    # permits the sharing.
    assert g.odrl is not None and a.odrl is not None
    assert (g.odrl["amrsf"], a.odrl["amrsf"]) == ("allow", "transform")
    assert (g.decision, a.decision) == ("allow", "transform")
    assert (g.odrl["verdict"], a.odrl["verdict"]) == ("undetermined", "permitted")
    assert "except in the following cases" in g.odrl["rules"][0]["text"]
    assert any("ODRL: undetermined" in r and "except in the following cases" in r for r in g.reasons)
    for d, site in ((g, "google.com"), (a, "amazon.com")):
        assert d.evidence, site
        assert all(e["practice"].startswith(f"urn:pp-graph:policy:{site}:") and e["text"] for e in d.evidence)
        assert d.policy and d.policy["site"] == site and len(d.policy["graph_digest"]) == 64
    assert g.policy and a.policy and g.policy["graph_digest"] != a.policy["graph_digest"]


def test_sparql_coverage_agrees_with_the_python_matcher(engine: RiskEngine) -> None:
    store = engine.store
    assert isinstance(store, EmbeddedStore)
    store.load_dpv()
    prof = engine.profile("google.com")
    assert prof is not None
    for cat in ("https://w3id.org/dpv/pd#EmailAddress", "https://w3id.org/dpv/pd#Location"):
        rows = store.query(query_text("risk-category-coverage"), {"policy": prof.policies[0], "category": cat})
        via_sparql = {r["practice"] for r in rows if r["data"] not in _generic()}
        assert via_sparql
        assert prof.covers_category(cat) == any(
            not p.negated for p in prof.practices if p.iri in via_sparql and p.label != "data-security-protection"
        )


def _generic() -> frozenset[str]:
    from pp_graph.risk.signals import GENERIC_DATA

    return GENERIC_DATA
