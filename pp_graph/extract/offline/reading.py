"""A sentence and its trigger words as the offline extractor's rules read them.

The facts a sentence's rules share are computed once (Sentence); each trigger word (collect, share, retain,
protect…) is read by the trigger rules in turn (Trigger), which may change its reading or make practices. The
registries here hold the rules by their declared id (data/rules/offline.toml); the rules live in one module per
kind (vetoes, promotions, candidates, cues) and the engine that runs them in trigger.py.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from functools import cached_property
from typing import Any

from pp_graph.extract.offline.facts import (
    LOOKAHEAD_REACH,
    THIRD_NOUN_START,
    LineNotes,
    SegmentState,
    SentenceFacts,
    ends_before,
    is_negated,
    site_subject,
    subject_at,
)
from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns.collection import (
    CONTACT_WHEN,
    HOLD,
    MUST_FOR,
    MUST_GIVE,
)
from pp_graph.extract.offline.patterns.practices import DETAIL_OF, PRACTICE_OF
from pp_graph.extract.offline.patterns.retention import (
    DELETE_TIMING,
    DISPOSE,
    LEGAL_KEEP,
    OWN_MEDIUM,
    ROUTINE,
    TRUNCATED_CARD,
)
from pp_graph.extract.offline.patterns.scope import ABROAD
from pp_graph.extract.offline.patterns.security import (
    BOUND_TO,
    DETECTING,
    INCIDENT,
    READER_NEED,
    RIGHTS_REQUEST,
    SECURE_CUE,
    SECURE_IDENTITY,
    SECURE_MORE,
    SECURE_OF,
    SECURE_SIGN_IN,
    SECURE_STAFF,
)
from pp_graph.extract.offline.patterns.sentences import (
    CHOICE_LINE,
    NAME_SUBJECT,
    OUR_SUBJECT,
    OUR_THING,
    PASSIVE,
    PASSIVE_AND,
    PASSIVE_NOT,
    THIRD_SUBJECT,
)
from pp_graph.extract.offline.patterns.tracking import (
    OWN_TRACKING,
)
from pp_graph.extract.offline.rules import Trace, register
from pp_graph.model import (
    AttributeKind,
    PartyKind,
    PartyMention,
    Policy,
    PracticeMention,
    PracticeType,
    Segment,
    Span,
)


class Sentence:
    """One sentence as its trigger rules read it: the facts computed once, and what the rules found so far."""

    def __init__(
        self, policy: Policy, segment: Segment, state: SegmentState, start: int, end: int, notes: LineNotes
    ) -> None:
        self.policy, self.segment, self.state, self.notes = policy, segment, state, notes
        self.start, self.end = start, end  # the sentence's offsets in the policy text
        text = self.text = policy.text
        self.wording = text[start:end]
        self.trigger_hits = [hit for hit in state.triggers if start <= hit.start < end]
        self.cue = _security_cue(text, state, start, end)
        self.tracking = OWN_TRACKING.search(self.wording)
        self.third = [p for p in state.parties if start <= p.span.start < end and p.kind == PartyKind.THIRD_PARTY]
        self.facts = SentenceFacts(text, start, end)
        self.found: list[PracticeMention] = []
        self.seen: set[PracticeType] = set()
        self.trace: Trace | None = None

    def read(self) -> None:
        """The facts the trigger rules share, once the sentence is known to hold practices."""
        text, state, start, end, wording = self.text, self.state, self.start, self.end, self.wording
        self.abroad = bool(ABROAD.search(wording))
        self.choice = bool(CHOICE_LINE.search(wording))
        # (for the site's own collection a conditional "when you contact us" is no choice)
        self.own_choice = self.choice and bool(
            CHOICE_LINE.search(
                CONTACT_WHEN.sub(" ", MUST_GIVE.sub(" ", wording) if MUST_FOR.search(wording) else wording)
            )
        )
        self.has_data = any(start <= d.start < end for d in state.data)
        # Practice details in this sentence, computed once for all its triggers.
        self.details = {a.kind for a in state.attributes if start <= a.span.start < end}
        self.has_period_here = AttributeKind.RETENTION_PERIOD in self.details
        self.secure_here = any(h.entry.value[0] == "secure" for h in self.trigger_hits)
        self.last_period = max(  # (a retention period after a trigger: one starting after it in the sentence)
            (
                a.span.start
                for a in state.attributes
                if a.kind == AttributeKind.RETENTION_PERIOD and start <= a.span.start < end
            ),
            default=-1,
        )
        self.first_own = next(  # the first mention of the site in the sentence (parties are sorted by start)
            (
                p.span.start
                for p in state.parties[
                    bisect.bisect_left(state.party_starts, start) : bisect.bisect_left(state.party_starts, end)
                ]
                if p.kind == PartyKind.FIRST_PARTY
            ),
            len(text),
        )
        self._noun_starts: list[int] | None = None

    @property
    def noun_starts(self) -> list[int]:
        """Where a THIRD_NOUN may start in the sentence (computed once, when first needed)."""
        if self._noun_starts is None:
            self._noun_starts = [m.start() for m in THIRD_NOUN_START.finditer(self.text, self.start, self.end)]
        return self._noun_starts

    def note(self, rule: str, action: str, start: int, end: int, practice: str = "", why: str = "") -> None:
        if self.trace is not None:
            self.trace.add(rule, action, self.segment.index, start, end, practice, why)


_UNSET: Any = object()


class Trigger:
    """One trigger word as the rules read it: its practice type, role requirement and context, which rules change."""

    def __init__(self, sentence: Sentence, hit: Hit) -> None:
        self.sentence, self.hit = sentence, hit
        text = sentence.text
        self.kind, self.needs = hit.entry.value[0], hit.entry.value[1]
        self.ptype = PRACTICE_OF[self.kind]
        self.word = text[hit.start : hit.end].lower()
        self.before = text[max(sentence.start, hit.start - 60) : hit.start]
        self.after = text[hit.end : min(sentence.end, hit.end + 60)]
        self.prev = re.findall(r"[\w']+", self.before.lower())[-1:]
        self.rules: list[str] = []  # the rules that changed this trigger's reading
        self.rule = ""  # the rule running
        self._subject: Any = _UNSET
        self._implicit_third = False
        self.subject_sets = 0  # how often a rule replaced the subject (see run_trigger)

    def _read_actor(self) -> None:
        if self._subject is _UNSET:
            sentence = self.sentence
            self._subject, self._implicit_third = _actor(
                sentence.text, sentence.state, sentence.start, self.hit, self.kind, self.word, self.before
            )

    @property
    def subject(self) -> PartyMention | None:
        """Who acts at the trigger (see _actor), read once; rules may replace it."""
        self._read_actor()
        subject: PartyMention | None = self._subject
        return subject

    @subject.setter
    def subject(self, value: PartyMention | None) -> None:
        self._read_actor()
        self._subject = value
        self.subject_sets += 1

    @property
    def implicit_third(self) -> bool:
        """An unnamed third party is the subject ("advertisers may collect…" without a party mention)."""
        self._read_actor()
        return self._implicit_third

    @cached_property
    def passive(self) -> bool:
        sentence, hit, kind = self.sentence, self.hit, self.kind
        passive = ends_before(PASSIVE, sentence.text, sentence.start, hit.start) or (
            kind == "retain" and ends_before(PASSIVE_AND, sentence.text, sentence.start, hit.start)
        )  # (a second participle: "backups are encrypted and retained for 30 days")
        if (
            kind == "retain"
            and not passive
            and (
                DELETE_TIMING.match(self.after)
                or sentence.facts.period_after(hit.end)
                or (sentence.has_data and OWN_MEDIUM.match(self.after))
            )
        ):
            # "is never stored on our servers": not kept, said of the site's own machines
            # "is not retained after the order is shipped", "will not be kept longer than necessary"
            passive = ends_before(PASSIVE_NOT, sentence.text, sentence.start, hit.start)
        return passive

    @cached_property
    def timed(self) -> bool:
        """A retention trigger with its timing: deletion timing, backups, routine disposal, keeping required by law."""
        word, before = self.word, self.before
        return self.kind == "retain" and bool(
            DELETE_TIMING.match(self.after)
            or self.sentence.facts.backup
            or (word.startswith(DISPOSE) and ROUTINE.search(before))
            or (word.startswith(("keep", "retain", "stor", "hold", "preserv")) and LEGAL_KEEP.search(before))
        )

    @cached_property
    def period_here(self) -> bool:
        return self.kind == "retain" and self.sentence.last_period >= self.hit.end

    @cached_property
    def truncated(self) -> bool:
        sentence, hit = self.sentence, self.hit
        return (
            self.kind == "retain"
            and self.word.startswith(HOLD)
            and bool(TRUNCATED_CARD.search(sentence.text, hit.end, min(sentence.end, hit.end + LOOKAHEAD_REACH)))
        )

    @cached_property
    def sec_detail(self) -> bool:
        return bool(self.sentence.details & DETAIL_OF["secure"])

    def negated(self) -> bool:
        return is_negated(self.sentence.text, self.sentence.start, self.hit.start)

    def add(self, ptype: PracticeType, negated: bool, *, mark_seen: bool = True) -> PracticeMention:
        """A practice made at this trigger by the running rule (after the rules that changed the trigger)."""
        sentence, hit = self.sentence, self.hit
        if mark_seen:
            sentence.seen.add(ptype)
        p = PracticeMention(Span.at(sentence.text, hit.start, hit.end), ptype, negated, rules=(*self.rules, self.rule))
        sentence.found.append(p)
        return p


TriggerRule = Callable[[Trigger], bool]


TRIGGER_RULES: dict[str, TriggerRule] = {}


def trigger_rule(rule_id: str) -> Callable[[TriggerRule], TriggerRule]:
    """Register a trigger rule under its declared id (data/rules/offline.toml gives its kind, scope and examples).

    A rule returns True to stop reading the trigger (a veto, or a rule that decided it); it may change the
    trigger's reading or add practices through Trigger.add.
    """

    def deco(fn: TriggerRule) -> TriggerRule:
        if rule_id in TRIGGER_RULES:
            raise ValueError(f"trigger rule {rule_id!r} registered twice")
        TRIGGER_RULES[rule_id] = fn
        return fn

    return deco


SentenceRule = Callable[[Sentence], bool]


# The sentence-scope rules by id (several ids may share one function: it decides which of them fired). A rule
# declared before the trigger rules runs before them; returning False ends the sentence (it states no practice).
SENTENCE_RULES: dict[str, SentenceRule] = {}


def sentence_rule(*rule_ids: str) -> Callable[[SentenceRule], SentenceRule]:
    """Register a sentence-scope rule under its declared id(s) (data/rules/offline.toml)."""
    return register(SENTENCE_RULES, *rule_ids)


def _security_cue(text: str, state: SegmentState, start: int, end: int) -> re.Match[str] | None:
    """A security measure named without a security trigger: access limits and strong cues (SECURE_CUE),
    keeping data's security or confidentiality (SECURE_OF, unless a recipient is bound to it), or the
    organisation's own safeguards (SECURE_MORE, SECURE_STAFF), or an identity check for the reader's protection
    (SECURE_IDENTITY) or a sign-in check (SECURE_SIGN_IN), unless the sentence is about the reader's access
    or deletion requests)."""
    wording = text[start:end]
    cue = SECURE_CUE.search(wording)
    if (
        cue
        and cue.group(0).lower().replace("-", " ") == "need to know"
        and (
            READER_NEED.search(wording[max(0, cue.start() - 4) : cue.start()])
            or READER_NEED.match(wording[cue.end() : cue.end() + 6])
        )
    ):
        cue = None  # "everything you need to know", ".../what-do-i-need-to-know-about-cookies/"
    if not cue:
        of = SECURE_OF.search(wording)
        if (
            of
            and not BOUND_TO.search(wording[: of.start()])
            and not re.search(r"\bcommit\w*\b", wording[: of.start()], re.I)
            and not re.match(r"\W*(?:to|for)\s", wording)  # "to … protect the security of …": a purpose item
            and not any(
                start <= p.span.start < start + of.start() and p.kind == PartyKind.THIRD_PARTY for p in state.parties
            )
        ):
            cue = of
    if not cue:
        cue = SECURE_MORE.search(wording) or SECURE_STAFF.search(wording)
    if not cue and not RIGHTS_REQUEST.search(wording):
        cue = SECURE_IDENTITY.search(wording) or SECURE_SIGN_IN.search(wording)
    if cue and INCIDENT.fullmatch(cue.group(0)) and DETECTING.search(wording, 0, cue.start()):
        return None  # "detecting and investigating security incidents": a purpose of use, not a measure
    return cue


def _actor(
    text: str, state: SegmentState, start: int, hit: Hit, kind: str, word: str, before: str
) -> tuple[PartyMention | None, bool]:
    """Who acts at a trigger: the party mention before it in its clause, else the site when it is named
    at the sentence start or its own services act; and whether an unnamed third party is the subject."""
    subject = subject_at(text, state, start, hit)
    if (
        subject is None
        and kind in ("collect", "share")
        and NAME_SUBJECT.match(text[start : hit.start])
        and not any(start <= p.span.start < hit.start for p in state.parties)
        and not THIRD_SUBJECT.search(before)
    ):
        # "Acme Health may use…": the operator named at the start of the sentence.
        subject = site_subject(text, start)
    implicit_third = (
        subject is None
        and word != "using"  # "users who access services using several devices": a participle, not a verb
        and bool(THIRD_SUBJECT.search(before))
        and not OUR_SUBJECT.search(before)
    )
    if subject is None and kind in ("collect", "retain") and not word.endswith("ing") and OUR_THING.search(before):
        # "Some of our mobile services use your location", "our servers automatically record…",
        # "our servers do not store card numbers", "the app only records…"
        subject = site_subject(text, start)
    return subject, implicit_third
