"""The five anonymization levels (GuardianAgent's hierarchy), each a pure function of (text, entities, level).

L1 generalises the most specific identifiers (exact date → month and year, full name → initials, street address,
contact and account numbers → what they are); L2 also generalises organisations, places, ages, nationalities,
websites and every date; L3 replaces every detected entity by a typed placeholder that stays the same for the
same value in one text ([PERSON_1]); L4 adds minimal-edit rewrites of the contextual cues that still identify
(relations, professions, rare events from ``data/anonymize/cues.tsv``, left-over numbers and proper nouns);
L5 adds sentence-level generalisation (runs of placeholders merge, parentheticals and left-over capitalised
words go). Each level masks a superset of what the one below masks, so privacy rises and utility falls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from pp_graph.anonymize.recognizers.base import Entity
from pp_graph.anonymize.resolve import Occupied
from pp_graph.anonymize.sweep import DEFAULT_SWEEP, SweepSettings, sweep
from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError, InputError
from pp_graph.resources import DATA

LEVELS = (1, 2, 3, 4, 5)
# Types generalised from L1 on (the most specific identifiers); the rest from L2 on; L3 masks everything.
L1_TYPES = frozenset(
    {
        "PERSON",
        "STREET_ADDRESS",
        "EMAIL_ADDRESS",
        "PHONE_NUMBER",
        "CREDIT_CARD",
        "IBAN_CODE",
        "US_SSN",
        "US_DRIVER_LICENSE",
        "PASSPORT",
        "SECRET",
        "IP_ADDRESS",
        "ZIP_CODE",
        "DATE_TIME",
    }
)
_GENERIC = {
    "PERSON": "a person",
    "STREET_ADDRESS": "a street address",
    "GPE": "a place",
    "ORGANIZATION": "an organisation",
    "CREDIT_CARD": "a payment card",
    "DATE_TIME": "a date",
    "TITLE": "a title",
    "PHONE_NUMBER": "a phone number",
    "AGE": "an age",
    "NRP": "a nationality",
    "EMAIL_ADDRESS": "an e-mail address",
    "ZIP_CODE": "a postal code",
    "DOMAIN_NAME": "a website",
    "IBAN_CODE": "a bank account",
    "US_SSN": "a social security number",
    "IP_ADDRESS": "an IP address",
    "US_DRIVER_LICENSE": "a driver's licence number",
    "PASSPORT": "a passport number",
    "SECRET": "a password or PIN",
}
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_YEAR = re.compile(r"\b(1[5-9]|20)\d{2}\b")


# Replacement kinds whose text is built from the original value (initials, its month and year, its decade):
# records and logs name the kind only; fixed phrases and placeholders carry no part of the value.
DERIVED_KINDS = frozenset({"initials", "month-year", "decade", "age-decade"})


@dataclass(frozen=True, slots=True)
class Replacement:
    """One rewritten span: offsets in the input, the text that replaced it and its kind (how it was made)."""

    type: str
    start: int
    end: int
    replacement: str
    level: int
    kind: str  # placeholder | generic | initials | month-year | decade | age-decade
    recognizer: str = ""  # what found the span: a detector's recogniser, or sweep:<rule>:<evidence>

    def to_dict(self) -> dict[str, object]:
        """The record form: a replacement derived from the value is given by its kind only, never its text;
        a residual-sweep span names its rule and evidence (never the value)."""
        source, _, evidence = self.recognizer.rpartition(":") if self.recognizer.startswith("sweep:") else ("", "", "")
        return {
            "type": self.type,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "replacement": None if self.kind in DERIVED_KINDS else self.replacement,
            "level": self.level,
            "recognizer": source or self.recognizer,
            "evidence": evidence or None,
        }


def _month_year(value: str) -> str | None:
    m = re.fullmatch(r"\s*(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b.*", value) or None
    if m:
        month, year = int(m.group(1)), m.group(3)
        if 1 <= month <= 12:
            return f"{_MONTHS[month - 1]} {year if len(year) == 4 else '19' + year}"
    m = re.fullmatch(r"\s*(\d{4})-(\d{1,2})-\d{1,2}.*", value, re.S)
    if m and 1 <= int(m.group(2)) <= 12:
        return f"{_MONTHS[int(m.group(2)) - 1]} {m.group(1)}"
    year = _YEAR.search(value)
    name = next((mo for mo in _MONTHS if mo[:3].lower() in value.lower()), None)
    if name and year:
        return f"{name} {year.group(0)}"
    return None


def _l1(e: Entity, value: str) -> tuple[str, str]:
    """The most specific identifiers, generalised: what they are, or a coarser form that keeps some utility.

    Returns (replacement, kind); the kind comes from the branch taken, never from the replacement text."""
    if e.type == "PERSON":
        parts = [p for p in re.split(r"\s+", value) if p and p[0].isalpha()]
        return (" ".join(p[0].upper() + "." for p in parts), "initials") if parts else ("a person", "generic")
    if e.type == "DATE_TIME":
        my = _month_year(value)
        if my is not None and my != value:
            return my, "month-year"
        if re.fullmatch(r"\s*(1[5-9]|20)\d{2}\s*", value):
            return f"the {value.strip()[:3]}0s", "decade"
        return "a date", "generic"
    if e.type == "ZIP_CODE":
        return "a postal code", "generic"
    return _GENERIC[e.type], "generic"


def _l2(e: Entity, value: str) -> tuple[str, str]:
    if e.type == "AGE":
        digits = re.sub(r"\D", "", value)
        if digits:
            return (
                (f"in their {int(digits) // 10 * 10}s", "age-decade") if int(digits) >= 10 else ("a child", "generic")
            )
        return "an age", "generic"
    if e.type == "DATE_TIME":
        year = _YEAR.search(value)
        return (f"the {year.group(0)[:3]}0s", "decade") if year else ("a date", "generic")
    if e.type == "PERSON":
        return "a person", "generic"
    return _GENERIC[e.type], "generic"


_NAME_TYPES = frozenset({"PERSON", "NAME"})  # a lone token of a fuller name keeps the name's n
_OWN_PLACEHOLDER = re.compile(r"\[([A-Z_]+?)_(\d+)\]")


def _placeholders(text: str, entities: Sequence[Entity]) -> dict[int, str]:
    """[TYPE_n] per entity; the same value (case-insensitive; a lone name token of a fuller name) keeps its n.
    Each type counts on from the highest n the text already holds, so a new placeholder never equals one of
    the text's own ("Ask [NAME_1] about Zorblat" → Zorblat is [NAME_2])."""
    counters: dict[str, int] = {}
    for m in _OWN_PLACEHOLDER.finditer(text):
        counters[m.group(1)] = max(counters.get(m.group(1), 0), int(m.group(2)))
    seen: dict[tuple[str, str], str] = {}
    names: list[tuple[set[str], str]] = []
    out: dict[int, str] = {}
    for i, e in enumerate(entities):
        norm = re.sub(r"\W+", " ", text[e.start : e.end]).strip().lower()
        key = (e.type, norm)
        tag = seen.get(key)
        if tag is None and e.type in _NAME_TYPES:
            toks = set(norm.split())
            tag = next((t for ts, t in names if toks and (toks <= ts or ts <= toks)), None)
        if tag is None:
            counters[e.type] = counters.get(e.type, 0) + 1
            tag = f"[{e.type}_{counters[e.type]}]"
            if e.type in _NAME_TYPES:
                names.append((set(norm.split()), tag))
        seen[key] = tag
        out[i] = tag
    return out


