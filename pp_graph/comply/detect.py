"""Find the spans of a line that address each transparency requirement: cue patterns and earlier stages' facts.

One statement per line, requirement and polarity, at the first span found that shows it (the line is the evidence unit
of the checklist; more spans per line would only grow the graph).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pp_graph.comply.rules import Negation, Requirement, RuleSet
from pp_graph.load.reading import is_navigation
from pp_graph.model import AttributeKind, PartyKind, RequirementMention, SegmentExtraction, Span

_CLAUSE_END = re.compile(r"[.;:!?](?:\s|$)")
AFTER_LIMIT = 300  # characters after a cue searched for an exception ("unless", "except")
MAX_CANDIDATES = 64  # spans tried per requirement and line before giving up on finding the other polarity


def negated(text: str, start: int, end: int, neg: Negation) -> bool:
    """Whether the cue at text[start:end] sits in a negated clause without an exception after it. Both looks are
    bounded (``neg.window`` before, AFTER_LIMIT after): a run-on line without full stops stays linear."""
    lo = max(0, start - neg.window)
    clause_start = lo
    for m in _CLAUSE_END.finditer(text, lo, start):
        clause_start = m.end()
    if not neg.cues.search(text[clause_start:start]):
        return False
    hi = min(len(text), end + AFTER_LIMIT)
    after = _CLAUSE_END.search(text, end, hi)
    return not neg.exceptions.search(text[end : after.start() if after else hi])


def negated_data(res: SegmentExtraction) -> frozenset[str]:
    """The line's data mentions (``data:<i>``) tied to a negated practice."""
    return frozenset(
        r.entity
        for r in res.relations
        if r.entity.startswith("data:") and 0 <= r.practice < len(res.practices) and res.practices[r.practice].negated
    )


def _fact_spans(
    res: SegmentExtraction, fact: str, exclude: frozenset[str], denied: frozenset[str]
) -> Iterator[tuple[Span, bool]]:
    """(span, performed) of the earlier stages' facts of one kind in this line."""
    kind, _, concept = fact.partition(":")
    if res.segment.is_heading:  # a heading announces a topic; the lines under it address it
        return
    if kind == "data":
        yield from ((d.span, f"data:{i}" not in denied) for i, d in enumerate(res.data) if d.concept not in exclude)
    elif kind == "purpose":
        yield from ((p.span, True) for p in res.purposes if p.concept not in exclude)
    elif kind == "third-party":
        yield from ((p.span, True) for p in res.parties if p.kind == PartyKind.THIRD_PARTY)
    else:
        want = {
            "retention": AttributeKind.RETENTION_PERIOD,
            "legal-basis": AttributeKind.LEGAL_BASIS,
            "right": AttributeKind.USER_RIGHT,
        }[kind]
        for a in res.attributes:
            if a.kind == want and (not concept or a.concept == concept):
                yield a.span, True


def _found(
    req: Requirement, res: SegmentExtraction, neg: Negation, lower: str, denied_data: frozenset[str]
) -> Iterator[tuple[Span, bool, str]]:
    """Candidate spans: the earlier stages' facts first (already found, cheap), then the cue patterns."""
    seg = res.segment
    if seg.is_heading and not req.headings:
        return
    # A vetoed line (an address block naming "email", a security note naming "verification") shows no fact.
    facts = req.facts if req.fact_veto is None or not req.fact_veto.search(seg.text) else ()
    for fact in facts:
        for span, performed in _fact_spans(res, fact, req.fact_exclude, denied_data):
            s, e = span.start - seg.start, span.end - seg.start
            performed = performed and not (req.negatable and negated(seg.text, s, e, neg))
            yield span, performed, f"{req.id}/fact-{fact.partition(':')[0]}"
    if req.keywords is not None and not req.keywords.search(lower):
        return
    for i, cue in enumerate(req.cues):
        for m in cue.finditer(seg.text):
            if m.end() > m.start():
                performed = not (req.negatable and negated(seg.text, m.start(), m.end(), neg))
                yield Span(seg.start + m.start(), seg.start + m.end(), m.group()), performed, f"{req.id}/cue-{i + 1}"


def detect_line(rules: RuleSet, res: SegmentExtraction) -> list[RequirementMention]:
    """The requirement statements of one line, in rule-file order: per (requirement, polarity) the first span
    found (facts, then cues in file order); the search of a requirement stops once it can find nothing new."""
    out: list[RequirementMention] = []
    if is_navigation(res.segment.text):
        return out
    lower = res.segment.text.lower()
    # Without a negation word anywhere in the line nothing in it is denied: the first span found is enough.
    can_deny = rules.negation.cues.search(res.segment.text) is not None
    denied_data = negated_data(res)
    for req in rules.requirements:
        first: dict[bool, tuple[Span, str]] = {}
        for n, (span, performed, rule) in enumerate(_found(req, res, rules.negation, lower, denied_data), 1):
            first.setdefault(performed, (span, rule))
            if len(first) == 2 or not (req.negatable and can_deny) or n >= MAX_CANDIDATES:
                break
        for performed in (True, False):
            if performed in first:
                span, rule = first[performed]
                out.append(RequirementMention(span, req.id, performed, rule, req.concepts))
    return out
