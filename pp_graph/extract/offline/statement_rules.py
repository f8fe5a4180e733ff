"""The statement rules (data/rules/statements.toml): parsed, validated and matched against one sentence.

A statement rule makes at most one practice per sentence (user choice, policy change, Do Not Track, a specific
audience, a storage place or transfer) with the details the sentence names. Loading runs every example of the file
through :func:`read_sentence`: a rule whose example fails is a load error, so the data cannot drift from what it
says it does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.errors import DataFileError
from pp_graph.model import AttributeKind, AttributeMention, PracticeMention, PracticeType
from pp_graph.resources import DATA
from pp_graph.rulefiles import (
    dpv_concept,
    example_tables,
    member,
    need,
    parse_toml,
    pattern,
    read_bytes,
    unique_ids,
    versioned,
)

RULES_FILE = DATA / "rules" / "statements.toml"
_RULE_ID = re.compile(r"^statement(\.[a-z0-9-]+)+$")  # the form ppg:rule accepts, under "statement."


@dataclass(frozen=True, slots=True)
class Detail:
    kind: AttributeKind
    code: str  # the value written in the graph; "{v}": the digits the pattern's group "v" captured
    concept: str | None  # full IRI
    pattern: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class Example:
    text: str
    found: bool
    negated: bool | None
    details: dict[str, str]


@dataclass(frozen=True, slots=True)
class Statement:
    id: str
    doc: str
    practice: PracticeType
    keywords: re.Pattern[str] | None
    cues: tuple[re.Pattern[str], ...]
    negatable: bool
    details: tuple[AttributeKind, ...]
    requires: tuple[AttributeKind, ...]  # one of them must be in the sentence
    yields_to: frozenset[PracticeType]
    examples: tuple[Example, ...]
    kind: str = "statement"  # (as the offline rules' kinds, for explain and the evaluation by rule)


@dataclass(frozen=True, slots=True)
class Negation:
    window: int
    clause_breaks: re.Pattern[str]
    cues: re.Pattern[str]
    ignore: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class StatementRules:
    version: str  # "<version>+<content digest>"
    negation: Negation
    statements: tuple[Statement, ...]
    details: tuple[Detail, ...]
    # per detail kind, text that just before a match makes it no detail ("users in the EEA": where people are)
    vetoes: dict[AttributeKind, re.Pattern[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FoundDetail:
    kind: AttributeKind
    code: str
    concept: str | None
    start: int  # offsets in the sentence
    end: int


@dataclass(frozen=True, slots=True)
class Found:
    """One statement a sentence makes: its rule, trigger offsets in the sentence, polarity and details."""

    rule: Statement
    start: int
    end: int
    negated: bool
    details: tuple[FoundDetail, ...]


@dataclass(frozen=True, slots=True)
class LineStatement:
    """A statement found in a line: its practice, its details as attribute mentions, its sentence's bounds."""

    practice: PracticeMention
    details: tuple[AttributeMention, ...]
    sentence: tuple[int, int]  # absolute offsets
    rule: Statement


def _detail(raw: dict[str, Any], n: int) -> Detail:
    where = f"{RULES_FILE.name}: detail {n} ({raw.get('kind', '?')}/{raw.get('code', '?')})"
    concept = raw.get("concept")
    return Detail(
        kind=member(AttributeKind, need(raw, "kind", str, where), where),
        code=need(raw, "code", str, where),
        concept=dpv_concept(concept, where) if concept else None,
        pattern=pattern(need(raw, "pattern", str, where), where),
    )


def _statement(raw: dict[str, Any], n: int) -> Statement:
    where = f"{RULES_FILE.name}: statement {n} ({raw.get('id', '?')})"
    rid = need(raw, "id", str, where)
    if not _RULE_ID.match(rid):
        raise DataFileError(f"{where}: id {rid!r} is not a statement rule id like 'statement.user-choice'")
    words = need(raw, "keywords", list, where)
    examples = []
    for e in example_tables(raw.get("examples", []), where, {"found": bool, "text": str}):
        details = e.get("details", {})
        if not isinstance(details, dict) or not all(isinstance(v, str) for v in details.values()):
            raise DataFileError(f"{where}: an example's details must map a detail kind to a code")
        examples.append(Example(e["text"], e["found"], e.get("negated"), details))
    if not any(e.found for e in examples) or all(e.found for e in examples):
        raise DataFileError(f"{where}: needs examples it finds and examples it must not find")
    return Statement(
        id=rid,
        doc=need(raw, "doc", str, where),
        practice=member(PracticeType, need(raw, "practice", str, where), where),
        keywords=re.compile("|".join(re.escape(w.lower()) for w in words)) if words else None,
        cues=tuple(pattern(c, where) for c in need(raw, "cues", list, where)),
        negatable=need(raw, "negatable", bool, where),
        details=tuple(member(AttributeKind, k, where) for k in need(raw, "details", list, where)),
        requires=tuple(member(AttributeKind, k, where) for k in need(raw, "requires", list, where)),
        yields_to=frozenset(member(PracticeType, k, where) for k in need(raw, "yields_to", list, where)),
        examples=tuple(examples),
    )


