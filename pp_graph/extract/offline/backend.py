"""The offline extractor: lexicons from DPV labels + curated synonyms, practice triggers, patterns.

Deterministic and network-free. Works sentence by sentence inside each segment: a practice is a
trigger word (collect, share, retain, protect…) in a sentence that also names personal data, a
party or a practice detail; entities in the same sentence are related to it by role. List items
without a trigger inherit the practice of their lead-in line ("We collect the following:") or of
their section heading ("Information we share").

The patterns the rules look for are in patterns.py; the paragraph-level pass that follows the sentence
rules (paragraph titles, list siblings) is in paragraph.py.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property

from pp_graph.extract.offline.cues import CueTable, load_cues
from pp_graph.extract.offline.lexicon import Entry, Hit, Lexicon, digest_files, entry, plural_variants, read_tsv
from pp_graph.extract.offline.paragraph import SentenceReader, _list_like, _list_siblings, _paragraph_rules, _title_like
from pp_graph.extract.offline.patterns import (
    _ABROAD,
    _AGENT_MODIFIERS,
    _AMBIGUOUS,
    _ATTR_ROLE,
    _AUDIENCE,
    _AUTHORIZE,
    _AUX_ONLY,
    _AWARE,
    _BACKUP,
    _BOUND_TO,
    _BROWSER_CLOSE,
    _BY_AGENT,
    _BY_OTHER,
    _BY_PEOPLE,
    _CATEGORY,
    _CHOICE_BEFORE,
    _CHOICE_LINE,
    _CLAUSE_BREAK,
    _CLAUSE_SPLIT,
    _CO_SUBJECTS,
    _CONSENT_OBJECT,
    _CONTACT_WHEN,
    _COOKIE_SETTING,
    _CROSS_BORDER,
    _DATA_OBJECT,
    _DATA_PROTECTION_LAW,
    _DEFINED_AS,
    _DELETE_TIMING,
    _DETAIL_OF,
    _DETECTING,
    _DISPOSE,
    _ENGAGEMENT_AFTER,
    _ENGAGEMENT_BEFORE,
    _FEATURE_BEFORE,
    _FOR_RIGHTS,
    _GENERIC_DATA,
    _GIVE,
    _GIVE_WITH,
    _HAVE_ACCESS,
    _HEADING_CUES,
    _HELD_BY,
    _HIRE,
    _HIRED,
    _HIRED_PARTY,
    _HIRER,
    _HOLD,
    _IDENTIFIES,
    _IF_CLAUSE,
    _IMPLIED_BUYER,
    _IMPLIED_RECIPIENT,
    _IN_TRACKER,
    _INCIDENT,
    _INFINITIVE,
    _JOINT_ACT,
    _JOINT_SUBJECT,
    _KEEP_DOING,
    _KEEP_STATE,
    _KEEP_VERB,
    _KEPT_HOW,
    _KEPT_PRONOUN,
    _KEPT_RECORD,
    _LEAD_NAME,
    _LEGAL_KEEP,
    _LEGAL_REGIME,
    _LET,
    _LET_ACT,
    _LET_US,
    _LIST_ITEM,
    _LIST_TYPES,
    _MARKED_TITLE,
    _META,
    _MUST_FOR,
    _MUST_GIVE,
    _NAME_SUBJECT,
    _NAMED_METHOD,
    _NEGATION,
    _NOT_DATA_PROTECTION,
    _NOT_OWN_USE_HEAD,
    _NOUN_BEFORE,
    _NUMBERS,
    _OFF_LIST,
    _OFF_TOPIC,
    _ON_DEVICE,
    _ON_OUR_BEHALF,
    _ONTO_DEVICE,
    _OUR_SUBJECT,
    _OUR_THING,
    _OWN_MEDIUM,
    _OWN_TRACKING,
    _PASSIVE,
    _PASSIVE_AND,
    _PASSIVE_NOT,
    _PERIOD,
    _PERIOD_MORE,
    _PLACE,
    _PLACE_CONTEXT,
    _POSTED_BY_THIRD,
    _PRACTICE_LIST,
    _PRACTICE_OF,
    _PROTECT_PEOPLE,
    _PSEUDO_REACH,
    _PUBLIC,
    _PURPOSE_REF,
    _PURPOSE_TO,
    _READER_NEED,
    _RECEIVE_NOT_DATA,
    _RECORD_OF,
    _REFERENCE,
    _RELATIVE,
    _REQUEST_VERB_AFTER,
    _RIGHTS_REQUEST,
    _ROUTINE,
    _SCOPE,
    _SECURE_AIM,
    _SECURE_CUE,
    _SECURE_HEAD_WORD,
    _SECURE_IDENTITY,
    _SECURE_MORE,
    _SECURE_OF,
    _SECURE_PLACE,
    _SECURE_SERVICE_AFTER,
    _SECURE_SERVICE_BEFORE,
    _SECURE_SIGN_IN,
    _SECURE_STAFF,
    _SECURITY_ASIDE,
    _SENTENCE,
    _SHARE_TOOL,
    _SPACE,
    _SUBJECT_TO,
    _THEN_SHARE,
    _THIRD_NOUN,
    _THIRD_SUBJECT,
    _THIRD_TRACKER,
    _THREAT_LIST,
    _TO_PARTY,
    _TO_RECIPIENT,
    _TO_US,
    _TOOL_OBJECT,
    _TRACK_VERB,
    _TRACKER,
    _TRUNCATED_CARD,
    _UNIT,
    _USER_CHOICE,
    _USER_REQUEST,
    _VERB_LIST,
    _WE_AND_AGENTS,
    _WITH_DATA,
    _WORDS_REACH,
    _YOU_AND_SHARE,
    SITE_MARK,
    THIRD_MARK,
)
from pp_graph.extract.offline.version import dpv_digest, ruleset_version
from pp_graph.extract.registry import Backend
from pp_graph.model import (
    AttributeKind,
    AttributeMention,
    PartyKind,
    PartyMention,
    Policy,
    PracticeMention,
    PracticeType,
    Provenance,
    RecipientKind,
    Relation,
    Role,
    Segment,
    SegmentExtraction,
    Span,
)
from pp_graph.resources import DATA
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, compact, expand, vocabulary

# The rule code and data digested (see version.py): any change to a rule changes the version.
RULESET_VERSION = ruleset_version()
LEXICON_DIR = DATA / "lexicon"

# DPV labels too generic to be taken as mentions on their own ("Social", "External", "Like"…).
_LABEL_STOP = {
    "external",
    "internal",
    "historical",
    "social",
    "financial",
    "tracking",
    "identifying",
    "professional",
    "like",
    "reference",
    "character",
    "family",
    "sale",
    "purchase",
    "job",
    "connection",
    "interaction",
    "association",
    "thought",
    "proclivity",
    "public life",
    "authenticating",
    "behavioural",
    "intention",
    "demeanour",
    "favourite",
    "dislike",
    "acquaintance",
    "ownership",
    "reliability",
    "vulnerability",
    "credit",
    "identifier",
    "transactional",
    "accent",
    "knowledge and beliefs",
    "mood",
    "attitude",
    "personal data",
    "collected personal data",
    "location",
    "sexual",
    "tax",
    "insurance",
    "health",
    "physical trait",
    "criminal",
    "opinion",
    "language",
    "school",
    "profile",
    "preference",
    "interest",
    "communication",
    "name",
    "age",
    "gender",
    "country",
    "city",
    "region",
    "education",
    "income",
    "salary",
    "picture",
    "emotion",
    "street",
    "weight",
    "height",
    "locality",
    "vehicle",
    "marriage",
    "divorce",
    "parent",
    "sibling",
    "friend",
    "offspring",
    "tattoo",
    "piercing",
    "religion",
    "race",
    "purpose",
    "verification",
    "improve",
    "research",
    "security",
}


_REQUIRES = {"", "agent", "third", "detail"}  # see data/lexicon/triggers.tsv


@dataclass(frozen=True)
class Lexicons:
    data: Lexicon
    purposes: Lexicon
    parties: Lexicon
    triggers: Lexicon
    attributes: Lexicon
    version: str
    cues: CueTable


def _with_plurals(rows: Iterable[tuple[str, ...]]) -> Iterable[Entry]:
    for phrase, *rest in rows:
        yield entry(phrase, *rest)
        for p in plural_variants(phrase):
            yield entry(p, *rest)


@cache
def load_lexicons() -> Lexicons:
    """Load and validate every lexicon (once per process)."""
    from pp_graph.errors import DataFileError

    vocab = vocabulary()
    files = sorted(LEXICON_DIR.glob("*.tsv"))

    def concepts(name: str, top: str) -> list[tuple[str, str]]:
        rows = []
        for phrase, term in read_tsv(LEXICON_DIR / name, 2):
            if not term:
                raise DataFileError(f"{name}: {phrase!r} has no concept; expected phrase<TAB>pd:… or dpv:…")
            iri = expand(term)
            if not vocab.in_scheme(iri, top):
                raise DataFileError(f"{name}: {phrase!r} → {term} is not a concept under {compact(top)} in DPV")
            rows.append((phrase, iri))
        return rows

    def dpv_labels(top: str) -> list[tuple[str, str]]:
        out = []
        for iri in sorted(vocab.members(top)):
            label = vocab.labels.get(iri, "")
            if label and label.lower() not in _LABEL_STOP and not label[:1].isdigit() and "(" not in label:
                out.append((label.lower() if not label.isupper() else label, iri))
        return out

    data_rows = concepts("data.tsv", PERSONAL_DATA)
    purpose_rows = concepts("purposes.tsv", PURPOSE)
    # Curated rows first: they win over a DPV label with the same words.
    data = Lexicon("data", _with_plurals([*data_rows, *dpv_labels(PERSONAL_DATA)]))
    data.add(entry("information", expand("dpv:PersonalData")))
    data.add(entry("data", expand("dpv:PersonalData")))
    purposes = Lexicon("purposes", (entry(p, c) for p, c in [*purpose_rows, *dpv_labels(PURPOSE)]))

    party_rows = read_tsv(LEXICON_DIR / "parties.tsv", 3)
    for phrase, party, kind in party_rows:
        if party not in PartyKind.__members__.values() or kind not in RecipientKind.__members__.values():
            raise DataFileError(f"parties.tsv: {phrase!r}: party {party!r} or recipient kind {kind!r} unknown")
    parties = Lexicon("parties", (entry(p, k, r) for p, k, r in party_rows if p != "{site}"))

    trig_rows = read_tsv(LEXICON_DIR / "triggers.tsv", 3)
    for phrase, kind, needs in trig_rows:
        if kind not in _PRACTICE_OF:
            raise DataFileError(f"triggers.tsv: {phrase!r}: practice {kind!r} is not one of {sorted(_PRACTICE_OF)}")
        if needs not in _REQUIRES:
            raise DataFileError(f"triggers.tsv: {phrase!r}: requires {needs!r} is not one of {sorted(_REQUIRES)}")
    triggers = Lexicon("triggers", (entry(p, k, n) for p, k, n in trig_rows))

    attr_rows = read_tsv(LEXICON_DIR / "attributes.tsv", 3)
    attrs = []
    for phrase, kind, term in attr_rows:
        if kind not in AttributeKind.__members__.values():
            raise DataFileError(f"attributes.tsv: {phrase!r}: kind {kind!r} unknown")
        iri = expand(term) if term else ""
        if iri and iri not in vocab.labels:
            raise DataFileError(f"attributes.tsv: {phrase!r}: {term} is not in DPV")
        attrs.append(entry(phrase, kind, iri))
    attributes = Lexicon("attributes", attrs)
    cues = load_cues(LEXICON_DIR / "practice-cues.tsv")
    return Lexicons(data, purposes, parties, triggers, attributes, digest_files(files), cues)


def site_name(site: str) -> str:
    """github.com → GitHub-ish display name: the registrable label, capitalised."""
    labels = site.split(".")
    core = labels[-3] if len(labels) >= 3 and labels[-2] in {"co", "com", "org", "ac"} else labels[0]
    if core == "www" and len(labels) > 1:
        core = labels[1]
    return core.capitalize()


def sentences(seg: Segment) -> list[tuple[int, int]]:
    """Sentence bounds (absolute offsets) inside a segment."""
    out, start = [], 0
    for m in _SENTENCE.finditer(seg.text):
        out.append((seg.start + start, seg.start + m.start()))
        start = m.end()
    out.append((seg.start + start, seg.end))
    return out


@dataclass
class _SegState:
    data: list[Hit]
    purposes: list[Hit]
    parties: list[PartyMention]  # by start offset
    triggers: list[Hit]
    attributes: list[AttributeMention]
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
        return any(_REFERENCE.fullmatch(text[d.end : at]) for d in self.data_ending(at - 24, at))


# Look-behind reach of the end-anchored tests before a trigger ("is/are (not) <verb>", "we and our agents"): far
# beyond any such phrase, and it keeps a sentence with many triggers from being rescanned from its start for each
# one (quadratic on run-on lines).
_LOOKBEHIND_REACH = 200
_SUBJECTS_REACH = 300  # the same for a chain of coordinated subjects ("We, our partners and advertisers may…")
# The same after a trigger, for phrases that belong to its clause ("keep only the last four digits").
_LOOKAHEAD_REACH = 200


def _ends_before(pattern: re.Pattern[str], text: str, s0: int, at: int) -> bool:
    """A pattern anchored at ``at`` (``$``), searched in the sentence's last _LOOKBEHIND_REACH chars before it."""
    return bool(pattern.search(text, max(s0, at - _LOOKBEHIND_REACH), at))


