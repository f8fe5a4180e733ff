"""The verified adversarial guesser: an attacker reads the rewritten text and guesses original attributes.

A guess counts only when the original text supports it: its normalised value equals an original entity's
(exact; digits of a number; an e-mail local part; a name token; a shared content word of an organisation or
place). Unsupported guesses are recorded as ``unsupported`` and never escalate — the paper's defence against
hallucinated attacker confidence. Records hold types, offsets and verdicts, never the guessed value.

Offline attacker: surviving values, normalised forms (card/phone digits, e-mail local parts), name tokens and
quasi-identifiers (capitalised words, numbers) that survived the rewrite. LLM attacker: ``OpenAIGuesser``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pp_graph.anonymize.recognizers.base import TYPES, Entity
from pp_graph.errors import PPGraphError
from pp_graph.extract.llm.chat import ChatRole

_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "it",
        "this",
        "that",
        "my",
        "our",
        "your",
        "his",
        "her",
        "their",
        "inc",
        "ltd",
        "llc",
        "co",
        "corp",
        "company",
        "group",
        "sons",
        "street",
        "st",
        "road",
        "rd",
        "avenue",
        "ave",
    ]
)
_NOT_NAMES = frozenset({"I", "I'm", "I'll", "I've", "I'd", "OK", "Please", "Thanks", "Hi", "Hello", "Dear"})
_DIGIT_TYPES = frozenset({"CREDIT_CARD", "PHONE_NUMBER", "US_SSN", "IBAN_CODE", "US_DRIVER_LICENSE", "PASSPORT"})
_WORDS = re.compile(r"[^\W\d_][\w'’-]*|\d+")


class GuesserError(PPGraphError):
    """The attacker model gave no usable answer."""


@dataclass(frozen=True, slots=True)
class Guess:
    """A guess for one attribute; ``value`` stays in memory only (records drop it)."""

    type: str
    value: str
    source: str  # surviving | digits | local_part | name_token | quasi | llm


@dataclass(frozen=True, slots=True)
class Verdict:
    level: int
    type: str
    source: str
    supported: bool
    reason: str
    target: tuple[int, int] | None  # offsets in the input of the entity it recovers

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "type": self.type,
            "source": self.source,
            "verdict": "supported" if self.supported else "unsupported",
            "reason": self.reason,
            "target": list(self.target) if self.target else None,
        }


class Guesser(Protocol):
    name: str

    def guesses(self, rewritten: str) -> list[Guess]: ...


def _norm(s: str) -> str:
    return re.sub(r"\W+", " ", s).strip().lower()


def _digits(s: str) -> str:
    return re.sub(r"\D", "", s)


class OfflineGuesser:
    """What an attacker can read straight off the rewritten text."""

    name = "offline"

    def guesses(self, rewritten: str) -> list[Guess]:
        text = re.sub(r"\[[A-Z_]+(?:_\d+)?\]", " ", rewritten)
        out: list[Guess] = []
        for m in re.finditer(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", text):
            out.append(Guess("EMAIL_ADDRESS", m.group(0), "surviving"))
        for m in re.finditer(r"\d[\d ().-]{2,}\d|\d{2,}", text):
            out.append(Guess("NUMBER", m.group(0), "digits"))
        # proper nouns: capitalised words that do not open a sentence or a line
        for m in re.finditer(r"(?<=[\w,;:)\]] )[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]+(?:\s+[A-ZÀ-ÖØ-ÞĀ-Ž][\w'’-]+)*", text):
            if m.group(0) not in _NOT_NAMES:
                out.append(Guess("NAME", m.group(0), "name_token"))
        return out


def verify(guess: Guess, original: str, entities: Sequence[Entity], level: int) -> Verdict:
    """Is the guess supported by the original text? Only an original entity it recovers makes it count."""
    g = _norm(guess.value)
    gd = _digits(guess.value)
    gw = {w for w in _WORDS.findall(g) if w not in _STOP}
    for e in entities:
        value = original[e.start : e.end]
        v = _norm(value)
        target = (e.start, e.end)
        if g and g == v:
            return Verdict(level, e.type, guess.source, True, "exact match with an original entity", target)
        if e.type in _DIGIT_TYPES or e.type in {"AGE", "ZIP_CODE", "IP_ADDRESS", "DATE_TIME", "STREET_ADDRESS"}:
            vd = _digits(value)
            if len(gd) >= 2 and vd and (gd == vd or (len(gd) >= 4 and gd in vd)):
                return Verdict(level, e.type, guess.source, True, "digits of an original number", target)
        if e.type == "EMAIL_ADDRESS":
            local = v.split(" ")[0] if "@" not in value else _norm(value.split("@")[0])
            if local and (g == local or local in g.replace(" ", "")):
                return Verdict(level, e.type, guess.source, True, "the e-mail's local part", target)
        if e.type in {"PERSON", "ORGANIZATION", "GPE", "STREET_ADDRESS", "NRP", "TITLE"}:
            vw = {w for w in _WORDS.findall(v) if w not in _STOP and len(w) > 1}
            shared = gw & vw
            if shared:
                return Verdict(
                    level, e.type, guess.source, True, "shares a content word with an original entity", target
                )
    # Not a detected entity, but the original text states it: a value the detectors missed still leaks.
    if len(g) > 1 and re.search(rf"(?<!\w){re.escape(g)}(?!\w)", _norm(original)):
        return Verdict(level, guess.type, guess.source, True, "stated in the original text", None)
    return Verdict(level, guess.type, guess.source, False, "not in the original text", None)


def judge(guesser: Guesser, rewritten: str, original: str, entities: Sequence[Entity], level: int) -> list[Verdict]:
    return [verify(g, original, entities, level) for g in guesser.guesses(rewritten)]


SYSTEM = (
    "You are a privacy attacker. Read an anonymised text and guess the original personal attributes it hides "
    "(names, places, organisations, numbers, e-mail addresses, dates, ages). Answer with JSON only: "
    '{"guesses": [{"type": "PERSON", "value": "..."}]}; an empty list if you cannot guess.'
)


def parse_guesses(content: str) -> list[Guess]:
    try:
        obj = json.loads(content)
    except ValueError:
        m = re.search(r"\{[\s\S]*\}", content)
        if not m:
            raise GuesserError("the attacker model's answer is not JSON") from None
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            raise GuesserError("the attacker model's answer is not JSON") from None
    items = obj.get("guesses") if isinstance(obj, dict) else None
    if not isinstance(items, list):
        raise GuesserError("the attacker model's answer has no 'guesses' list")
    out = []
    for it in items:
        if isinstance(it, dict) and isinstance(it.get("value"), str) and it["value"].strip():
            # the type reaches the decision record: only a known entity type, never free text from the model
            kind = it.get("type")
            out.append(Guess(kind if kind in TYPES else "UNKNOWN", it["value"], "llm"))
    return out


class OpenAIGuesser(ChatRole):
    """The attacker as a chat model on an OpenAI-compatible endpoint (temperature 0, JSON answer)."""

    what = "anonymize guesser"
    error = GuesserError

    def guesses(self, rewritten: str) -> list[Guess]:
        return parse_guesses(self.chat.complete(SYSTEM, rewritten, 400))