def parse_rules(raw_bytes: bytes, name: str = RULES_FILE.name) -> StatementRules:
    raw = parse_toml(raw_bytes, name)
    neg = need(raw, "negation", dict, name)
    negation = Negation(
        window=need(neg, "window", int, name),
        clause_breaks=pattern(need(neg, "clause_breaks", str, name), name),
        cues=pattern("|".join(need(neg, "cues", list, name)), name),
        ignore=pattern("|".join(need(neg, "ignore", list, name)), name),
    )
    statements = tuple(_statement(s, n) for n, s in enumerate(need(raw, "statement", list, name), 1))
    details = tuple(_detail(d, n) for n, d in enumerate(need(raw, "detail", list, name), 1))
    unique_ids([s.id for s in statements], name, "statement")
    before: dict[AttributeKind, list[str]] = {}
    for n, v in enumerate(raw.get("detail_veto", []), 1):
        where = f"{name}: detail_veto {n}"
        kind = member(AttributeKind, need(v, "kind", str, where), where)
        before.setdefault(kind, []).append(pattern(need(v, "before", str, where), where).pattern)
    # several vetoes of a kind: any of them (each was checked on its own above, so its entry names it on error)
    vetoes = {k: pattern("(?:" + "|".join(f"(?:{b})" for b in bs) + r")\s*$", name) for k, bs in before.items()}
    version = versioned(need(raw, "version", str, name), raw_bytes)
    rules = StatementRules(version, negation, statements, details, vetoes)
    check_examples(rules, name)
    return rules


def load_rules(path: Path = RULES_FILE) -> StatementRules:
    return parse_rules(read_bytes(path), path.name)


@cache
def statement_rules() -> StatementRules:
    return load_rules()


def check_examples(rules: StatementRules, name: str) -> None:
    """Every example behaves as the file says, or DataFileError naming the rule and the example."""
    for s in rules.statements:
        for ex in s.examples:
            found = [f for f in read_sentence(rules, ex.text) if f.rule is s]
            problem = _example_problem(ex, found[0] if found else None)
            if problem:
                raise DataFileError(f"{name}: {s.id}: example {ex.text!r} {problem}")


def _example_problem(ex: Example, found: Found | None) -> str:
    if (found is not None) != ex.found:
        return "is found" if found else "is not found"
    if found is None:
        return ""
    if ex.negated is not None and found.negated != ex.negated:
        return f"has negated={found.negated}, expected {ex.negated}"
    codes: dict[str, set[str]] = {}
    for d in found.details:
        codes.setdefault(d.kind.value, set()).add(d.code)
    for kind, code in ex.details.items():
        if code not in codes.get(kind, set()):
            return f"has no {kind} {code!r} (found {sorted(codes.get(kind, set()))})"
    return ""


DETAIL_KINDS = (
    AttributeKind.STORAGE_PLACE,
    AttributeKind.TRANSFER_SAFEGUARD,
    AttributeKind.CHOICE_SCOPE,
    AttributeKind.CHOICE_MECHANISM,
    AttributeKind.NOTIFICATION_MEANS,
    AttributeKind.AUDIENCE,
    AttributeKind.AGE_LIMIT,
)
_COUNTRY = re.compile(r"[A-Z]{2}")


def checked_code(rules: StatementRules, kind: AttributeKind, code: str | None, span: str) -> tuple[str, str | None]:
    """A detail's code as another backend (the LLM) gives it, checked against the file's codes: (code, its DPV
    concept), or ("", None) when it is not one (an age must be written in the span; a place may be any country)."""
    if not code:
        return "", None
    if kind == AttributeKind.AGE_LIMIT:
        return (code, None) if code.isdigit() and code in span else ("", None)
    for d in rules.details:
        if d.kind == kind and d.code == code:
            return code, d.concept
    return (code, None) if kind == AttributeKind.STORAGE_PLACE and _COUNTRY.fullmatch(code) else ("", None)


def negated(neg: Negation, sentence: str, at: int) -> bool:
    """A negation cue shortly before ``at`` in its clause, the ``ignore`` phrases ("Do Not Track") blanked first."""
    lo = max(0, at - neg.window)
    before = neg.ignore.sub(lambda m: " " * len(m.group(0)), sentence[:at])[lo:]
    breaks = list(neg.clause_breaks.finditer(before))
    clause = before[breaks[-1].end() :] if breaks else before
    return neg.cues.search(clause) is not None


def find_details(rules: StatementRules, sentence: str, kinds: tuple[AttributeKind, ...]) -> list[FoundDetail]:
    """The details of ``kinds`` the sentence names: the first match of each kind and code, and no two details of one
    kind on overlapping spans (the earlier-declared pattern wins)."""
    out: list[FoundDetail] = []
    for d in rules.details:
        if d.kind not in kinds or any(f.kind == d.kind and f.code == d.code for f in out):
            continue
        veto = rules.vetoes.get(d.kind)
        for m in d.pattern.finditer(sentence):
            if veto is not None and veto.search(sentence, 0, m.start()):
                continue
            group = "at" if "at" in d.pattern.groupindex and m.group("at") else 0
            start, end = m.start(group), m.end(group)
            if any(f.kind == d.kind and f.start < end and start < f.end for f in out):
                continue
            code = d.code.replace("{v}", m.group("v")) if "{v}" in d.code else d.code
            out.append(FoundDetail(d.kind, code, d.concept, start, end))
            break
    return sorted(out, key=lambda f: (f.start, f.end))


def read_sentence(rules: StatementRules, sentence: str) -> list[Found]:
    """The statements one sentence makes, in rule order."""
    lower = sentence.lower()
    out: list[Found] = []
    for s in rules.statements:
        if s.keywords is not None and not s.keywords.search(lower):
            continue
        m = next((m for c in s.cues if (m := c.search(sentence))), None)
        if m is None:
            continue
        group = "t" if "t" in m.re.groupindex and m.group("t") else 0
        details = find_details(rules, sentence, s.details)
        if s.requires and not any(d.kind in s.requires for d in details):
            continue
        neg = s.negatable and negated(rules.negation, sentence, m.start(group))
        out.append(Found(s, m.start(group), m.end(group), neg, tuple(details)))
    return out