class _SentenceFacts:
    """Sentence-wide tests the trigger rules ask, each computed at most once per sentence."""

    def __init__(self, text: str, s0: int, s1: int) -> None:
        self.text, self.s0, self.s1 = text, s0, s1
        self.sentence = text[s0:s1]
        self._period: tuple[int, int | None] | None = None  # (searched from, start of the match found or None)

    @cached_property
    def public(self) -> re.Match[str] | None:
        return _PUBLIC.search(self.sentence)

    @cached_property
    def backup(self) -> bool:
        return bool(_BACKUP.search(self.sentence))

    @cached_property
    def user_choice(self) -> bool:
        return bool(_USER_CHOICE.search(self.sentence))

    @cached_property
    def _user_choice_ends(self) -> list[int]:
        return [self.s0 + m.end() for m in _USER_CHOICE.finditer(self.sentence)]

    def user_choice_before(self, at: int) -> bool:
        """A user-choice phrase ("you may", "opt out") ends before ``at``."""
        return any(end <= at for end in self._user_choice_ends)

    @cached_property
    def user_request(self) -> bool:
        return bool(_USER_REQUEST.search(self.sentence))

    @cached_property
    def implied_recipient(self) -> bool:
        return bool(_IMPLIED_RECIPIENT.search(self.sentence) or _IMPLIED_BUYER.search(self.sentence))

    @cached_property
    def tracker(self) -> bool:
        return bool(re.search(_TRACKER, self.sentence, re.I))

    @cached_property
    def kept_how(self) -> bool:
        return bool(_KEPT_HOW.search(self.sentence))

    @cached_property
    def kept_record(self) -> bool:
        return bool(_KEPT_RECORD.search(self.sentence))

    @cached_property
    def transfer_mechanism(self) -> bool:
        """Safeguards for transfers abroad named, and no security technique."""
        return bool(_CROSS_BORDER.search(self.sentence) and not _NAMED_METHOD.search(self.sentence))

    @cached_property
    def _stops(self) -> list[int]:
        return [self.s0 + m.start() for m in re.finditer(r"[,;.]", self.sentence)]

    def comma_next(self, pos: int) -> int | None:
        """The first comma, semicolon or full stop at or after ``pos``, if it is a comma (as _THEN_SHARE needs)."""
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
        m = _PERIOD.search(self.text, pos, self.s1)
        self._period = (pos, m.start() if m else None)
        return m is not None


@dataclass
class _LineNotes:
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


