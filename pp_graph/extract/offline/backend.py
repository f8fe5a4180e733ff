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
from dataclasses import dataclass, replace
from functools import cache

from pp_graph.extract.offline.cues import CueTable, load_cues
from pp_graph.extract.offline.facts import (
    _LineNotes,
    _negated,
    _SegState,
    sentences,
    subject_at,
)
from pp_graph.extract.offline.lexicon import Entry, Hit, Lexicon, digest_files, entry, plural_variants, read_tsv
from pp_graph.extract.offline.mentions import Context, mention_rules
from pp_graph.extract.offline.paragraph import SentenceReader, _list_like, _list_siblings, _paragraph_rules, _title_like
from pp_graph.extract.offline.patterns import (
    _ATTR_ROLE,
    _CATEGORY,
    _CHOICE_LINE,
    _DATA_PROTECTION_LAW,
    _HEADING_CUES,
    _KEEP_STATE,
    _KEEP_VERB,
    _LEGAL_REGIME,
    _LIST_ITEM,
    _LIST_TYPES,
    _MARKED_TITLE,
    _NOT_DATA_PROTECTION,
    _NOT_OWN_USE_HEAD,
    _NUMBERS,
    _OFF_TOPIC,
    _PERIOD,
    _PERIOD_MORE,
    _PLACE,
    _PLACE_CONTEXT,
    _PRACTICE_OF,
    _PROTECT_PEOPLE,
    _PSEUDO_REACH,
    _SECURE_HEAD_WORD,
    _UNIT,
    _USER_CHOICE,
)
from pp_graph.extract.offline.rules import Trace
from pp_graph.extract.offline.trigger import _features, sentence_practices
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


