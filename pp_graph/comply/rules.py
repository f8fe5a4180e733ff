"""The transparency rules: a validated data file (data/rules/gdpr-transparency.toml)."""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.errors import DataFileError, VocabularyError
from pp_graph.resources import DATA
from pp_graph.vocab.dpv import expand, vocabulary

RULES_FILE = DATA / "rules" / "gdpr-transparency.toml"
FACT_KINDS = ("data", "purpose", "third-party", "retention", "legal-basis", "right")


@dataclass(frozen=True, slots=True)
class Example:
    text: str
    found: bool
    performed: bool | None = None


@dataclass(frozen=True, slots=True)
class Requirement:
    id: str
    label: str
    article: str
    concepts: tuple[str, ...]  # full IRIs
    facts: tuple[str, ...]  # "data", "legal-basis:<IRI>", "right:<IRI>" …
    fact_exclude: frozenset[str]  # concepts whose facts do not count (too generic: dpv:PersonalData …)
    fact_veto: re.Pattern[str] | None  # a line it matches gets no statement from the facts (cues still count)
    cues: tuple[re.Pattern[str], ...]
    keywords: re.Pattern[str] | None  # prefilter of the cues (lower-cased line): without a match, no cue is tried
    negatable: bool
    headings: bool  # whether a heading line alone addresses it ("Automated decision-making and profiling")
    examples: tuple[Example, ...]


@dataclass(frozen=True, slots=True)
class Negation:
    window: int
    cues: re.Pattern[str]
    exceptions: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class RuleSet:
    version: str  # "<version>+<content digest>": what a graph records, so a changed rule file shows
    negation: Negation
    requirements: tuple[Requirement, ...]

    def get(self, rid: str) -> Requirement:
        for r in self.requirements:
            if r.id == rid:
                return r
        raise KeyError(rid)


def _need(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind):
        raise DataFileError(f"{where}: {key!r} is missing or not a {kind.__name__}")
    return value


def _pattern(text: str, where: str) -> re.Pattern[str]:
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as e:
        raise DataFileError(f"{where}: pattern {text!r} is not a valid regular expression ({e})") from e


def _strings(raw: dict[str, Any], key: str, where: str) -> list[str]:
    values = raw.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise DataFileError(f"{where}: {key!r} must be a list of non-empty strings")
    return values


def _keywords(words: list[str], where: str) -> re.Pattern[str] | None:
    if not all(isinstance(w, str) and w for w in words):
        raise DataFileError(f"{where}: keywords must be non-empty strings")
    return re.compile("|".join(re.escape(w.lower()) for w in words)) if words else None


def _concept(term: str, where: str) -> str:
    try:
        iri = expand(term)
    except VocabularyError as e:
        raise DataFileError(f"{where}: {term!r} is not a DPV term ({e})") from e
    if iri not in vocabulary().labels:
        raise DataFileError(f"{where}: concept {term!r} is not defined in the vendored DPV")
    return iri


def _fact(term: str, where: str) -> str:
    kind, _, concept = term.partition(":")
    if kind not in FACT_KINDS or (kind == "right" and not concept):
        raise DataFileError(f"{where}: fact {term!r} is not one of {', '.join(FACT_KINDS)} (right:CURIE)")
    return f"{kind}:{_concept(concept, where)}" if concept else kind


def _requirement(raw: dict[str, Any], n: int) -> Requirement:
    where = f"{RULES_FILE.name}: requirement {n} ({raw.get('id', '?')})"
    examples = []
    for e in raw.get("examples", []):
        found = _need(e, "found", bool, where)
        performed = e.get("performed")
        examples.append(Example(_need(e, "text", str, where), found, performed if found else None))
    return Requirement(
        id=_need(raw, "id", str, where),
        label=_need(raw, "label", str, where),
        article=_need(raw, "article", str, where),
        concepts=tuple(_concept(c, where) for c in _need(raw, "concepts", list, where)),
        facts=tuple(_fact(f, where) for f in _need(raw, "facts", list, where)),
        fact_exclude=frozenset(_concept(c, where) for c in raw.get("fact_exclude", [])),
        fact_veto=_pattern("|".join(_strings(raw, "fact_veto", where)), where) if raw.get("fact_veto") else None,
        cues=tuple(_pattern(c, where) for c in _need(raw, "cues", list, where)),
        keywords=_keywords(raw.get("keywords", []), where),
        negatable=_need(raw, "negatable", bool, where),
        headings=bool(raw.get("headings", False)),
        examples=tuple(examples),
    )


def parse_rules(raw_bytes: bytes, name: str = RULES_FILE.name) -> RuleSet:
    try:
        raw = tomllib.loads(raw_bytes.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise DataFileError(f"{name}: not valid TOML ({e})") from e
    neg = _need(raw, "negation", dict, name)
    negation = Negation(
        window=_need(neg, "window", int, name),
        cues=_pattern("|".join(_need(neg, "cues", list, name)), name),
        exceptions=_pattern("|".join(_need(neg, "exceptions", list, name)), name),
    )
    reqs = tuple(_requirement(r, n) for n, r in enumerate(_need(raw, "requirement", list, name), 1))
    ids = [r.id for r in reqs]
    if len(set(ids)) != len(ids):
        raise DataFileError(f"{name}: requirement ids repeat")
    digest = hashlib.sha256(raw_bytes).hexdigest()[:12]
    return RuleSet(f"{_need(raw, 'version', str, name)}+{digest}", negation, reqs)


def load_rules(path: Path = RULES_FILE) -> RuleSet:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DataFileError(f"{path.name}: cannot be read ({e.strerror})") from e
    return parse_rules(data, path.name)


@cache
def rules() -> RuleSet:
    """The packaged rule set (loaded and validated once per process)."""
    return load_rules()
