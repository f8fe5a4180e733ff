"""The offline extractor: lexicons from DPV labels + curated synonyms, practice triggers, patterns.

Deterministic and network-free. Works sentence by sentence inside each segment: a practice is a
trigger word (collect, share, retain, protect…) in a sentence that also names personal data, a
party or a practice detail; entities in the same sentence are related to it by role. List items
without a trigger inherit the practice of their lead-in line ("We collect the following:") or of
their section heading ("Information we share").

The patterns the rules look for are in the patterns package; the paragraph-level pass that follows the sentence
rules (paragraph titles, list siblings) is in paragraph.py.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache

from pp_graph.errors import ConfigError
from pp_graph.extract.offline.facts import (
    LineNotes,
    SegmentState,
    is_negated,
    sentences,
    subject_at,
)
from pp_graph.extract.offline.gate import features, passes
from pp_graph.extract.offline.leadin import RULE as LEAD_IN_ANNOUNCED
from pp_graph.extract.offline.leadin import announced as announced_practice
from pp_graph.extract.offline.leadin import is_lead_in, names_object
from pp_graph.extract.offline.lexicon import Entry, Hit, Lexicon, digest_files, entry, plural_variants, read_tsv
from pp_graph.extract.offline.mentions import Context, mention_rules
from pp_graph.extract.offline.paragraph import (
    ParagraphPass,
    SentenceReader,
    contents_like,
    list_like,
    run_paragraph_rules,
    title_like,
)
from pp_graph.extract.offline.patterns.headings import (
    HEADING_CUES,
    LIST_ITEM,
    LIST_TYPES,
    MARKED_TITLE,
    NOT_OWN_USE_HEAD,
    OFF_TOPIC,
    PSEUDO_REACH,
)
from pp_graph.extract.offline.patterns.practices import ATTR_ROLE, PRACTICE_OF
from pp_graph.extract.offline.patterns.retention import (
    KEEP_STATE,
    KEEP_VERB,
    NUMBERS,
    PERIOD,
    PERIOD_MORE,
    PLACE,
    PLACE_CONTEXT,
    UNIT,
)
from pp_graph.extract.offline.patterns.scope import AUDIENCE, IDENTIFIES, SCOPE
from pp_graph.extract.offline.patterns.security import (
    DATA_PROTECTION_LAW,
    LEGAL_REGIME,
    NOT_DATA_PROTECTION,
    PROTECT_PEOPLE,
    SECURE_HEAD_WORD,
)
from pp_graph.extract.offline.patterns.sentences import CHOICE_LINE, USER_CHOICE
from pp_graph.extract.offline.rights import requested_rights
from pp_graph.extract.offline.rules import Trace, phases, register
from pp_graph.extract.offline.statements import is_statement, line_statements, merge_details, with_statements
from pp_graph.extract.offline.trigger import sentence_practices
from pp_graph.extract.offline.version import dpv_digest, ruleset_version
from pp_graph.extract.registry import Backend
from pp_graph.load.reading import is_contents_entry
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

# A sale the site states with a finite verb ("we sell", "we sold"): never hidden by its section
# (see OfflineBackend._stated_sales).
_SALE_VERB = re.compile(r"sell|sells|sold", re.I)

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
        if kind not in PRACTICE_OF:
            raise DataFileError(f"triggers.tsv: {phrase!r}: practice {kind!r} is not one of {sorted(PRACTICE_OF)}")
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
    return Lexicons(data, purposes, parties, triggers, attributes, digest_files(files))


def site_name(site: str) -> str:
    """github.com → GitHub-ish display name: the registrable label, capitalised."""
    labels = site.split(".")
    core = labels[-3] if len(labels) >= 3 and labels[-2] in {"co", "com", "org", "ac"} else labels[0]
    if core == "www" and len(labels) > 1:
        core = labels[1]
    return core.capitalize()


_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def _flag(option: str, value: bool | str) -> bool:
    """A bool, or a true/false word (``--option rule_ids=on``); ConfigError for anything else, never a silent False."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise ConfigError(f"offline backend option {option}={value!r}: expected one of {', '.join(_TRUE + _FALSE)}")