def _check(text: str, entities: Sequence[Entity], level: int) -> list[Entity]:
    if level not in LEVELS:
        raise InputError("level", f"{level!r} is not an anonymization level; one of 1, 2, 3, 4, 5")
    ents = sorted(entities, key=lambda e: (e.start, e.end))
    for a, b in pairwise(ents):
        if b.start < a.end:
            raise InputError("entities", f"spans {a.start}-{a.end} and {b.start}-{b.end} overlap")
    if ents and (ents[0].start < 0 or ents[-1].end > len(text)):
        raise InputError("entities", "a span lies outside the text")
    return ents


def _with_mentions(text: str, ents: list[Entity]) -> list[Entity]:
    """Other mentions of a detected person's name tokens ("Jane Roe … Roe said") join the entities."""
    toks = {t for e in ents if e.type == "PERSON" for t in re.findall(r"[^\W\d_][\w'’-]{2,}", text[e.start : e.end])}
    toks = {t for t in toks if t[0].isupper()}
    if not toks:
        return ents
    rx = re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(t) for t in sorted(toks, key=len, reverse=True)) + r")(?![\w-])"
    )
    occ = Occupied()  # O(log n) overlap test: a long text holds tens of thousands of entities
    for e in sorted(ents, key=lambda e: e.start):
        occ.take(e.start, e.end)
    extra = [Entity("PERSON", m.start(), m.end(), "mention") for m in rx.finditer(text) if occ.free(m.start(), m.end())]
    return sorted([*ents, *extra], key=lambda e: (e.start, e.end))


