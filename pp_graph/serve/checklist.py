"""A policy's checklist on its UI page: each evidence line linked to that line of the policy page (the corpus table
of the compliance page is pp_graph.comply.corpus.corpus_table).

An evidence line is a line of the policy (its offsets are a segment's), so its link is the policy page showing
that line, anchored at it (``#seg-<index>``); a policy longer than one page is linked at the page holding the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pp_graph.comply.corpus import SYMBOLS, Checked
from pp_graph.query.corpus import PolicyView

SNIPPET = 140  # characters of an evidence line shown in the checklist; the whole line is its title


@dataclass(frozen=True)
class EvidenceLink:
    index: int  # the segment's index (its anchor: seg-<index>)
    page: int  # the first line of the page holding it (the ``from`` argument)
    text: str
    full: str


@dataclass
class Row:
    id: str
    label: str
    article: str
    status: str
    symbol: str
    reason: str
    evidence: list[EvidenceLink] = field(default_factory=list)


def snippet(text: str, limit: int = SNIPPET) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def checklist_rows(checked: Checked, view: PolicyView, page_lines: int) -> list[Row]:
    """The checklist's items with their evidence lines located on the policy page ([] without a checklist)."""
    if checked.checklist is None:
        return []
    where = {s.start: (pos, s.index) for pos, s in enumerate(view.segments)}
    rows = []
    for r in checked.checklist.results:
        row = Row(r.item.id, r.item.label, r.item.article, r.status, SYMBOLS[r.status], r.reason)
        for e in r.evidence:
            pos, index = where.get(e.start, (None, None))
            if pos is not None and index is not None:  # every line of the graph is a segment of the view
                row.evidence.append(EvidenceLink(index, pos - pos % page_lines, snippet(e.text), e.text))
        rows.append(row)
    return rows


def evidence_by_line(rows: list[Row]) -> dict[int, list[Row]]:
    """Segment index → the items its line is evidence of (the policy page marks those lines)."""
    out: dict[int, list[Row]] = {}
    for row in rows:
        for e in row.evidence:
            out.setdefault(e.index, []).append(row)
    return out