class OfflineBackend(Backend):
    name = "offline"
    languages = frozenset({"en"})  # its lexicons, cues and rules are English

    def __init__(self, rule_ids: bool | str = False, **_: object) -> None:
        self.lex = load_lexicons()
        self.mention_rules = mention_rules()
        # write ppg:rule in the graph (convert --rule-ids); an option, so it is part of the batch settings digest
        self.rule_ids = _flag("rule_ids", rule_ids)
        self._cache: dict[int, SegmentState] = {}
        self._cache_policy: tuple[str, str] = ("", "")
        self.trace: Trace | None = None  # attach one to record every rule that fired (explain, evaluation by rule)

    @property
    def provenance(self) -> Provenance:
        from pp_graph.version import __version__

        return Provenance("offline", RULESET_VERSION, self.lex.version, vocabulary=dpv_digest(), software=__version__)

    # -- shared analysis, computed once per segment and reused by the stages --

    def _state(self, policy: Policy, segment: Segment) -> SegmentState:
        # The stages of one policy share each segment's analysis; a new policy starts afresh. The site is part of
        # the key: the same text read for another site names another first party.
        key = (policy.site, policy.digest)
        if key != self._cache_policy:
            self._cache, self._cache_policy = {}, key
        state = self._cache.get(segment.index)
        if state is None:
            state = self._cache[segment.index] = self._analyse(policy, segment)
        return state

    def _analyse(self, policy: Policy, segment: Segment) -> SegmentState:
        text, off = segment.text, segment.start
        parties: list[PartyMention] = []
        own = site_name(policy.site)
        party_hits = list(self.lex.parties.find(text, off))
        by_name: set[int] = set()  # (the starts of the site's own name, found beside the lexicon)
        for m in re.finditer(rf"\b{re.escape(own)}\b", text):
            if not any(h.start <= m.start() + off < h.end for h in party_hits):
                party_hits.append(Hit(m.start() + off, m.end() + off, entry(own, "first_party", "first_party")))
                by_name.add(m.start() + off)
        names = [h for h in party_hits if h.entry.case_sensitive]
        data, purposes = list(self.lex.data.find(text, off)), list(self.lex.purposes.find(text, off))
        settled: dict[tuple[str, int, int], str] = {}
        kept = {
            "data": self._mentions(segment, "data", data, names, settled),
            "purpose": self._mentions(segment, "purpose", purposes, names, settled),
        }
        for h in sorted(party_hits, key=lambda h: h.start):
            kind, rkind = h.entry.value[0], h.entry.value[1]
            rule = "mention.party.site-name" if h.start in by_name else "mention.party"
            if kind == PartyKind.THIRD_PARTY and h.entry.phrase.lower() == own.lower():
                kind, rkind = "first_party", "first_party"  # a company the lexicon names, in its own policy
                rule = "mention.party.site-name"
            name = h.entry.phrase if kind == PartyKind.THIRD_PARTY else kind
            span = Span.at(policy.text, h.start, h.end)
            parties.append(PartyMention(span, PartyKind(kind), RecipientKind(rkind), name.lower(), (rule,)))
        triggers = list(self.lex.triggers.find(text, off))
        attrs: list[AttributeMention] = []
        for h in self.lex.attributes.find(text, off):
            kind = AttributeKind(h.entry.value[0])
            attrs.append(AttributeMention(Span.at(policy.text, h.start, h.end), kind, h.entry.value[1] or None))
        for a, b, right in requested_rights(text):  # "request access to, erasure of, and updates to your data"
            if not any(x.concept == right and x.span.start < b + off and a + off < x.span.end for x in attrs):
                attrs.append(AttributeMention(Span.at(policy.text, a + off, b + off), AttributeKind.USER_RIGHT, right))
        for m in PERIOD.finditer(text):
            if m.group("reason") and not any(
                a <= m.start() + off < b and KEEP_VERB.search(policy.text, a, b) for a, b in sentences(segment)
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
        for m in PERIOD_MORE.finditer(text):
            # a need or a wish as the measure of keeping ("as long as we need it", "as long as you want")
            if not any(a.span.start <= m.start() + off < a.span.end for a in attrs):
                span = Span.at(policy.text, m.start() + off, m.end() + off)
                attrs.append(AttributeMention(span, AttributeKind.RETENTION_PERIOD, None))
        if PLACE_CONTEXT.search(text):
            for m in PLACE.finditer(text):
                attrs.append(
                    AttributeMention(
                        Span.at(policy.text, m.start(1) + off, m.end(1) + off), AttributeKind.STORAGE_PLACE
                    )
                )
        statements = line_statements(policy, segment)
        attrs = merge_details(attrs, statements)
        attrs.sort(key=lambda a: (a.span.start, a.span.end))
        return SegmentState(data, purposes, parties, triggers, attrs, kept, settled, statements)

    def _mentions(
        self, segment: Segment, kind: str, hits: list[Hit], names: list[Hit], settled: dict[tuple[str, int, int], str]
    ) -> list[Hit]:
        """The segment's lexicon hits that the mention rules keep, with the concept they settle on (and, in
        `settled`, the rule that changed a kept hit's concept)."""
        lex = self.lex.data if kind == "data" else self.lex.purposes
        ctx = Context(segment.text, segment.start, lex, names, hits)
        kept, decisions = self.mention_rules.classify(kind, ctx, hits)
        for d in decisions:
            if d.action == "changed":  # the rule that settled a kept mention's concept joins its rule ids
                settled[(kind, d.hit.start, d.hit.end)] = d.rule
        if self.trace is not None:
            for d in decisions:
                why = segment.text[d.hit.start - segment.start : d.hit.end - segment.start] + (
                    f" → {compact(d.concept)}" if d.concept else ""
                )
                self.trace.add(d.rule, d.action, segment.index, d.hit.start, d.hit.end, "", why)
        return kept

    # -- stages --

    def data_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return [[Span.at(policy.text, h.start, h.end) for h in self._state(policy, s).kept["data"]] for s in segments]

    def data_classes(self, policy: Policy, segments: list[Segment], spans: list[list[Span]]) -> list[list[str | None]]:
        return self._classes(policy, segments, spans, "data", self.lex.data)

    def purpose_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return [
            [Span.at(policy.text, h.start, h.end) for h in self._state(policy, s).kept["purpose"]] for s in segments
        ]

    def purpose_classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]:
        return self._classes(policy, segments, spans, "purpose", self.lex.purposes)

    def _classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]], kind: str, lex: Lexicon
    ) -> list[list[str | None]]:
        # A span found by this backend keeps the concept its mention rules settled on; any other span (from
        # another stage) is read off the lexicon.
        out: list[list[str | None]] = []
        for segment, ss in zip(segments, spans, strict=True):
            state = self._state(policy, segment)
            found = {(h.start, h.end): h.entry.value[0] for h in state.kept[kind]}
            out.append([found.get((sp.start, sp.end)) or self._concept(lex, sp.text) for sp in ss])
        return out

    @staticmethod
    def _concept(lex: Lexicon, text: str) -> str | None:
        e = lex.lookup(text)
        return e.value[0] if e else None

    def parties(self, policy: Policy, segments: list[Segment]) -> list[list[PartyMention]]:
        return [self._state(policy, s).parties for s in segments]

    def attributes(self, policy: Policy, segments: list[Segment]) -> list[list[AttributeMention]]:
        return [self._state(policy, s).attributes for s in segments]

    def practices(self, policy: Policy, segments: list[Segment]) -> list[list[PracticeMention]]:
        """Each line read under its heading (the heading rules, then the sentence engine, then the heading rules
        that run after it), then the paragraph rules over the whole text; every scope in declared order."""
        out: list[list[PracticeMention]] = []
        lead_in: PracticeMention | None = None  # a line ending in ':' that announced a practice
        # Plain text without heading markup (OPP-115's sanitized HTML): short title-like lines act as headings.
        pseudo = not any(s.is_heading for s in segments)
        heads = [s.is_heading or (pseudo and title_like(s.text)) for s in segments]
        marked = [bool(MARKED_TITLE.fullmatch(s.text.strip())) for s in segments]  # (see _inherit)
        titles = [i for i, s in enumerate(segments) if heads[i] or marked[i]]  # the lines _inherit looks up to
        section = ""  # title of the nearest heading above
        blocks = 0  # paragraphs (blank-line separated) since that heading
        before, after = _heading_phases()
        for i, segment in enumerate(segments):
            if i and "\n\n" in policy.text[segments[i - 1].end : segment.start]:
                blocks += 1
            line = _Line(
                policy, segments, segment, self._state(policy, segment), titles, marked, section, blocks, pseudo
            )
            line.lead_in = lead_in
            nav = is_contents_entry(segment.text)  # names its sections, like their headings, and states nothing
            if heads[i]:
                section, blocks = segment.text, 0
            elif not nav and not any(fn(self, line) for fn in before):
                for start, end in sentences(segment):
                    line.found.extend(
                        sentence_practices(policy, segment, line.state, start, end, line.notes, self.trace)
                    )
                for fn in after:
                    fn(self, line)
            found = line.found
            out.append(found)
            if heads[i]:
                lead_in = None
            elif is_lead_in(segment.text) and found:
                lead_in = found[0]
            elif not found and (announced := announced_practice(policy, segment, line.state)) is not None:
                lead_in = announced  # "We collect:", "We share it with:": the items say what (see leadin.py)
            elif not list_like(segment.text):
                lead_in = None
        note = self._note if self.trace is not None else None
        reader = SentenceReader(self._state, sentences, subject_at, is_negated, note)
        run_paragraph_rules(ParagraphPass(policy, segments, heads, out, reader))
        for i, segment in enumerate(segments):  # the statement rules, beside the practices (see statements.py)
            if heads[i] or contents_like(segment.text):
                continue  # a title announces what its lines state ("Changes to This Privacy Policy"), contents too
            seg_note = self._seg_note(segment.index) if self.trace is not None else None
            out[i] = with_statements(out[i], self._state(policy, segment), seg_note)
        return out

    def _stated_sales(self, policy: Policy, segment: Segment, state: SegmentState) -> list[PracticeMention]:
        """A sale the line states is kept whatever its section: no heading (a Nevada or California notice, "We
        do not sell") may hide "we also sell your email address to data brokers"."""
        if not any(t.entry.value[0] == "share" and _SALE_VERB.fullmatch(t.entry.phrase) for t in state.triggers):
            return []
        out, notes = [], LineNotes()
        hits = {t.start: t for t in state.triggers}
        for start, end in sentences(segment):
            for p in sentence_practices(policy, segment, state, start, end, notes, self.trace):
                t = hits.get(p.span.start)
                subject = subject_at(policy.text, state, start, t) if t is not None else None
                if (
                    p.type == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
                    and not p.negated
                    and _SALE_VERB.fullmatch(p.span.text)
                    # the site says it sells ("we also sell…"), not a list of practice names ("selling, or sharing")
                    and subject is not None
                    and subject.kind == PartyKind.FIRST_PARTY
                ):
                    out.append(replace(p, rules=(*p.rules, "promotion.stated-sale")))
                    self._note(
                        "promotion.stated-sale", "made", segment.index, p.span.start, p.span.end, p.type.value, ""
                    )
        return out

    def _note(self, rule: str, action: str, segment: int, start: int, end: int, practice: str, why: str) -> None:
        if self.trace is not None:
            self.trace.add(rule, action, segment, start, end, practice, why)

    def _inherited_passes(
        self, p: PracticeMention, segment: Segment, state: SegmentState, out_of_scope: bool = False
    ) -> bool:
        """The cue gate (see gate.py) for a practice a line takes from its heading or lead-in (``out_of_scope``:
        the line has a sentence veto.inherit.out-of-scope finds, a cue that drops it)."""
        note = self._seg_note(segment.index) if self.trace is not None else None
        feats = features(state, segment.start, segment.end) | ({"@out_of_scope"} if out_of_scope else set())
        if passes(p, segment.text, feats, note, inherited=True):
            if LEAD_IN_ANNOUNCED in p.rules:
                self._note(LEAD_IN_ANNOUNCED, "made", segment.index, p.span.start, p.span.end, p.type.value, "")
            self._note(p.rules[-1], "made", segment.index, p.span.start, p.span.end, p.type.value, "inherited")
            return True
        return False

    def _seg_note(self, segment: int) -> Callable[[str, str, int, int, str, str], None]:
        def note(rule: str, action: str, start: int, end: int, practice: str, why: str) -> None:
            self._note(rule, action, segment, start, end, practice, why)

        return note

    def _inherit(
        self,
        policy: Policy,
        segment: Segment,
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
        if USER_CHOICE.search(segment.text) or CHOICE_LINE.search(segment.text):
            return None  # the reader's choices ("you can opt out…", "to unsubscribe…"): not a practice
        if lead_in is not None and (
            (LIST_ITEM.match(segment.text) and has_data) or (list_like(segment.text) and lead_in.type in LIST_TYPES)
        ):  # (a lead-in that only announces its practice passes it on to items that name an object: _inherited_line)
            return PracticeMention(
                lead_in.span, lead_in.type, lead_in.negated, inherited=True, rules=(*lead_in.rules, "inherit.lead-in")
            )
        # Nearest heading above this segment whose words cue a practice.
        # A title the loader leaves as a list item (MARKED_TITLE) bounds the search, and cues its own line.
        # (titles: the indices of the headings and marked titles, so the lines between are not stepped through)
        own = 1 if marked[segment.index] else 0
        for prev in (segments[i] for i in reversed(titles[: bisect.bisect_left(titles, segment.index + own)])):
            if prev.is_heading and segment.heading_path[: len(prev.heading_path)] != prev.heading_path:
                continue  # an earlier sibling section's heading ("### Storage" above "### Advertising"): not a parent
            other_topic = False  # a heading on another topic ends the search for one further up
            for pattern, kind in HEADING_CUES:
                m = pattern.search(prev.text)
                if m and kind == "collect" and NOT_OWN_USE_HEAD.search(prev.text):
                    continue  # "How can I control your use of my information?", "Collection by Third-Party Sites"
                if m and kind == "retain" and KEEP_STATE.match(prev.text, m.end()):
                    continue  # "How We Keep Your Information Secure", "To keep our site safe, we:": not keeping data
                if m and kind == "secure" and not _security_heading(prev.text):
                    other_topic = True
                    continue  # "Your Data Protection Rights", "To Protect You, Ourselves and Others"
                if m and (
                    (kind == "secure" and near) or (has_data and (prev.is_heading or kind in ("collect", "share")))
                ):
                    return PracticeMention(
                        Span.at(policy.text, prev.start + m.start(), prev.start + m.end()),
                        PRACTICE_OF[kind],
                        inherited=True,
                        rules=("inherit.heading",),
                    )
            if other_topic or not prev.is_heading or (prev.heading_path and len(prev.heading_path) <= 1):
                break
        return None

    def relations(self, policy: Policy, results: list[SegmentExtraction]) -> list[list[Relation]]:
        return [self._relate(policy, r) for r in results]

    def finish(self, policy: Policy, results: list[SegmentExtraction]) -> None:
        for r in results:
            self._mention_rules(r, r.relations, self._state(policy, r.segment).settled)
        self._cache, self._cache_policy = {}, ("", "")  # the policy is done: its analyses are not kept alive

    def _mention_rules(
        self, res: SegmentExtraction, rels: list[Relation], settled: dict[tuple[str, int, int], str]
    ) -> None:
        """Each data, purpose and party mention records the rule that made it and the link rules that tied it to
        a practice (the mentions are replaced in place: their rule ids are not part of their identity)."""
        links: dict[str, dict[str, None]] = {}
        bounds = sentences(res.segment)
        spans = {f"data:{i}": m.span.start for i, m in enumerate(res.data)}
        spans.update((f"purpose:{i}", m.span.start) for i, m in enumerate(res.purposes))
        spans.update((f"party:{i}", m.span.start) for i, m in enumerate(res.parties))
        for rel in rels:
            if rel.entity in spans:
                rule = _link_rule(res.practices[rel.practice], bounds, spans[rel.entity])
                links.setdefault(rel.entity, {})[rule] = None
        for i, d in enumerate(res.data):
            made = _made_rule("data", d.concept)
            res.data[i] = replace(d, rules=self._traced(res, "data", i, d.span, made, links, settled))
        for i, u in enumerate(res.purposes):
            res.purposes[i] = replace(
                u, rules=self._traced(res, "purpose", i, u.span, "mention.purpose", links, settled)
            )
        for i, m in enumerate(res.parties):
            if m.rules:  # (made by _analyse; the pipeline keeps only grounded ones)
                res.parties[i] = replace(m, rules=self._traced(res, "party", i, m.span, m.rules[0], links))

    def _traced(
        self,
        res: SegmentExtraction,
        kind: str,
        i: int,
        span: Span,
        made: str,
        links: dict[str, dict[str, None]],
        settled: dict[tuple[str, int, int], str] | None = None,
    ) -> tuple[str, ...]:
        """A mention's rule ids (the rule that made it, the mention rule that settled its concept, then its link
        rules), noted in the trace if one is attached."""
        linked = tuple(links.get(f"{kind}:{i}", ()))
        change = (settled or {}).get((kind, span.start, span.end))
        if change:
            made_by: tuple[str, ...] = (made, change)
        else:
            made_by = (made,)
        if self.trace is not None:
            segment = res.segment.index
            self._note(made, "made", segment, span.start, span.end, "", kind)
            for rid in linked:
                self._note(rid, "linked", segment, span.start, span.end, "", kind)
        return (*made_by, *linked)

    def _relate(self, policy: Policy, res: SegmentExtraction) -> list[Relation]:
        rels: list[Relation] = []
        bounds = sentences(res.segment)

        def sent_of(pos: int) -> int:
            for i, (a, b) in enumerate(bounds):
                if a <= pos < b:
                    return i
            return -1

        # a statement's sentence still passes its data to a data practice nearby (see statements.is_statement)
        stated = [sent_of(p.span.start) for p in res.practices if not p.inherited and not is_statement(p)]
        adopt = _adopting_sentences(stated, len(bounds))
        for pi, pr in enumerate(res.practices):
            # Inherited practices relate to everything in their (list-item) segment.
            s = -2 if pr.inherited else sent_of(pr.span.start)

            def here(span: Span, s: int = s) -> bool:
                return s == -2 or sent_of(span.start) == s

            def near(span: Span, s: int = s) -> bool:  # (see link.nearby-sentence)
                return here(span) or adopt.get(sent_of(span.start), -3) == s

            data = [f"data:{i}" for i, d in enumerate(res.data) if near(d.span)]
            purposes = [f"purpose:{i}" for i, p in enumerate(res.purposes) if near(p.span)]
            parties = [(i, p) for i, p in enumerate(res.parties) if here(p.span)]
            attrs = [(i, a) for i, a in enumerate(res.attributes) if here(a.span)]
            third = [i for i, p in parties if p.kind == PartyKind.THIRD_PARTY]
            users = [i for i, p in parties if p.kind == PartyKind.USER]
            t = pr.type
            data_role = _DATA_ROLE.get(t)  # (the statements other than storage hold no data of their own)
            if data_role is not None:
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
            elif t == PracticeType.DATA_SECURITY_PROTECTION:
                rels.append(Relation(pi, Role.DATA_PROTECTOR, "party:first"))
            for i, a in attrs:
                role = ATTR_ROLE.get((t, a.kind)) or ATTR_ROLE.get((None, a.kind))
                if role:
                    rels.append(Relation(pi, role, f"attr:{i}"))
        return rels


_DATA_ROLE = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: Role.DATA_COLLECTED,
    PracticeType.THIRD_PARTY_COLLECTION_USE: Role.DATA_COLLECTED,
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: Role.DATA_SHARED,
    PracticeType.DATA_STORAGE_RETENTION_DELETION: Role.DATA_RETAINED,
    PracticeType.DATA_SECURITY_PROTECTION: Role.DATA_PROTECTED,
}


