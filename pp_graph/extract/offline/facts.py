"""Per-sentence facts of the offline extractor, read by both rule scopes (the sentence and trigger rules run by
trigger.py, and the paragraph rules in paragraph.py): a segment's analysis, sentence bounds, sentence-wide tests
computed once, the party acting at a trigger, and negation.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property

from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns.collection import KEPT_HOW
from pp_graph.extract.offline.patterns.retention import BACKUP, KEPT_RECORD, PERIOD, USER_REQUEST
from pp_graph.extract.offline.patterns.security import CROSS_BORDER, NAMED_METHOD
from pp_graph.extract.offline.patterns.sentences import (
    CLAUSE_BREAK,
    CO_SUBJECTS,
    INFINITIVE,
    LEAD_NAME,
    NEGATION,
    NOT_OBLIGED,
    REFERENCE,
    SENTENCE,
    SITE_MARK,
    SPACE,
    THIRD_MARK,
    THIRD_NOUN,
    USER_CHOICE,
    WORDS_REACH,
)
from pp_graph.extract.offline.patterns.sharing import IMPLIED_BUYER, IMPLIED_RECIPIENT, PUBLIC
from pp_graph.extract.offline.patterns.tracking import TRACKER
from pp_graph.extract.offline.statement_rules import LineStatement
from pp_graph.model import (
    AttributeMention,
    PartyKind,
    PartyMention,
    PracticeMention,
    RecipientKind,
    Segment,
    Span,
)


def sentences(seg: Segment) -> list[tuple[int, int]]:
    """Sentence bounds (absolute offsets) inside a segment."""
    out, start = [], 0
    for m in SENTENCE.finditer(seg.text):
        out.append((seg.start + start, seg.start + m.start()))
        start = m.end()
    out.append((seg.start + start, seg.end))
    return out


@dataclass
class SegmentState:
    data: list[Hit]
    purposes: list[Hit]
    parties: list[PartyMention]  # by start offset
    triggers: list[Hit]
    attributes: list[AttributeMention]
    # The data and purpose hits the mention rules keep, with their settled concepts (data/rules/mentions.toml).
    # The practice rules read every lexicon hit above; only these become mentions.
    kept: dict[str, list[Hit]] = field(default_factory=dict)
    # (kind, start, end) of a kept hit → the mention rule that changed its concept, for the mention's rule ids
    settled: dict[tuple[str, int, int], str] = field(default_factory=dict)
    # what the statement rules found in the line (data/rules/statements.toml; see statements.py)
    statements: list[LineStatement] = field(default_factory=list)
    party_starts: list[int] = field(init=False)  # for bisecting the parties near a trigger
    # for each party, the index of the nearest one up to it that can act (not "your", "our"…; see _subject), or -1
    actor_before: list[int] = field(init=False)
    data_starts: list[int] = field(init=False)  # the same for the data (non-overlapping, so the ends are sorted too)
    data_ends: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.party_starts = [p.span.start for p in self.parties]
        self.actor_before, last = [], -1
        for i, p in enumerate(self.parties):
            last = last if p.span.text.lower() in ("your", "our", "their", "its", "us") else i
            self.actor_before.append(last)
        self.data_starts = [d.start for d in self.data]
        self.data_ends = [d.end for d in self.data]

    def data_ending(self, lo: int, hi: int) -> list[Hit]:
        """The data that end in ``[lo, hi)``."""
        return self.data[bisect.bisect_left(self.data_ends, lo) : bisect.bisect_left(self.data_ends, hi)]

    def referenced_by(self, text: str, at: int) -> bool:
        """Data just before ``at`` that the trigger there only refers to ("the information we collect…")."""
        return any(REFERENCE.fullmatch(text[d.end : at]) for d in self.data_ending(at - 24, at))


# Look-behind reach of the end-anchored tests before a trigger ("is/are (not) <verb>", "we and our agents"): far
# beyond any such phrase, and it keeps a sentence with many triggers from being rescanned from its start for each
# one (quadratic on run-on lines).
_LOOKBEHIND_REACH = 200
_SUBJECTS_REACH = 300  # the same for a chain of coordinated subjects ("We, our partners and advertisers may…")
# The same after a trigger, for phrases that belong to its clause ("keep only the last four digits").
LOOKAHEAD_REACH = 200


def ends_before(pattern: re.Pattern[str], text: str, start: int, at: int) -> bool:
    """A pattern anchored at ``at`` (``$``), searched in the sentence's last _LOOKBEHIND_REACH chars before it."""
    return bool(pattern.search(text, max(start, at - _LOOKBEHIND_REACH), at))


