"""What a learned classifier sees of one segment: its words, its paragraph, its context, and the rule decisions."""

from __future__ import annotations

from dataclasses import dataclass

from pp_graph.model import PolicyExtraction, SegmentExtraction
from pp_graph.vocab.dpv import compact


@dataclass(frozen=True, slots=True)
class Unit:
    """One segment's inputs: the line, its heading path and previous line, the rule decisions as tokens, and the
    paragraph the line belongs to (a category is usually said once per paragraph, not on every line of it)."""

    text: str
    context: str
    rules: str
    para: str = ""


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


def paragraphs(ex: PolicyExtraction) -> list[int]:
    """Paragraph number of each segment: a blank line or a heading starts a new paragraph."""
    out: list[int] = []
    text, prev_end, n = ex.policy.text, None, -1
    for res in ex.results:
        seg = res.segment
        if prev_end is None or seg.is_heading or text.count("\n", prev_end, seg.start) >= 2:
            n += 1
        out.append(n)
        prev_end = seg.end
    return out


def units(ex: PolicyExtraction) -> list[Unit]:
    """One Unit per segment of an extraction, in segment order."""
    para_of = paragraphs(ex)
    para_text: dict[int, list[str]] = {}
    for res, p in zip(ex.results, para_of, strict=True):
        para_text.setdefault(p, []).append(res.segment.text)
    out: list[Unit] = []
    prev = ""
    for res, p in zip(ex.results, para_of, strict=True):
        seg = res.segment
        para = " ".join(para_text[p])
        out.append(Unit(seg.text, " ".join(seg.heading_path) + " | " + prev, rule_tokens(res), para))
        prev = seg.text
    return out
