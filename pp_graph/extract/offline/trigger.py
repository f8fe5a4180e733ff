"""The trigger rules of the offline extractor: a sentence's practice triggers read one by one.

Each trigger word (collect, share, retain, protect…) becomes a practice unless a rule vetoes it; rules may also
change its type or add a related practice. Practices named without a trigger word follow (cue paths).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from functools import cache, cached_property
from typing import Any

from pp_graph.extract.offline.facts import (
    LOOKAHEAD_REACH,
    THIRD_NOUN_START,
    LineNotes,
    SegmentState,
    SentenceFacts,
    ends_before,
    is_negated,
    joint_subject,
    site_subject,
    subject_at,
    within_words,
)
from pp_graph.extract.offline.gate import features, passes
from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns.collection import (
    AGENT_MODIFIERS,
    BY_AGENT,
    BY_OTHER,
    CHOICE_BEFORE,
    CONSENT_OBJECT,
    CONTACT_WHEN,
    DEFINED_AS,
    HELD_BY,
    HOLD,
    IF_CLAUSE,
    LET_US,
    MUST_FOR,
    MUST_GIVE,
    ON_OUR_BEHALF,
    RECEIVE_NOT_DATA,
    RECORD_OF,
    REQUEST_VERB_AFTER,
    THEN_SHARE,
    TOOL_OBJECT,
    WE_AND_AGENTS,
)
from pp_graph.extract.offline.patterns.practices import DETAIL_OF, GENERIC_DATA, PRACTICE_OF
from pp_graph.extract.offline.patterns.retention import (
    BROWSER_CLOSE,
    DELETE_TIMING,
    DISPOSE,
    HIRE,
    HIRED,
    HIRED_PARTY,
    HIRER,
    KEEP_DOING,
    KEEP_STATE,
    KEPT_PRONOUN,
    LEGAL_KEEP,
    OFF_LIST,
    ON_DEVICE,
    ONTO_DEVICE,
    OWN_MEDIUM,
    PRACTICE_LIST,
    ROUTINE,
    SECURE_PLACE,
    TRUNCATED_CARD,
    VERB_LIST,
)
from pp_graph.extract.offline.patterns.scope import ABROAD, AUDIENCE, IDENTIFIES, SCOPE
from pp_graph.extract.offline.patterns.security import (
    BOUND_TO,
    DATA_OBJECT,
    DETECTING,
    FOR_RIGHTS,
    INCIDENT,
    NOT_DATA_PROTECTION,
    NOT_DATA_THREAT,
    PROTECT_PERSON,
    PURPOSE_TO,
    READER_NEED,
    RIGHTS_REQUEST,
    SECURE_AIM,
    SECURE_CUE,
    SECURE_IDENTITY,
    SECURE_MORE,
    SECURE_OF,
    SECURE_SERVICE_AFTER,
    SECURE_SERVICE_BEFORE,
    SECURE_SIGN_IN,
    SECURE_STAFF,
    SUBJECT_TO,
)
from pp_graph.extract.offline.patterns.sentences import (
    AMBIGUOUS,
    AUX_ONLY,
    CHOICE_LINE,
    INFINITIVE,
    META,
    NAME_SUBJECT,
    NOUN_BEFORE,
    OUR_SUBJECT,
    OUR_THING,
    PASSIVE,
    PASSIVE_AND,
    PASSIVE_NOT,
    PURPOSE_REF,
    RELATIVE,
    THIRD_NOUN,
    THIRD_SUBJECT,
)
from pp_graph.extract.offline.patterns.sharing import (
    AUTHORIZE,
    AWARE,
    BY_PEOPLE,
    ENGAGEMENT_AFTER,
    ENGAGEMENT_BEFORE,
    FEATURE_BEFORE,
    GIVE,
    GIVE_WITH,
    HAVE_ACCESS,
    LET,
    LET_ACT,
    POSTED_BY_THIRD,
    SHARE_TOOL,
    THREAT_LIST,
    TO_PARTY,
    TO_RECIPIENT,
    TO_US,
    WITH_DATA,
    YOU_AND_SHARE,
)
from pp_graph.extract.offline.patterns.tracking import (
    COOKIE_SETTING,
    IN_TRACKER,
    JOINT_ACT,
    JOINT_SUBJECT,
    OWN_TRACKING,
    THIRD_TRACKER,
    TRACK_VERB,
    TRACKER,
)
from pp_graph.extract.offline.rules import Trace, ordered, phases, register
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

# "protect your personal information", "safeguard the data": protecting the data itself
_PROTECT_DATA = re.compile(
    r"\s+(?:(?:the|all|any)\s+)?(?:your|this|such|that|the|our users'?|customers'?|visitors'?)\s+"
    r"(?:\w+\s+)?"
    r"(?:personal\s+|personally\s+identifiable\s+|financial\s+)?(?:information|data)\b",
    re.I,
)


class Sentence:
    """One sentence as its trigger rules read it: the facts computed once, and what the rules found so far."""

    def __init__(self, policy: Policy, seg: Segment, st: SegmentState, s0: int, s1: int, notes: LineNotes) -> None:
        self.policy, self.seg, self.st, self.s0, self.s1, self.notes = policy, seg, st, s0, s1, notes
        text = self.text = policy.text
        self.sentence = text[s0:s1]
        self.in_sent = [t for t in st.triggers if s0 <= t.start < s1]
        self.cue = _security_cue(text, st, s0, s1)
        self.tracking = OWN_TRACKING.search(self.sentence)
        self.third = [p for p in st.parties if s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY]
        self.facts = SentenceFacts(text, s0, s1)
        self.found: list[PracticeMention] = []
        self.seen: set[PracticeType] = set()
        self.trace: Trace | None = None

    def read(self) -> None:
        """The facts the trigger rules share, once the sentence is known to hold practices."""
        text, st, s0, s1, sentence = self.text, self.st, self.s0, self.s1, self.sentence
        self.abroad = bool(ABROAD.search(sentence))
        self.choice = bool(CHOICE_LINE.search(sentence))
        # (for the site's own collection a conditional "when you contact us" is no choice)
        self.own_choice = self.choice and bool(
            CHOICE_LINE.search(
                CONTACT_WHEN.sub(" ", MUST_GIVE.sub(" ", sentence) if MUST_FOR.search(sentence) else sentence)
            )
        )
        self.has_data = any(s0 <= d.start < s1 for d in st.data)
        # Practice details in this sentence, computed once for all its triggers.
        self.details = {a.kind for a in st.attributes if s0 <= a.span.start < s1}
        self.has_period_here = AttributeKind.RETENTION_PERIOD in self.details
        self.secure_here = any(h.entry.value[0] == "secure" for h in self.in_sent)
        self.last_period = max(  # (a retention period after a trigger: one starting after it in the sentence)
            (
                a.span.start
                for a in st.attributes
                if a.kind == AttributeKind.RETENTION_PERIOD and s0 <= a.span.start < s1
            ),
            default=-1,
        )
        self.first_own = next(  # the first mention of the site in the sentence (parties are sorted by start)
            (
                p.span.start
                for p in st.parties[bisect.bisect_left(st.party_starts, s0) : bisect.bisect_left(st.party_starts, s1)]
                if p.kind == PartyKind.FIRST_PARTY
            ),
            len(text),
        )
        self._noun_starts: list[int] | None = None

    @property
    def noun_starts(self) -> list[int]:
        """Where a THIRD_NOUN may start in the sentence (computed once, when first needed)."""
        if self._noun_starts is None:
            self._noun_starts = [m.start() for m in THIRD_NOUN_START.finditer(self.text, self.s0, self.s1)]
        return self._noun_starts

    def note(self, rule: str, action: str, start: int, end: int, practice: str = "", why: str = "") -> None:
        if self.trace is not None:
            self.trace.add(rule, action, self.seg.index, start, end, practice, why)


_UNSET: Any = object()


class Trigger:
    """One trigger word as the rules read it: its practice type, role requirement and context, which rules change."""

    def __init__(self, s: Sentence, t: Hit) -> None:
        self.s, self.t = s, t
        text = s.text
        self.kind, self.needs = t.entry.value[0], t.entry.value[1]
        self.ptype = PRACTICE_OF[self.kind]
        self.word = text[t.start : t.end].lower()
        self.before = text[max(s.s0, t.start - 60) : t.start]
        self.after = text[t.end : min(s.s1, t.end + 60)]
        self.prev = re.findall(r"[\w']+", self.before.lower())[-1:]
        self.rules: list[str] = []  # the rules that changed this trigger's reading
        self.rule = ""  # the rule running
        self._subject: Any = _UNSET
        self._implicit_third = False
        self.subject_sets = 0  # how often a rule replaced the subject (see run_trigger)

    def _read_actor(self) -> None:
        if self._subject is _UNSET:
            s = self.s
            self._subject, self._implicit_third = _actor(s.text, s.st, s.s0, self.t, self.kind, self.word, self.before)

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
        s, t, kind = self.s, self.t, self.kind
        passive = ends_before(PASSIVE, s.text, s.s0, t.start) or (
            kind == "retain" and ends_before(PASSIVE_AND, s.text, s.s0, t.start)
        )  # (a second participle: "backups are encrypted and retained for 30 days")
        if (
            kind == "retain"
            and not passive
            and (
                DELETE_TIMING.match(self.after)
                or s.facts.period_after(t.end)
                or (s.has_data and OWN_MEDIUM.match(self.after))
            )
        ):
            # "is never stored on our servers": not kept, said of the site's own machines
            # "is not retained after the order is shipped", "will not be kept longer than necessary"
            passive = ends_before(PASSIVE_NOT, s.text, s.s0, t.start)
        return passive

    @cached_property
    def timed(self) -> bool:
        """A retention trigger with its timing: deletion timing, backups, routine disposal, keeping required by law."""
        word, before = self.word, self.before
        return self.kind == "retain" and bool(
            DELETE_TIMING.match(self.after)
            or self.s.facts.backup
            or (word.startswith(DISPOSE) and ROUTINE.search(before))
            or (word.startswith(("keep", "retain", "stor", "hold", "preserv")) and LEGAL_KEEP.search(before))
        )

    @cached_property
    def period_here(self) -> bool:
        return self.kind == "retain" and self.s.last_period >= self.t.end

    @cached_property
    def truncated(self) -> bool:
        s, t = self.s, self.t
        return (
            self.kind == "retain"
            and self.word.startswith(HOLD)
            and bool(TRUNCATED_CARD.search(s.text, t.end, min(s.s1, t.end + LOOKAHEAD_REACH)))
        )

    @cached_property
    def sec_detail(self) -> bool:
        return bool(self.s.details & DETAIL_OF["secure"])

    def negated(self) -> bool:
        return is_negated(self.s.text, self.s.s0, self.t.start)

    def add(self, ptype: PracticeType, negated: bool, *, mark_seen: bool = True) -> PracticeMention:
        """A practice made at this trigger by the running rule (after the rules that changed the trigger)."""
        s, t = self.s, self.t
        if mark_seen:
            s.seen.add(ptype)
        p = PracticeMention(Span.at(s.text, t.start, t.end), ptype, negated, rules=(*self.rules, self.rule))
        s.found.append(p)
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


def run_trigger(c: Trigger, order: Sequence[tuple[str, TriggerRule]]) -> None:
    """Run the trigger rules in their declared order; the ids of those that changed the reading are kept."""
    s = c.s
    for rid, fn in order:
        c.rule = rid
        state = (c.ptype, c.needs, c.subject_sets, len(s.found))
        stop = fn(c)
        made = s.found[state[3] :]
        for p in made:
            s.note(rid, "made", p.span.start, p.span.end, p.type.value)
        if stop:
            if not made:
                s.note(rid, "vetoed", c.t.start, c.t.end, c.ptype.value, c.word)
            return
        if (c.ptype, c.needs, c.subject_sets) != state[:3]:
            c.rules.append(rid)
            s.note(rid, "changed", c.t.start, c.t.end, c.ptype.value, c.word)


SentenceRule = Callable[[Sentence], bool]
# The sentence-scope rules by id (several ids may share one function: it decides which of them fired). A rule
# declared before the trigger rules runs before them; returning False ends the sentence (it states no practice).
SENTENCE_RULES: dict[str, SentenceRule] = {}


def sentence_rule(*rule_ids: str) -> Callable[[SentenceRule], SentenceRule]:
    """Register a sentence-scope rule under its declared id(s) (data/rules/offline.toml)."""
    return register(SENTENCE_RULES, *rule_ids)


@cache
def _sentence_phases() -> tuple[tuple[SentenceRule, ...], tuple[SentenceRule, ...]]:
    """The sentence rules run before the trigger rules, and after them."""
    return phases("sentence", SENTENCE_RULES, "trigger")


def sentence_practices(
    policy: Policy,
    seg: Segment,
    st: SegmentState,
    s0: int,
    s1: int,
    notes: LineNotes,
    trace: Trace | None = None,
) -> list[PracticeMention]:
    """The practices one sentence states: the sentence rules declared before the triggers, the trigger rules on
    each trigger word, then the sentence rules after them (practices named without a trigger, the cue gate)."""
    s = Sentence(policy, seg, st, s0, s1, notes)
    s.trace = trace
    if not s.in_sent and not s.cue and not s.tracking and not s.third and not s.facts.public:
        return []
    before, after = _sentence_phases()
    if not all(fn(s) for fn in before):
        return []
    s.read()
    order = ordered("trigger", TRIGGER_RULES)
    for t in s.in_sent:
        run_trigger(Trigger(s, t), order)
    for fn in after:
        made = len(s.found)
        if not fn(s):
            return []
        for p in s.found[made:]:
            s.note(p.rules[-1], "made", p.span.start, p.span.end, p.type.value)
    return s.found


@sentence_rule("veto.sentence.scope", "veto.sentence.audience")
def _sentence_scope(s: Sentence) -> bool:
    """The sentence-scope vetoes: about the policy itself, other sites or definitions; about children or state
    residents (only a retention statement with its period is kept). False: the sentence states no practice."""
    sentence = s.sentence
    identifies = [(s.s0 + m.start(), s.s0 + m.end()) for m in IDENTIFIES.finditer(sentence)]
    scope = SCOPE.search(IDENTIFIES.sub(" ", sentence) if identifies else sentence)
    if scope:
        s.note("veto.sentence.scope", "vetoed", s.s0, s.s1, "", scope.group(0))
        return False
    s.in_sent = [t for t in s.in_sent if not any(a <= t.start < b for a, b in identifies)]
    audience = AUDIENCE.search(sentence)
    if audience:
        if not any(a.kind == AttributeKind.RETENTION_PERIOD and s.s0 <= a.span.start < s.s1 for a in s.st.attributes):
            s.note("veto.sentence.audience", "vetoed", s.s0, s.s1, "", audience.group(0))
            return False
        s.note("veto.sentence.audience", "changed", s.s0, s.s1, "", "retention with its period only")
        s.in_sent = [t for t in s.in_sent if t.entry.value[0] == "retain"]
        s.cue = s.tracking = None
    return True


@sentence_rule("gate.cues")
def _cue_gate(s: Sentence) -> bool:
    """The gate over a sentence's practices: the cue rules' score for the practice's category (see gate.py)."""
    if s.found:
        feats = features(s.st, s.s0, s.s1)
        note = s.note if s.trace is not None else None
        # (the same objects are kept: notes.held is compared by identity)
        s.found = [p for p in s.found if passes(p, s.sentence, feats, note, at=s.s0)]
    return True