class SentenceFacts:
    """Sentence-wide tests the trigger rules ask, each computed at most once per sentence."""

    def __init__(self, text: str, start: int, end: int) -> None:
        self.text, self.start, self.end = text, start, end
        self.sentence = text[start:end]
        self._period: tuple[int, int | None] | None = None  # (searched from, start of the match found or None)

    @cached_property
    def public(self) -> re.Match[str] | None:
        return PUBLIC.search(self.sentence)

    @cached_property
    def backup(self) -> bool:
        return bool(BACKUP.search(self.sentence))

    @cached_property
    def user_choice(self) -> bool:
        return bool(USER_CHOICE.search(self.sentence))

    @cached_property
    def _user_choice_ends(self) -> list[int]:
        return [self.start + m.end() for m in USER_CHOICE.finditer(self.sentence)]

    def user_choice_before(self, at: int) -> bool:
        """A user-choice phrase ("you may", "opt out") ends before ``at``."""
        return any(end <= at for end in self._user_choice_ends)

    @cached_property
    def user_request(self) -> bool:
        return bool(USER_REQUEST.search(self.sentence))

    @cached_property
    def implied_recipient(self) -> bool:
        return bool(IMPLIED_RECIPIENT.search(self.sentence) or IMPLIED_BUYER.search(self.sentence))

    @cached_property
    def tracker(self) -> bool:
        return bool(re.search(TRACKER, self.sentence, re.I))

    @cached_property
    def kept_how(self) -> bool:
        return bool(KEPT_HOW.search(self.sentence))

    @cached_property
    def kept_record(self) -> bool:
        return bool(KEPT_RECORD.search(self.sentence))

    @cached_property
    def transfer_mechanism(self) -> bool:
        """Safeguards for transfers abroad named, and no security technique."""
        return bool(CROSS_BORDER.search(self.sentence) and not NAMED_METHOD.search(self.sentence))

    @cached_property
    def _stops(self) -> list[int]:
        return [self.start + m.start() for m in re.finditer(r"[,;.]", self.sentence)]

    def comma_next(self, pos: int) -> int | None:
        """The first comma, semicolon or full stop at or after ``pos``, if it is a comma (as THEN_SHARE needs)."""
        i = bisect.bisect_left(self._stops, pos)
        return self._stops[i] if i < len(self._stops) and self.text[self._stops[i]] == "," else None

    def period_after(self, pos: int) -> bool:
        """A retention period starts at or after ``pos`` in the sentence.

        The leftmost match found from an earlier position also answers any later one up to its start, so a
        sentence with many retention words is scanned about once.
        """
        if self._period is not None:
            frm, found = self._period
            if frm <= pos and (found is None or pos <= found):
                return found is not None
        m = PERIOD.search(self.text, pos, self.end)
        self._period = (pos, m.start() if m else None)
        return m is not None


@dataclass
class LineNotes:
    """What reading a line's sentences noticed besides its practices."""

    # The line states the reader's own sharing ("when you share…"): a statement of its own, not a
    # trigger-less line that takes its heading's practice.
    user_act: bool = False
    # The line names safeguards for cross-border transfers: a statement of its own (not the site's security),
    # which takes no practice from its heading either.
    transfer_mechanism: bool = False
    # Collection read off the site keeping named data ("we store your phone number"): an addition that does
    # not stop the line from taking its heading's or lead-in's practice (often retention).
    held: list[PracticeMention] = field(default_factory=list)


