"""The report's compliance sections: the corpus table (sites × requirements), each site's checklist with its
evidence lines, and the changes between versions with their severities."""

from __future__ import annotations

import re
from typing import Any

from pp_graph.comply.corpus import SYMBOLS, Checked, check_newest, corpus_table
from pp_graph.query.corpus import Corpus
from pp_graph.versions.timeline import version_changes


def anchor(site: str) -> str:
    """An id-safe form of a site name (the report's anchors: checklist-<site>, req-<site>-<item> …)."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", site)


def _policy(ch: Checked) -> dict[str, Any]:
    rows = []
    if ch.checklist is not None:
        for r in ch.checklist.results:
            ev = [{"start": e.start, "end": e.end, "text": e.text} for e in r.evidence]
            row: dict[str, Any] = {"id": r.item.id, "label": r.item.label, "article": r.item.article}
            rows.append(row | {"status": r.status})
            rows[-1] |= {"symbol": SYMBOLS[r.status], "reason": r.reason, "evidence": ev}
    warnings = ch.checklist.warnings if ch.checklist else []
    site = ch.summary.site
    return {"site": site, "anchor": anchor(site), "note": ch.note, "warnings": warnings, "rows": rows}


def _versions(c: Corpus) -> list[dict[str, Any]]:
    out = []
    for site, versions in c.sites.items():
        changes = version_changes(c, site)
        if changes:
            steps = [{"valid_from": v.valid_from or v.key, **changes[v.policy]} for v in versions[1:]]
            out.append({"site": site, "first": versions[0].valid_from or versions[0].key, "steps": steps})
    return out


def compliance(c: Corpus) -> dict[str, Any]:
    checked = check_newest(c)
    return {"table": corpus_table(checked), "policies": [_policy(ch) for ch in checked], "versions": _versions(c)}
