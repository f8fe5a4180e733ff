"""Corpus summary in the shape of the Pr2Graph paper's figures, computed with the named queries."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from pp_graph.query.runner import Store, run_query

FIRST_PARTY = "first-party-collection-use"
SHARING = "third-party-sharing-disclosure"


@dataclass
class CorpusStats:
    policies: int = 0
    sites: int = 0
    triples: int = 0
    practices: int = 0  # stated (non-negated)
    negated_practices: int = 0
    by_type: dict[str, dict[str, int]] = field(default_factory=dict)  # type → stated / negated
    first_party_collection_use: int = 0
    third_party_sharing: int = 0
    data_classes: int = 0
    data_mentions: int = 0
    purpose_classes: int = 0
    purpose_mentions: int = 0
    top_data: list[dict[str, Any]] = field(default_factory=list)
    top_purposes: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary_rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = [
            {"measure": "policies", "value": self.policies},
            {"measure": "triples", "value": self.triples},
            {"measure": "practices (stated)", "value": self.practices},
            {"measure": "practices (negated)", "value": self.negated_practices},
        ]
        for t, c in self.by_type.items():
            rows.append({"measure": f"  {t}", "value": c["stated"], "negated": c["negated"]})
        rows += [
            {"measure": "first-party collection-use", "value": self.first_party_collection_use},
            {"measure": "third-party sharing", "value": self.third_party_sharing},
            {"measure": "distinct data classes", "value": self.data_classes, "mentions": self.data_mentions},
            {"measure": "distinct purpose classes", "value": self.purpose_classes, "mentions": self.purpose_mentions},
        ]
        return rows


def corpus_stats(store: Store, top: int = 10) -> CorpusStats:
    """Needs DPV in the store (data and purpose classes are told apart by its hierarchy)."""
    st = CorpusStats()
    totals = run_query(store, "stats-totals")
    if totals:
        t = totals[0]
        st.policies, st.sites, st.triples = int(t["policies"] or 0), int(t["sites"] or 0), int(t["triples"] or 0)
    for r in run_query(store, "stats-practices"):
        stated, negated = int(r["stated"]), int(r["negatedCount"])
        st.by_type[str(r["type"])] = {"stated": stated, "negated": negated}
        st.practices += stated
        st.negated_practices += negated
    st.first_party_collection_use = st.by_type.get(FIRST_PARTY, {}).get("stated", 0)
    st.third_party_sharing = st.by_type.get(SHARING, {}).get("stated", 0)
    data = run_query(store, "top-data-classes")
    purposes = run_query(store, "top-purposes")
    st.data_classes, st.data_mentions = len(data), sum(int(r["mentions"]) for r in data)
    st.purpose_classes, st.purpose_mentions = len(purposes), sum(int(r["mentions"]) for r in purposes)
    st.top_data, st.top_purposes = data[:top], purposes[:top]
    return st
