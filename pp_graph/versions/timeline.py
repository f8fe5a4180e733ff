"""A site's history as rows, JSON and markdown (pp-graph history): each version, what changed since the one before,
the highest severity of those changes, and with a law, the checklist per version and the requirements lost/gained."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from pp_graph.comply.corpus import DEFAULT_LAW, SYMBOLS, check_policy
from pp_graph.comply.laws import get_law
from pp_graph.query.corpus import Corpus, PolicySummary
from pp_graph.versions.diff import Change, Point, diff
from pp_graph.versions.requirements import GAINED, LOST, LawPoint, requirement_changes
from pp_graph.versions.severity import LEVELS
from pp_graph.vocab.dpv import compact


def highest(changes: Sequence[Change]) -> str:
    """The highest severity among ``changes`` ("" when there are none)."""
    levels = [c.severity[0] for c in changes]
    return max(levels, key=LEVELS.index) if levels else ""


def _changes(p: Point, lp: LawPoint | None) -> list[Change]:
    d = p.diff
    return (d.added + d.removed + d.changed if d else []) + (lp.changes if lp else [])


def _labels(lp: LawPoint, kind: str) -> str:
    return ", ".join(str(c.details["label"]) for c in lp.changes if c.kind == kind)


def timeline_rows(points: Sequence[Point], law: Sequence[LawPoint] | None = None) -> list[dict[str, Any]]:
    """One row per version (for a table or CSV)."""
    rows = []
    for i, p in enumerate(points):
        d = p.to_dict()
        kinds = Counter(c["kind"] for c in d["changes"])
        lp = law[i] if law else None
        row: dict[str, Any] = {
            "valid_from": d["valid_from"] or "",
            "practices": d["practices"],
            "text": "first" if d["text_changed"] is None else ("changed" if d["text_changed"] else "same"),
            "added": d["added"],
            "removed": d["removed"],
            "changed": d["changed"],
            "kinds": ", ".join(f"{k}={v}" for k, v in sorted(kinds.items())),
        }
        if lp is not None:
            ld = lp.to_dict()
            row |= {"addressed": f"{ld['addressed']}/{len(ld['requirements'])}"}
            row |= {"lost": _labels(lp, LOST), "gained": _labels(lp, GAINED)}
        row["severity"] = highest(_changes(p, lp))
        rows.append(row)
    return rows


def checklist_rows(law: Sequence[LawPoint]) -> list[dict[str, str]]:
    """Requirements down, versions across: the status symbol of each requirement in each version."""
    if not law:
        return []
    first = law[0].checked.checklist
    assert first is not None  # law_history refuses versions without a checklist
    out = []
    for i, item in enumerate(first.law.items):
        row = {"requirement": item.label}
        for lp in law:
            c = lp.checked.checklist
            assert c is not None
            row[lp.checked.summary.valid_from or lp.checked.summary.key] = SYMBOLS[c.results[i].status]
        out.append(row)
    return out


def timeline_json(points: Sequence[Point], law: Sequence[LawPoint] | None = None) -> list[dict[str, Any]]:
    out = []
    for i, p in enumerate(points):
        lp = law[i] if law else None
        d = p.to_dict() | (lp.to_dict() if lp else {})
        out.append(d | {"severity": highest(_changes(p, lp))})
    return out


def describe(c: Change) -> str:
    """A change in a few words: the requirement and its move, or the practice type, data and values."""
    if c.kind.startswith("requirement-"):
        return f"{c.details['label']}: {c.details['from']} → {c.details['to']}"
    what = " ".join(x for x in (c.type or "", compact(c.data) if c.data else "") if x)
    values = c.details.get("values")
    return what + (f" ({', '.join(values)})" if values else "")


def _md_change(c: Change) -> str:
    return f"- [{c.severity[0]}] **{c.kind}** {describe(c)}"


def timeline_markdown(site: str, points: Sequence[Point], law: Sequence[LawPoint] | None = None) -> str:
    lines = [f"# {site}: {len(points)} versions", ""]
    for row, (i, p) in zip(timeline_rows(points, law), enumerate(points), strict=True):
        lines.append(f"## {row['valid_from'] or p.version.key}" + (f" — {row['severity']}" if row["severity"] else ""))
        extra = f"; {row['addressed']} requirements addressed" if law else ""
        lines.append(f"{row['practices']} practices; text {row['text']}{extra}.")
        changes = _changes(p, law[i] if law else None)
        lines += [""] + [_md_change(c) for c in changes] if changes else []
        lines.append("")
    if law:
        rows = checklist_rows(law)
        head = list(rows[0])
        lines += ["## Checklist per version", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r[h] for h in head) + " |" for r in rows]
        lines += ["", "Legend: " + ", ".join(f"{s} {k}" for k, s in SYMBOLS.items())]
    return "\n".join(lines)


def step_changes(c: Corpus, old: PolicySummary, new: PolicySummary, law_id: str = DEFAULT_LAW) -> dict[str, Any]:
    """What changed from ``old`` to ``new``: {"severity": the highest, "changes": [{kind, what, severity, why}]
    highest first, "note"}; the law's requirement changes too when both versions carry transparency facts."""
    law = get_law(law_id)
    d = diff(c, old, new)
    a, b = check_policy(c, old, law), check_policy(c, new, law)
    changes = d.added + d.removed + d.changed
    note = ""
    if a.checklist is not None and b.checklist is not None:
        changes += requirement_changes(a.checklist, b.checklist)
    else:  # a version converted before the transparency stage: practices only
        note = "requirement changes not shown: " + (a.note or b.note)
    rows = [{"kind": ch.kind, "what": describe(ch), "severity": ch.severity[0]} for ch in changes]
    for r, ch in zip(rows, changes, strict=True):
        r["why"] = ch.severity[1]
    rows.sort(key=lambda r: -LEVELS.index(r["severity"]))  # the highest first; stable within a level
    return {"severity": highest(changes), "changes": rows, "note": note}


def version_changes(c: Corpus, site: str, law_id: str = DEFAULT_LAW) -> dict[str, dict[str, Any]]:
    """Policy IRI → :func:`step_changes` from the version before, for every version after a site's first (the
    report's versions view; a UI page shows its own version's step only, one diff instead of all)."""
    versions = c.sites.get(site, [])
    return {new.policy: step_changes(c, old, new, law_id) for old, new in pairwise(versions)}