# ---- the trigger rules, in the order data/rules/offline.toml declares them ----


@trigger_rule("veto.noun-or-other-verb")
def _r_noun_or_other_verb(c: Trigger) -> bool:
    s = c.s
    return _noun_or_other_verb(s.text, c.t, s.s0, c.kind, c.word, c.before, c.after, c.prev)


@trigger_rule("veto.request-noun")
def _r_request_noun(c: Trigger) -> bool:
    # "valid requests", "rights request": the reader's request, a noun
    return (
        c.kind == "collect"
        and c.word in ("request", "requests")
        and not REQUEST_VERB_AFTER.search(c.before)
        and not any(0 <= c.t.start - p.span.end <= 1 for p in c.s.st.parties)
    )


@trigger_rule("veto.receive-not-data")
def _r_receive_not_data(c: Trigger) -> bool:
    # "if we receive a court order / your request": not data coming to the site
    return c.word in ("receive", "receives", "received", "get", "gets") and bool(RECEIVE_NOT_DATA.match(c.after))


@trigger_rule("veto.tell-us-instruction")
def _r_tell_us_instruction(c: Trigger) -> bool:
    # "when you tell us to", "if you tell us that you no longer want…": an instruction, not data given
    return c.word.endswith("tell us") and bool(
        re.match(r"\W*(?:to|not to|so|(?:that\s+)?you\s+(?:no\s+longer|do\s+not|don['’]t))\b", c.after, re.I)
    )


