"""A law's checklist across a site's versions: each version's requirement statuses, and what changed between two.

A requirement the policy met (addressed, denied or not applicable) and now is missing, is *lost* (high by
data/versions/severity.toml); one missing that now is met, is *gained* (low); any other move (addressed ↔ denied ↔
not applicable) is a *status change* (medium).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pp_graph.comply.checklist import ADDRESSED, MISSING, ItemResult, PolicyChecklist
from pp_graph.comply.corpus import Checked, check_policy
from pp_graph.comply.laws import get_law
from pp_graph.errors import InputError
from pp_graph.query.corpus import Corpus
from pp_graph.versions.diff import Change, Evidence

LOST, GAINED, MOVED = "requirement-lost", "requirement-gained", "requirement-status-changed"


def _evidence(r: ItemResult) -> list[Evidence]:
    return [Evidence(e.text, e.start, e.end, "") for e in r.evidence]


def requirement_changes(old: PolicyChecklist, new: PolicyChecklist) -> list[Change]:
    """The items whose status differs between two versions' checklists of one law, in the law's order."""
    out = []
    for a, b in zip(old.results, new.results, strict=True):
        if a.status == b.status:
            continue
        kind = LOST if b.status == MISSING else GAINED if a.status == MISSING else MOVED
        details = {"law": new.law.id, "requirement": b.item.id, "label": b.item.label, "from": a.status}
        details["to"] = b.status
        out.append(Change(kind, None, None, details, _evidence(a), _evidence(b)))
    return out


@dataclass
class LawPoint:
    """One version's checklist and the requirement changes since the version before it (none for the first)."""

    checked: Checked
    changes: list[Change]

    def to_dict(self) -> dict[str, Any]:
        c = self.checked.checklist
        assert c is not None  # law_history refuses versions without a checklist
        reqs = [{"id": r.item.id, "label": r.item.label, "status": r.status} for r in c.results]
        return {
            "law": c.law.id,
            "addressed": sum(r.status == ADDRESSED for r in c.results),
            "requirements": reqs,
            "requirement_changes": [ch.to_dict() for ch in self.changes],
        }


def law_history(c: Corpus, site: str, law_id: str) -> list[LawPoint]:
    """Every version of ``site`` (oldest first) with its checklist of ``law_id``; InputError for an unknown site
    or a version converted before the transparency stage (convert it again)."""
    law = get_law(law_id)
    versions = c.versions_of(site)
    checked = [check_policy(c, v, law) for v in versions]
    for ch in checked:
        if ch.checklist is None:
            raise InputError(ch.summary.file, ch.note.split(": ", 1)[-1])
    points = [LawPoint(checked[0], [])]
    for a, b in pairwise(checked):
        assert a.checklist is not None and b.checklist is not None
        points.append(LawPoint(b, requirement_changes(a.checklist, b.checklist)))
    return points
