"""The transparency rules: a validated data file (data/rules/gdpr-transparency.toml)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.errors import DataFileError
from pp_graph.resources import DATA
from pp_graph.rulefiles import dpv_concept as _concept  # (the shared loader's helpers under this file's old names)
from pp_graph.rulefiles import need as _need
from pp_graph.rulefiles import parse_toml, read_bytes, unique_ids, versioned
from pp_graph.rulefiles import pattern as _pattern
from pp_graph.rulefiles import strings as _strings

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


def _keywords(words: list[str], where: str) -> re.Pattern[str] | None:
    if not all(isinstance(w, str) and w for w in words):
        raise DataFileError(f"{where}: keywords must be non-empty strings")
    return re.compile("|".join(re.escape(w.lower()) for w in words)) if words else None


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
    raw = parse_toml(raw_bytes, name)
    neg = _need(raw, "negation", dict, name)
    negation = Negation(
        window=_need(neg, "window", int, name),
        cues=_pattern("|".join(_need(neg, "cues", list, name)), name),
        exceptions=_pattern("|".join(_need(neg, "exceptions", list, name)), name),
    )
    reqs = tuple(_requirement(r, n) for n, r in enumerate(_need(raw, "requirement", list, name), 1))
    unique_ids([r.id for r in reqs], name, "requirement")
    return RuleSet(versioned(_need(raw, "version", str, name), raw_bytes), negation, reqs)


def load_rules(path: Path = RULES_FILE) -> RuleSet:
    return parse_rules(read_bytes(path), path.name)


@cache
def rules() -> RuleSet:
    """The packaged rule set (loaded and validated once per process)."""
    return load_rules()
