"""The offline extractor: lexicons from DPV labels + curated synonyms, practice triggers, patterns.

Deterministic and network-free. Works sentence by sentence inside each segment: a practice is a
trigger word (collect, share, retain, protect…) in a sentence that also names personal data, a
party or a practice detail; entities in the same sentence are related to it by role. List items
without a trigger inherit the practice of their lead-in line ("We collect the following:") or of
their section heading ("Information we share").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pp_graph.extract.offline.lexicon import Entry, Hit, Lexicon, digest_files, entry, plural_variants, read_tsv
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

RULESET_VERSION = "offline-rules-1"
LEXICON_DIR = DATA / "lexicon"

# DPV labels too generic to be taken as mentions on their own ("Social", "External", "Like"…).
_LABEL_STOP = {
    "external", "internal", "historical", "social", "financial", "tracking", "identifying", "professional",
    "like", "reference", "character", "family", "sale", "purchase", "job", "connection", "interaction",
    "association", "thought", "proclivity", "public life", "authenticating", "behavioural", "intention",
    "demeanour", "favourite", "dislike", "acquaintance", "ownership", "reliability", "vulnerability",
    "credit", "identifier", "transactional", "accent", "knowledge and beliefs", "mood", "attitude",
    "personal data", "collected personal data", "location", "sexual", "tax", "insurance", "health",
    "physical trait", "criminal", "opinion", "language", "school", "profile", "preference", "interest",
    "communication", "name", "age", "gender", "country", "city", "region", "education", "income",
    "salary", "picture", "emotion", "street", "weight", "height", "locality", "vehicle", "marriage",
    "divorce", "parent", "sibling", "friend", "offspring", "tattoo", "piercing", "religion", "race",
    "purpose", "verification", "improve", "research", "security",
}

_PRACTICE_OF = {
    "collect": PracticeType.FIRST_PARTY_COLLECTION_USE,
    "share": PracticeType.THIRD_PARTY_SHARING_DISCLOSURE,
    "retain": PracticeType.DATA_STORAGE_RETENTION_DELETION,
    "secure": PracticeType.DATA_SECURITY_PROTECTION,
}

_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[\"“(\[]?[A-Z0-9*])")
_NEGATION = {"not", "never", "n't", "no", "neither", "nor", "without"}
_LIST_ITEM = re.compile(r"^\s*(?:[*\-+•]|\d+[.)])\s+")

_HEADING_CUES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(share|sharing|shared|disclos\w*|sell|sale|transfer\w*|recipients?)\b", re.I), "share"),
    (re.compile(r"\b(retain\w*|retention|storage|store|keep|delet\w*|how long)\b", re.I), "retain"),
    (re.compile(r"\b(secur\w*|protect\w*|safeguard\w*)\b", re.I), "secure"),
    (re.compile(r"\b(collect\w*|gather\w*|obtain\w*|receive|provide|use|using|process\w*|"
                r"information we|data we|automatically)\b", re.I), "collect"),
)

_NUM = (r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
        r"fifteen|eighteen|twenty|thirty|forty|forty-five|sixty|ninety|a|an)")
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
            "fifteen": 15, "eighteen": 18, "twenty": 20, "thirty": 30, "forty": 40, "forty-five": 45,
            "sixty": 60, "ninety": 90}
_PERIOD = re.compile(
    rf"\b(?:for|up to|within|after|of|at least|at most|no longer than|more than|maximum of)\s+"
    rf"(?:a (?:period|maximum) of\s+|up to\s+|approximately\s+|about\s+)?({_NUM})\s+"
    r"(day|week|month|year)s?\b"
    r"|\bas long as (?:(?:is |it is |we deem |reasonably )?(?:necessary|needed|required)|your account is active|"
    r"you (?:keep|maintain|have) (?:your|an) account)[^.;,]{0,60}"
    r"|\buntil you (?:delete|close|remove|deactivate)[^.;,]{0,40}",
    re.I,
)
_PLACE = re.compile(
    r"\b(?:in|to)\s+(?:the\s+)?(United States(?: of America)?|U\.S\.(?:A\.)?|USA|European Union|"
    r"European Economic Area|EEA|EU|United Kingdom|UK|Ireland|Canada|Singapore|India|Japan|Australia|"
    r"Germany|Netherlands|Switzerland|Brazil|China|your (?:country|region)|other countries|"
    r"countries outside[^.;,]{0,40})",
)
_PLACE_CONTEXT = re.compile(r"\b(stor\w*|server\w*|data cent\w*|host\w*|transfer\w*|located|process\w*)\b", re.I)
_UNIT = {"day": "D", "week": "W", "month": "M", "year": "Y"}


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

    trig_rows = read_tsv(LEXICON_DIR / "triggers.tsv", 2)
    for phrase, kind in trig_rows:
        if kind not in _PRACTICE_OF:
            raise DataFileError(f"triggers.tsv: {phrase!r}: practice {kind!r} is not one of {sorted(_PRACTICE_OF)}")
    triggers = Lexicon("triggers", (entry(p, k) for p, k in trig_rows))

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
    parties: list[PartyMention]
    triggers: list[Hit]
    attributes: list[AttributeMention]


class OfflineBackend(Backend):
    name = "offline"

    def __init__(self, **_: object) -> None:
        self.lex = load_lexicons()
        self._cache: dict[tuple[str, int], _SegState] = {}

    @property
    def provenance(self) -> Provenance:
        return Provenance("offline", RULESET_VERSION, self.lex.version)

    # -- shared analysis, computed once per segment and reused by the stages --

    def _state(self, policy: Policy, seg: Segment) -> _SegState:
        key = (policy.digest, seg.index)
        st = self._cache.get(key)
        if st is None:
            st = self._analyse(policy, seg)
            if len(self._cache) > 20000:
                self._cache.clear()
            self._cache[key] = st
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
            name = h.entry.phrase if kind == PartyKind.THIRD_PARTY else kind
            parties.append(PartyMention(Span.at(policy.text, h.start, h.end), PartyKind(kind),
                                        RecipientKind(rkind), name.lower()))
        triggers = list(self.lex.triggers.find(text, off))
        attrs: list[AttributeMention] = []
        for h in self.lex.attributes.find(text, off):
            kind = AttributeKind(h.entry.value[0])
            attrs.append(AttributeMention(Span.at(policy.text, h.start, h.end), kind, h.entry.value[1] or None))
        for m in _PERIOD.finditer(text):
            attrs.append(AttributeMention(Span.at(policy.text, m.start() + off, m.end() + off),
                                          AttributeKind.RETENTION_PERIOD, None, _duration(m)))
        if _PLACE_CONTEXT.search(text):
            for m in _PLACE.finditer(text):
                attrs.append(AttributeMention(Span.at(policy.text, m.start(1) + off, m.end(1) + off),
                                              AttributeKind.STORAGE_PLACE))
        attrs.sort(key=lambda a: (a.span.start, a.span.end))
        # Drop data hits inside a purpose phrase ("sell your data" is a purpose, "data" inside it is not data).
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
        for seg in segments:
            st = self._state(policy, seg)
            found: list[PracticeMention] = []
            if not seg.is_heading:
                for s0, s1 in sentences(seg):
                    found.extend(self._sentence_practices(policy, seg, st, s0, s1))
            if not found and not seg.is_heading and st.data:
                inherited = self._inherit(policy, seg, segments, lead_in)
                if inherited:
                    found.append(inherited)
            out.append(found)
            if seg.is_heading:
                lead_in = None
            elif seg.text.rstrip().endswith(":") and found:
                lead_in = found[0]
            elif not _LIST_ITEM.match(seg.text):
                lead_in = None
        return out

    def _sentence_practices(
        self, policy: Policy, seg: Segment, st: _SegState, s0: int, s1: int
    ) -> list[PracticeMention]:
        in_sent = [t for t in st.triggers if s0 <= t.start < s1]
        if not in_sent:
            return []
        has_data = any(s0 <= d.start < s1 for d in st.data)
        third = [p for p in st.parties if s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY]
        found: list[PracticeMention] = []
        seen: set[PracticeType] = set()
        for t in in_sent:
            kind = t.entry.value[0]
            ptype = _PRACTICE_OF[kind]
            if kind == "collect" and any(p.span.start < t.start for p in third) and not any(
                p.kind == PartyKind.FIRST_PARTY and s0 <= p.span.start < t.start for p in st.parties
            ):
                ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            # A practice needs something to act on: personal data, or for sharing a recipient.
            if not has_data and not (kind == "share" and third) and kind != "secure":
                continue
            if kind == "secure" and not (has_data or any(a.kind == AttributeKind.SECURITY_METHOD
                                                         and s0 <= a.span.start < s1 for a in st.attributes)):
                continue
            if ptype in seen:
                continue
            seen.add(ptype)
            negated = _negated(policy.text, s0, t.start)
            found.append(PracticeMention(Span.at(policy.text, t.start, t.end), ptype, negated))
        return found

    def _inherit(
        self, policy: Policy, seg: Segment, segments: list[Segment], lead_in: PracticeMention | None
    ) -> PracticeMention | None:
        if lead_in is not None and _LIST_ITEM.match(seg.text):
            return PracticeMention(lead_in.span, lead_in.type, lead_in.negated, inherited=True)
        # Nearest heading above this segment whose words cue a practice.
        for prev in reversed(segments[: seg.index]):
            if not prev.is_heading:
                continue
            for pattern, kind in _HEADING_CUES:
                m = pattern.search(prev.text)
                if m:
                    return PracticeMention(Span.at(policy.text, prev.start + m.start(), prev.start + m.end()),
                                           _PRACTICE_OF[kind], inherited=True)
            if prev.heading_path and len(prev.heading_path) <= 1:
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
                rels.extend(Relation(pi, Role.DATA_PROVIDER, f"party:{i}") for i in third
                            if res.parties[i].span.start > pr.span.start)
            elif t == PracticeType.THIRD_PARTY_COLLECTION_USE:
                rels.extend(Relation(pi, Role.DATA_COLLECTOR, f"party:{i}") for i in third
                            if res.parties[i].span.start < pr.span.start)
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


_ATTR_ROLE: dict[tuple[PracticeType | None, AttributeKind], Role] = {
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.RETENTION_PERIOD): Role.RETENTION_PERIOD,
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.STORAGE_PLACE): Role.STORAGE_PLACE,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.SECURITY_METHOD): Role.METHOD,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.PROTECT_AGAINST): Role.PROTECT_AGAINST,
    (None, AttributeKind.LEGAL_BASIS): Role.LEGAL_BASIS,
}


def _negated(text: str, sentence_start: int, trigger_start: int) -> bool:
    """A negation word among the four words before the trigger, in the same clause."""
    before = text[sentence_start:trigger_start]
    clause = re.split(r"[,;:]|\b(?:but|however|unless|except)\b", before)[-1]
    words = re.findall(r"n't|\w+", clause.lower().replace("’", "'"))[-4:]
    return any(w in _NEGATION for w in words)


def _duration(m: re.Match[str]) -> str | None:
    if m.group(1) and m.group(2):
        n = m.group(1).lower()
        count = int(n) if n.isdigit() else _NUMBERS.get(n)
        if count:
            return f"P{count}{_UNIT[m.group(2).lower()]}"
    return None
