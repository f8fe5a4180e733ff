"""Checklists as data: one file per law in data/laws/ (gdpr.toml, ccpa.toml …), found by a registry."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.comply.rules import rules
from pp_graph.errors import ConfigError, DataFileError
from pp_graph.graph.namespaces import PREFIXES
from pp_graph.resources import DATA
from pp_graph.rulefiles import dpv_concept, read_toml
from pp_graph.vocab.dpv import vocabulary

LAWS_DIR = DATA / "laws"


@dataclass(frozen=True, slots=True)
class Condition:
    """A fact of the policy graph: it addresses ``requirement``, or a value of ``path`` is within ``concepts``."""

    requirement: str | None = None
    path: tuple[str, ...] = ()  # full predicate IRIs, a sequence path from the policy node
    within: str | None = None  # the top concept (full IRI)
    concepts: frozenset[str] = frozenset()  # ``within`` and every concept below it


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    label: str
    article: str
    requirement: str  # transparency requirement id (ppg:gdpr-<id>) that decides the item
    applies_when: tuple[Condition, ...] = ()  # empty: always applies
    reason: str = ""  # why it does not apply, when no condition holds


@dataclass(frozen=True, slots=True)
class Law:
    id: str
    name: str
    jurisdiction: str
    measured: bool
    note: str
    items: tuple[Item, ...]


def _curie(term: str, where: str) -> str:
    prefix, sep, local = term.partition(":")
    if sep and prefix in PREFIXES:
        return str(PREFIXES[prefix]) + local
    raise DataFileError(f"{where}: {term!r} is not a CURIE with a known prefix")


def _condition(raw: dict[str, Any], where: str, known: set[str]) -> Condition:
    if "requirement" in raw:
        if raw["requirement"] not in known:
            raise DataFileError(f"{where}: unknown requirement {raw['requirement']!r}")
        return Condition(requirement=raw["requirement"])
    if not isinstance(raw.get("path"), str) or not isinstance(raw.get("within"), str):
        raise DataFileError(f"{where}: a condition is {{ requirement = ID }} or {{ path = P, within = CURIE }}")
    top = dpv_concept(raw["within"], where)
    path = tuple(_curie(p, where) for p in raw["path"].split("/"))
    return Condition(path=path, within=top, concepts=vocabulary().narrower_closure(top))


def _item(raw: dict[str, Any], where: str, known: set[str]) -> Item:
    for key in ("id", "label", "article", "requirement"):
        if not isinstance(raw.get(key), str):
            raise DataFileError(f"{where}: {key!r} is missing or not a string")
    if raw["requirement"] not in known:
        raise DataFileError(f"{where}: requirement {raw['requirement']!r} is not in the transparency rules")
    when = raw.get("applies_when")
    if when is None:
        return Item(raw["id"], raw["label"], raw["article"], raw["requirement"])
    if not isinstance(when.get("reason"), str) or not isinstance(when.get("any"), list) or not when["any"]:
        raise DataFileError(f"{where}: applies_when needs a reason and a non-empty list 'any'")
    conds = tuple(_condition(c, where, known) for c in when["any"])
    return Item(raw["id"], raw["label"], raw["article"], raw["requirement"], conds, when["reason"])


def load_law(path: Path) -> Law:
    raw = read_toml(path)
    known = {r.id for r in rules().requirements}
    items = tuple(_item(it, f"{path.name}: item {n}", known) for n, it in enumerate(raw.get("item", []), 1))
    if not items or len({i.id for i in items}) != len(items):
        raise DataFileError(f"{path.name}: needs items with distinct ids")
    for key in ("id", "name", "jurisdiction", "note"):
        if not isinstance(raw.get(key), str):
            raise DataFileError(f"{path.name}: {key!r} is missing or not a string")
    if raw["id"] != path.stem:
        raise DataFileError(f"{path.name}: id {raw['id']!r} must be the file name without .toml")
    return Law(raw["id"], raw["name"], raw["jurisdiction"], bool(raw.get("measured", False)), raw["note"], items)


def known_laws() -> list[str]:
    """The registry: every data/laws/*.toml, by id."""
    return sorted(p.stem for p in LAWS_DIR.glob("*.toml"))


@cache
def get_law(law_id: str) -> Law:
    """A law's checklist; ConfigError listing the known laws when there is no such law."""
    if law_id not in known_laws():
        raise ConfigError(f"unknown law {law_id!r}; known laws: {', '.join(known_laws())}")
    return load_law(LAWS_DIR / f"{law_id}.toml")
