"""AMRSF tables (data/risk/*.tsv), validated at load, with weights inherited down the DPV hierarchy.

Every table is keyed by DPV IRIs (or the paper's names for recipients and bases). A concept without a row
takes its nearest weighted ancestor's value along ``skos:broader``; where DPV is poly-hierarchical the
maximum over the parents (most severe tier) wins, so inheritance never makes a category look safer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TypeVar

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError, VocabularyError
from pp_graph.model import RecipientKind
from pp_graph.resources import DATA
from pp_graph.vocab.dpv import PERSONAL_DATA, PROCESSING, PURPOSE, Vocabulary, compact, expand, vocabulary

RISK_DIR = DATA / "risk"
TIERS = ("critical", "high", "moderate", "low")  # most severe first
LEVELS = (
    "exact",
    "broader",
    "narrower",
    "no_purpose",
    "generic",
    "undecidable",
    "category_only",
    "undeclared",
    "negated_generic",
    "negated",
    "no_policy",
)
CREDITS = ("substantial_text", "covers_category", "covers_purpose", "legal_basis", "user_rights", "retention")
PARAMS = (
    "m_tr_intercept",
    "m_tr_slope",
    "m_p_intercept",
    "m_p_slope",
    "s_none",
    "p_none",
    "tr_none",
    "m_b_default",
    "substantial_chars",
    "fast_u",
)

T = TypeVar("T")


def _rows(path: Path, min_cols: int) -> list[tuple[int, list[str]]]:
    out = []
    for n, parts, line in tsv_lines(path):
        if len(parts) < min_cols or not all(parts[:min_cols]):
            raise DataFileError(f"{path.name}:{n}: expected at least {min_cols} tab-separated fields, got {line!r}")
        out.append((n, parts))
    return out


def _unit(path: Path, n: int, s: str, hi: float = 1.0) -> float:
    try:
        v = float(s)
    except ValueError:
        raise DataFileError(f"{path.name}:{n}: {s!r} is not a number") from None
    if not 0.0 <= v <= hi:
        raise DataFileError(f"{path.name}:{n}: {v} is outside [0, {hi}]")
    return v


def _concept(path: Path, n: int, term: str, tops: tuple[str, ...], vocab: Vocabulary) -> str:
    try:
        iri = expand(term)
    except VocabularyError as e:
        raise DataFileError(f"{path.name}:{n}: {e}") from None
    if not any(vocab.in_scheme(iri, top) for top in tops):
        raise DataFileError(f"{path.name}:{n}: {term} is not a DPV concept under {' or '.join(map(compact, tops))}")
    return iri


def longest_first(terms: Iterable[str]) -> str:
    """A regex alternation of the terms, longest first (so "email address" wins over "email")."""
    return "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))


def term_table(path: Path) -> dict[str, str]:
    """A ``term<TAB>pd:concept`` file (lower-cased terms → personal-data IRIs); errors name the file and line."""
    vocab = vocabulary()
    table: dict[str, str] = {}
    for n, parts, line in tsv_lines(path):
        if len(parts) != 2 or not all(parts):
            raise DataFileError(f"{path.name}:{n}: expected 'term<TAB>concept', got {line!r}")
        table[parts[0].lower()] = _concept(path, n, parts[1], (PERSONAL_DATA,), vocab)
    return table


@dataclass(eq=False)
class Inherited:
    """A table keyed by DPV concepts whose values flow down ``skos:broader``; ``combine`` picks among parents."""

    vocab: Vocabulary
    rows: dict[str, float]
    default: float
    combine: Callable[[list[float]], float] = max
    _memo: dict[str, float] = field(default_factory=dict)
    _src_memo: dict[str, str | None] = field(default_factory=dict)

    def get(self, iri: str) -> float:
        v = self._memo.get(iri)
        if v is None:
            v = self._resolve(iri, set())
            self._memo[iri] = v
        return v

    def _resolve(self, iri: str, path: set[str]) -> float:
        if iri in self.rows:
            return self.rows[iri]
        if iri in self._memo:
            return self._memo[iri]
        path.add(iri)  # the current chain only: DPV is a DAG, but a cycle must not recurse forever
        parents = [b for b in self.vocab.broader.get(iri, ()) if b not in path]
        v = self.combine([self._resolve(b, path) for b in parents]) if parents else self.default
        path.discard(iri)
        self._memo[iri] = v
        return v

    def source(self, iri: str) -> str | None:
        """The concept whose row gave ``iri`` its value (itself, or the ancestor chosen by ``combine``)."""
        if iri not in self._src_memo:
            self._src_memo[iri] = self._source(iri, frozenset())
        return self._src_memo[iri]

    def _source(self, iri: str, _path: frozenset[str]) -> str | None:
        if iri in self.rows:
            return iri
        want = self.get(iri)
        for b in sorted(self.vocab.broader.get(iri, ())):
            if b not in _path and self.get(b) == want:
                found = self._source(b, _path | {iri})
                if found is not None:
                    return found
        return None


@dataclass(frozen=True)
class Thresholds:
    allow: float  # tau_a: allow below
    deny: float  # tau_d: deny from


@dataclass(eq=False)
class RiskTables:
    vocab: Vocabulary
    data_weight: Inherited
    data_tier: Inherited  # value = index into TIERS (lower = more severe); combine = min
    purpose_weight: Inherited
    operation_tr: Inherited
    extra_purposes: frozenset[str]  # purpose terms outside dpv:Purpose that the table accepts (dpv:Profiling)
    recipient_tr: dict[str, float]
    basis_mb: dict[str, float]
    thresholds: dict[str, dict[str, Thresholds]]  # profile → tier → thresholds
    transparency: dict[str, float]
    likelihood: dict[str, tuple[float, float]]  # level → (L, u)
    params: dict[str, float]
    digest: str
    credentials: tuple[str, int] = ("", 0)  # (concept IRI whose descendants never leave, rules.tsv line)
    bulk: tuple[tuple[int, str, int], ...] = ()  # (min spans, tier, rules.tsv line), largest first

    def tier(self, iri: str) -> str:
        return TIERS[int(self.data_tier.get(iri))]


def _keyed(path: Path, tops: tuple[str, ...], vocab: Vocabulary, value: Callable[[int, str], T]) -> dict[str, T]:
    out: dict[str, T] = {}
    for n, parts in _rows(path, 2):
        iri = _concept(path, n, parts[0], tops, vocab)
        if iri in out:
            raise DataFileError(f"{path.name}:{n}: {parts[0]} appears twice")
        out[iri] = value(n, parts[1])
    return out


def _named(path: Path, names: Mapping[str, object] | None = None, hi: float = 1.0) -> dict[str, float]:
    out: dict[str, float] = {}
    for n, parts in _rows(path, 2):
        if names is not None and parts[0] not in names:
            raise DataFileError(f"{path.name}:{n}: {parts[0]!r} is not one of {', '.join(names)}")
        if parts[0] in out:
            raise DataFileError(f"{path.name}:{n}: {parts[0]!r} appears twice")
        out[parts[0]] = _unit(path, n, parts[1], hi)
    return out


def load_tables(directory: Path = RISK_DIR) -> RiskTables:
    """Read and validate every table; raises DataFileError naming the file, line and problem."""
    vocab = vocabulary()
    d = directory
    weights, tiers = _data_tables(d, vocab)
    pweights = _keyed(
        d / "purpose_weights.tsv", (PURPOSE, PROCESSING), vocab, lambda n, s: _unit(d / "purpose_weights.tsv", n, s)
    )
    if PURPOSE not in pweights:
        raise DataFileError("purpose_weights.tsv: needs a row for dpv:Purpose (the unmatched-purpose weight)")
    extra = frozenset(i for i in pweights if not vocab.in_scheme(i, PURPOSE))
    ops = _keyed(d / "operations.tsv", (PROCESSING,), vocab, lambda n, s: _unit(d / "operations.tsv", n, s))

    recipients = _named(d / "recipients.tsv", {k.value: k for k in RecipientKind})
    missing = {k.value for k in RecipientKind} - set(recipients)
    if missing:
        raise DataFileError(f"recipients.tsv: no row for {', '.join(sorted(missing))}")
    bases = _named(d / "bases.tsv", hi=2.0)
    thresholds = _thresholds(d / "thresholds.tsv")
    transparency = _named(d / "transparency.tsv", {k: 1 for k in ("base", "floor", *CREDITS)}, hi=2.0)
    if set(transparency) != {"base", "floor", *CREDITS}:
        raise DataFileError(f"transparency.tsv: needs rows base, floor, {', '.join(CREDITS)}")
    likelihood = _likelihood(d / "likelihood.tsv")
    params = _named(d / "params.tsv", {k: 1 for k in PARAMS}, hi=1000.0)
    if set(params) != set(PARAMS):
        raise DataFileError(f"params.tsv: no row for {', '.join(sorted(set(PARAMS) - set(params)))}")
    credentials, bulk = _rules(d / "rules.tsv", vocab)
    return RiskTables(
        vocab=vocab,
        data_weight=Inherited(vocab, weights, weights[PERSONAL_DATA], max),
        data_tier=Inherited(vocab, tiers, tiers[PERSONAL_DATA], min),
        purpose_weight=Inherited(vocab, pweights, pweights[PURPOSE], max),
        operation_tr=Inherited(vocab, ops, params["tr_none"], max),
        extra_purposes=extra,
        recipient_tr=recipients,
        basis_mb=bases,
        thresholds=thresholds,
        transparency=transparency,
        likelihood=likelihood,
        params=params,
        digest=_tables_digest(d),
        credentials=credentials,
        bulk=bulk,
    )


def _data_tables(d: Path, vocab: Vocabulary) -> tuple[dict[str, float], dict[str, float]]:
    """data_weights.tsv and data_tiers.tsv (a tier as its index in TIERS), each with its dpv:PersonalData row."""
    weights = _keyed(d / "data_weights.tsv", (PERSONAL_DATA,), vocab, lambda n, s: _unit(d / "data_weights.tsv", n, s))
    if PERSONAL_DATA not in weights:
        raise DataFileError("data_weights.tsv: needs a row for dpv:PersonalData (the unknown-category weight)")

    def tier_index(n: int, s: str) -> float:
        if s not in TIERS:
            raise DataFileError(f"data_tiers.tsv:{n}: tier {s!r} is not one of {', '.join(TIERS)}")
        return float(TIERS.index(s))

    tiers = _keyed(d / "data_tiers.tsv", (PERSONAL_DATA,), vocab, tier_index)
    if PERSONAL_DATA not in tiers:
        raise DataFileError("data_tiers.tsv: needs a row for dpv:PersonalData (the unknown-category tier)")
    return weights, tiers


def _thresholds(tpath: Path) -> dict[str, dict[str, Thresholds]]:
    """thresholds.tsv: per profile, the allow / deny thresholds of every tier."""
    thresholds: dict[str, dict[str, Thresholds]] = {}
    for n, parts in _rows(tpath, 4):
        profile, tier = parts[0], parts[1]
        if tier not in TIERS:
            raise DataFileError(f"thresholds.tsv:{n}: tier {tier!r} is not one of {', '.join(TIERS)}")
        a, b = _unit(tpath, n, parts[2]), _unit(tpath, n, parts[3])
        if not a < b:
            raise DataFileError(f"thresholds.tsv:{n}: tau_a {a} must be below tau_d {b}")
        thresholds.setdefault(profile, {})[tier] = Thresholds(a, b)
    for profile, per in thresholds.items():
        if set(per) != set(TIERS):
            raise DataFileError(f"thresholds.tsv: profile {profile!r} lacks tiers {sorted(set(TIERS) - set(per))}")
    return thresholds


def _likelihood(lpath: Path) -> dict[str, tuple[float, float]]:
    """likelihood.tsv: the two numbers of every likelihood level."""
    likelihood: dict[str, tuple[float, float]] = {}
    for n, parts in _rows(lpath, 3):
        if parts[0] not in LEVELS:
            raise DataFileError(f"likelihood.tsv:{n}: level {parts[0]!r} is not one of {', '.join(LEVELS)}")
        likelihood[parts[0]] = (_unit(lpath, n, parts[1]), _unit(lpath, n, parts[2]))
    if set(likelihood) != set(LEVELS):
        raise DataFileError(f"likelihood.tsv: no row for {', '.join(sorted(set(LEVELS) - set(likelihood)))}")
    return likelihood


def _tables_digest(d: Path) -> str:
    """The first 16 hex digits of a SHA-256 over every table's name and bytes (decision records carry it)."""
    import hashlib

    h = hashlib.sha256()
    for p in sorted(d.glob("*.tsv")):
        h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


def _rules(path: Path, vocab: Vocabulary) -> tuple[tuple[str, int], tuple[tuple[int, str, int], ...]]:
    credentials: tuple[str, int] | None = None
    bulk: list[tuple[int, str, int]] = []
    for n, parts in _rows(path, 3):
        name, param, effect = parts[:3]
        if name == "credentials_never_leave":
            if effect != "deny":
                raise DataFileError(f"{path.name}:{n}: credentials_never_leave can only deny")
            credentials = (_concept(path, n, param, (PERSONAL_DATA,), vocab), n)
        elif name.startswith("bulk_"):
            if effect not in TIERS or not param.isdigit() or int(param) < 1:
                raise DataFileError(f"{path.name}:{n}: expected a positive count and a tier, got {param!r} {effect!r}")
            bulk.append((int(param), effect, n))
        else:
            raise DataFileError(f"{path.name}:{n}: unknown rule {name!r}")
    if credentials is None:
        raise DataFileError(f"{path.name}: needs the credentials_never_leave rule")
    return credentials, tuple(sorted(bulk, reverse=True))


@cache
def default_tables() -> RiskTables:
    return load_tables()