class OfflineBackend(Backend):
    name = "offline"

    def __init__(self, **_: object) -> None:
        self.lex = load_lexicons()
        self.mention_rules = mention_rules()
        self._cache: dict[int, _SegState] = {}
        self._cache_policy: tuple[str, str] = ("", "")
        self.trace: Trace | None = None  # attach one to record every rule that fired (explain, evaluation by rule)

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
        parties: list[PartyMention] = []
        own = site_name(policy.site)
        party_hits = list(self.lex.parties.find(text, off))
        for m in re.finditer(rf"\b{re.escape(own)}\b", text):
            if not any(h.start <= m.start() + off < h.end for h in party_hits):
                party_hits.append(Hit(m.start() + off, m.end() + off, entry(own, "first_party", "first_party")))
        names = [h for h in party_hits if h.entry.case_sensitive]
        data, purposes = list(self.lex.data.find(text, off)), list(self.lex.purposes.find(text, off))
        kept = {
            "data": self._mentions(seg, "data", data, names),
            "purpose": self._mentions(seg, "purpose", purposes, names),
        }
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
        return _SegState(data, purposes, parties, triggers, attrs, kept)

    def _mentions(self, seg: Segment, kind: str, hits: list[Hit], names: list[Hit]) -> list[Hit]:
        """The segment's lexicon hits that the mention rules keep, with the concept they settle on."""
        lex = self.lex.data if kind == "data" else self.lex.purposes
        ctx = Context(seg.text, seg.start, lex, names, hits)
        kept, decisions = self.mention_rules.classify(kind, ctx, hits)
        if self.trace is not None:
            for d in decisions:
                why = seg.text[d.hit.start - seg.start : d.hit.end - seg.start] + (
                    f" → {compact(d.concept)}" if d.concept else ""
                )
                self.trace.add(d.rule, d.action, seg.index, d.hit.start, d.hit.end, "", why)
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
        for seg, ss in zip(segments, spans, strict=True):
            st = self._state(policy, seg)
            found = {(h.start, h.end): h.entry.value[0] for h in st.kept[kind]}
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
            elif _OFF_TOPIC.search(section) and (not pseudo or blocks <= _PSEUDO_REACH):
                self._note("veto.section.off-topic", "vetoed", seg.index, seg.start, seg.end, "", section.strip()[:60])
                found.extend(self._stated_sales(policy, seg, st))
            else:
                notes = _LineNotes()
                for s0, s1 in sentences(seg):
                    found.extend(sentence_practices(self.lex.cues, policy, seg, st, s0, s1, notes, self.trace))
                if (
                    not [p for p in found if not any(p is h for h in notes.held)]
                    and not notes.user_act
                    and not notes.transfer_mechanism
                    and (st.data or blocks == 0 or (lead_in is not None and _list_like(seg.text)))
                ):
                    inherited = self._inherit(
                        policy, seg, segments, titles, marked, lead_in, bool(st.data), blocks == 0
                    )
                    if inherited and self._inherited_passes(inherited, seg, st):
                        found.append(inherited)
            out.append(found)
            if heads[i]:
                lead_in = None
            elif seg.text.rstrip().endswith(":") and found:
                lead_in = found[0]
            elif not _list_like(seg.text):
                lead_in = None
        note = self._note if self.trace is not None else None
        _list_siblings(segments, heads, out, note)
        reader = SentenceReader(self._state, sentences, subject_at, _negated, note)
        _paragraph_rules(policy, segments, heads, out, reader)
        return out

    def _stated_sales(self, policy: Policy, seg: Segment, st: _SegState) -> list[PracticeMention]:
        """A sale the line states is kept whatever its section: no heading (a Nevada or California notice, "We
        do not sell") may hide "we also sell your email address to data brokers"."""
        if not any(t.entry.value[0] == "share" and _SALE_VERB.fullmatch(t.entry.phrase) for t in st.triggers):
            return []
        out, notes = [], _LineNotes()
        hits = {t.start: t for t in st.triggers}
        for s0, s1 in sentences(seg):
            for p in sentence_practices(self.lex.cues, policy, seg, st, s0, s1, notes, self.trace):
                t = hits.get(p.span.start)
                subject = subject_at(policy.text, st, s0, t) if t is not None else None
                if (
                    p.type == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
                    and not p.negated
                    and _SALE_VERB.fullmatch(p.span.text)
                    # the site says it sells ("we also sell…"), not a list of practice names ("selling, or sharing")
                    and subject is not None
                    and subject.kind == PartyKind.FIRST_PARTY
                ):
                    out.append(replace(p, rules=(*p.rules, "promotion.stated-sale")))
                    self._note("promotion.stated-sale", "made", seg.index, p.span.start, p.span.end, p.type.value, "")
        return out

    def _note(self, rule: str, action: str, segment: int, start: int, end: int, practice: str, why: str) -> None:
        if self.trace is not None:
            self.trace.add(rule, action, segment, start, end, practice, why)

    def _inherited_passes(self, p: PracticeMention, seg: Segment, st: _SegState) -> bool:
        """The cue gate (see trigger._cue_gate) for a practice a line takes from its heading or lead-in."""
        category, feats = _CATEGORY[p.type], _features(st, seg.start, seg.end)
        if self.lex.cues.score(category, seg.text, feats, True) > 0:
            if self.trace is not None:
                self._note(p.rules[-1], "made", seg.index, p.span.start, p.span.end, p.type.value, "inherited")
            return True
        why = self.lex.cues.explain(category, seg.text, feats, True)
        self._note("gate.cues", "dropped", seg.index, p.span.start, p.span.end, p.type.value, why)
        return False

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
            return PracticeMention(
                lead_in.span, lead_in.type, lead_in.negated, inherited=True, rules=(*lead_in.rules, "inherit.lead-in")
            )
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
                        rules=("inherit.heading",),
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


def _duration(m: re.Match[str]) -> str | None:
    if m.group(1) and m.group(2):
        n = m.group(1).lower()
        count = int(n) if n.isdigit() else _NUMBERS.get(n)
        if count:
            unit, times = _UNIT[m.group(2).lower()]
            return f"P{count * times}{unit}"
    return None
