"""Graph signals for the risk engine: what a site's policy declares, read once per site by SPARQL.

``load_profile`` runs the ``queries/risk-*.rq`` files for one site and keeps its practices as plain
tuples (data categories, purposes, recipient kinds, polarity, source line). ``Profile.likelihood``
then matches an action against them in Python, using the DPV hierarchy (``skos:broader``) for
broader/narrower categories and purposes, and memoises the answer per (category, purposes, recipients).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from pp_graph.resources import QUERIES
from pp_graph.risk.tables import RiskTables
from pp_graph.sites import site_host
from pp_graph.vocab.dpv import DPV, EU_GDPR, PD, PERSONAL_DATA, PURPOSE, Vocabulary

_KIND_PREFIX = "urn:pp-graph:ontology#recipient-"
FIRST_PARTY = "first_party"
UNKNOWN = "unknown"
# Practice types that state a data flow (security practices protect data; they declare no flow).
FLOW_LABELS = frozenset(
    {
        "first-party-collection-use",
        "third-party-collection-use",
        "third-party-sharing-disclosure",
        "data-storage-retention-deletion",
    }
)
# Declarations too broad to cover a specific category: DPV's containers that say how data was obtained
# ("personal information") and pd:'s abstract groupings. pd:Tracking matters most: the lexicon maps
# "cookies" to it, and it is an ancestor of pd:Contact and pd:Location, so "we use cookies for ads" must
# not count as declaring the e-mail address for ads.
GENERIC_DATA = frozenset(
    {
        PERSONAL_DATA,
        DPV + "CollectedPersonalData",
        DPV + "ObservedPersonalData",
        DPV + "ProvidedPersonalData",
        DPV + "DerivedPersonalData",
        DPV + "InferredPersonalData",
        DPV + "GeneratedPersonalData",
        DPV + "IdentifyingPersonalData",
        EU_GDPR + "PersonalData",
        PD + "Tracking",
        PD + "External",
        PD + "Internal",
        PD + "Social",
        PD + "Historical",
    }
)
EVIDENCE_PER_CATEGORY = 3
_TEXT_LIMIT = 400


class Store(Protocol):
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]: ...


@cache
def query_text(name: str) -> str:
    return (QUERIES / f"{name}.rq").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Practice:
    iri: str
    label: str
    negated: bool
    data: frozenset[str]
    purposes: frozenset[str]
    kinds: frozenset[str]  # recipient kinds, e.g. {"advertising", "unknown"}
    text: str | None
    start: int | None
    end: int | None


@dataclass(frozen=True, slots=True)
class Evidence:
    """A practice the decision rests on, with the policy line it was extracted from (policy text, not user data)."""

    category: str
    practice: str
    label: str
    negated: bool
    level: str
    text: str | None
    start: int | None
    end: int | None

    def to_dict(self) -> dict[str, Any]:
        text = self.text
        if text is not None and len(text) > _TEXT_LIMIT:
            text = text[: _TEXT_LIMIT - 1] + "…"
        return {
            "category": self.category,
            "practice": self.practice,
            "label": self.label,
            "negated": self.negated,
            "match": self.level,
            "text": text,
            "start": self.start,
            "end": self.end,
        }


@dataclass(frozen=True, slots=True)
class CategoryMatch:
    category: str
    level: str
    evidence: tuple[Evidence, ...]
    records: tuple[dict[str, Any], ...] = ()  # evidence as JSON dicts, built once (memoised; do not mutate)

    @classmethod
    def of(cls, category: str, level: str, evidence: tuple[Evidence, ...]) -> CategoryMatch:
        return cls(category, level, evidence, tuple(e.to_dict() for e in evidence))


@dataclass(eq=False)
class Profile:
    """One site's policy signals; immutable after loading, with a memo of matches."""

    site: str
    policies: tuple[str, ...]
    content_digests: tuple[str, ...]
    graph_digest: str
    characters: int
    practices: tuple[Practice, ...]
    legal_bases: frozenset[str]
    rights: frozenset[str]
    retention: tuple[str, ...]
    vocab: Vocabulary
    valid_from: str | None = None  # the dated version the profile is (None: undated graphs)
    versions: int = 1  # how many versions of the site the store holds
    by_data: dict[str, tuple[int, ...]] = field(init=False)  # flow-practice indexes per data concept
    declared_purposes: frozenset[str] = field(init=False)
    _described: dict[str, Any] = field(init=False)
    _memo: dict[tuple[str, tuple[str, ...], tuple[str, ...]], CategoryMatch] = field(default_factory=dict)
    _group_memo: dict[str, list[tuple[tuple[str, bool, frozenset[str], frozenset[str]], list[int]]]] = field(
        default_factory=dict
    )
    _cover_memo: dict[tuple[str, str], bool] = field(default_factory=dict)
    _side_memo: dict[tuple[str, str, tuple[str, ...]], list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        index: dict[str, list[int]] = {}
        purposes: set[str] = set()
        for i, p in enumerate(self.practices):
            if p.label not in FLOW_LABELS:
                continue
            for d in p.data:
                index.setdefault(d, []).append(i)
            if not p.negated:
                purposes.update(p.purposes)
        self.by_data = {k: tuple(v) for k, v in index.items()}
        self.declared_purposes = frozenset(purposes - {PURPOSE})
        self._described = {
            "site": self.site,
            "policies": list(self.policies),
            "content_digests": list(self.content_digests),
            "graph_digest": self.graph_digest,
            "practices": len(self.practices),
            **({"valid_from": self.valid_from, "versions": self.versions} if self.valid_from else {}),
        }

    @property
    def has_flows(self) -> bool:
        return bool(self.by_data)

    def describe(self) -> dict[str, Any]:
        """The policy the decision rests on (built once; shared by every decision record, do not mutate)."""
        return self._described

    # -- matching --

    def match(
        self, category: str, purposes: tuple[str, ...], recipients: tuple[str, ...], tables: RiskTables
    ) -> CategoryMatch:
        key = (category, purposes, recipients)
        m = self._memo.get(key)
        if m is None:
            m = self._match(category, purposes, recipients, tables)
            self._memo[key] = m
        return m

    def _groups(self, category: str) -> list[tuple[tuple[str, bool, frozenset[str], frozenset[str]], list[int]]]:
        """Flow practices about ``category`` (or a related concept), grouped by what matching looks at.

        Cached per category: a site has thousands of practices but few distinct (relation, polarity,
        purposes, recipient kinds) signatures, so a decision loops over signatures, not practices.
        """
        g = self._group_memo.get(category)
        if g is None:
            anc, desc = self.vocab.broader_closure(category), self.vocab.narrower_closure(category)
            groups: dict[tuple[str, bool, frozenset[str], frozenset[str]], list[int]] = {}
            for d in sorted(self.by_data.keys() & (anc | desc)):
                drel = (
                    "generic"
                    if d in GENERIC_DATA
                    else "exact"
                    if d == category
                    else "broader"
                    if d in anc
                    else "narrower"
                )
                for i in self.by_data[d]:
                    p = self.practices[i]
                    # "We never store X" does not say X is not received; only flow negations count.
                    if p.negated and p.label == "data-storage-retention-deletion":
                        continue
                    groups.setdefault((drel, p.negated, p.purposes, p.kinds), []).append(i)
            g = self._group_memo[category] = list(groups.items())
        return g

    def _match(
        self, category: str, purposes: tuple[str, ...], recipients: tuple[str, ...], tables: RiskTables
    ) -> CategoryMatch:
        if not self.has_flows:
            return CategoryMatch.of(category, "undecidable", ())
        rank = tables.likelihood
        positive: dict[str, list[int]] = {}
        neg_specific: list[int] = []
        neg_generic: list[int] = []
        groups = self._groups(category)
        # Purpose and recipient matches per group depend on only half of the key each: memoise them apart.
        pms = self._side_memo.get((category, "p", purposes))
        if pms is None:
            pms = self._side_memo[(category, "p", purposes)] = [
                _purpose_match(self.vocab, purposes, sig[2]) for sig, _ in groups
            ]
        rms = self._side_memo.get((category, "r", recipients))
        if rms is None:
            rms = self._side_memo[(category, "r", recipients)] = [
                _recipient_match(recipients, sig[3]) for sig, _ in groups
            ]
        for ((drel, negated, _, _), idx), pm, rm in zip(groups, pms, rms, strict=True):
            if negated:
                if pm == "none" or rm == "none":
                    continue
                (neg_specific if drel == "exact" and rm == "exact" else neg_generic).extend(idx)
                continue
            level = _practice_level(drel, pm, rm)
            if level is not None:
                positive.setdefault(level, []).extend(idx)
        best = min(positive, key=lambda lv: rank[lv][0]) if positive else None
        # Precedence: "we do not share X with Y" beats any declaration (fail closed on a contradiction); a
        # broad negation ("we do not collect personal data from children") is often conditional, so any
        # declaration for this purpose and recipient beats it, and it beats only a declaration elsewhere.
        if neg_specific:
            level, chosen = "negated", neg_specific
        elif best is not None and best != "category_only":
            level, chosen = best, positive[best]
        elif neg_generic:
            level, chosen = "negated_generic", neg_generic
        elif best is not None:
            level, chosen = best, positive[best]
        else:
            level, chosen = "undeclared", []
        ev = tuple(self._evidence(category, level, i) for i in sorted(set(chosen))[:EVIDENCE_PER_CATEGORY])
        return CategoryMatch.of(category, level, ev)

    def _evidence(self, category: str, level: str, i: int) -> Evidence:
        p = self.practices[i]
        return Evidence(category, p.iri, p.label, p.negated, level, p.text, p.start, p.end)

    # -- transparency --

    def covers_category(self, category: str) -> bool:
        """A non-negated flow practice names the category, a broader or a narrower pd: concept."""
        key = ("data", category)
        r = self._cover_memo.get(key)
        if r is None:
            related = (self.vocab.broader_closure(category) | self.vocab.narrower_closure(category)) - GENERIC_DATA
            r = any(not self.practices[i].negated for d in self.by_data.keys() & related for i in self.by_data[d])
            self._cover_memo[key] = r
        return r

    def covers_purpose(self, purpose: str) -> bool:
        key = ("purpose", purpose)
        r = self._cover_memo.get(key)
        if r is None:
            related = (self.vocab.broader_closure(purpose) | self.vocab.narrower_closure(purpose)) - {PURPOSE}
            r = self._cover_memo[key] = bool(self.declared_purposes & related)
        return r

    def credits(self, categories: Sequence[str], purposes: Sequence[str], substantial: int) -> list[str]:
        out = []
        if self.characters >= substantial:
            out.append("substantial_text")
        if categories and all(self.covers_category(c) for c in categories):
            out.append("covers_category")
        if purposes and all(self.covers_purpose(p) for p in purposes):
            out.append("covers_purpose")
        if self.legal_bases:
            out.append("legal_basis")
        if self.rights:
            out.append("user_rights")
        if self.retention:
            out.append("retention")
        return out


_PURPOSE_RANK = {"exact": 0, "broader": 1, "unstated": 2, "none": 3}
_RECIPIENT_RANK = {"exact": 0, "loose": 1, "none": 2}


def _purpose_match(vocab: Vocabulary, wanted: tuple[str, ...], declared: frozenset[str]) -> str:
    """Worst over the action's purposes of the best declared match (a broader declaration covers a narrower use)."""
    if not wanted:
        return "exact"
    declared = declared - {PURPOSE}
    if not declared:
        return "unstated"
    worst = "exact"
    for w in wanted:
        if w in declared:
            m = "exact"
        elif declared & (vocab.broader_closure(w) | vocab.narrower_closure(w)):
            m = "broader"
        else:
            return "none"
        if _PURPOSE_RANK[m] > _PURPOSE_RANK[worst]:
            worst = m
    return worst


def _recipient_match(wanted: tuple[str, ...], kinds: frozenset[str]) -> str:
    """exact: the kind is declared; loose: an unspecified third party covers a third-party kind (or vice versa)."""
    if not wanted:
        return "exact"
    worst = "exact"
    third = kinds - {FIRST_PARTY}
    for w in wanted:
        if w in kinds:
            m = "exact"
        elif (w != FIRST_PARTY and UNKNOWN in kinds) or (w == UNKNOWN and third):
            m = "loose"
        else:
            return "none"
        if _RECIPIENT_RANK[m] > _RECIPIENT_RANK[worst]:
            worst = m
    return worst


def _practice_level(drel: str, pm: str, rm: str) -> str | None:
    if pm == "none" or rm == "none":
        return None if drel == "generic" else "category_only"
    if drel == "generic":
        return "generic"
    if pm == "unstated":
        return "no_purpose"
    if drel == "exact" and pm == "exact" and rm == "exact":
        return "exact"
    if drel == "narrower":
        return "narrower"
    return "broader"


# -- loading --


def candidate_domains(site: str) -> list[str]:
    """'https://www.Gist.GitHub.com/x' → ['gist.github.com', 'github.com']: the site, then its parent domains."""
    s = site_host(site)  # the one normalisation convert --site uses too
    labels = [x for x in s.split(".") if x]
    return [".".join(labels[i:]) for i in range(max(1, len(labels) - 1))] if labels else []


def load_profile(store: Store, site: str, vocab: Vocabulary) -> Profile | None:
    """The site's policy signals from the store, or None when the graph holds no policy for it."""
    for domain in candidate_domains(site):
        prof = load_domain_profile(store, domain, vocab)
        if prof is not None:
            return prof
    return None


def load_domain_profile(store: Store, domain: str, vocab: Vocabulary, as_of: str | None = None) -> Profile | None:
    """The policy signals of exactly ``domain`` (no parent-domain fallback), or None.

    When the store holds dated versions of the site, only one version counts: the newest, or with ``as_of``
    (ISO 8601 UTC) the newest dated on or before it; merging versions would mix what the site says now with
    what it once said. Undated graphs count only for a site without dated versions (and never ``as_of``)."""
    rows = store.query(query_text("risk-site-policies"), {"domain": domain})
    dated = sorted({_iso(r["validFrom"]) for r in rows if r.get("validFrom")})
    if dated:
        chosen = [d for d in dated if as_of is None or d <= as_of]
        if not chosen:
            return None
        rows = [r for r in rows if r.get("validFrom") and _iso(r["validFrom"]) == chosen[-1]]
        return _profile(store, domain, rows, vocab, valid_from=chosen[-1], versions=len(dated))
    if as_of is not None:
        return None
    return _profile(store, domain, rows, vocab) if rows else None


def _iso(value: Any) -> str:
    """An xsd:dateTime as a store returns it (``+00:00`` or ``Z``) → ``YYYY-MM-DDTHH:MM:SSZ``."""
    v = str(value)
    return v[:-6] + "Z" if v.endswith("+00:00") else v


def _split(v: Any) -> frozenset[str]:
    """A GROUP_CONCAT column of risk-practices ('|'-separated IRIs; empty parts when a value is missing)."""
    return frozenset(x for x in str(v).split("|") if x) if v else frozenset()


def _profile(
    store: Store,
    domain: str,
    policy_rows: list[dict[str, Any]],
    vocab: Vocabulary,
    valid_from: str | None = None,
    versions: int = 1,
) -> Profile:
    policies = tuple(sorted({str(r["policy"]) for r in policy_rows}))
    digests = tuple(sorted({str(r["digest"]) for r in policy_rows if r.get("digest")}))
    chars = max((int(r["chars"]) for r in policy_rows if r.get("chars") is not None), default=0)
    practices: list[Practice] = []
    bases: set[str] = set()
    rights: set[str] = set()
    retention: set[str] = set()
    h = hashlib.sha256()
    for pol in policies:
        for r in store.query(query_text("risk-practices"), {"policy": pol}):
            kinds = frozenset(
                k[len(_KIND_PREFIX) :].replace("-", "_") for k in _split(r.get("kinds")) if k.startswith(_KIND_PREFIX)
            )
            if not kinds and r["label"] == "first-party-collection-use":
                kinds = frozenset({FIRST_PARTY})
            practices.append(
                Practice(
                    iri=str(r["practice"]),
                    label=str(r["label"]),
                    negated=bool(r.get("negated")),
                    data=_split(r.get("datas")),
                    purposes=_split(r.get("purposes")),
                    kinds=kinds,
                    text=r.get("text"),
                    start=r.get("start"),
                    end=r.get("end"),
                )
            )
        for r in store.query(query_text("risk-transparency"), {"policy": pol}):
            {"legal_basis": bases, "user_rights": rights, "retention": retention}[str(r["signal"])].add(str(r["value"]))
        h.update(pol.encode() + b"\n")
        h.update(_graph_digest(store.query(query_text("risk-graph-triples"), {"policy": pol})).encode())
    return Profile(
        site=domain,
        policies=policies,
        content_digests=digests,
        graph_digest=h.hexdigest(),
        characters=chars,
        practices=tuple(practices),
        legal_bases=frozenset(bases),
        rights=frozenset(rights),
        retention=tuple(sorted(retention)),
        vocab=vocab,
        valid_from=valid_from,
        versions=versions,
    )


def _graph_digest(rows: Iterable[dict[str, Any]]) -> str:
    """Order-independent hash of a graph's triples (as returned by the store)."""
    lines = sorted(f"{r['s']!r} {r['p']!r} {r['o']!r}" for r in rows)
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
