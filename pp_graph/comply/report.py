"""A checklist as JSON (the contract), a table (policy × requirement), markdown (evidence lines) or CSV rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pp_graph.comply.checklist import ADDRESSED, DENIED, MISSING, NOT_APPLICABLE, PolicyChecklist
from pp_graph.report.formats import Report, aligned, csv_text

SYMBOL = {ADDRESSED: "✓", DENIED: "✗denied", MISSING: "—missing", NOT_APPLICABLE: "n/a"}
CSV_COLUMNS = ("file", "site", "law", "id", "label", "article", "status", "reason", "start", "end", "text")


def to_json(checklists: Sequence[PolicyChecklist]) -> dict[str, Any]:
    """``{"policies": [{"file", "site", "law", "requirements": [{"id", "label", "article", "status",
    "evidence": [{"start", "end", "text"}]}]}]}`` (a not-applicable item also carries its ``reason``)."""
    policies = []
    for c in checklists:
        reqs = []
        for r in c.results:
            entry: dict[str, Any] = {
                "id": r.item.id,
                "label": r.item.label,
                "article": r.item.article,
                "status": r.status,
                "evidence": [{"start": e.start, "end": e.end, "text": e.text} for e in r.evidence],
            }
            if r.reason:
                entry["reason"] = r.reason
            reqs.append(entry)
        policies.append({"file": c.file, "site": c.site, "law": c.law.id, "requirements": reqs})
    return {"policies": policies}


def to_table(checklists: Sequence[PolicyChecklist]) -> str:
    """Requirements down, policies across (a corpus table); one column per policy, by site."""
    if not checklists:
        return "(no policies)"
    items = checklists[0].law.items
    head = ["requirement", *[c.site or c.file for c in checklists]]
    rows = [[it.label, *[SYMBOL[c.results[i].status] for c in checklists]] for i, it in enumerate(items)]
    done = ["complete", *["yes" if c.complete else "NO" for c in checklists]]
    return "\n".join(aligned([head, *rows, done]))


def to_markdown(checklists: Sequence[PolicyChecklist]) -> str:
    out: list[str] = []
    for c in checklists:
        out.append(f"## {c.site or c.file} — {c.law.name}\n")
        out.append(f"Source: `{c.file}`. " + ("All items addressed." if c.complete else "Some items are missing."))
        out.append("")
        for r in c.results:
            out.append(f"- **{r.item.label}** ({r.item.article}): {r.status}" + (f" — {r.reason}" if r.reason else ""))
            for e in r.evidence:
                out.append(f"  - {e.start}–{e.end}: {e.text}")
        out.append("")
    return "\n".join(out)


def to_csv(checklists: Sequence[PolicyChecklist]) -> str:
    """One row per evidence line (an item without evidence: one row with empty offsets)."""
    rows = []
    for c in checklists:
        for r in c.results:
            base = [c.file, c.site, c.law.id, r.item.id, r.item.label, r.item.article, r.status, r.reason]
            rows += [[*base, e.start, e.end, e.text] if e else [*base, "", "", ""] for e in r.evidence or [None]]
    return csv_text(CSV_COLUMNS, rows)


REPORT = Report(to_json, to_table, to_markdown, to_csv)