@dataclass
class _Line:
    """One line as the heading rules read it: where it sits under its heading, and what was found in it."""

    policy: Policy
    segments: list[Segment]
    segment: Segment
    state: SegmentState
    titles: list[int]  # the indices of the headings and marked titles (see OfflineBackend._inherit)
    marked: list[bool]
    section: str  # title of the nearest heading above
    blocks: int  # paragraphs since that heading
    pseudo: bool  # plain text: title-like lines act as headings
    lead_in: PracticeMention | None = None  # the practice a lead-in line above announced
    found: list[PracticeMention] = field(default_factory=list)
    notes: LineNotes = field(default_factory=LineNotes)


# The heading-scope rules by id; those declared before the sentence rules run before them on each line (True:
# the line is decided, its sentences are not read), the others after them.
HeadingRule = Callable[[OfflineBackend, _Line], bool]
HEADING_RULES: dict[str, HeadingRule] = {}


@cache
def _heading_phases() -> tuple[tuple[HeadingRule, ...], tuple[HeadingRule, ...]]:
    return phases("heading", HEADING_RULES, "sentence")


@register(HEADING_RULES, "veto.section.off-topic", "promotion.stated-sale")
def _off_topic_section(be: OfflineBackend, line: _Line) -> bool:
    """A section about children, policy changes, contacting the site or other sites' practices (a title-like
    line of plain text only reaches its own and the next paragraph): only a sale the line states is kept."""
    if not (OFF_TOPIC.search(line.section) and (not line.pseudo or line.blocks <= PSEUDO_REACH)):
        return False
    segment = line.segment
    be._note(
        "veto.section.off-topic", "vetoed", segment.index, segment.start, segment.end, "", line.section.strip()[:60]
    )
    line.found.extend(be._stated_sales(line.policy, segment, line.state))
    return True


