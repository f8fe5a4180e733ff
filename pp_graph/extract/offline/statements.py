"""The statement rules on a policy's lines (data/rules/statements.toml, read by statement_rules.py).

A line's statements are found once, with its other facts (backend._analyse): their details join the line's
attributes, and after the practice rules have run, their practices join the line's practices (``with_statements``):
unless the trigger rules already read a practice the rule yields to in the same sentence, which then takes the
details ("we keep your data in the EU for two years"). A storage statement with a place drops a sharing practice of
its sentence that names no third party and whose verb moves data (MOVE_VERB): data stored, processed or transferred
in a country is not disclosed to anyone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pp_graph.extract.offline.facts import SegmentState, sentences
from pp_graph.extract.offline.statement_rules import LineStatement, read_sentence, statement_rules
from pp_graph.model import (
    AttributeKind,
    AttributeMention,
    PartyKind,
    Policy,
    PracticeMention,
    PracticeType,
    Segment,
    Span,
)

STATEMENT_PREFIX = "statement."  # the ids of statements.toml's rules
# A sharing trigger that moves data rather than gives it to someone ("transferred, stored, disclosed … in the U.S."):
# the one a place reads as storage. "If we share personal data transferred to the U.S." still shares.
MOVE_VERB = re.compile(r"transf|transmit|sen[dt]|mov|disclos|export|provid", re.I)
TRANSFER = re.compile(r"transf", re.I)  # a heading's "transfers" (of data abroad)
# (rule, action, start, end, practice, why): how the statements report to a trace
Note = Callable[[str, str, int, int, str, str], None]


def line_statements(policy: Policy, segment: Segment) -> list[LineStatement]:
    """The statements of a line's sentences (none on a heading: it announces, its lines state)."""
    if segment.is_heading:
        return []
    rules, text = statement_rules(), policy.text
    out: list[LineStatement] = []
    for a, b in sentences(segment):
        for f in read_sentence(rules, text[a:b]):
            details = tuple(
                AttributeMention(Span.at(text, a + d.start, a + d.end), d.kind, d.concept, d.code) for d in f.details
            )
            practice = PracticeMention(
                Span.at(text, a + f.start, a + f.end), f.rule.practice, f.negated, rules=(f.rule.id,)
            )
            out.append(LineStatement(practice, details, (a, b), f.rule))
    return out


def merge_details(attrs: list[AttributeMention], found: list[LineStatement]) -> list[AttributeMention]:
    """The line's attributes with its statements' details: a storage place the place patterns already found keeps
    its span and takes the region code of the detail it overlaps; every other detail is added once."""
    out = list(attrs)
    for st in found:
        for d in st.details:
            same = [
                i
                for i, a in enumerate(out)
                if a.kind == d.kind and a.span.start < d.span.end and d.span.start < a.span.end
            ]
            if not same:
                out.append(d)
            elif d.kind == AttributeKind.STORAGE_PLACE and out[same[0]].value is None:
                a = out[same[0]]
                out[same[0]] = AttributeMention(a.span, a.kind, a.concept, d.value)
    return out


def is_statement(p: PracticeMention) -> bool:
    """Made by a statement rule: its sentence is not one that 'states a practice' for the sentences around it, so
    their data and purposes go on to the data practice nearby as before (backend._relate)."""
    return any(r.startswith(STATEMENT_PREFIX) for r in p.rules)


def with_statements(found: list[PracticeMention], state: SegmentState, note: Note | None) -> list[PracticeMention]:
    """A line's practices with its statements' added (see the module's doc)."""
    out = list(found)
    for st in state.statements:
        a, b = st.sentence
        here = [p for p in found if not p.inherited and a <= p.span.start < b]
        p = st.practice
        if any(h.type in st.rule.yields_to for h in here):
            if note:
                note(st.rule.id, "yielded", p.span.start, p.span.end, p.type.value, "the sentence's own practice")
            continue
        if p.type == PracticeType.DATA_STORAGE_RETENTION_DELETION and not any(
            m.kind == PartyKind.THIRD_PARTY and a <= m.span.start < b for m in state.parties
        ):
            for h in here:
                if h.type == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE and MOVE_VERB.match(h.span.text):
                    out.remove(h)
                    if note:
                        note(st.rule.id, "vetoed", h.span.start, h.span.end, h.type.value, "a place, no recipient")
        out.append(p)
        if note:
            note(st.rule.id, "made", p.span.start, p.span.end, p.type.value, "statement")
    return _without_transfer_heading(out, note)


def _without_transfer_heading(out: list[PracticeMention], note: Note | None) -> list[PracticeMention]:
    """A line that states where data goes abroad, under a heading such as "International data transfers", does not
    also share because of that heading: the heading's "transfers" is the line's storage place, not a recipient."""
    if not any(p.type == PracticeType.DATA_STORAGE_RETENTION_DELETION and is_statement(p) for p in out):
        return out
    keep = []
    for p in out:
        if p.inherited and p.type == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE and TRANSFER.match(p.span.text):
            if note:
                note("statement.storage-place", "vetoed", p.span.start, p.span.end, p.type.value, "a transfers heading")
            continue
        keep.append(p)
    return keep