def subject_at(text: str, state: SegmentState, start: int, hit: Hit) -> PartyMention | None:
    """The party acting at a trigger: the nearest party mention before it in its clause.

    A possessive ("your", "our") names an owner, not an actor, and "us" an object: both are skipped.
    """
    i = bisect.bisect_left(state.party_starts, hit.start) - 1
    while i >= 0 and (i := state.actor_before[i]) >= 0:  # (the skipped mentions are stepped over at once)
        p = state.parties[i]
        i -= 1
        if p.span.start < start:
            break
        between = text[p.span.end : hit.start]
        if ")" in between and "(" not in between and text.rfind("(", start, p.span.start) >= 0:
            continue  # "We (which includes our service providers) will use…": an aside, not the subject
        if "(" in between and not INFINITIVE.search(between):
            between = re.sub(r"(?<!\s)\s*\([^()]*\)", "", between)  # (an infinitive after an aside is left alone)
        if len(between.split(maxsplit=6)) > 6 or CLAUSE_BREAK.search(between):
            return None
        return p
    return None


def site_subject(text: str, start: int) -> PartyMention:
    """The site as the actor of a sentence that names it without a party mention (an empty span at its start)."""
    return PartyMention(Span.at(text, start, start), PartyKind.FIRST_PARTY, RecipientKind.FIRST_PARTY, "first_party")


def joint_subject(text: str, state: SegmentState, start: int, hit: Hit) -> bool:
    """The site among the coordinated subjects of a verb ("We and our partners may collect…")."""
    # Subjects sit near the verb: reading at most _SUBJECTS_REACH characters back keeps run-on lines linear.
    reach = max(start, hit.start - _SUBJECTS_REACH)
    out, pos = [], reach
    lead = LEAD_NAME.match(text, start, hit.start) if reach == start else None
    first = bisect.bisect_left(state.party_starts, reach)
    if lead and not any(p.span.start < lead.end() for p in state.parties[first:]):
        out, pos = [SITE_MARK], lead.end()
    for p in state.parties[first:]:
        if p.span.start >= hit.start:
            break
        if p.span.start < pos or p.span.end > hit.start or p.span.text.lower() in ("our", "your", "their", "its"):
            continue
        if p.kind == PartyKind.USER:
            continue
        out += [text[pos : p.span.start], SITE_MARK if p.kind == PartyKind.FIRST_PARTY else THIRD_MARK]
        pos = p.span.end
    out.append(text[pos : hit.start])
    m = CO_SUBJECTS.search("".join(out))
    return bool(m and SITE_MARK in m.group(0) and THIRD_MARK in m.group(0))


# Where a THIRD_NOUN can start: the pattern without the test after its end (which the end of the range read
# can change). Its matches cannot overlap, so these are all the places to try.
THIRD_NOUN_START = re.compile(THIRD_NOUN.pattern.removesuffix(r"\b(?!\s*(?:'s|’s))"), re.I)
assert THIRD_NOUN_START.pattern != THIRD_NOUN.pattern


def _start(p: PartyMention) -> int:
    return p.span.start


def within_words(parties: list[PartyMention], text: str, at: int) -> list[PartyMention]:
    """The parties (sorted by start) that AGENT_MODIFIERS or HIRED_PARTY can join to position ``at``."""
    m = WORDS_REACH.match(text, at)
    end = m.end() if m else at
    return parties[bisect.bisect_left(parties, at, key=_start) : bisect.bisect_right(parties, end, key=_start)]


def is_negated(text: str, sentence_start: int, trigger_start: int) -> bool:
    """A negation word among the four words before the trigger, in the same clause.

    Read from the last _LOOKBEHIND_REACH chars, cut just after a space, and widened only while that window holds
    no clause break and fewer than four words: the answer of the whole sentence prefix, without reading a
    run-on sentence from its start for each trigger.
    """
    reach = _LOOKBEHIND_REACH
    while True:
        cut = (
            SPACE.search(text, trigger_start - reach, trigger_start) if trigger_start - reach > sentence_start else None
        )
        clauses = re.split(
            r"[,;:]|\b(?:but|however|unless|except)\b", text[cut.end() if cut else sentence_start : trigger_start]
        )
        clause = clauses[-1].lower().replace("’", "'").replace("n't", " not")  # don't → do not
        # blanked over the trigger too: the trigger may be "required to provide" itself
        ahead = clause + text[trigger_start : trigger_start + 40].lower()
        clause = NOT_OBLIGED.sub(lambda m: " " * len(m.group()), ahead)[: len(clause)]
        words = re.findall(r"\w+", clause)[-4:]
        if cut is None or len(clauses) > 1 or len(words) == 4:
            return any(w in NEGATION for w in words)
        reach *= 2