class OfflineBackend(Backend):
    name = "offline"

    def __init__(self, **_: object) -> None:
        self.lex = load_lexicons()
        self._cache: dict[int, _SegState] = {}
        self._cache_policy: tuple[str, str] = ("", "")

    @property
    def provenance(self) -> Provenance:
        from pp_graph import __version__

        return Provenance("offline", RULESET_VERSION, self.lex.version, vocabulary=dpv_digest(), software=__version__)

    # -- shared analysis, computed once per segment and reused by the stages --

    def _state(self, policy: Policy, seg: Segment) -> _SegState:
        # The stages of one policy share each segment's analysis; a new policy starts afresh. The site is part of
        # the key: the same text read for another site names another first party.
        key = (policy.site, policy.digest)
        if key != self._cache_policy:
            self._cache, self._cache_policy = {}, key
        st = self._cache.get(seg.index)
        if st is None:
            st = self._cache[seg.index] = self._analyse(policy, seg)
        return st

    def _analyse(self, policy: Policy, seg: Segment) -> _SegState:
        text, off = seg.text, seg.start
        data = list(self.lex.data.find(text, off))
        purposes = list(self.lex.purposes.find(text, off))
        parties: list[PartyMention] = []
        own = site_name(policy.site)
        party_hits = list(self.lex.parties.find(text, off))
        for m in re.finditer(rf"\b{re.escape(own)}\b", text):
            if not any(h.start <= m.start() + off < h.end for h in party_hits):
                party_hits.append(Hit(m.start() + off, m.end() + off, entry(own, "first_party", "first_party")))
        for h in sorted(party_hits, key=lambda h: h.start):
            kind, rkind = h.entry.value[0], h.entry.value[1]
            if kind == PartyKind.THIRD_PARTY and h.entry.phrase.lower() == own.lower():
                kind, rkind = "first_party", "first_party"  # a company the lexicon names, in its own policy
            name = h.entry.phrase if kind == PartyKind.THIRD_PARTY else kind
            parties.append(
                PartyMention(Span.at(policy.text, h.start, h.end), PartyKind(kind), RecipientKind(rkind), name.lower())
            )
        triggers = list(self.lex.triggers.find(text, off))
        attrs: list[AttributeMention] = []
        for h in self.lex.attributes.find(text, off):
            kind = AttributeKind(h.entry.value[0])
            attrs.append(AttributeMention(Span.at(policy.text, h.start, h.end), kind, h.entry.value[1] or None))
        for m in _PERIOD.finditer(text):
            if m.group("reason") and not any(
                a <= m.start() + off < b and _KEEP_VERB.search(policy.text, a, b) for a, b in sentences(seg)
            ):
                continue  # "we use your data to resolve disputes": a purpose of use, not a reason for keeping it
            attrs.append(
                AttributeMention(
                    Span.at(policy.text, m.start() + off, m.end() + off),
                    AttributeKind.RETENTION_PERIOD,
                    None,
                    _duration(m),
                )
            )
        for m in _PERIOD_MORE.finditer(text):
            # a need or a wish as the measure of keeping ("as long as we need it", "as long as you want")
            if not any(a.span.start <= m.start() + off < a.span.end for a in attrs):
                span = Span.at(policy.text, m.start() + off, m.end() + off)
                attrs.append(AttributeMention(span, AttributeKind.RETENTION_PERIOD, None))
        if _PLACE_CONTEXT.search(text):
            for m in _PLACE.finditer(text):
                attrs.append(
                    AttributeMention(
                        Span.at(policy.text, m.start(1) + off, m.end(1) + off), AttributeKind.STORAGE_PLACE
                    )
                )
        attrs.sort(key=lambda a: (a.span.start, a.span.end))
        return _SegState(data, purposes, parties, triggers, attrs)

    # -- stages --

    def data_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return [[Span.at(policy.text, h.start, h.end) for h in self._state(policy, s).data] for s in segments]

    def data_classes(self, policy: Policy, segments: list[Segment], spans: list[list[Span]]) -> list[list[str | None]]:
        return [[self._concept(self.lex.data, sp.text) for sp in ss] for ss in spans]

    def purpose_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return [[Span.at(policy.text, h.start, h.end) for h in self._state(policy, s).purposes] for s in segments]

    def purpose_classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]:
        return [[self._concept(self.lex.purposes, sp.text) for sp in ss] for ss in spans]

    @staticmethod
    def _concept(lex: Lexicon, text: str) -> str | None:
        e = lex.lookup(text)
        return e.value[0] if e else None

    def parties(self, policy: Policy, segments: list[Segment]) -> list[list[PartyMention]]:
        return [self._state(policy, s).parties for s in segments]

    def attributes(self, policy: Policy, segments: list[Segment]) -> list[list[AttributeMention]]:
        return [self._state(policy, s).attributes for s in segments]

    def practices(self, policy: Policy, segments: list[Segment]) -> list[list[PracticeMention]]:
        out: list[list[PracticeMention]] = []
        lead_in: PracticeMention | None = None  # a line ending in ':' that announced a practice
        # Plain text without heading markup (OPP-115's sanitized HTML): short title-like lines act as headings.
        pseudo = not any(s.is_heading for s in segments)
        heads = [s.is_heading or (pseudo and _title_like(s.text)) for s in segments]
        marked = [bool(_MARKED_TITLE.fullmatch(s.text.strip())) for s in segments]  # (see _inherit)
        titles = [i for i, s in enumerate(segments) if heads[i] or marked[i]]  # the lines _inherit looks up to
        section = ""  # title of the nearest heading above
        blocks = 0  # paragraphs (blank-line separated) since that heading
        for i, seg in enumerate(segments):
            st = self._state(policy, seg)
            found: list[PracticeMention] = []
            if i and "\n\n" in policy.text[segments[i - 1].end : seg.start]:
                blocks += 1
            if heads[i]:
                section, blocks = seg.text, 0
            # A section about children, policy changes, contacting the site or other sites' practices (a
            # title-like line of plain text only reaches its own and the next paragraph).
            elif not (_OFF_TOPIC.search(section) and (not pseudo or blocks <= _PSEUDO_REACH)):
                notes = _LineNotes()
                for s0, s1 in sentences(seg):
                    found.extend(self._sentence_practices(policy, seg, st, s0, s1, notes))
                if (
                    not [p for p in found if not any(p is h for h in notes.held)]
                    and not notes.user_act
                    and not notes.transfer_mechanism
                    and (st.data or blocks == 0 or (lead_in is not None and _list_like(seg.text)))
                ):
                    inherited = self._inherit(
                        policy, seg, segments, titles, marked, lead_in, bool(st.data), blocks == 0
                    )
                    if inherited and (
                        self.lex.cues.score(
                            _CATEGORY[inherited.type], seg.text, self._features(st, seg.start, seg.end), True
                        )
                        > 0
                    ):
                        found.append(inherited)
            out.append(found)
            if heads[i]:
                lead_in = None
            elif seg.text.rstrip().endswith(":") and found:
                lead_in = found[0]
            elif not _list_like(seg.text):
                lead_in = None
        _list_siblings(segments, heads, out)
        _paragraph_rules(policy, segments, heads, out, SentenceReader(self._state, sentences, self._subject, _negated))
        return out

    def _sentence_practices(
        self, policy: Policy, seg: Segment, st: _SegState, s0: int, s1: int, notes: _LineNotes
    ) -> list[PracticeMention]:
        in_sent = [t for t in st.triggers if s0 <= t.start < s1]
        text = policy.text
        sentence = text[s0:s1]
        cue = self._security_cue(text, st, s0, s1)
        tracking = _OWN_TRACKING.search(sentence)
        third = [p for p in st.parties if s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY]
        facts = _SentenceFacts(text, s0, s1)
        if not in_sent and not cue and not tracking and not third and not facts.public:
            return []
        identifies = [(s0 + m.start(), s0 + m.end()) for m in _IDENTIFIES.finditer(sentence)]
        if _SCOPE.search(_IDENTIFIES.sub(" ", sentence) if identifies else sentence):
            return []  # about the policy itself, other sites or definitions
        in_sent = [t for t in in_sent if not any(a <= t.start < b for a, b in identifies)]
        if _AUDIENCE.search(sentence):
            # About children or state residents: only a retention statement with its period is kept.
            if not any(a.kind == AttributeKind.RETENTION_PERIOD and s0 <= a.span.start < s1 for a in st.attributes):
                return []
            in_sent = [t for t in in_sent if t.entry.value[0] == "retain"]
            cue = tracking = None
        abroad = bool(_ABROAD.search(sentence))
        choice = bool(_CHOICE_LINE.search(sentence))
        # (for the site's own collection a conditional "when you contact us" is no choice)
        own_choice = choice and bool(
            _CHOICE_LINE.search(
                _CONTACT_WHEN.sub(" ", _MUST_GIVE.sub(" ", sentence) if _MUST_FOR.search(sentence) else sentence)
            )
        )
        has_data = any(s0 <= d.start < s1 for d in st.data)
        # Practice details in this sentence, computed once for all its triggers.
        details = {a.kind for a in st.attributes if s0 <= a.span.start < s1}
        has_period_here = AttributeKind.RETENTION_PERIOD in details
        secure_here = any(h.entry.value[0] == "secure" for h in in_sent)
        last_period = max(  # (a retention period after a trigger: one starting after it in the sentence)
            (
                a.span.start
                for a in st.attributes
                if a.kind == AttributeKind.RETENTION_PERIOD and s0 <= a.span.start < s1
            ),
            default=-1,
        )
        first_own = next(  # the first mention of the site in the sentence (parties are sorted by start)
            (
                p.span.start
                for p in st.parties[bisect.bisect_left(st.party_starts, s0) : bisect.bisect_left(st.party_starts, s1)]
                if p.kind == PartyKind.FIRST_PARTY
            ),
            len(text),
        )
        noun_starts: list[int] | None = None  # where a _THIRD_NOUN may start in the sentence, once needed
        found: list[PracticeMention] = []
        seen: set[PracticeType] = set()
        for t in in_sent:
            kind, needs = t.entry.value[0], t.entry.value[1]
            ptype = _PRACTICE_OF[kind]
            word = text[t.start : t.end].lower()
            before = text[max(s0, t.start - 60) : t.start]
            after = text[t.end : min(s1, t.end + 60)]
            prev = re.findall(r"[\w']+", before.lower())[-1:]
            if self._noun_or_other_verb(text, t, s0, kind, word, before, after, prev):
                continue
            if (
                kind == "collect"
                and word in ("request", "requests")
                and not _REQUEST_VERB_AFTER.search(before)
                and not any(0 <= t.start - p.span.end <= 1 for p in st.parties)
            ):
                continue  # "valid requests", "rights request": the reader's request, a noun
            if word in ("receive", "receives", "received", "get", "gets") and _RECEIVE_NOT_DATA.match(after):
                continue  # "if we receive a court order / your request": not data coming to the site
            if word.endswith("tell us") and re.match(
                r"\W*(?:to|not to|so|(?:that\s+)?you\s+(?:no\s+longer|do\s+not|don['’]t))\b", after, re.I
            ):
                # "when you tell us to", "if you tell us that you no longer want…": an instruction, not data given
                continue
            if word == "accessed" and _BY_PEOPLE.match(after):
                continue  # "may be accessed by others / by many people": the public, not the site's collection
            if kind == "share" and _TO_US.match(text[t.end : s1]):
                # "information you share with us", "disclosed to the Company": data coming to the site, which
                # OPP-115 counts as the site's collection when the data is named. Only giving verbs count: data
                # the reader transmits, sends or forwards to the site is transport wording, not collection, and
                # is dropped here on purpose (neither collection nor sharing).
                fp = PracticeType.FIRST_PARTY_COLLECTION_USE
                if (
                    has_data
                    and fp not in seen
                    and not own_choice
                    and word.startswith(("shar", "provid", "disclos", "giv"))
                ):
                    seen.add(fp)
                    found.append(PracticeMention(Span.at(text, t.start, t.end), fp, _negated(text, s0, t.start)))
                continue
            if self._another_statement(
                text, t, facts, kind, word, before, after, own_choice if kind == "collect" else choice, abroad
            ):
                continue
            subject, implicit_third = self._actor(text, st, s0, t, kind, word, before)
            if (
                kind == "collect"
                and subject is None
                and (implicit_third or (bool(third) and third[0].span.start < t.start and not first_own < t.start))
            ):
                ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            if (
                kind == "share"
                and subject is not None
                and subject.kind == PartyKind.USER
                and not _ends_before(_PASSIVE, text, s0, t.start)
                and not _AUTHORIZE.search(text[subject.span.end : t.start])
            ):
                notes.user_act = True
                continue  # "when you share content on a social network": the reader's own act
            if kind == "share" and _YOU_AND_SHARE.search(before):
                notes.user_act = True
                continue  # "the app lets you organize, view, and share photos": the reader's own act
            if kind == "collect" and subject is None and (_INFINITIVE.search(before) or _RELATIVE.search(before)):
                # "we work with ad networks to collect…", "an advertiser may place a cookie in order to collect…",
                # "ad companies, which may collect…": the nearest party before the verb does the collecting.
                # (of the parties only the last one counts: parties are sorted by start)
                i = bisect.bisect_left(st.party_starts, t.start) - 1
                while i >= 0 and st.parties[i].span.text.lower() in ("your", "our", "their", "its"):
                    i -= 1
                near = [
                    (p.span.start, p.kind == PartyKind.THIRD_PARTY)
                    for p in st.parties[i : i + 1]
                    if i >= 0 and s0 <= p.span.start
                ]
                # (and of the nouns the last one: tried from the sentence's candidates back from the trigger)
                if noun_starts is None:
                    noun_starts = [m.start() for m in _THIRD_NOUN_START.finditer(text, s0, s1)]
                k = bisect.bisect_left(noun_starts, t.start)
                while k and not _THIRD_NOUN.match(text, noun_starts[k - 1], t.start):
                    k -= 1
                near += [(s0 + noun_starts[k - 1], True)] if k else []
                if near:
                    at, is_third = max(near)
                    if (
                        is_third
                        and (_RELATIVE.search(before) or not re.search(r"\bby\s+(?:\w+\s+){0,3}$", text[s0:at]))
                        and not _ON_OUR_BEHALF.match(text[t.end : s1])
                    ):
                        ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            if kind == "share" and re.match(r"\W*(?:please\s+)?(?:do not|don't|never)\s*$", text[s0 : t.start], re.I):
                continue  # "do not share your password": advice to the reader
            if t.entry.phrase.lower() == "required to provide" and (
                (subject is not None and subject.kind != PartyKind.USER)
                or any(p.span.start > t.end and _TO_PARTY.search(text, t.end, p.span.start) for p in third)
            ):
                continue  # "we may be required to provide it to the authorities": a disclosure, not collection
            if (
                kind == "collect"
                and subject is not None
                and subject.kind == PartyKind.USER
                and _LET_US.match(text, subject.span.end, t.start)
                and re.search(r"\bus\b", text[subject.span.end : t.start], re.I)
            ):
                subject = _site_subject(text, s0)  # "you authorize us to obtain…": the site collects
            if kind == "collect" and subject is not None:
                phrase = t.entry.phrase.lower()
                if (
                    subject.kind == PartyKind.USER
                    and "you" not in phrase
                    and not phrase.startswith(("asked", "required"))
                ):
                    continue  # "you can access / request / use…" is the user's action ("you are asked to" is not)
                if subject.kind == PartyKind.THIRD_PARTY and not _ends_before(
                    _WE_AND_AGENTS, text, s0, subject.span.end
                ):
                    ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            passive = _ends_before(_PASSIVE, text, s0, t.start) or (
                kind == "retain" and _ends_before(_PASSIVE_AND, text, s0, t.start)
            )  # (a second participle: "backups are encrypted and retained for 30 days")
            if (
                kind == "retain"
                and not passive
                and (
                    _DELETE_TIMING.match(after) or facts.period_after(t.end) or (has_data and _OWN_MEDIUM.match(after))
                )
            ):
                # "is never stored on our servers": not kept, said of the site's own machines
                # "is not retained after the order is shipped", "will not be kept longer than necessary"
                passive = _ends_before(_PASSIVE_NOT, text, s0, t.start)
            by = _BY_AGENT.match(after) if kind == "collect" and word.endswith("ed") and word != "accessed" else None
            if by and (
                by.group(1)
                or any(
                    p.kind == PartyKind.THIRD_PARTY and _AGENT_MODIFIERS.fullmatch(text, t.end + by.end(), p.span.start)
                    for p in _within_words(st.parties, text, t.end + by.end())
                )
            ):
                # "may be collected and used by others / by advertisers / by a secure third-party processor"
                ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            if (
                needs == "agent"
                and (subject is None or subject.kind == PartyKind.USER)
                and not passive
                and not (implicit_third)
            ):
                continue
            if (
                kind == "collect"
                and word.endswith("ed")
                and not passive
                and any(not text[d.end : t.start].strip() for d in st.data_ending(t.start - 2, t.start))
            ):
                continue  # "we may disclose information collected through…": a reduced relative clause, a reference
            if (
                kind == "collect"
                and word.endswith("ed")
                and subject is None
                and not passive
                and not implicit_third
                and not seg.text.rstrip().endswith(":")
            ):
                continue  # "information collected through the site…": a reference, not a statement
            if kind == "collect" and word.startswith(("us", "utili")):
                i = bisect.bisect_left(st.data_starts, t.end)
                window = text[t.end : st.data[i].start] if i < len(st.data) and st.data[i].start < s1 else after
                if _TOOL_OBJECT.match(window):
                    continue  # "we use encryption to protect…": a tool, not data use
                obj = st.parties[
                    bisect.bisect_left(st.party_starts, t.end) : bisect.bisect_left(
                        st.party_starts, min(s1, t.end + 40)
                    )
                ]
                if obj and obj[0].kind == PartyKind.THIRD_PARTY and len(text[t.end : obj[0].span.start].split()) <= 3:
                    ptype = PracticeType.THIRD_PARTY_COLLECTION_USE  # "we use Google Analytics / ad networks"
            if kind in ("collect", "share") and (
                _META.search(before) or (st.referenced_by(text, t.start) and not seg.text.rstrip().endswith(":"))
            ):
                continue  # "how we collect…", "the information we collect is…": a reference, not a statement
            if kind == "collect" and _PURPOSE_REF.search(before):
                continue  # "for the purposes for which it was collected": a reference, not a statement
            if (
                kind == "retain"
                and (passive or word.startswith(("remain", "persist")))
                and subject is not None
                and subject.kind == PartyKind.USER
                and not _AUX_ONLY.fullmatch(text[subject.span.end : t.start])
            ):
                # "information that you submit is discarded once…", "email you delete can remain in backups…":
                # the user is in a relative clause (what remains or persists is the data)
                subject = None
            host_share = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
            if (
                kind == "retain"
                and host_share not in seen
                and has_data
                and word.startswith(_HOLD)
                and (passive or (subject is not None and subject.kind == PartyKind.FIRST_PARTY))
                and (by_host := _HELD_BY.match(text, t.end, s1))
                and any(
                    _AGENT_MODIFIERS.fullmatch(text, by_host.end(), p.span.start)
                    for p in _within_words(third, text, by_host.end())
                )
            ):
                seen.add(host_share)  # "we store your data with a cloud provider", "it is kept by our hosting provider"
                found.append(PracticeMention(Span.at(text, t.start, t.end), host_share, _negated(text, s0, t.start)))
            if kind == "retain" and (
                implicit_third
                or (
                    subject is not None
                    and subject.kind != PartyKind.FIRST_PARTY
                    and not any(
                        p.kind == PartyKind.FIRST_PARTY
                        and s0 <= p.span.start < t.start
                        and p.span.text.lower() not in ("our", "its")  # "our ad servers": an owner, not an actor
                        for p in st.parties
                    )
                )
            ):
                continue  # a third party's or the user's keeping/deleting is not the site's retention
            timed = kind == "retain" and bool(
                _DELETE_TIMING.match(after)
                or facts.backup
                or (word.startswith(_DISPOSE) and _ROUTINE.search(before))
                or (word.startswith(("keep", "retain", "stor", "hold", "preserv")) and _LEGAL_KEEP.search(before))
            )
            period_here = kind == "retain" and last_period >= t.end
            truncated = (
                kind == "retain"
                and word.startswith(_HOLD)
                and bool(_TRUNCATED_CARD.search(text, t.end, min(s1, t.end + _LOOKAHEAD_REACH)))
            )
            if (
                kind == "retain"
                and not period_here
                and _VERB_LIST.search(text[max(s0, t.start - 40) : t.start] + "#" + text[t.end : min(s1, t.end + 40)])
            ):
                continue  # "we collect, retain and use…": retention named in a list of verbs, not a statement
            if kind == "retain" and not period_here and not timed and _SECURE_PLACE.match(after):
                continue  # "information is retained in secure facilities": where data is kept safe, a security measure
            if kind == "retain" and (
                (facts.user_choice and not ((period_here or truncated) and not facts.user_choice_before(t.start)))
                or (word.startswith(("delet", "eras", "remov")) and facts.user_request and not timed)
            ):
                continue  # "you may ask us to delete…", "you may opt out of…": a user right or choice
            if kind == "retain" and word.endswith("ed") and subject is None and not passive:
                continue  # "information retained by…": a reference
            if word.startswith("keep") and (_KEEP_STATE.match(text, t.end, s1) or _KEEP_DOING.match(after)):
                continue  # "keep in mind", "keeping it secure", "keep your details accurate": not keeping data
            sec_detail = bool(details & _DETAIL_OF["secure"])
            if kind == "secure" and self._not_data_security(
                text, st, s0, t, needs, word, before, after, details, sec_detail
            ):
                continue
            if (
                kind == "secure"
                and needs == "detail"
                and not sec_detail
                and word.startswith(("protect", "safeguard"))
                and re.match(
                    r"\s+(?:(?:the|all|any)\s+)?(?:your|this|such|that|the|our users'?|customers'?|visitors'?)\s+"
                    r"(?:\w+\s+)?"
                    r"(?:personal\s+|personally\s+identifiable\s+|financial\s+)?(?:information|data)\b",
                    after,
                    re.I,
                )
                and "privacy" not in after[:30].lower()
            ):
                needs = ""  # "we work hard to protect your personal information"
            if kind == "retain" and self._not_storage(text, t, third, subject, word, before, after):
                continue
            fp = PracticeType.FIRST_PARTY_COLLECTION_USE
            if (
                kind == "retain"
                and fp not in seen
                and word.startswith(_HOLD)
                and not implicit_third
                and (
                    (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
                    or (subject is None and passive and not facts.tracker)
                )
                and not details
                and not timed
                and not facts.kept_how
                and not abroad
                and not cue
                and not secure_here
                and not (passive and (_BY_OTHER.match(after) or (bool(third) and third[0].span.start < t.start)))
                and not facts.public
                and not facts.user_choice
                and not facts.user_request
                and not _negated(text, s0, t.start)
                and (
                    (not passive and _RECORD_OF.match(after))  # "we keep a record of that correspondence"
                    or (
                        (kept := self._held_object(st, s0, s1, t, passive)) is not None
                        and kept.entry.value[0] != _GENERIC_DATA
                        and not (passive and _BY_OTHER.search(text, kept.end, t.start))
                    )
                )
                and not (
                    # "we share information we store (such as…)": a reference, unless it is defined ("the
                    # information we store is your name…")
                    st.referenced_by(text, t.start) and not _DEFINED_AS.match(after)
                )
            ):
                # "we store the date of each request and your IP address", "your card number is kept":
                # the site keeping named data holds it, which OPP-115 reads as its collection as well
                seen.add(fp)
                found.append(PracticeMention(Span.at(text, t.start, t.end), fp, False))
                notes.held.append(found[-1])
            if (
                needs == "third"
                and not third
                and not (
                    kind == "share"
                    and has_data  # (without data the sharing is dropped below anyway)
                    and (facts.implied_recipient or _TO_RECIPIENT.match(text, t.end, min(s1, t.end + _LOOKAHEAD_REACH)))
                )
            ):
                continue  # (a legal demand or a sale of the business names its recipient implicitly)
            # The site itself keeping/deleting named data ("we do not store card numbers", "we delete…"):
            # retention without a period.
            own = (
                kind == "retain"
                and has_data
                and (
                    (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
                    # passive: "log files are deleted"; a cookie's own expiry is not the site's retention
                    or (subject is None and passive and not implicit_third and not facts.tracker)
                )
                and (word.startswith(_DISPOSE) or _negated(text, s0, t.start) or truncated)
            )
            if own:
                timed = True
            if needs == "detail" and not timed and not details & _DETAIL_OF.get(kind, set()):
                continue
            if needs == "detail" and kind == "retain" and not timed and not has_period_here:
                continue  # store/keep/delete count with a period, not a place alone (a place is a transfer topic)
            # A practice needs something to act on: personal data, or for sharing a recipient.
            has_period = (
                kind == "retain"
                and has_period_here
                and (
                    needs != "detail"  # "retain", "retention": about data by the word itself
                    or bool(st.data or facts.kept_record or _ends_before(_KEPT_PRONOUN, text, s0, t.start))
                )  # not goods or game items kept ("reserved items are held for three days")
            )
            if not has_data and not (kind == "share" and third) and kind != "secure" and not has_period:
                continue
            if kind == "secure" and not (has_data or AttributeKind.SECURITY_METHOD in details):
                continue
            if kind == "secure" and AttributeKind.PROTECT_AGAINST not in details and facts.transfer_mechanism:
                notes.transfer_mechanism = True
                continue  # "appropriate safeguards for transfers outside the EEA": a transfer mechanism
            fp = PracticeType.FIRST_PARTY_COLLECTION_USE
            if ptype == PracticeType.THIRD_PARTY_COLLECTION_USE and fp not in seen and _joint_subject(text, st, s0, t):
                seen.add(fp)  # "we and our service providers may collect…": the site collects too
                found.append(PracticeMention(Span.at(text, t.start, t.end), fp, _negated(text, s0, t.start)))
            if ptype in seen:
                continue
            seen.add(ptype)
            negated = _negated(text, s0, t.start)
            found.append(PracticeMention(Span.at(text, t.start, t.end), ptype, negated))
        self._third_party_paths(text, st, s0, third, facts, has_data, choice, seen, found)
        self._cue_paths(text, s0, third, tracking, cue, has_data, own_choice, seen, found)
        if found:
            feats = self._features(st, s0, s1)
            found = [
                p
                for p in found
                if self.lex.cues.score(_CATEGORY[p.type], sentence, feats) > 0
                or (
                    # "you must provide your name and a password (which is encrypted)": a security measure in
                    # another clause does not make the collection a passing mention in a security statement
                    p.type == PracticeType.FIRST_PARTY_COLLECTION_USE
                    and not p.span.text.lower().startswith(("us", "utili", "process", "access"))
                    and (rest := _without_security_asides(sentence, p.span.start - s0)) != sentence
                    and self.lex.cues.score(_CATEGORY[p.type], rest, feats) > 0
                )
            ]
        return found

    @staticmethod
    def _security_cue(text: str, st: _SegState, s0: int, s1: int) -> re.Match[str] | None:
        """A security measure named without a security trigger: access limits and strong cues (_SECURE_CUE),
        keeping data's security or confidentiality (_SECURE_OF, unless a recipient is bound to it), or the
        organisation's own safeguards (_SECURE_MORE, _SECURE_STAFF), or an identity check for the reader's protection
        (_SECURE_IDENTITY) or a sign-in check (_SECURE_SIGN_IN), unless the sentence is about the reader's access
        or deletion requests)."""
        sentence = text[s0:s1]
        cue = _SECURE_CUE.search(sentence)
        if (
            cue
            and cue.group(0).lower().replace("-", " ") == "need to know"
            and (
                _READER_NEED.search(sentence[max(0, cue.start() - 4) : cue.start()])
                or _READER_NEED.match(sentence[cue.end() : cue.end() + 6])
            )
        ):
            cue = None  # "everything you need to know", ".../what-do-i-need-to-know-about-cookies/"
        if not cue:
            of = _SECURE_OF.search(sentence)
            if (
                of
                and not _BOUND_TO.search(sentence[: of.start()])
                and not re.search(r"\bcommit\w*\b", sentence[: of.start()], re.I)
                and not re.match(r"\W*(?:to|for)\s", sentence)  # "to … protect the security of …": a purpose item
                and not any(
                    s0 <= p.span.start < s0 + of.start() and p.kind == PartyKind.THIRD_PARTY for p in st.parties
                )
            ):
                cue = of
        if not cue:
            cue = _SECURE_MORE.search(sentence) or _SECURE_STAFF.search(sentence)
        if not cue and not _RIGHTS_REQUEST.search(sentence):
            cue = _SECURE_IDENTITY.search(sentence) or _SECURE_SIGN_IN.search(sentence)
        if cue and _INCIDENT.fullmatch(cue.group(0)) and _DETECTING.search(sentence, 0, cue.start()):
            return None  # "detecting and investigating security incidents": a purpose of use, not a measure
        return cue

    @staticmethod
    def _noun_or_other_verb(
        text: str, t: Hit, s0: int, kind: str, word: str, before: str, after: str, prev: list[str]
    ) -> bool:
        """The trigger word is a noun ("the use of"), or a sharing verb that discloses nothing (sending to the
        reader, sharing buttons, a choice about sharing, a list of threats)."""
        if word in _AMBIGUOUS and prev and prev[0] in _NOUN_BEFORE:
            return True  # "the use of", "your request", "a record": a noun, not the practice verb
        if word in _AMBIGUOUS and kind == "collect" and re.match(r"\s+of\b", after):
            return True  # "their use of cookies": a noun
        if kind == "share" and (
            re.match(r"\s+(?:you|to you|us|it to us|them to us)\b", after, re.I)
            or _SHARE_TOOL.match(after)
            or _CHOICE_BEFORE.search(before)
            or _ON_DEVICE.match(after)
        ):
            return True  # "send you newsletters", "sharing buttons", "opt out of sharing…", "sent to your computer"
        if kind == "share" and (
            (word == "sharing" and _FEATURE_BEFORE.search(before) and not re.match(r"\s+(?:with|to)\b", after))
            or (word == "shares" and (_ENGAGEMENT_BEFORE.search(before) or _ENGAGEMENT_AFTER.match(after)))
        ):
            return True  # "file sharing", "likes, comments and shares": a feature or a count, not a disclosure
        if word.startswith("forward") and re.search(
            r"\b(?:look|looks|looked|looking|going|moving|step)\s+$", before, re.I
        ):
            return True  # "we look forward to hearing from you", "going forward": not forwarding data
        if word == "traded" and prev == ["publicly"]:
            return True  # "a publicly traded company": listed shares, not data traded
        # "unauthorized access, use or disclosure", "accessed, disclosed, altered": a threat
        return bool(
            (kind == "share" or word.startswith("access"))
            and _THREAT_LIST.search(text[max(s0, t.start - 50) : t.start] + "#" + after[:50])
        )

    @staticmethod
    def _another_statement(
        text: str,
        t: Hit,
        facts: _SentenceFacts,
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
        if word in ("get", "gets") and re.match(
            r"\s+(?:back|in touch|started|rid|to know|involved|help)\b", after, re.I
        ):
            return True  # "we will get back to you": not obtaining data
        if word.startswith("log") and re.match(r"\s+(?:in|into|on|onto|out|off)\b", after, re.I):
            return True  # "log into your account": the reader signing in
        if kind == "collect" and _CONSENT_OBJECT.match(after):
            return True  # "obtain your written authorization", "ask for your consent": consent, not data
        if word.endswith(("ion", "age")) and (_PRACTICE_LIST.search(before) or _PRACTICE_LIST.match(after)):
            return True  # "the collection, use and retention of…": a list of practice names
        if (
            kind == "collect"
            and "you" in t.entry.phrase.lower()
            and _IF_CLAUSE.search(before)
            and (comma := facts.comma_next(t.end)) is not None
            and _THEN_SHARE.match(text, comma, facts.s1)  # (from the comma: the same match, read once)
        ):
            return True  # "when you provide personal information to…, we may share it with…": a disclosure statement
        if choice and kind == "collect":
            return True  # "you can opt out of…", "to unsubscribe…": the reader's choices
        # "may be transferred to and stored in the United States": an international transfer
        return bool(abroad and kind in ("collect", "retain"))

    def _actor(
        self, text: str, st: _SegState, s0: int, t: Hit, kind: str, word: str, before: str
    ) -> tuple[PartyMention | None, bool]:
        """Who acts at a trigger: the party mention before it in its clause, else the site when it is named
        at the sentence start or its own services act; and whether an unnamed third party is the subject."""
        subject = self._subject(text, st, s0, t)
        if (
            subject is None
            and kind in ("collect", "share")
            and _NAME_SUBJECT.match(text[s0 : t.start])
            and not any(s0 <= p.span.start < t.start for p in st.parties)
            and not _THIRD_SUBJECT.search(before)
        ):
            # "Acme Health may use…": the operator named at the start of the sentence.
            subject = _site_subject(text, s0)
        implicit_third = (
            subject is None
            and word != "using"  # "users who access services using several devices": a participle, not a verb
            and bool(_THIRD_SUBJECT.search(before))
            and not _OUR_SUBJECT.search(before)
        )
        if subject is None and kind in ("collect", "retain") and not word.endswith("ing") and _OUR_THING.search(before):
            # "Some of our mobile services use your location", "our servers automatically record…",
            # "our servers do not store card numbers", "the app only records…"
            subject = _site_subject(text, s0)
        return subject, implicit_third

    @staticmethod
    def _not_data_security(
        text: str,
        st: _SegState,
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
        if (
            not needs
            and " " in word
            and word.startswith("reasonable")
            and not sec_detail
            and not _SECURE_AIM.match(after)
        ):
            return True  # "reasonable steps to verify your identity / keep it accurate": not security
        if _NOT_DATA_PROTECTION.match(after):
            return True  # "protect our rights, property or safety"
        if word.startswith("safeguard") and (_SUBJECT_TO.search(before) or _FOR_RIGHTS.match(after)):
            return True  # "subject to appropriate safeguards", "safeguards for individuals' rights": legal terms
        if word == "secure" and AttributeKind.SECURITY_METHOD not in details:
            # "to keep our services secure and up to date", "safe, secure products": the aim of a use, unless
            # data is kept secure with them ("make sure our site is secure and your data protected")
            held = _SECURE_SERVICE_BEFORE.search(before)
            said = _SECURE_SERVICE_AFTER.match(after)
            start = t.start - len(before) + held.start() if held else t.start
            end = t.end + max(40, said.end() if said else 0)
            if (held or said) and not any(start <= d.start < end for d in st.data):
                return True
        # "we use your IP address to protect our site from abuse": security as a purpose of use
        return bool(
            _PURPOSE_TO.search(before)
            and AttributeKind.SECURITY_METHOD not in details
            and not _DATA_OBJECT.match(after)
            and any(
                s0 <= u.start < t.start
                and u.entry.value[0] in ("collect", "share")
                and not _TOOL_OBJECT.match(text[u.end : t.start])
                for u in st.triggers
            )
        )

    @staticmethod
    def _held_object(st: _SegState, s0: int, s1: int, t: Hit, passive: bool) -> Hit | None:
        """The data a keeping verb acts on: its object (the first data named just after an active verb) or,
        for a passive, the nearest data named before it in the sentence."""
        if passive:
            i = bisect.bisect_left(st.data_starts, t.start) - 1
            return st.data[i] if i >= 0 and st.data[i].start >= s0 else None
        i = bisect.bisect_left(st.data_starts, t.end)
        return st.data[i] if i < len(st.data) and st.data[i].start < min(s1, t.end + 40) else None

    @staticmethod
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
        if _HIRE.match(after) or _ON_DEVICE.match(after) or _ONTO_DEVICE.match(after):
            return True  # "service providers we have retained to perform…", "cookies stored on your computer"
        if _BROWSER_CLOSE.match(after):
            return True  # "some are erased when you close your browser": a session cookie's lifetime
        if word.startswith("retain") and (
            _HIRED.match(after)
            or _HIRER.search(before)
            or any(_HIRED_PARTY.fullmatch(text[t.end : p.span.start]) for p in _within_words(third, text, t.end))
        ):
            return True  # "we retain an outside company", "a retained agent", "vendors we retain": hiring
        if _OFF_LIST.match(after):
            return True  # "we will remove your name from our mailing list": an opt-out, not retention
        # "session cookies are deleted when you close…", "stored in a cookie": a cookie's lifetime
        return bool(
            (
                (subject is None or subject.kind != PartyKind.FIRST_PARTY)
                and (
                    re.search(_TRACKER + r"[\"”]?\s+(?:[\w-]+\s+){0,6}?$", before, re.I)
                    or re.match(r"\s+(?:[\w-]+\s+){0,2}?" + _TRACKER + r"\b", after, re.I)
                )
            )
            or _IN_TRACKER.match(after)
        )

    @staticmethod
    def _cue_paths(
        text: str,
        s0: int,
        third: list[PartyMention],
        tracking: re.Match[str] | None,
        cue: re.Match[str] | None,
        has_data: bool,
        choice: bool,
        seen: set[PracticeType],
        found: list[PracticeMention],
    ) -> None:
        """Practices named without a trigger word, after the trigger loop: the site's own tracking technologies
        (first-party collection) and security measures found by _security_cue."""
        fp = PracticeType.FIRST_PARTY_COLLECTION_USE
        if (
            tracking
            and fp not in seen
            and PracticeType.THIRD_PARTY_COLLECTION_USE not in seen
            and not choice
            and not _THIRD_SUBJECT.search(text, s0, s0 + tracking.start())
            and not third
        ):
            seen.add(fp)
            span = Span.at(text, s0 + tracking.start(), s0 + tracking.end())
            found.append(PracticeMention(span, fp, _negated(text, s0, s0 + tracking.start())))
        sec = PracticeType.DATA_SECURITY_PROTECTION
        if cue and sec not in seen and (has_data or cue.re is not _SECURE_CUE or cue.group("strong")):
            # OPP-115's security measures beyond encryption: access limits, confidentiality duties, seals, breaches.
            found.append(
                PracticeMention(
                    Span.at(text, s0 + cue.start(), s0 + cue.end()), sec, _negated(text, s0, s0 + cue.start())
                )
            )

    @staticmethod
    def _third_party_paths(
        text: str,
        st: _SegState,
        s0: int,
        third: list[PartyMention],
        facts: _SentenceFacts,
        has_data: bool,
        choice: bool,
        seen: set[PracticeType],
        found: list[PracticeMention],
    ) -> None:
        """Third-party practices phrased without a sharing trigger: tracking by a named third party, data handed
        to a named recipient with a general verb, and a third party let to see or collect data."""
        sentence, s1 = facts.sentence, facts.s1
        sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
        pub = facts.public or _POSTED_BY_THIRD.search(sentence)
        if pub and sh not in seen and (not choice or _AWARE.search(sentence)):
            seen.add(sh)
            span = Span.at(text, s0 + pub.start(), s0 + pub.end())
            found.append(PracticeMention(span, sh, _negated(text, s0, s0 + pub.start())))
        if choice or not third:
            return
        acc = _HAVE_ACCESS.search(sentence)
        if acc and sh not in seen and any(p.span.start < s0 + acc.start() for p in third):
            seen.add(sh)  # "our service providers have access to your personal information"
            span = Span.at(text, s0 + acc.start(), s0 + acc.end())
            found.append(PracticeMention(span, sh, _negated(text, s0, s0 + acc.start())))
        tc = PracticeType.THIRD_PARTY_COLLECTION_USE
        if tc not in seen:
            for m in _TRACK_VERB.finditer(sentence):
                verb = s0 + m.start()
                before = text[s0:verb]
                if any(p.span.end <= verb and len(text[p.span.end : verb].split()) <= 4 for p in third) or (
                    _THIRD_SUBJECT.search(before) and not _OUR_SUBJECT.search(before)
                ):
                    seen.add(tc)
                    span = Span.at(text, verb, s0 + m.end())
                    found.append(PracticeMention(span, tc, _negated(text, s0, verb)))
                    break
        for tt in _THIRD_TRACKER.finditer(sentence) if tc not in seen else ():
            if _COOKIE_SETTING.search(sentence, max(0, tt.start() - 40), tt.start()):
                continue  # "set your browser to accept third-party cookies": the reader's setting
            seen.add(tc)  # "the site contains third-party cookies": a third party collects on the site
            span = Span.at(text, s0 + tt.start(), s0 + tt.end())
            found.append(PracticeMention(span, tc, _negated(text, s0, s0 + tt.start())))
            break
        joint = _JOINT_SUBJECT.search(sentence)
        if tc not in seen and joint and _JOINT_ACT.search(sentence, joint.end()):
            seen.add(tc)  # "we and our advertising partners may use cookies…": the partners collect too
            span = Span.at(text, s0 + joint.start(), s0 + joint.end())
            found.append(PracticeMention(span, tc, _negated(text, s0, s0 + joint.start())))
        if sh in seen or not has_data:
            return
        for p in third:
            before = text[max(s0, p.span.start - 80) : p.span.start]
            lead = re.sub(
                r"(?:(?:the|our|other|any|such|certain|selected|trusted|these|those|some|its)\s+)+$", "", before
            )
            give = _GIVE.search(lead)
            if (
                give is not None
                and not re.search(r"\b(?:it|them)\b", give.group(0), re.I)
                and not any(
                    p.span.start - len(before) + give.start() < d.start and d.end <= p.span.start for d in st.data
                )
            ):
                give = None  # "we provide our services to advertisers": no personal data handed over
            if give is None and (with_ := _GIVE_WITH.search(lead)):
                after_p = text[p.span.end : s1]
                if any(
                    p.span.end < d.start < s1 and _WITH_DATA.fullmatch(text[p.span.end : d.start]) for d in st.data
                ) and not re.match(r"\s+with\s+(?:you|us)\b", after_p, re.I):
                    give = with_  # "we may provide advertisers with aggregate information about our users"
            if give is None and _LET_ACT.match(text[p.span.end : s1]):
                give = _LET.search(lead)  # "allow third parties to see your profile"
            if give is None:
                continue
            start = p.span.start - len(before) + give.start()
            seen.add(sh)
            span = Span.at(text, start, start + len(give.group(0).rstrip()))
            found.append(PracticeMention(span, sh, _negated(text, s0, start)))
            return

    @staticmethod
    def _features(st: _SegState, s0: int, s1: int) -> frozenset[str]:
        """Entity features of a text range for the cue scores (see data/lexicon/practice-cues.tsv)."""
        feats = set()
        if any(s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY for p in st.parties):
            feats.add("@third_party")
        if any(s0 <= d.start < s1 and d.entry.value[0] != _GENERIC_DATA for d in st.data):
            feats.add("@concrete_data")
        return frozenset(feats)

    @staticmethod
    def _subject(text: str, st: _SegState, s0: int, t: Hit) -> PartyMention | None:
        """The party acting at a trigger: the nearest party mention before it in its clause.

        A possessive ("your", "our") names an owner, not an actor, and "us" an object: both are skipped.
        """
        i = bisect.bisect_left(st.party_starts, t.start) - 1
        while i >= 0 and (i := st.actor_before[i]) >= 0:  # (the skipped mentions are stepped over at once)
            p = st.parties[i]
            i -= 1
            if p.span.start < s0:
                break
            between = text[p.span.end : t.start]
            if ")" in between and "(" not in between and text.rfind("(", s0, p.span.start) >= 0:
                continue  # "We (which includes our service providers) will use…": an aside, not the subject
            if "(" in between and not _INFINITIVE.search(between):
                between = re.sub(r"(?<!\s)\s*\([^()]*\)", "", between)  # (an infinitive after an aside is left alone)
            if len(between.split(maxsplit=6)) > 6 or _CLAUSE_BREAK.search(between):
                return None
            return p
        return None

    def _inherit(
        self,
        policy: Policy,
        seg: Segment,
        segments: list[Segment],
        titles: list[int],
        marked: list[bool],
        lead_in: PracticeMention | None,
        has_data: bool = True,
        near: bool = False,
    ) -> PracticeMention | None:
        """The practice a line without a trigger of its own takes from its lead-in line or its heading.

        Lines need personal data to inherit, except under a security heading in the same paragraph
        ("Site Security" directly above a line about monitoring network traffic); a title-like line of
        plain text passes on only collection and sharing, or security to its own paragraph.
        """
        if _USER_CHOICE.search(seg.text) or _CHOICE_LINE.search(seg.text):
            return None  # the reader's choices ("you can opt out…", "to unsubscribe…"): not a practice
        if lead_in is not None and (
            (_LIST_ITEM.match(seg.text) and has_data) or (_list_like(seg.text) and lead_in.type in _LIST_TYPES)
        ):
            return PracticeMention(lead_in.span, lead_in.type, lead_in.negated, inherited=True)
        # Nearest heading above this segment whose words cue a practice.
        # A title the loader leaves as a list item (_MARKED_TITLE) bounds the search, and cues its own line.
        # (titles: the indices of the headings and marked titles, so the lines between are not stepped through)
        own = 1 if marked[seg.index] else 0
        for prev in (segments[i] for i in reversed(titles[: bisect.bisect_left(titles, seg.index + own)])):
            if prev.is_heading and seg.heading_path[: len(prev.heading_path)] != prev.heading_path:
                continue  # an earlier sibling section's heading ("### Storage" above "### Advertising"): not a parent
            other_topic = False  # a heading on another topic ends the search for one further up
            for pattern, kind in _HEADING_CUES:
                m = pattern.search(prev.text)
                if m and kind == "collect" and _NOT_OWN_USE_HEAD.search(prev.text):
                    continue  # "How can I control your use of my information?", "Collection by Third-Party Sites"
                if m and kind == "retain" and _KEEP_STATE.match(prev.text, m.end()):
                    continue  # "How We Keep Your Information Secure", "To keep our site safe, we:": not keeping data
                if m and kind == "secure" and not _security_heading(prev.text):
                    other_topic = True
                    continue  # "Your Data Protection Rights", "To Protect You, Ourselves and Others"
                if m and (
                    (kind == "secure" and near) or (has_data and (prev.is_heading or kind in ("collect", "share")))
                ):
                    return PracticeMention(
                        Span.at(policy.text, prev.start + m.start(), prev.start + m.end()),
                        _PRACTICE_OF[kind],
                        inherited=True,
                    )
            if other_topic or not prev.is_heading or (prev.heading_path and len(prev.heading_path) <= 1):
                break
        return None

    def relations(self, policy: Policy, results: list[SegmentExtraction]) -> list[list[Relation]]:
        return [self._relate(policy, r) for r in results]

    def _relate(self, policy: Policy, res: SegmentExtraction) -> list[Relation]:
        rels: list[Relation] = []
        bounds = sentences(res.segment)

        def sent_of(pos: int) -> int:
            for i, (a, b) in enumerate(bounds):
                if a <= pos < b:
                    return i
            return -1

        for pi, pr in enumerate(res.practices):
            # Inherited practices relate to everything in their (list-item) segment.
            s = -2 if pr.inherited else sent_of(pr.span.start)

            def here(span: Span, s: int = s) -> bool:
                return s == -2 or sent_of(span.start) == s

            data = [f"data:{i}" for i, d in enumerate(res.data) if here(d.span)]
            purposes = [f"purpose:{i}" for i, p in enumerate(res.purposes) if here(p.span)]
            parties = [(i, p) for i, p in enumerate(res.parties) if here(p.span)]
            attrs = [(i, a) for i, a in enumerate(res.attributes) if here(a.span)]
            third = [i for i, p in parties if p.kind == PartyKind.THIRD_PARTY]
            users = [i for i, p in parties if p.kind == PartyKind.USER]
            t = pr.type
            data_role = {
                PracticeType.FIRST_PARTY_COLLECTION_USE: Role.DATA_COLLECTED,
                PracticeType.THIRD_PARTY_COLLECTION_USE: Role.DATA_COLLECTED,
                PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: Role.DATA_SHARED,
                PracticeType.DATA_STORAGE_RETENTION_DELETION: Role.DATA_RETAINED,
                PracticeType.DATA_SECURITY_PROTECTION: Role.DATA_PROTECTED,
            }[t]
            rels.extend(Relation(pi, data_role, d) for d in data)
            rels.extend(Relation(pi, Role.PURPOSE_ARGUMENT, p) for p in purposes)
            if t == PracticeType.FIRST_PARTY_COLLECTION_USE:
                rels.append(Relation(pi, Role.DATA_COLLECTOR, "party:first"))
                rels.extend(Relation(pi, Role.DATA_PROVIDER, f"party:{i}") for i in users)
                rels.extend(
                    Relation(pi, Role.DATA_PROVIDER, f"party:{i}")
                    for i in third
                    if res.parties[i].span.start > pr.span.start
                )
            elif t == PracticeType.THIRD_PARTY_COLLECTION_USE:
                rels.extend(
                    Relation(pi, Role.DATA_COLLECTOR, f"party:{i}")
                    for i in third
                    if res.parties[i].span.start < pr.span.start
                )
                rels.extend(Relation(pi, Role.DATA_PROVIDER, f"party:{i}") for i in users)
            elif t == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE:
                rels.append(Relation(pi, Role.DATA_SHARER, "party:first"))
                after = [i for i in third if res.parties[i].span.start > pr.span.start]
                rels.extend(Relation(pi, Role.DATA_RECEIVER, f"party:{i}") for i in (after or third))
            elif t == PracticeType.DATA_STORAGE_RETENTION_DELETION:
                rels.append(Relation(pi, Role.DATA_HOLDER, "party:first"))
            else:
                rels.append(Relation(pi, Role.DATA_PROTECTOR, "party:first"))
            for i, a in attrs:
                role = _ATTR_ROLE.get((t, a.kind)) or _ATTR_ROLE.get((None, a.kind))
                if role:
                    rels.append(Relation(pi, role, f"attr:{i}"))
        return rels


def _security_heading(heading: str) -> bool:
    """A heading's security word names the site's protection of data: not data-protection law ("Your Data
    Protection Rights", "Data Protection Officer") nor protecting people or legal interests ("To Protect You,
    Ourselves and Others", "protect the company in litigation")."""
    for m in _SECURE_HEAD_WORD.finditer(heading):
        if _DATA_PROTECTION_LAW.search(heading[: m.end()]) and _LEGAL_REGIME.search(heading):
            continue
        if m.group(0).lower().startswith("protect") and (
            _NOT_DATA_PROTECTION.match(heading, m.end()) or _PROTECT_PEOPLE.match(heading, m.end())
        ):
            continue
        return True
    return False


def _without_security_asides(sentence: str, at: int) -> str:
    """A sentence without the clauses (between _CLAUSE_SPLIT breaks) that name a security measure, except the
    clause around position `at` ("you must provide a password (which is encrypted)" → "you must provide a
    password")."""
    bounds = [0, *(x for m in _CLAUSE_SPLIT.finditer(sentence) for x in (m.start(), m.end())), len(sentence)]
    kept = [
        sentence[a:b]
        for a, b in zip(bounds[::2], bounds[1::2], strict=True)
        if a <= at <= b or not _SECURITY_ASIDE.search(sentence, a, b)
    ]
    return " ".join(kept)


def _site_subject(text: str, s0: int) -> PartyMention:
    """The site as the actor of a sentence that names it without a party mention (an empty span at its start)."""
    return PartyMention(Span.at(text, s0, s0), PartyKind.FIRST_PARTY, RecipientKind.FIRST_PARTY, "first_party")


def _joint_subject(text: str, st: _SegState, s0: int, t: Hit) -> bool:
    """The site among the coordinated subjects of a verb ("We and our partners may collect…")."""
    # Subjects sit near the verb: reading at most _SUBJECTS_REACH characters back keeps run-on lines linear.
    start = max(s0, t.start - _SUBJECTS_REACH)
    out, pos = [], start
    lead = _LEAD_NAME.match(text, s0, t.start) if start == s0 else None
    first = bisect.bisect_left(st.party_starts, start)
    if lead and not any(p.span.start < lead.end() for p in st.parties[first:]):
        out, pos = [SITE_MARK], lead.end()
    for p in st.parties[first:]:
        if p.span.start >= t.start:
            break
        if p.span.start < pos or p.span.end > t.start or p.span.text.lower() in ("our", "your", "their", "its"):
            continue
        if p.kind == PartyKind.USER:
            continue
        out += [text[pos : p.span.start], SITE_MARK if p.kind == PartyKind.FIRST_PARTY else THIRD_MARK]
        pos = p.span.end
    out.append(text[pos : t.start])
    m = _CO_SUBJECTS.search("".join(out))
    return bool(m and SITE_MARK in m.group(0) and THIRD_MARK in m.group(0))


# Where a _THIRD_NOUN can start: the pattern without the test after its end (which the end of the range read
# can change). Its matches cannot overlap, so these are all the places to try.
_THIRD_NOUN_START = re.compile(_THIRD_NOUN.pattern.removesuffix(r"\b(?!\s*(?:'s|’s))"), re.I)
assert _THIRD_NOUN_START.pattern != _THIRD_NOUN.pattern


def _start(p: PartyMention) -> int:
    return p.span.start


def _within_words(parties: list[PartyMention], text: str, at: int) -> list[PartyMention]:
    """The parties (sorted by start) that _AGENT_MODIFIERS or _HIRED_PARTY can join to position ``at``."""
    m = _WORDS_REACH.match(text, at)
    end = m.end() if m else at
    return parties[bisect.bisect_left(parties, at, key=_start) : bisect.bisect_right(parties, end, key=_start)]


def _negated(text: str, sentence_start: int, trigger_start: int) -> bool:
    """A negation word among the four words before the trigger, in the same clause.

    Read from the last _LOOKBEHIND_REACH chars, cut just after a space, and widened only while that window holds
    no clause break and fewer than four words: the answer of the whole sentence prefix, without reading a
    run-on sentence from its start for each trigger.
    """
    reach = _LOOKBEHIND_REACH
    while True:
        cut = (
            _SPACE.search(text, trigger_start - reach, trigger_start)
            if trigger_start - reach > sentence_start
            else None
        )
        clauses = re.split(
            r"[,;:]|\b(?:but|however|unless|except)\b", text[cut.end() if cut else sentence_start : trigger_start]
        )
        clause = clauses[-1].lower().replace("’", "'").replace("n't", " not")  # don't → do not
        words = re.findall(r"\w+", clause)[-4:]
        if cut is None or len(clauses) > 1 or len(words) == 4:
            return any(w in _NEGATION for w in words)
        reach *= 2


def _duration(m: re.Match[str]) -> str | None:
    if m.group(1) and m.group(2):
        n = m.group(1).lower()
        count = int(n) if n.isdigit() else _NUMBERS.get(n)
        if count:
            return f"P{count}{_UNIT[m.group(2).lower()]}"
    return None