@trigger_rule("veto.accessed-by-people")
def _r_accessed_by_people(c: Trigger) -> bool:
    # "may be accessed by others / by many people": the public, not the site's collection
    return c.word == "accessed" and bool(BY_PEOPLE.match(c.after))


@trigger_rule("candidate.shared-with-us")
def _r_shared_with_us(c: Trigger) -> bool:
    # "information you share with us", "disclosed to the Company": data coming to the site, which OPP-115 counts
    # as the site's collection when the data is named. Only giving verbs count: data the reader transmits, sends
    # or forwards to the site is transport wording, not collection, and is dropped here on purpose.
    s = c.s
    if not (c.kind == "share" and TO_US.match(s.text[c.t.end : s.s1])):
        return False
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    if s.has_data and fp not in s.seen and not s.own_choice and c.word.startswith(("shar", "provid", "disclos", "giv")):
        c.add(fp, c.negated())
    return True


@trigger_rule("veto.another-statement")
def _r_another_statement(c: Trigger) -> bool:
    s = c.s
    choice = s.own_choice if c.kind == "collect" else s.choice
    return _another_statement(s.text, c.t, s.facts, c.kind, c.word, c.before, c.after, choice, s.abroad)


@trigger_rule("promotion.third-party-before")
def _r_third_party_before(c: Trigger) -> bool:
    s = c.s
    if (
        c.kind == "collect"
        and c.subject is None
        and (c.implicit_third or (bool(s.third) and s.third[0].span.start < c.t.start and not s.first_own < c.t.start))
    ):
        c.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("veto.reader-shares")
def _r_reader_shares(c: Trigger) -> bool:
    s, subject = c.s, c.subject
    if (
        c.kind == "share"
        and subject is not None
        and subject.kind == PartyKind.USER
        and not ends_before(PASSIVE, s.text, s.s0, c.t.start)
        and not AUTHORIZE.search(s.text[subject.span.end : c.t.start])
    ) or (c.kind == "share" and YOU_AND_SHARE.search(c.before)):
        # "when you share content on a social network", "the app lets you organize, view, and share photos"
        s.notes.user_act = True
        return True
    return False


@trigger_rule("promotion.collector-before-infinitive")
def _r_collector_before_infinitive(c: Trigger) -> bool:
    # "we work with ad networks to collect…", "an advertiser may place a cookie in order to collect…",
    # "ad companies, which may collect…": the nearest party before the verb does the collecting.
    s, t, st, text = c.s, c.t, c.s.st, c.s.text
    if not (c.kind == "collect" and c.subject is None and (INFINITIVE.search(c.before) or RELATIVE.search(c.before))):
        return False
    # (of the parties only the last one counts: parties are sorted by start)
    i = bisect.bisect_left(st.party_starts, t.start) - 1
    while i >= 0 and st.parties[i].span.text.lower() in ("your", "our", "their", "its"):
        i -= 1
    near = [
        (p.span.start, p.kind == PartyKind.THIRD_PARTY)
        for p in st.parties[i : i + 1]
        if i >= 0 and s.s0 <= p.span.start
    ]
    # (and of the nouns the last one: tried from the sentence's candidates back from the trigger)
    noun_starts = s.noun_starts
    k = bisect.bisect_left(noun_starts, t.start)
    while k and not THIRD_NOUN.match(text, noun_starts[k - 1], t.start):
        k -= 1
    near += [(s.s0 + noun_starts[k - 1], True)] if k else []
    if near:
        at, is_third = max(near)
        if (
            is_third
            and (RELATIVE.search(c.before) or not re.search(r"\bby\s+(?:\w+\s+){0,3}$", text[s.s0 : at]))
            and not ON_OUR_BEHALF.match(text[t.end : s.s1])
        ):
            c.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("veto.advice-to-reader")
