"""The offline extractor's rules as declared data (data/rules/offline.toml) and the trace of what they did.

Each rule has an id, a kind (candidate: makes a practice; veto: stops a trigger or drops a practice; promotion:
changes a reading; cue: the gate's scoring; mention: makes a data, purpose or party mention; link: ties a
mention to a practice), a scope (trigger window, sentence, heading, paragraph), the named
predicate that implements it or the patterns it reads, and examples it must and must not fire on (run as tests).
The engine runs the rules of a scope in their declared order. A Trace, when one is attached, records each rule
that fired, vetoed or changed something, with the offsets it acted on (see `pp-graph explain`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pp_graph.errors import DataFileError
from pp_graph.resources import DATA
from pp_graph.rulefiles import read_toml

RULES_FILE = DATA / "rules" / "offline.toml"
KINDS = ("candidate", "veto", "promotion", "cue", "mention", "link")
ENGINE_KINDS = KINDS[:4]  # the kinds that decide practices, run by the scopes' engines in declared order
SCOPES = ("trigger", "sentence", "heading", "paragraph")
CATEGORIES = ("first-party", "third-party", "retention", "security")  # what a cue rule scores
FEATURES = ("@base", "@inherited", "@third_party", "@concrete_data")  # a cue rule's non-pattern cues
# features a rule's predicate finds (a paragraph rule): a cue rule with a predicate reads one of these
PREDICATE_FEATURES = ("@passing_mention", "@replaced_party", "@out_of_scope")
_KEYS = {"id", "kind", "scope", "doc", "predicate", "patterns", "match", "no_match", "category", "weight", "cue"}


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str
    scope: str
    doc: str
    predicate: str = ""  # the function that implements it
    patterns: tuple[str, ...] = ()  # the expressions of the patterns package it reads
    match: tuple[str, ...] = ()  # policy texts it must fire on
    no_match: tuple[str, ...] = ()  # and must not
    category: str = ""  # a cue rule: the practice category it scores (or "all")
    weight: float = 0.0  # a cue rule: what it adds to the category's score when it matches
    cue: str = ""  # a cue rule: a case-insensitive regular expression, or a feature ("@base", "@third_party"…)


@dataclass(frozen=True)
class Event:
    rule: str
    action: str  # made | vetoed | changed | dropped | kept
    segment: int
    start: int
    end: int
    practice: str = ""
    why: str = ""


@dataclass
class Trace:
    """What the rules did, in order; attached to a backend only when asked for (explain, evaluation by rule)."""

    events: list[Event] = field(default_factory=list)

    def add(self, rule: str, action: str, segment: int, start: int, end: int, practice: str, why: str) -> None:
        self.events.append(Event(rule, action, segment, start, end, practice, why))


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise DataFileError(f"{where}: expected a list of non-empty strings")
    return tuple(value)


def load_rules(path: Path = RULES_FILE) -> tuple[Rule, ...]:
    """Read and validate the rule declarations: unique ids, known kinds and scopes, a positive example each."""
    doc = read_toml(path)
    rules: list[Rule] = []
    for n, raw in enumerate(doc.get("rule", []), 1):
        where = f"{path.name}: rule {n} ({raw.get('id', '?')})"
        unknown = set(raw) - _KEYS
        if unknown:
            raise DataFileError(f"{where}: unknown keys {sorted(unknown)}")
        if not all(isinstance(raw.get(k), str) and raw[k].strip() for k in ("id", "kind", "scope", "doc")):
            raise DataFileError(f"{where}: id, kind, scope and doc are required strings")
        if raw["kind"] not in KINDS or raw["scope"] not in SCOPES:
            raise DataFileError(f"{where}: kind must be one of {KINDS} and scope one of {SCOPES}")
        rule = Rule(
            raw["id"],
            raw["kind"],
            raw["scope"],
            raw["doc"],
            raw.get("predicate", ""),
            _strings(raw.get("patterns"), where),
            _strings(raw.get("match"), where),
            _strings(raw.get("no_match"), where),
            *_cue_fields(raw, where),
        )
        if not rule.match:
            raise DataFileError(f"{where}: a rule needs at least one example it fires on (match)")
        if any(r.id == rule.id for r in rules):
            raise DataFileError(f"{where}: id declared twice")
        rules.append(rule)
    _check_dropping_cues(rules, path.name)
    return tuple(rules)


def _check_dropping_cues(rules: list[Rule], name: str) -> None:
    """A cue a rule's predicate finds (the paragraph cues, veto.inherit.out-of-scope) drops the practice it
    scores only if its weight, the larger starting score (the sum of the @base or of the @inherited rules) and
    every positive cue that can score the same category cannot sum above zero (all positive cues are assumed to
    co-occur: a sentence can match them all)."""
    cues = [r for r in rules if r.kind == "cue" and r.cue]
    for para in (r for r in cues if r.cue in PREDICATE_FEATURES):
        for category in CATEGORIES if para.category == "all" else (para.category,):
            scoring = [r for r in cues if r.category in (category, "all") and r is not para]
            # the gate sums every base rule of the category and of "all" for the one base a practice starts from
            base = max(sum(r.weight for r in scoring if r.cue == b) for b in FEATURES[:2])
            positive = [r for r in scoring if r.cue not in FEATURES[:2] and r.weight > 0]
            worst = para.weight + base + sum(r.weight for r in positive)
            if worst > 0:
                raise DataFileError(
                    f"{name}: rule {para.id} (weight {para.weight:+g}) cannot drop a {category} practice: with the "
                    f"starting score {base:+g} and the positive cues {[r.id for r in positive]} it sums to "
                    f"{worst:+g}; lower its weight to <= {para.weight - worst:+g}"
                )


def _cue_fields(raw: dict[str, Any], where: str) -> tuple[str, float, str]:
    """A cue rule's category, weight and cue, checked (a regular expression must compile); others have none. A
    cue rule with a predicate (the gate itself, or a paragraph rule) has none or a feature its predicate finds."""
    fields = {k: raw[k] for k in ("category", "weight", "cue") if k in raw}
    if raw["kind"] != "cue" or (raw.get("predicate") and not fields):
        if fields:
            raise DataFileError(f"{where}: category, weight and cue belong to a cue rule")
        return "", 0.0, ""
    if bool(raw.get("predicate")) != (raw.get("cue") in PREDICATE_FEATURES):
        raise DataFileError(f"{where}: the features {list(PREDICATE_FEATURES)} are cues of a rule with a predicate")
    category, weight, cue = raw.get("category"), raw.get("weight"), raw.get("cue")
    if category not in (*CATEGORIES, "all"):
        raise DataFileError(f"{where}: category {category!r} is not one of {[*CATEGORIES, 'all']}")
    if isinstance(weight, bool) or not isinstance(weight, int | float):
        raise DataFileError(f"{where}: weight {weight!r} is not a number")
    if not isinstance(cue, str) or not cue:
        raise DataFileError(f"{where}: a cue rule needs a cue (a regular expression or a feature)")
    if cue.startswith("@"):
        if cue not in FEATURES + PREDICATE_FEATURES:
            raise DataFileError(f"{where}: unknown feature {cue!r}; known: {list(FEATURES + PREDICATE_FEATURES)}")
    else:
        try:
            re.compile(cue, re.I)
        except re.error as e:
            raise DataFileError(f"{where}: cue {cue!r} is not a valid regular expression ({e})") from e
    return category, float(weight), cue


@cache
def declared() -> tuple[Rule, ...]:
    return load_rules()


def rule_by_id() -> dict[str, Rule]:
    return {r.id: r for r in declared()}


F = TypeVar("F", bound=Callable[..., Any])


@cache
def _ordered(scope: str, ids: tuple[str, ...]) -> tuple[str, ...]:
    names = [r.id for r in declared() if r.scope == scope and r.predicate and r.kind in ENGINE_KINDS]
    missing, undeclared = set(ids) - set(names), set(names) - set(ids)
    if missing or undeclared:
        raise DataFileError(
            f"{RULES_FILE.name}: {scope} rules declared {sorted(undeclared)} without code, "
            f"code without a declaration {sorted(missing)}"
        )
    return tuple(names)


def ordered(scope: str, registry: Mapping[str, F]) -> list[tuple[str, F]]:
    """The registered rules of a scope in their declared order (each declared rule has code and vice versa)."""
    out = [(rid, registry[rid]) for rid in _ordered(scope, tuple(sorted(registry)))]
    by_id = rule_by_id()
    for rid, fn in out:
        if getattr(fn, "__name__", "") != by_id[rid].predicate:
            raise DataFileError(f"{RULES_FILE.name}: rule {rid}: predicate {by_id[rid].predicate!r} is not its code")
    return out


def phases(scope: str, registry: Mapping[str, F], inner: str) -> tuple[tuple[F, ...], tuple[F, ...]]:
    """A scope's rule functions in declared order, each once (several ids may share one function), split into
    those declared before the first rule of the ``inner`` scope (run before it) and those after."""
    order = [r.id for r in declared()]
    pivot = min(i for i, r in enumerate(declared()) if r.scope == inner)
    before: list[F] = []
    after: list[F] = []
    for rid, fn in ordered(scope, registry):
        if fn not in before and fn not in after:
            (before if order.index(rid) < pivot else after).append(fn)
    return tuple(before), tuple(after)


def register(registry: dict[str, F], *rule_ids: str) -> Callable[[F], F]:
    """A decorator registering a rule function under its declared id(s) in a scope's registry."""

    def deco(fn: F) -> F:
        for rid in rule_ids:
            if rid in registry:
                raise DataFileError(f"{RULES_FILE.name}: rule {rid}: two functions registered for one declared id")
            registry[rid] = fn
        return fn

    return deco
