"""Lead-in lines that announce a practice and leave what it acts on to the list below them.

"We collect:", "We use it to:", "We share it with:", "We do not share your details with:" state no practice on
their own (they name no data, purpose or recipient, so the sentence rules make none), but each item of the list
that follows supplies what is missing: a data category, a purpose or a recipient of the practice the lead-in
states. :func:`announced` reads that practice off the lead-in, with its polarity; the items take it like any
lead-in's practice (OfflineBackend._inherit) when they name something it can act on (:func:`names_object`).
"""

from __future__ import annotations

from pp_graph.extract.offline.facts import SegmentState, is_negated, sentences, subject_at
from pp_graph.extract.offline.patterns.practices import PRACTICE_OF
from pp_graph.model import PartyKind, Policy, PracticeMention, PracticeType, Segment, Span

RULE = "inherit.lead-in.announced"
# The site's own collection or use, and its sharing: what a list under the lead-in can complete.
_KINDS = ("collect", "share")


def is_lead_in(line: str) -> bool:
    """The line ends in ':' and so announces what follows, also when it is bold as a whole ("**We collect:**")."""
    return line.rstrip().rstrip("*_").rstrip().endswith(":")


def announced(policy: Policy, segment: Segment, state: SegmentState) -> PracticeMention | None:
    """The practice a lead-in line ending in ':' announces with the site as its subject, or None.

    The trigger nearest the colon counts ("We collect and use the following to:" → use); a third party or the
    reader as subject ("Advertisers may collect:", "You can ask us to:") announces none of the site's practices.
    """
    if not is_lead_in(segment.text):
        return None
    text = policy.text
    start, end = sentences(segment)[-1]
    for hit in reversed([h for h in state.triggers if start <= h.start < end]):
        kind = hit.entry.value[0]
        if kind not in _KINDS:
            continue
        subject = subject_at(text, state, start, hit)
        if subject is None or subject.kind != PartyKind.FIRST_PARTY:
            return None
        return PracticeMention(
            Span.at(text, hit.start, hit.end), PRACTICE_OF[kind], is_negated(text, start, hit.start), rules=(RULE,)
        )
    return None


def names_object(lead_in: PracticeMention, state: SegmentState) -> bool:
    """A list item names something an announced practice acts on: personal data or a purpose, or for sharing a
    third party as recipient ("- payment processors"). An item naming none of these ("- Monday to Friday")
    takes nothing from the lead-in."""
    if state.kept.get("data") or state.kept.get("purpose"):
        return True
    return lead_in.type == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE and any(
        p.kind == PartyKind.THIRD_PARTY for p in state.parties
    )