def _r_advice_to_reader(c: Trigger) -> bool:
    # "do not share your password": advice to the reader
    s = c.s
    return c.kind == "share" and bool(
        re.match(r"\W*(?:please\s+)?(?:do not|don't|never)\s*$", s.text[s.s0 : c.t.start], re.I)
    )


@trigger_rule("veto.required-to-provide-disclosure")
def _r_required_to_provide(c: Trigger) -> bool:
    # "we may be required to provide it to the authorities": a disclosure, not collection
    s, subject = c.s, c.subject
    return c.t.entry.phrase.lower() == "required to provide" and (
        (subject is not None and subject.kind != PartyKind.USER)
        or any(p.span.start > c.t.end and TO_PARTY.search(s.text, c.t.end, p.span.start) for p in s.third)
    )


@trigger_rule("promotion.reader-lets-us")
def _r_reader_lets_us(c: Trigger) -> bool:
    s, subject, text = c.s, c.subject, c.s.text
    if (
        c.kind == "collect"
        and subject is not None
        and subject.kind == PartyKind.USER
        and LET_US.match(text, subject.span.end, c.t.start)
        and re.search(r"\bus\b", text[subject.span.end : c.t.start], re.I)
    ):
        c.subject = site_subject(text, s.s0)  # "you authorize us to obtain…": the site collects
    return False


@trigger_rule("veto.reader-acts")
def _r_reader_acts(c: Trigger) -> bool:
    # "you can access / request / use…" is the user's action ("you are asked to" is not)
    subject, phrase = c.subject, c.t.entry.phrase.lower()
    return (
        c.kind == "collect"
        and subject is not None
        and subject.kind == PartyKind.USER
        and "you" not in phrase
        and not phrase.startswith(("asked", "required"))
    )


@trigger_rule("promotion.third-party-subject")
def _r_third_party_subject(c: Trigger) -> bool:
    s, subject = c.s, c.subject
    if (
        c.kind == "collect"
        and subject is not None
        and subject.kind == PartyKind.THIRD_PARTY
        and not ends_before(WE_AND_AGENTS, s.text, s.s0, subject.span.end)
    ):
        c.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("promotion.collected-by-agent")
def _r_collected_by_agent(c: Trigger) -> bool:
    # "may be collected and used by others / by advertisers / by a secure third-party processor"
    s, text = c.s, c.s.text
    by = BY_AGENT.match(c.after) if c.kind == "collect" and c.word.endswith("ed") and c.word != "accessed" else None
    if by and (
        by.group(1)
        or any(
            p.kind == PartyKind.THIRD_PARTY and AGENT_MODIFIERS.fullmatch(text, c.t.end + by.end(), p.span.start)
            for p in within_words(s.st.parties, text, c.t.end + by.end())
        )
    ):
        c.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("veto.agent-needed")
def _r_agent_needed(c: Trigger) -> bool:
    return (
        c.needs == "agent"
        and (c.subject is None or c.subject.kind == PartyKind.USER)
        and not c.passive
        and not c.implicit_third
    )


@trigger_rule("veto.reduced-relative")
def _r_reduced_relative(c: Trigger) -> bool:
    # "we may disclose information collected through…": a reduced relative clause, a reference
    st, text = c.s.st, c.s.text
    return (
        c.kind == "collect"
        and c.word.endswith("ed")
        and not c.passive
        and any(not text[d.end : c.t.start].strip() for d in st.data_ending(c.t.start - 2, c.t.start))
    )


@trigger_rule("veto.participle-reference")
def _r_participle_reference(c: Trigger) -> bool:
    # "information collected through the site…": a reference, not a statement
    return (
        c.kind == "collect"
        and c.word.endswith("ed")
        and c.subject is None
        and not c.passive
        and not c.implicit_third
        and not c.s.seg.text.rstrip().endswith(":")
    )


@trigger_rule("veto.use-of-tool")
def _r_use_of_tool(c: Trigger) -> bool:
    # "we use encryption to protect…": a tool, not data use
    if not (c.kind == "collect" and c.word.startswith(("us", "utili"))):
        return False
    s, st, text = c.s, c.s.st, c.s.text
    i = bisect.bisect_left(st.data_starts, c.t.end)
    window = text[c.t.end : st.data[i].start] if i < len(st.data) and st.data[i].start < s.s1 else c.after
    return bool(TOOL_OBJECT.match(window))


@trigger_rule("promotion.use-named-third-party")
def _r_use_named_third_party(c: Trigger) -> bool:
    # "we use Google Analytics / ad networks"
    if not (c.kind == "collect" and c.word.startswith(("us", "utili"))):
        return False
    s, st, t = c.s, c.s.st, c.t
    obj = st.parties[
        bisect.bisect_left(st.party_starts, t.end) : bisect.bisect_left(st.party_starts, min(s.s1, t.end + 40))
    ]
    if obj and obj[0].kind == PartyKind.THIRD_PARTY and len(s.text[t.end : obj[0].span.start].split()) <= 3:
        c.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("veto.reference")
def _r_reference(c: Trigger) -> bool:
    # "how we collect…", "the information we collect is…": a reference, not a statement
    s = c.s
    return c.kind in ("collect", "share") and bool(
        META.search(c.before) or (s.st.referenced_by(s.text, c.t.start) and not s.seg.text.rstrip().endswith(":"))
    )


@trigger_rule("veto.purpose-reference")
def _r_purpose_reference(c: Trigger) -> bool:
    # "for the purposes for which it was collected": a reference, not a statement
    return c.kind == "collect" and bool(PURPOSE_REF.search(c.before))


@trigger_rule("promotion.user-in-relative-clause")
def _r_user_in_relative_clause(c: Trigger) -> bool:
    # "information that you submit is discarded once…", "email you delete can remain in backups…":
    # the user is in a relative clause (what remains or persists is the data)
    subject = c.subject
    if (
        c.kind == "retain"
        and (c.passive or c.word.startswith(("remain", "persist")))
        and subject is not None
        and subject.kind == PartyKind.USER
        and not AUX_ONLY.fullmatch(c.s.text[subject.span.end : c.t.start])
    ):
        c.subject = None
    return False


@trigger_rule("candidate.held-by-host")
def _r_held_by_host(c: Trigger) -> bool:
    # "we store your data with a cloud provider", "it is kept by our hosting provider"
    s, subject, text = c.s, c.subject, c.s.text
    host_share = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    if (
        c.kind == "retain"
        and host_share not in s.seen
        and s.has_data
        and c.word.startswith(HOLD)
        and (c.passive or (subject is not None and subject.kind == PartyKind.FIRST_PARTY))
        and (by_host := HELD_BY.match(text, c.t.end, s.s1))
        and any(
            AGENT_MODIFIERS.fullmatch(text, by_host.end(), p.span.start)
            for p in within_words(s.third, text, by_host.end())
        )
    ):
        c.add(host_share, c.negated())
    return False


