"""What a learned classifier sees of one segment: its words, its context, and what the rules decided there."""

from __future__ import annotations

from dataclasses import dataclass

from pp_graph.model import PolicyExtraction, SegmentExtraction
from pp_graph.vocab.dpv import compact


@dataclass(frozen=True, slots=True)
class Unit:
    """One segment's inputs: the line, its heading path and previous line, and the rule decisions as tokens."""

    text: str
    context: str
    rules: str


def rule_tokens(res: SegmentExtraction) -> str:
    """The rules' decisions as tokens: practice types (negated, inherited) and data/purpose classes (linked or not)."""
    toks = [
        f"P:{p.type.value}" + (":neg" if p.negated else "") + (":inh" if p.inherited else "") for p in res.practices
    ]
    linked = {r.entity for r in res.relations}
    for kind, items in (("D", res.data), ("U", res.purposes)):
        pool = "data" if kind == "D" else "purpose"
        for i, item in enumerate(items):
            if item.concept:
                toks.append(f"{kind}{'L' if f'{pool}:{i}' in linked else ''}:{compact(item.concept)}")
    if not toks:
        toks.append("NONE")
    return " ".join(sorted(toks))


def units(ex: PolicyExtraction) -> list[Unit]:
    """One Unit per segment of an extraction, in segment order."""
    out: list[Unit] = []
    prev = ""
    for res in ex.results:
        seg = res.segment
        out.append(Unit(seg.text, " ".join(seg.heading_path) + " | " + prev, rule_tokens(res)))
        prev = seg.text
    return out