@register(HEADING_RULES, "veto.inherit.out-of-scope", "inherit.lead-in", "inherit.lead-in.announced", "inherit.heading")
def _inherited_line(be: OfflineBackend, line: _Line) -> bool:
    """A line whose sentences state no practice of their own takes its lead-in's or its heading's."""
    segment, state, notes, lead_in = line.segment, line.state, line.notes, line.lead_in
    if lead_in is not None and LEAD_IN_ANNOUNCED in lead_in.rules and not names_object(lead_in, state):
        lead_in = None  # "We collect:" above "- Monday to Friday": nothing for the practice to act on
    if (
        not [p for p in line.found if not any(p is h for h in notes.held)]
        and not notes.user_act
        and not notes.transfer_mechanism
        and (state.data or line.blocks == 0 or (lead_in is not None and list_like(segment.text)))
    ):
        inherited = be._inherit(
            line.policy, segment, line.segments, line.titles, line.marked, lead_in, bool(state.data), line.blocks == 0
        )
        if inherited and be._inherited_passes(inherited, segment, state, _out_of_scope(line)):
            line.found.append(inherited)
    return False


def _out_of_scope(line: _Line) -> bool:
    """A line with a sentence about the policy itself, other sites, definitions, children or state residents
    (what the sentence-scope vetoes stop): the ``@out_of_scope`` cue, so the gate drops what the line inherits."""
    text = line.policy.text
    for start, end in sentences(line.segment):
        sentence = text[start:end]
        if SCOPE.search(IDENTIFIES.sub(" ", sentence)) or AUDIENCE.search(sentence):
            return True
    return False