@trigger_rule("veto.others-keep")
def _r_others_keep(c: Trigger) -> bool:
    # a third party's or the user's keeping/deleting is not the site's retention
    s, subject = c.s, c.subject
    return c.kind == "retain" and (
        c.implicit_third
        or (
            subject is not None
            and subject.kind != PartyKind.FIRST_PARTY
            and not any(
                p.kind == PartyKind.FIRST_PARTY
                and s.s0 <= p.span.start < c.t.start
                and p.span.text.lower() not in ("our", "its")  # "our ad servers": an owner, not an actor
                for p in s.st.parties
            )
        )
    )


@trigger_rule("veto.verb-list")
def _r_verb_list(c: Trigger) -> bool:
    # "we collect, retain and use…": retention named in a list of verbs, not a statement
    s, t, text = c.s, c.t, c.s.text
    return (
        c.kind == "retain"
        and not c.period_here
        and bool(VERB_LIST.search(text[max(s.s0, t.start - 40) : t.start] + "#" + text[t.end : min(s.s1, t.end + 40)]))
    )


@trigger_rule("veto.secure-place")
def _r_secure_place(c: Trigger) -> bool:
    # "information is retained in secure facilities": where data is kept safe, a security measure
    return c.kind == "retain" and not c.period_here and not c.timed and bool(SECURE_PLACE.match(c.after))


@trigger_rule("veto.reader-right-or-choice")
def _r_reader_right_or_choice(c: Trigger) -> bool:
    # "you may ask us to delete…", "you may opt out of…": a user right or choice
    facts = c.s.facts
    return c.kind == "retain" and (
        (facts.user_choice and not ((c.period_here or c.truncated) and not facts.user_choice_before(c.t.start)))
        or (c.word.startswith(("delet", "eras", "remov")) and facts.user_request and not c.timed)
    )


@trigger_rule("veto.retained-reference")
def _r_retained_reference(c: Trigger) -> bool:
    # "information retained by…": a reference
    return c.kind == "retain" and c.word.endswith("ed") and c.subject is None and not c.passive


@trigger_rule("veto.keep-state")
def _r_keep_state(c: Trigger) -> bool:
    # "keep in mind", "keeping it secure", "keep your details accurate": not keeping data
    s = c.s
    return c.word.startswith("keep") and bool(KEEP_STATE.match(s.text, c.t.end, s.s1) or KEEP_DOING.match(c.after))


@trigger_rule("veto.not-data-security")
def _r_not_data_security(c: Trigger) -> bool:
    s = c.s
    return c.kind == "secure" and _not_data_security(
        s.text, s.st, s.s0, c.t, c.needs, c.word, c.before, c.after, s.details, c.sec_detail
    )


@trigger_rule("promotion.protect-your-data")
def _r_protect_your_data(c: Trigger) -> bool:
    # "we work hard to protect your personal information": protecting the data needs no detail
    if (
        c.kind == "secure"
        and c.needs == "detail"
        and not c.sec_detail
        and c.word.startswith(("protect", "safeguard"))
        and _PROTECT_DATA.match(c.after)
        and "privacy" not in c.after[:30].lower()
    ):
        c.needs = ""
    return False


@trigger_rule("veto.not-storage")
def _r_not_storage(c: Trigger) -> bool:
    s = c.s
    return c.kind == "retain" and _not_storage(s.text, c.t, s.third, c.subject, c.word, c.before, c.after)


