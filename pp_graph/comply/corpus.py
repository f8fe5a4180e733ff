"""Checklists of the policies of an opened corpus (the UI, the report and ``history --law`` read them).

A graph converted before the transparency stage has no answer: its entry carries the note telling to convert it
again instead of a checklist, so one old graph never hides the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pp_graph.comply.checklist import (
    ADDRESSED,
    DENIED,
    MISSING,
    NOT_APPLICABLE,
    PolicyChecklist,
    StaleGraph,
    checklist,
)
from pp_graph.comply.facts import store_facts
from pp_graph.comply.laws import Law, get_law
from pp_graph.query.corpus import Corpus, PolicySummary

DEFAULT_LAW = "gdpr"  # the checklist the UI and the report show
# Compact symbols of the HTML tables, and their legend (in this order).
SYMBOLS = {ADDRESSED: "✓", DENIED: "✗", MISSING: "–", NOT_APPLICABLE: "n/a"}
LEGEND = (
    (ADDRESSED, "the policy addresses it"),
    (DENIED, "the policy says it does not (e.g. no transfers abroad)"),
    (MISSING, "nothing in the policy addresses it"),
    (NOT_APPLICABLE, "not owed by this policy (the reason is given)"),
)


@dataclass(frozen=True)
class Checked:
    """One policy version and its checklist, or the note saying why it has none."""

    summary: PolicySummary
    checklist: PolicyChecklist | None
    note: str = ""


def check_policy(c: Corpus, summary: PolicySummary, law: Law) -> Checked:
    try:
        return Checked(summary, checklist(store_facts(c.store.store, summary.policy, summary.file), law))
    except StaleGraph as e:
        return Checked(summary, None, str(e))


def check_newest(c: Corpus, law_id: str = DEFAULT_LAW) -> list[Checked]:
    """Each site's newest version, by site."""
    law = get_law(law_id)
    return [check_policy(c, versions[-1], law) for _, versions in sorted(c.sites.items())]


def corpus_table(checked: list[Checked]) -> dict[str, Any]:
    """Sites × requirements: the item labels (columns), and per site its statuses and symbols, or its note."""
    lists = [c.checklist for c in checked if c.checklist is not None]
    items = lists[0].law.items if lists else ()
    sites = []
    for c in checked:
        cells = [(r.item.id, r.status, SYMBOLS[r.status]) for r in c.checklist.results] if c.checklist else []
        missing = sum(status == MISSING for _, status, _ in cells)
        sites.append({"site": c.summary.site, "key": c.summary.key, "cells": cells, "missing": missing, "note": c.note})
    return {"requirements": items, "law": lists[0].law if lists else None, "sites": sites}
