"""Typed records that flow between layers: policy → segments → stage outputs → practices.

Offsets are always character offsets into ``Policy.text`` (the policy's text after loading; for
HTML that is the extracted text). ``Policy.text[span.start:span.end] == span.text`` is an invariant,
checked by :func:`Span.check`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum

from pp_graph.errors import GroundingError


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    text: str

    def matches(self, source: str) -> bool:
        return 0 <= self.start < self.end <= len(source) and source[self.start : self.end] == self.text

    def check(self, source: str) -> None:
        if not self.matches(source):
            raise GroundingError(f"span {self.start}-{self.end} {self.text!r} does not match the source text")

    @classmethod
    def at(cls, source: str, start: int, end: int) -> Span:
        return cls(start, end, source[start:end])


@dataclass(frozen=True, slots=True)
class Policy:
    """One privacy policy: its site (domain), its text and where it came from."""

    site: str
    text: str
    source_name: str  # file name only, never a machine path
    media_type: str  # text/plain, text/markdown, text/html
    valid_from: str | None = None  # a dated version: when it came into force (ISO 8601 UTC)
    digest: str = field(init=False, compare=False)  # sha256 of the text, computed once

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", hashlib.sha256(self.text.encode("utf-8")).hexdigest())


@dataclass(frozen=True, slots=True)
class Segment:
    """One unit of meaning of the policy (a paragraph, list item, heading or table row; Pr2Graph's unit), with
    the section it sits in. ``Policy.text[start:end] == text``: the unit's source lines whole, line breaks and
    markup as written (the extractor read them joined and without markup: see pp_graph.load.reading)."""

    index: int
    start: int
    end: int
    text: str
    heading_path: tuple[str, ...] = ()
    is_heading: bool = False


class PartyKind(StrEnum):
    FIRST_PARTY = "first_party"
    THIRD_PARTY = "third_party"
    USER = "user"


class RecipientKind(StrEnum):
    """The risk controller's recipient categories (AMRSF); also used to type third parties."""

    FIRST_PARTY = "first_party"
    SERVICE_PROVIDER = "service_provider"
    ANALYTICS = "analytics"
    GOVERNMENT = "government"
    SOCIAL_MEDIA = "social_media"
    UNKNOWN = "unknown"
    ADVERTISING = "advertising"
    DATA_BROKER = "data_broker"


class PracticeType(StrEnum):
    """Policy-IE practice labels (Pr2Graph stage 6), then the OPP-115 categories pp-graph adds: what the policy
    says about the reader's choices, its own changes, Do Not Track and specific audiences (statements.toml)."""

    FIRST_PARTY_COLLECTION_USE = "first-party-collection-use"
    THIRD_PARTY_COLLECTION_USE = "third-party-collection-use"
    THIRD_PARTY_SHARING_DISCLOSURE = "third-party-sharing-disclosure"
    DATA_STORAGE_RETENTION_DELETION = "data-storage-retention-deletion"
    DATA_SECURITY_PROTECTION = "data-security-protection"
    USER_CHOICE_CONTROL = "user-choice-control"
    POLICY_CHANGE = "policy-change"
    DO_NOT_TRACK = "do-not-track"  # negated: the site does not honour Do Not Track signals
    SPECIFIC_AUDIENCE = "specific-audience"


class AttributeKind(StrEnum):
    """Practice details that are spans but not entities of their own."""

    RETENTION_PERIOD = "retention_period"
    STORAGE_PLACE = "storage_place"
    SECURITY_METHOD = "security_method"
    PROTECT_AGAINST = "protect_against"
    LEGAL_BASIS = "legal_basis"
    USER_RIGHT = "user_right"
    CONDITION = "condition"
    # statement details (data/rules/statements.toml): value is the detail's code, concept its DPV term if any
    CHOICE_SCOPE = "choice_scope"
    CHOICE_MECHANISM = "choice_mechanism"
    NOTIFICATION_MEANS = "notification_means"
    AUDIENCE = "audience"
    AGE_LIMIT = "age_limit"
    TRANSFER_SAFEGUARD = "transfer_safeguard"


class Role(StrEnum):
    """Relation roles (Policy-IE), practice → entity."""

    DATA_COLLECTOR = "Data-Collector"
    DATA_PROVIDER = "Data-Provider"
    DATA_COLLECTED = "Data-Collected"
    PURPOSE_ARGUMENT = "Purpose-Argument"
    DATA_RECEIVER = "Data-Receiver"
    DATA_SHARER = "Data-Sharer"
    DATA_SHARED = "Data-Shared"
    DATA_HOLDER = "Data-Holder"
    DATA_RETAINED = "Data-Retained"
    STORAGE_PLACE = "Storage-Place"
    RETENTION_PERIOD = "Retention-Period"
    DATA_PROTECTOR = "Data-Protector"
    DATA_PROTECTED = "Data-Protected"
    PROTECT_AGAINST = "protect-against"
    METHOD = "method"
    LEGAL_BASIS = "Legal-Basis"
    CONDITION = "Condition-Argument"
    CHOICE_SCOPE = "Choice-Scope"
    CHOICE_MECHANISM = "Choice-Mechanism"
    NOTIFICATION_MEANS = "Notification-Means"
    AUDIENCE = "Audience"
    AGE_LIMIT = "Age-Limit"
    TRANSFER_SAFEGUARD = "Transfer-Safeguard"


# ---- stage outputs (one per Pr2Graph stage; each item is grounded by a span) ----


@dataclass(frozen=True, slots=True)
class ClassifiedSpan:
    """A span with the vocabulary concept it names (``concept`` is a full IRI, or None if unresolved)."""

    span: Span
    concept: str | None
    # ids of the extractor rules that made it and tied it to a practice (data/rules/offline.toml); not identity
    rules: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class PartyMention:
    span: Span
    kind: PartyKind
    recipient_kind: RecipientKind
    name: str  # normalised name used to reuse one party node per policy
    rules: tuple[str, ...] = field(default=(), compare=False)  # as for ClassifiedSpan


@dataclass(frozen=True, slots=True)
class PracticeMention:
    span: Span  # the trigger ("collect", "share with", "retain")
    type: PracticeType
    negated: bool = False
    inherited: bool = False  # the type came from the heading or a lead-in line, not from this line
    # ids of the extractor rules that made or changed it (see data/rules/offline.toml); not part of its identity
    rules: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class AttributeMention:
    span: Span
    kind: AttributeKind
    concept: str | None = None  # e.g. dpv:Consent for a legal basis, a right IRI, an xsd:duration for a period
    value: str | None = None  # normalised: xsd:duration of a period, region code of a place, a detail's code


@dataclass(frozen=True, slots=True)
class Relation:
    """practice → entity with a role; ids are positions in the segment's stage outputs, given by the code."""

    practice: int
    role: Role
    entity: str  # "data:3", "purpose:0", "party:1", "attr:2"


@dataclass(frozen=True, slots=True)
class RequirementMention:
    """A span that addresses a transparency requirement (GDPR Art. 13/14), affirmed or denied."""

    span: Span
    requirement: str  # the requirement's id in data/rules/gdpr-transparency.toml, e.g. "third-country-transfers"
    performed: bool  # False when the text denies it ("we do not transfer your data outside the EEA")
    rule: str  # id of the rule (or fact) that found it
    concepts: tuple[str, ...] = ()  # DPV / eu-gdpr IRIs it is linked to
    score: float | None = None  # a learned layer's score (convert --gdpr-model); None for the rules' statements
    model: str = ""  # digest of the learned model that found it ("" for the rules)
    source: Provenance | None = None  # the model run that found it (the LLM transparency stage); None for the rules


@dataclass(frozen=True, slots=True)
class InferredClass:
    """A class a trained classifier gave a whole segment: no span, so not a mention (see pp_graph.extract.learned)."""

    kind: str  # "practice" | "data" | "purpose"
    concept: str  # a PracticeType value for practices, a DPV IRI for data and purposes
    score: float  # the classifier's score in (0, 1) (a squashed SVM margin, not a calibrated probability), rounded
    model: str  # digest of the model that decided it


@dataclass(slots=True)
class SegmentExtraction:
    """Everything the stages found in one segment."""

    segment: Segment
    data: list[ClassifiedSpan] = field(default_factory=list)
    purposes: list[ClassifiedSpan] = field(default_factory=list)
    parties: list[PartyMention] = field(default_factory=list)
    practices: list[PracticeMention] = field(default_factory=list)
    attributes: list[AttributeMention] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    rejected: dict[str, int] = field(default_factory=dict)  # stage → items rejected (ungrounded, unknown label…)
    inferred: list[InferredClass] = field(default_factory=list)  # only with a learned model (convert --model DIR)
    requirements: list[RequirementMention] = field(default_factory=list)  # transparency stage (pp_graph.comply)

    def reject(self, stage: str, n: int = 1) -> None:
        self.rejected[stage] = self.rejected.get(stage, 0) + n


@dataclass(frozen=True, slots=True)
class Provenance:
    extractor: str  # "offline" or "llm"
    model: str  # rule-set version for offline, model name for llm
    prompt_version: str  # content hash of the lexicons/prompts used
    vocabulary: str = ""  # content hash of the DPV files the concepts were checked against
    software: str = ""  # pp-graph package version
    segmenter: str = ""  # how the text was cut into segments (pp_graph.load.reading.VERSION)


@dataclass(frozen=True, slots=True)
class Language:
    """The language a policy's text looks written in (pp_graph.load.language)."""

    code: str  # ISO 639 code as the identification model names it ("en", "de", "fr")
    confidence: float  # the model's probability for it, rounded to 2 places
    confident: bool  # enough letters were read and the probability is high enough to act on


@dataclass(slots=True)
class PolicyExtraction:
    policy: Policy
    segments: list[Segment]
    results: list[SegmentExtraction]
    provenance: Provenance
    stats: dict[str, float] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)  # what the reading could not recover (see load.reading)
    stages: tuple[str, ...] = ()  # the stages that ran (the graph says what was looked for, e.g. transparency)
    language: Language | None = None  # detected from the reading (None: no letters to read)

    def check_grounding(self) -> None:
        """Raise GroundingError if any span does not equal the policy text at its offsets."""
        text = self.policy.text
        for r in self.results:
            items: list[ClassifiedSpan | PartyMention | PracticeMention | AttributeMention | RequirementMention] = [
                *r.data,
                *r.purposes,
                *r.parties,
                *r.practices,
                *r.attributes,
                *r.requirements,
            ]
            for item in items:
                item.span.check(text)