def _made_rule(kind: str, concept: str | None) -> str:
    """The mention rule that made a data or purpose mention: the lexicon's phrases, or the generic words
    ("information", "data") read as dpv:PersonalData."""
    if kind == "data":
        return "mention.data.generic" if concept == PERSONAL_DATA else "mention.data"
    return "mention.purpose"


def _adopting_sentences(stated: list[int], n: int) -> dict[int, int]:
    """For each sentence of a line that states no practice, the sentence whose practices take its data and
    purposes: the nearest one before it that states a practice, else the nearest after it ("We collect
    information from you. This includes your name and e-mail address.")."""
    have = sorted({s for s in stated if s >= 0})
    out: dict[int, int] = {}
    if not have:
        return out
    for j in range(n):
        if j not in have:
            before = [s for s in have if s < j]
            out[j] = before[-1] if before else have[0]
    return out


def _link_rule(p: PracticeMention, bounds: list[tuple[int, int]], at: int) -> str:
    """The link rule that tied a mention at offset ``at`` to practice ``p`` (see OfflineBackend._relate)."""
    if p.inherited:
        return "link.line"
    same = any(a <= p.span.start < b and a <= at < b for a, b in bounds)
    return "link.sentence" if same else "link.nearby-sentence"


def _security_heading(heading: str) -> bool:
    """A heading's security word names the site's protection of data: not data-protection law ("Your Data
    Protection Rights", "Data Protection Officer") nor protecting people or legal interests ("To Protect You,
    Ourselves and Others", "protect the company in litigation")."""
    for m in SECURE_HEAD_WORD.finditer(heading):
        if DATA_PROTECTION_LAW.search(heading[: m.end()]) and LEGAL_REGIME.search(heading):
            continue
        if m.group(0).lower().startswith("protect") and (
            NOT_DATA_PROTECTION.match(heading, m.end()) or PROTECT_PEOPLE.match(heading, m.end())
        ):
            continue
        return True
    return False


def _duration(m: re.Match[str]) -> str | None:
    if m.group(1) and m.group(2):
        n = m.group(1).lower()
        count = int(n) if n.isdigit() else NUMBERS.get(n)
        if count:
            unit, times = UNIT[m.group(2).lower()]
            return f"P{count * times}{unit}"
    return None