def mask_entities(
    text: str, entities: Sequence[Entity], level: int, residual: SweepSettings = DEFAULT_SWEEP
) -> tuple[str, list[Replacement]]:
    """Levels 1–3 over the detected entities: the rewritten text and one Replacement per rewritten entity.
    From L3 on, the ``residual`` sweep's spans (``sweep.py``) are masked with placeholders too."""
    ents = _check(text, entities, level)
    if level >= 2:
        ents = _with_mentions(text, ents)
    if level >= 3 and residual.rules:
        ents = sorted([*ents, *sweep(text, ents, residual)], key=lambda e: (e.start, e.end))
    tags = _placeholders(text, ents) if level >= 3 else {}
    pieces: list[str] = []
    reps: list[Replacement] = []
    pos = 0
    for i, e in enumerate(ents):
        value = text[e.start : e.end]
        if level >= 3:
            new, kind = tags[i], "placeholder"
        elif e.type in L1_TYPES:
            new, kind = _l1(e, value) if level == 1 else _l2(e, value)
        elif level == 2:
            new, kind = _l2(e, value)
        else:
            continue
        pieces.append(text[pos : e.start])
        pieces.append(new)
        reps.append(Replacement(e.type, e.start, e.end, new, level, kind, e.recognizer))
        pos = e.end
    pieces.append(text[pos:])
    return "".join(pieces), reps


# ---- L4 / L5: rules over the L3 text ----


@dataclass(frozen=True)
class Cue:
    rx: re.Pattern[str]
    replacement: str
    kind: str


@cache
def cues() -> tuple[Cue, ...]:
    path = DATA / "anonymize" / "cues.tsv"
    out = []
    for n, parts, line in tsv_lines(path):
        if len(parts) < 3 or not all(parts[:3]):
            raise DataFileError(f"{path.name}:{n}: expected 'regex<TAB>replacement<TAB>kind', got {line!r}")
        try:
            rx = re.compile(rf"(?i)(?<![\w\[])(?:(?:an?|the|our|my|his|her|their) )?(?:{parts[0]})(?![\w\]])")
        except re.error as e:
            raise DataFileError(f"{path.name}:{n}: bad regex: {e}") from None
        out.append(Cue(rx, parts[1], parts[2]))
    return tuple(out)


_PLACEHOLDER = re.compile(r"\[[A-Z_]+_\d+\]|\[[A-Z]+\]")
_NUMBER = re.compile(r"(?<!\w)\d[\d,./:-]*(?!\w)")  # bracketed too: placeholders are split off first
# A capitalised word that is not at a sentence start: a proper noun the NER missed.
_PROPER = re.compile(r"(?<=[\w,;:)\]] )(?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]+)(?:\s+[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]+)*")
_KEEP_CAPS = frozenset({"I", "I'm", "I'll", "I've", "I'd", "OK", "Please", "Thanks", "Hi", "Hello", "Dear"})


def _sub_outside_placeholders(rx: re.Pattern[str], text: str, repl: str) -> str:
    def one(m: re.Match[str]) -> str:
        if m.group(0) in _KEEP_CAPS:
            return m.group(0)
        return repl

    parts = _PLACEHOLDER.split(text)
    tags = _PLACEHOLDER.findall(text)
    out = [rx.sub(one, p) for p in parts]
    return "".join(x for pair in zip(out, [*tags, ""], strict=True) for x in pair)


def rewrite_cues(text: str) -> str:
    """L4 offline: generic phrases for identifying cues, [NUMBER] for left-over numbers, [NAME] for proper nouns."""
    for cue in cues():
        text = _sub_outside_placeholders(cue.rx, text, cue.replacement)
    text = _sub_outside_placeholders(_NUMBER, text, "[NUMBER]")
    return _sub_outside_placeholders(_PROPER, text, "[NAME]")


_RUN = re.compile(r"(?:\[[A-Z_]+(?:_\d+)?\](?:[\s,;/&-]+|\s+and\s+)?){2,}")


def generalise_sentences(text: str) -> str:
    """L5 offline: runs of placeholders become one [DETAILS], parentheticals and quoted names go."""
    text = re.sub(r"\s*\([^()]{0,80}\)", "", text)
    text = re.sub(r"\"[A-Z][^\"]{0,60}\"", "[DETAILS]", text)

    def run(m: re.Match[str]) -> str:
        tail = m.group(0)[len(m.group(0).rstrip(" ,;/&-")) :]
        return "[DETAILS]" + tail

    text = _RUN.sub(run, text)
    return re.sub(r"(?<=[a-z,;] )[A-Z][a-z]+\b", "[DETAILS]", text)


def apply_level(
    text: str, entities: Sequence[Entity], level: int, *, residual: SweepSettings = DEFAULT_SWEEP
) -> tuple[str, list[Replacement]]:
    """The text at ``level`` (offline rules) and the entity replacements it made (the sweep's from L3 on)."""
    out, reps = mask_entities(text, entities, level, residual)
    if level >= 4:
        out = rewrite_cues(out)
    if level >= 5:
        out = generalise_sentences(out)
    return out, reps
