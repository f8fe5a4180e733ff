"""What every exporter reads about one policy, through the queries/export-*.rq queries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pp_graph.errors import InputError
from pp_graph.query.runner import Store, run_query


@dataclass(frozen=True)
class PolicyRows:
    site: str  # the Website IRI
    domain: str
    practices: list[dict[str, Any]]
    party_names: dict[str, str]  # party IRI → name


def policy_rows(store: Store, policy: str) -> PolicyRows:
    heads = run_query(store, "export-policy", {"policy": policy})
    if not heads:
        raise InputError(policy, "no such policy graph in the store")
    rows = run_query(store, "export-practices", {"policy": policy})
    lines = {str(r["practice"]): r for r in run_query(store, "export-practice-lines", {"policy": policy})}
    for r in rows:  # the practice's line and offsets beside its facts (line, lineStart, triggerStart, dataAt)
        extra = lines.get(str(r["practice"]), {})
        r.update({k: extra.get(k) for k in ("line", "lineStart", "triggerStart", "dataAt")})
    names = {str(r["party"]): str(r["name"]) for r in run_query(store, "export-parties", {"policy": policy})}
    return PolicyRows(str(heads[0]["site"]), str(heads[0]["domain"]), rows, names)
