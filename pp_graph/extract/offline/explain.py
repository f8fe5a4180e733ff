"""Why the offline extractor read a segment as it did: every rule that fired, vetoed or changed something.

`pp-graph explain FILE --line N` (or `--offset N`) prints this for the segment holding that line or offset.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pp_graph.errors import InputError
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.offline.mentions import MentionRule, mention_rules
from pp_graph.extract.offline.rules import Event, Rule, Trace, rule_by_id
from pp_graph.extract.offline.statement_rules import Statement, statement_rules
from pp_graph.extract.pipeline import extract
from pp_graph.load.reading import read
from pp_graph.model import Policy, PolicyExtraction, Segment
from pp_graph.vocab.dpv import compact


@dataclass(frozen=True)
class Explanation:
    segment: Segment
    events: list[Event]  # the rules' events inside the segment, in the order they ran
    practices: list[tuple[str, bool, str, tuple[str, ...]]]  # (type, negated, trigger text, rule ids) kept
    # (kind: data | purpose | party, concept or party kind, text, rule ids: the one that made it, then its links)
    mentions: list[tuple[str, str, str, tuple[str, ...]]] = field(default_factory=list)

    def rows(self) -> list[dict[str, object]]:
        rules: dict[str, Rule | MentionRule | Statement] = {
            **rule_by_id(),
            **{r.id: r for r in mention_rules().rules},
            **{s.id: s for s in statement_rules().statements},
        }
        out: list[dict[str, object]] = []
        for e in self.events:
            rule = rules.get(e.rule)
            out.append(
                {
                    "rule": e.rule,
                    "kind": rule.kind if rule else "",
                    "action": e.action,
                    "start": e.start,
                    "end": e.end,
                    "practice": e.practice,
                    "note": e.why,  # what it read: the trigger word, the score and cues of the gate, a title
                    "why": rule.doc if rule else "",
                }
            )
        return out


def traced_extract(policy: Policy, backend: OfflineBackend | None = None) -> tuple[PolicyExtraction, Trace]:
    """Extract a policy with a trace of every rule event attached (offsets in the policy's text)."""
    be = backend or OfflineBackend()
    trace = Trace()
    be.trace = trace
    try:
        ex = extract(policy, be)
    finally:
        be.trace = None
    reading = read(policy)  # the rules ran on the reading: their offsets go back to the text as the spans did
    if not reading.identical:
        trace.events = [
            replace(e, start=a, end=b) for e in trace.events for a, b in [reading.source_span(e.start, e.end)]
        ]
    return ex, trace


def segment_at(policy: Policy, segments: list[Segment], *, line: int | None, offset: int | None) -> Segment:
    if (line is None) == (offset is None):
        raise InputError("--line/--offset", "give exactly one of --line or --offset")
    if line is not None:
        lines = policy.text.split("\n")
        if not 1 <= line <= len(lines):
            raise InputError("--line", f"line {line} is outside the policy (1–{len(lines)})")
        offset = sum(len(x) + 1 for x in lines[: line - 1])
        end = offset + len(lines[line - 1])
    else:
        assert offset is not None
        if not 0 <= offset < len(policy.text):
            raise InputError("--offset", f"offset {offset} is outside the policy (0–{len(policy.text) - 1})")
        end = offset + 1
    for seg in segments:
        if seg.start < max(end, offset + 1) and offset < seg.end:
            return seg
    raise InputError("--line" if line is not None else "--offset", "names no segment (a blank line?)")


def explain(policy: Policy, *, line: int | None = None, offset: int | None = None) -> Explanation:
    ex, trace = traced_extract(policy)
    seg = segment_at(policy, ex.segments, line=line, offset=offset)
    res = ex.results[seg.index]
    events = [e for e in trace.events if e.segment == seg.index or seg.start <= e.start < seg.end]
    practices = [(p.type.value, p.negated, p.span.text, p.rules) for p in res.practices]
    mentions = [
        (k, compact(m.concept or ""), m.span.text, m.rules)
        for k, ms in (("data", res.data), ("purpose", res.purposes))
        for m in ms
    ]
    mentions += [("party", p.kind.value, p.span.text, p.rules) for p in res.parties]
    return Explanation(seg, events, practices, mentions)