@trigger_rule("candidate.held-named-data")
def _r_held_named_data(c: Trigger) -> bool:
    # "we store the date of each request and your IP address", "your card number is kept": the site keeping
    # named data holds it, which OPP-115 reads as its collection as well
    s, t, subject, facts, text = c.s, c.t, c.subject, c.s.facts, c.s.text
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    passive = c.kind == "retain" and c.passive
    if (
        c.kind == "retain"
        and fp not in s.seen
        and c.word.startswith(HOLD)
        and not c.implicit_third
        and (
            (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
            or (subject is None and passive and not facts.tracker)
        )
        and not s.details
        and not c.timed
        and not facts.kept_how
        and not s.abroad
        and not s.cue
        and not s.secure_here
        and not (passive and (BY_OTHER.match(c.after) or (bool(s.third) and s.third[0].span.start < t.start)))
        and not facts.public
        and not facts.user_choice
        and not facts.user_request
        and not c.negated()
        and (
            (not passive and RECORD_OF.match(c.after))  # "we keep a record of that correspondence"
            or (
                (kept := _held_object(s.st, s.s0, s.s1, t, passive)) is not None
                and kept.entry.value[0] != GENERIC_DATA
                and not (passive and BY_OTHER.search(text, kept.end, t.start))
            )
        )
        and not (
            # "we share information we store (such as…)": a reference, unless it is defined ("the
            # information we store is your name…")
            s.st.referenced_by(text, t.start) and not DEFINED_AS.match(c.after)
        )
    ):
        s.notes.held.append(c.add(fp, False))
    return False


@trigger_rule("veto.no-recipient")
def _r_no_recipient(c: Trigger) -> bool:
    # (a legal demand or a sale of the business names its recipient implicitly)
    s, t = c.s, c.t
    return (
        c.needs == "third"
        and not s.third
        and not (
            c.kind == "share"
            and s.has_data  # (without data the sharing is dropped below anyway)
            and (s.facts.implied_recipient or TO_RECIPIENT.match(s.text, t.end, min(s.s1, t.end + LOOKAHEAD_REACH)))
        )
    )


@trigger_rule("promotion.own-keeping")
def _r_own_keeping(c: Trigger) -> bool:
    # The site itself keeping/deleting named data ("we do not store card numbers", "we delete…"): retention
    # without a period. (passive: "log files are deleted"; a cookie's own expiry is not the site's retention)
    s, subject = c.s, c.subject
    if (
        c.kind == "retain"
        and s.has_data
        and (
            (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
            or (subject is None and c.passive and not c.implicit_third and not s.facts.tracker)
        )
        and (c.word.startswith(DISPOSE) or c.negated() or c.truncated)
        and not c.timed
    ):
        c.timed = True
        c.rules.append(c.rule)
        c.s.note(c.rule, "changed", c.t.start, c.t.end, c.ptype.value, "timed")
    return False


@trigger_rule("veto.no-detail")
def _r_no_detail(c: Trigger) -> bool:
    s = c.s
    if c.needs == "detail" and not c.timed and not s.details & DETAIL_OF.get(c.kind, set()):
        return True
    # store/keep/delete count with a period, not a place alone (a place is a transfer topic)
    return c.needs == "detail" and c.kind == "retain" and not c.timed and not s.has_period_here


@trigger_rule("veto.nothing-acted-on")
def _r_nothing_acted_on(c: Trigger) -> bool:
    # A practice needs something to act on: personal data, or for sharing a recipient.
    s = c.s
    has_period = (
        c.kind == "retain"
        and s.has_period_here
        and (
            c.needs != "detail"  # "retain", "retention": about data by the word itself
            or bool(s.st.data or s.facts.kept_record or ends_before(KEPT_PRONOUN, s.text, s.s0, c.t.start))
        )  # not goods or game items kept ("reserved items are held for three days")
    )
    if not s.has_data and not (c.kind == "share" and s.third) and c.kind != "secure" and not has_period:
        return True
    # a security trigger protects data, or names a method or a threat to data ("our databases are protected from
    # unauthorized access": OPP-115's security is protecting the information, wherever it is held)
    return c.kind == "secure" and not (
        s.has_data
        or AttributeKind.SECURITY_METHOD in s.details
        or (_threat_to_data(s.st, s.text, s.s0, s.s1) and not PROTECT_PERSON.match(c.after))
    )


def _threat_to_data(st: SegmentState, text: str, s0: int, s1: int) -> bool:
    """A threat named in the sentence that is one to data, not to a site or service ("protect against misuse
    or unauthorized use of our web site": the site's property)."""
    return any(
        a.kind == AttributeKind.PROTECT_AGAINST
        and s0 <= a.span.start < s1
        and not NOT_DATA_THREAT.match(text, a.span.end, s1)
        for a in st.attributes
    )


@trigger_rule("veto.transfer-mechanism")
def _r_transfer_mechanism(c: Trigger) -> bool:
    # "appropriate safeguards for transfers outside the EEA": a transfer mechanism
    s = c.s
    if c.kind == "secure" and AttributeKind.PROTECT_AGAINST not in s.details and s.facts.transfer_mechanism:
        s.notes.transfer_mechanism = True
        return True
    return False


@trigger_rule("candidate.joint-subject")
def _r_joint_subject(c: Trigger) -> bool:
    # "we and our service providers may collect…": the site collects too
    s, fp = c.s, PracticeType.FIRST_PARTY_COLLECTION_USE
    if (
        c.ptype == PracticeType.THIRD_PARTY_COLLECTION_USE
        and fp not in s.seen
        and joint_subject(s.text, s.st, s.s0, c.t)
    ):
        c.add(fp, c.negated())
    return False


@trigger_rule("veto.already-stated")
def _r_already_stated(c: Trigger) -> bool:
    # one practice of a type per sentence: a later trigger of the same type adds nothing
    return c.ptype in c.s.seen


@trigger_rule("candidate.trigger")
def _r_trigger(c: Trigger) -> bool:
    c.add(c.ptype, c.negated())
    return True


def _security_cue(text: str, st: SegmentState, s0: int, s1: int) -> re.Match[str] | None:
    """A security measure named without a security trigger: access limits and strong cues (SECURE_CUE),
    keeping data's security or confidentiality (SECURE_OF, unless a recipient is bound to it), or the
    organisation's own safeguards (SECURE_MORE, SECURE_STAFF), or an identity check for the reader's protection
    (SECURE_IDENTITY) or a sign-in check (SECURE_SIGN_IN), unless the sentence is about the reader's access
    or deletion requests)."""
    sentence = text[s0:s1]
    cue = SECURE_CUE.search(sentence)
    if (
        cue
        and cue.group(0).lower().replace("-", " ") == "need to know"
        and (
            READER_NEED.search(sentence[max(0, cue.start() - 4) : cue.start()])
            or READER_NEED.match(sentence[cue.end() : cue.end() + 6])
        )
    ):
        cue = None  # "everything you need to know", ".../what-do-i-need-to-know-about-cookies/"
    if not cue:
        of = SECURE_OF.search(sentence)
        if (
            of
            and not BOUND_TO.search(sentence[: of.start()])
            and not re.search(r"\bcommit\w*\b", sentence[: of.start()], re.I)
            and not re.match(r"\W*(?:to|for)\s", sentence)  # "to … protect the security of …": a purpose item
            and not any(s0 <= p.span.start < s0 + of.start() and p.kind == PartyKind.THIRD_PARTY for p in st.parties)
        ):
            cue = of
    if not cue:
        cue = SECURE_MORE.search(sentence) or SECURE_STAFF.search(sentence)
    if not cue and not RIGHTS_REQUEST.search(sentence):
        cue = SECURE_IDENTITY.search(sentence) or SECURE_SIGN_IN.search(sentence)
    if cue and INCIDENT.fullmatch(cue.group(0)) and DETECTING.search(sentence, 0, cue.start()):
        return None  # "detecting and investigating security incidents": a purpose of use, not a measure
    return cue


def _noun_or_other_verb(
    text: str, t: Hit, s0: int, kind: str, word: str, before: str, after: str, prev: list[str]
) -> bool:
    """The trigger word is a noun ("the use of"), or a sharing verb that discloses nothing (sending to the
    reader, sharing buttons, a choice about sharing, a list of threats)."""
    if word in AMBIGUOUS and prev and prev[0] in NOUN_BEFORE:
        return True  # "the use of", "your request", "a record": a noun, not the practice verb
    if word in AMBIGUOUS and kind == "collect" and re.match(r"\s+of\b", after):
        return True  # "their use of cookies": a noun
    if kind == "share" and (
        re.match(r"\s+(?:you|to you|us|it to us|them to us)\b", after, re.I)
        or SHARE_TOOL.match(after)
        or CHOICE_BEFORE.search(before)
        or ON_DEVICE.match(after)
    ):
        return True  # "send you newsletters", "sharing buttons", "opt out of sharing…", "sent to your computer"
    if kind == "share" and (
        (word == "sharing" and FEATURE_BEFORE.search(before) and not re.match(r"\s+(?:with|to)\b", after))
        or (word == "shares" and (ENGAGEMENT_BEFORE.search(before) or ENGAGEMENT_AFTER.match(after)))
    ):
        return True  # "file sharing", "likes, comments and shares": a feature or a count, not a disclosure
    if word.startswith("forward") and re.search(r"\b(?:look|looks|looked|looking|going|moving|step)\s+$", before, re.I):
        return True  # "we look forward to hearing from you", "going forward": not forwarding data
    if word == "traded" and prev == ["publicly"]:
        return True  # "a publicly traded company": listed shares, not data traded
    # "unauthorized access, use or disclosure", "accessed, disclosed, altered": a threat
    return bool(
        (kind == "share" or word.startswith("access"))
        and THREAT_LIST.search(text[max(s0, t.start - 50) : t.start] + "#" + after[:50])
    )


def _another_statement(
    text: str,
    t: Hit,
    facts: SentenceFacts,
    kind: str,
    word: str,
    before: str,
    after: str,
    choice: bool,
    abroad: bool,
) -> bool:
    """The trigger states something other than the practice: the reader's access, requests or sign-in,
    consent, a list of practice names, a disclosure conditioned on the reader's act, the reader's choices,
    or an international transfer."""
    if word.startswith("access") and re.match(
        r"\s+(?:to|control|controls|logs?|rights?|(?:or|and)\s+control)\b", after, re.I
    ):
        return True  # "access to", "access controls", "no access or control over"
    if word in ("request", "requests") and re.match(r"\s+(?:that|for|from|related|regarding)\b", after, re.I):
        return True  # "requests for removal", "we request that you link to…": a request to the site or reader
    if word.startswith("process") and (
        re.match(r"\s+(?:(?:your|such|these|all|any|the)\s+)?(?:\w+\s+)?(?:requests?|preferences)\b", after, re.I)
        or re.search(r"\b(?:requests?|preferences)\s+(?:\w+\s+){0,3}$", before, re.I)
    ):
        return True  # "allow time for your preferences to be processed", "process your requests"
    if word in ("get", "gets") and re.match(r"\s+(?:back|in touch|started|rid|to know|involved|help)\b", after, re.I):
        return True  # "we will get back to you": not obtaining data
    if word.startswith("log") and re.match(r"\s+(?:in|into|on|onto|out|off)\b", after, re.I):
        return True  # "log into your account": the reader signing in
    if kind == "collect" and CONSENT_OBJECT.match(after):
        return True  # "obtain your written authorization", "ask for your consent": consent, not data
    if word.endswith(("ion", "age")) and (PRACTICE_LIST.search(before) or PRACTICE_LIST.match(after)):
        return True  # "the collection, use and retention of…": a list of practice names
    if (
        kind == "collect"
        and "you" in t.entry.phrase.lower()
        and IF_CLAUSE.search(before)
        and (comma := facts.comma_next(t.end)) is not None
        and THEN_SHARE.match(text, comma, facts.s1)  # (from the comma: the same match, read once)
    ):
        return True  # "when you provide personal information to…, we may share it with…": a disclosure statement
    if choice and kind == "collect":
        return True  # "you can opt out of…", "to unsubscribe…": the reader's choices
    # "may be transferred to and stored in the United States": an international transfer
    return bool(abroad and kind in ("collect", "retain"))


def _actor(
    text: str, st: SegmentState, s0: int, t: Hit, kind: str, word: str, before: str
) -> tuple[PartyMention | None, bool]:
    """Who acts at a trigger: the party mention before it in its clause, else the site when it is named
    at the sentence start or its own services act; and whether an unnamed third party is the subject."""
    subject = subject_at(text, st, s0, t)
    if (
        subject is None
        and kind in ("collect", "share")
        and NAME_SUBJECT.match(text[s0 : t.start])
        and not any(s0 <= p.span.start < t.start for p in st.parties)
        and not THIRD_SUBJECT.search(before)
    ):
        # "Acme Health may use…": the operator named at the start of the sentence.
        subject = site_subject(text, s0)
    implicit_third = (
        subject is None
        and word != "using"  # "users who access services using several devices": a participle, not a verb
        and bool(THIRD_SUBJECT.search(before))
        and not OUR_SUBJECT.search(before)
    )
    if subject is None and kind in ("collect", "retain") and not word.endswith("ing") and OUR_THING.search(before):
        # "Some of our mobile services use your location", "our servers automatically record…",
        # "our servers do not store card numbers", "the app only records…"
        subject = site_subject(text, s0)
    return subject, implicit_third


def _not_data_security(
    text: str,
    st: SegmentState,
    s0: int,
    t: Hit,
    needs: str,
    word: str,
    before: str,
    after: str,
    details: set[AttributeKind],
    sec_detail: bool,
) -> bool:
    """A security trigger that is not about protecting data: "reasonable steps" to other ends, protecting
    rights or property, or security as the purpose of a use or disclosure."""
    if not needs and " " in word and word.startswith("reasonable") and not sec_detail and not SECURE_AIM.match(after):
        return True  # "reasonable steps to verify your identity / keep it accurate": not security
    if NOT_DATA_PROTECTION.match(after):
        return True  # "protect our rights, property or safety"
    if word.startswith("safeguard") and (SUBJECT_TO.search(before) or FOR_RIGHTS.match(after)):
        return True  # "subject to appropriate safeguards", "safeguards for individuals' rights": legal terms
    if word == "secure" and AttributeKind.SECURITY_METHOD not in details:
        # "to keep our services secure and up to date", "safe, secure products": the aim of a use, unless
        # data is kept secure with them ("make sure our site is secure and your data protected")
        held = SECURE_SERVICE_BEFORE.search(before)
        said = SECURE_SERVICE_AFTER.match(after)
        start = t.start - len(before) + held.start() if held else t.start
        end = t.end + max(40, said.end() if said else 0)
        if (held or said) and not any(start <= d.start < end for d in st.data):
            return True
    # "we use your IP address to protect our site from abuse": security as a purpose of use
    return bool(
        PURPOSE_TO.search(before)
        and AttributeKind.SECURITY_METHOD not in details
        and not DATA_OBJECT.match(after)
        and any(
            s0 <= u.start < t.start
            and u.entry.value[0] in ("collect", "share")
            and not TOOL_OBJECT.match(text[u.end : t.start])
            for u in st.triggers
        )
    )


def _held_object(st: SegmentState, s0: int, s1: int, t: Hit, passive: bool) -> Hit | None:
    """The data a keeping verb acts on: its object (the first data named just after an active verb) or,
    for a passive, the nearest data named before it in the sentence."""
    if passive:
        i = bisect.bisect_left(st.data_starts, t.start) - 1
        return st.data[i] if i >= 0 and st.data[i].start >= s0 else None
    i = bisect.bisect_left(st.data_starts, t.end)
    return st.data[i] if i < len(st.data) and st.data[i].start < min(s1, t.end + 40) else None


def _not_storage(
    text: str,
    t: Hit,
    third: list[PartyMention],
    subject: PartyMention | None,
    word: str,
    before: str,
    after: str,
) -> bool:
    """A retention trigger that is not the site keeping data: hiring ("we retain an outside company"),
    a mailing-list opt-out, or a cookie's own lifetime."""
    if HIRE.match(after) or ON_DEVICE.match(after) or ONTO_DEVICE.match(after):
        return True  # "service providers we have retained to perform…", "cookies stored on your computer"
    if BROWSER_CLOSE.match(after):
        return True  # "some are erased when you close your browser": a session cookie's lifetime
    if word.startswith("retain") and (
        HIRED.match(after)
        or HIRER.search(before)
        or any(HIRED_PARTY.fullmatch(text[t.end : p.span.start]) for p in within_words(third, text, t.end))
    ):
        return True  # "we retain an outside company", "a retained agent", "vendors we retain": hiring
    if OFF_LIST.match(after):
        return True  # "we will remove your name from our mailing list": an opt-out, not retention
    # "session cookies are deleted when you close…", "stored in a cookie": a cookie's lifetime
    return bool(
        (
            (subject is None or subject.kind != PartyKind.FIRST_PARTY)
            and (
                re.search(TRACKER + r"[\"”]?\s+(?:[\w-]+\s+){0,6}?$", before, re.I)
                or re.match(r"\s+(?:[\w-]+\s+){0,2}?" + TRACKER + r"\b", after, re.I)
            )
        )
        or IN_TRACKER.match(after)
    )


@sentence_rule("candidate.own-tracking", "candidate.security-cue")
def _cue_paths(s: Sentence) -> bool:
    """Practices named without a trigger word, after the trigger loop: the site's own tracking technologies
    (first-party collection) and security measures found by _security_cue."""
    text, s0, third, tracking, cue, has_data = s.text, s.s0, s.third, s.tracking, s.cue, s.has_data
    choice, seen, found = s.own_choice, s.seen, s.found
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    if (
        tracking
        and fp not in seen
        and PracticeType.THIRD_PARTY_COLLECTION_USE not in seen
        and not choice
        and not THIRD_SUBJECT.search(text, s0, s0 + tracking.start())
        and not third
    ):
        seen.add(fp)
        span = Span.at(text, s0 + tracking.start(), s0 + tracking.end())
        found.append(
            PracticeMention(span, fp, is_negated(text, s0, s0 + tracking.start()), rules=("candidate.own-tracking",))
        )
    sec = PracticeType.DATA_SECURITY_PROTECTION
    if cue and sec not in seen and (has_data or cue.re is not SECURE_CUE or cue.group("strong")):
        # OPP-115's security measures beyond encryption: access limits, confidentiality duties, seals, breaches.
        found.append(
            PracticeMention(
                Span.at(text, s0 + cue.start(), s0 + cue.end()),
                sec,
                is_negated(text, s0, s0 + cue.start()),
                rules=("candidate.security-cue",),
            )
        )
    return True


@sentence_rule(
    "candidate.public-disclosure",
    "candidate.third-party-access",
    "candidate.third-party-tracks",
    "candidate.third-party-tracker",
    "candidate.joint-tracking",
)
def _third_party_paths(s: Sentence) -> bool:
    """Third-party practices phrased without a sharing trigger: tracking by a named third party, data handed
    to a named recipient with a general verb, and a third party let to see or collect data."""
    text, s0, third, facts = s.text, s.s0, s.third, s.facts
    choice, seen, found = s.choice, s.seen, s.found
    sentence = facts.sentence
    sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    pub = facts.public or POSTED_BY_THIRD.search(sentence)
    if pub and sh not in seen and (not choice or AWARE.search(sentence)):
        seen.add(sh)
        span = Span.at(text, s0 + pub.start(), s0 + pub.end())
        found.append(
            PracticeMention(span, sh, is_negated(text, s0, s0 + pub.start()), rules=("candidate.public-disclosure",))
        )
    if choice or not third:
        return True
    acc = HAVE_ACCESS.search(sentence)
    if acc and sh not in seen and any(p.span.start < s0 + acc.start() for p in third):
        seen.add(sh)  # "our service providers have access to your personal information"
        span = Span.at(text, s0 + acc.start(), s0 + acc.end())
        found.append(
            PracticeMention(span, sh, is_negated(text, s0, s0 + acc.start()), rules=("candidate.third-party-access",))
        )
    tc = PracticeType.THIRD_PARTY_COLLECTION_USE
    if tc not in seen:
        for m in TRACK_VERB.finditer(sentence):
            verb = s0 + m.start()
            before = text[s0:verb]
            if any(p.span.end <= verb and len(text[p.span.end : verb].split()) <= 4 for p in third) or (
                THIRD_SUBJECT.search(before) and not OUR_SUBJECT.search(before)
            ):
                seen.add(tc)
                span = Span.at(text, verb, s0 + m.end())
                found.append(
                    PracticeMention(span, tc, is_negated(text, s0, verb), rules=("candidate.third-party-tracks",))
                )
                break
    for tt in THIRD_TRACKER.finditer(sentence) if tc not in seen else ():
        if COOKIE_SETTING.search(sentence, max(0, tt.start() - 40), tt.start()):
            continue  # "set your browser to accept third-party cookies": the reader's setting
        seen.add(tc)  # "the site contains third-party cookies": a third party collects on the site
        span = Span.at(text, s0 + tt.start(), s0 + tt.end())
        found.append(
            PracticeMention(span, tc, is_negated(text, s0, s0 + tt.start()), rules=("candidate.third-party-tracker",))
        )
        break
    joint = JOINT_SUBJECT.search(sentence)
    if tc not in seen and joint and JOINT_ACT.search(sentence, joint.end()):
        seen.add(tc)  # "we and our advertising partners may use cookies…": the partners collect too
        span = Span.at(text, s0 + joint.start(), s0 + joint.end())
        found.append(
            PracticeMention(span, tc, is_negated(text, s0, s0 + joint.start()), rules=("candidate.joint-tracking",))
        )
    return True


@sentence_rule("candidate.give-to-recipient")
def _give_to_recipient(s: Sentence) -> bool:
    """Data handed to a named recipient with a general verb ("we may provide advertisers with…"), when nothing
    else in the sentence shared data and the reader makes no choice."""
    text, st, s0, third, seen, found, s1 = s.text, s.st, s.s0, s.third, s.seen, s.found, s.s1
    sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    if s.choice or not third or sh in seen or not s.has_data:
        return True
    for p in third:
        before = text[max(s0, p.span.start - 80) : p.span.start]
        lead = re.sub(r"(?:(?:the|our|other|any|such|certain|selected|trusted|these|those|some|its)\s+)+$", "", before)
        give = GIVE.search(lead)
        if (
            give is not None
            and not re.search(r"\b(?:it|them)\b", give.group(0), re.I)
            and not any(p.span.start - len(before) + give.start() < d.start and d.end <= p.span.start for d in st.data)
        ):
            give = None  # "we provide our services to advertisers": no personal data handed over
        if give is None and (with_ := GIVE_WITH.search(lead)):
            after_p = text[p.span.end : s1]
            if any(
                p.span.end < d.start < s1 and WITH_DATA.fullmatch(text[p.span.end : d.start]) for d in st.data
            ) and not re.match(r"\s+with\s+(?:you|us)\b", after_p, re.I):
                give = with_  # "we may provide advertisers with aggregate information about our users"
        if give is None and LET_ACT.match(text[p.span.end : s1]):
            give = LET.search(lead)  # "allow third parties to see your profile"
        if give is None:
            continue
        start = p.span.start - len(before) + give.start()
        seen.add(sh)
        span = Span.at(text, start, start + len(give.group(0).rstrip()))
        found.append(PracticeMention(span, sh, is_negated(text, s0, start), rules=("candidate.give-to-recipient",)))
        return True
    return True
