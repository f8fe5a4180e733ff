"""How much a change between two policy versions matters: low, medium or high, by rules in a data file
(data/versions/severity.toml), so that CI can fail on what matters (pp-graph diff --fail-on high)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from pp_graph.errors import ConfigError, DataFileError
from pp_graph.resources import DATA
from pp_graph.rulefiles import read_toml
from pp_graph.vocab.dpv import vocabulary

SEVERITY_FILE = DATA / "versions" / "severity.toml"
LEVELS = ("low", "medium", "high")
SPECIAL = "https://w3id.org/dpv#SpecialCategoryPersonalData"
_FIELDS = {"kind", "negated", "types", "special", "lengthened", "level", "why"}
_DURATION = re.compile(r"^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T.*)?$")


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str
    level: str
    why: str
    negated: bool | None = None
    types: tuple[str, ...] = ()
    special: bool | None = None
    lengthened: bool | None = None


def _rule(raw: dict[str, Any], n: int) -> Rule:
    where = f"{SEVERITY_FILE.name}: rule {n}"
    if set(raw) - _FIELDS:
        raise DataFileError(f"{where}: unknown fields {sorted(set(raw) - _FIELDS)}")
    if not isinstance(raw.get("kind"), str) or raw.get("level") not in LEVELS or not isinstance(raw.get("why"), str):
        raise DataFileError(f"{where}: needs kind, why and a level in {LEVELS}")
    return Rule(
        raw["kind"], raw["level"], raw["why"], raw.get("negated"), tuple(raw.get("types", ())),
        raw.get("special"), raw.get("lengthened"),
    )  # fmt: skip


@cache
def severity_rules() -> tuple[Rule, ...]:
    raw = read_toml(SEVERITY_FILE)
    return tuple(_rule(r, n) for n, r in enumerate(raw.get("rule", []), 1))


def _days(duration: str) -> float:
    """An xsd:duration as approximate days (years 365, months 30); unknown forms count as 0."""
    m = _DURATION.match(duration)
    if not m:
        return 0.0
    y, mo, w, d = (int(x) if x else 0 for x in m.groups())
    return y * 365 + mo * 30 + w * 7 + d


def _matches(r: Rule, kind: str, type_: str | None, data: str | None, details: dict[str, Any]) -> bool:
    if r.kind != kind or (r.types and type_ not in r.types):
        return False
    negated = details.get("negated", details.get("negated_after"))
    if r.negated is not None and negated != r.negated:
        return False
    if r.special is not None and (data is not None and data in vocabulary().narrower_closure(SPECIAL)) != r.special:
        return False
    if r.lengthened is not None:
        longer = max(map(_days, details.get("to", [])), default=0) > max(map(_days, details.get("from", [])), default=0)
        return longer == r.lengthened
    return True


def severity(kind: str, type_: str | None, data: str | None, details: dict[str, Any]) -> tuple[str, str]:
    """(level, reason) of one change; "medium" when no rule matches."""
    for r in severity_rules():
        if _matches(r, kind, type_, data, details):
            return r.level, r.why
    return "medium", "no severity rule for this kind of change"


def at_least(level: str, threshold: str) -> bool:
    if threshold not in LEVELS:
        raise ConfigError(f"unknown severity {threshold!r}; choose one of: {', '.join(LEVELS)}")
    return LEVELS.index(level) >= LEVELS.index(threshold)
