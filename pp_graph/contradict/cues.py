"""The contradiction cues: a validated data file (data/contradict/cues.toml) — which practice a statement states,
and the words that reconcile a denial with an affirmation (exceptions, conditions, de-identified data)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.errors import DataFileError
from pp_graph.model import PracticeType, RecipientKind
from pp_graph.resources import DATA
from pp_graph.rulefiles import example_tables, pattern, read_toml
from pp_graph.vocab.dpv import expand, vocabulary

CUES_FILE = DATA / "contradict" / "cues.toml"
PRACTICES = ("collect", "use", "share", "sell", "retain")
SIDES = ("denial", "affirmation", "either")


@dataclass(frozen=True, slots=True)
class Practice:
    id: str
    types: frozenset[str]
    trigger: re.Pattern[str]
    covers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Cue:
    id: str
    side: str
    patterns: tuple[re.Pattern[str], ...]
    reason: str

    def matches(self, sentence: str) -> bool:
        return any(p.search(sentence) for p in self.patterns)


@dataclass(frozen=True, slots=True)
class Voice:
    """Who states a practice and whether it is denied, read from the sentence before its trigger."""

    window: int
    negation: re.Pattern[str]
    first_party: re.Pattern[str]
    others: re.Pattern[str]
    verbs: re.Pattern[str]  # what follows a name that is the subject

    def _ours(self, lead: str, name: str) -> list[int]:
        ours = [m.end() for m in self.first_party.finditer(lead)]
        if name:
            # The name as a subject ("Example does not sell"), not an object ("you have tagged Example in a post").
            subject = rf"\b{re.escape(name)}\s+(?:{self.verbs.pattern})"
            ours += [m.start() + len(name) for m in re.finditer(subject, lead + " ", re.IGNORECASE)]
        return ours

    def active(self, lead: str, name: str = "") -> bool:
        """Whether the party is named before the trigger ("we share …"; otherwise the passive "… is shared")."""
        return bool(self._ours(lead, name))

    def voiced(self, lead: str, denial: bool, name: str = "") -> bool:
        """Whether the party itself states it (the nearest agent before the trigger is not another party), and a
        denial has its negation within the window before the trigger. ``name``: the party's own name too."""
        if denial and not self.negation.search(lead[-self.window :]):
            return False
        theirs = [m.end() for m in self.others.finditer(lead)]
        return not theirs or max(self._ours(lead, name), default=-1) > max(theirs)


@dataclass(frozen=True, slots=True)
class Cues:
    version: str
    voice: Voice
    practices: tuple[Practice, ...]
    cues: tuple[Cue, ...]
    exempt_receivers: frozenset[str]
    practice_purposes: frozenset[str]  # full IRIs
    anaphora: re.Pattern[str]  # matches the text of a sentence before a data mention that points back
    generic_data: frozenset[str]  # full IRIs
    generic_practices: frozenset[str]
    not_narrower: frozenset[tuple[str, str]]  # (broader, narrower) full IRIs, each narrower one's subtree included
    generic_before: frozenset[str]
    generic_after: frozenset[str]

    def practice(self, label: str, trigger: str) -> Practice | None:
        """The practice a statement of this ppg:practiceLabel and trigger text states; None: not one compared."""
        for p in self.practices:
            if label in p.types and p.trigger.search(trigger):
                return p
        return None


def _regex(where: str, text: object) -> re.Pattern[str]:
    if not isinstance(text, str) or not text:
        raise DataFileError(f"{where}: a pattern must be a non-empty string")
    return pattern(text, where)


def _strings(where: str, value: object, allowed: tuple[str, ...] | None = None) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise DataFileError(f"{where}: expected a non-empty list of strings")
    bad = [v for v in value if allowed is not None and v not in allowed]
    if bad:
        raise DataFileError(f"{where}: unknown {', '.join(bad)}; expected one of {', '.join(allowed or ())}")
    return value


def _practice(where: str, d: dict[str, Any]) -> Practice:
    if d.get("id") not in PRACTICES:
        raise DataFileError(f"{where}: id must be one of {', '.join(PRACTICES)}")
    types = _strings(f"{where}.types", d.get("types"), tuple(t.value for t in PracticeType))
    covers = _strings(f"{where}.covers", d.get("covers"), PRACTICES)
    if d["id"] not in covers:
        raise DataFileError(f"{where}: a denial of {d['id']} must cover {d['id']} itself")
    return Practice(d["id"], frozenset(types), _regex(f"{where}.trigger", d.get("trigger")), frozenset(covers))


def _cue(where: str, d: dict[str, Any]) -> Cue:
    if not isinstance(d.get("id"), str) or d.get("side") not in SIDES or not isinstance(d.get("reason"), str):
        raise DataFileError(f"{where}: needs an id, a reason and a side ({', '.join(SIDES)})")
    pats = _strings(f"{where}.patterns", d.get("patterns"))
    cue = Cue(d["id"], d["side"], tuple(_regex(f"{where}.patterns", p) for p in pats), d["reason"])
    examples = example_tables(d.get("examples"), where, {"text": str, "matches": bool})
    if not any(e["matches"] for e in examples):
        raise DataFileError(f"{where}: needs examples, at least one that matches")
    for e in examples:
        if cue.matches(e["text"]) != e["matches"]:
            raise DataFileError(f"{where}: example {e['text']!r} should {'' if e['matches'] else 'not '}match")
    return cue


def load_cues(path: Path) -> Cues:
    """The cues of ``path``; DataFileError naming the file and entry when one is malformed."""
    data = read_toml(path)
    practices = tuple(_practice(f"{path.name} practice {i + 1}", d) for i, d in enumerate(data.get("practice", [])))
    cues = tuple(_cue(f"{path.name} cue {i + 1}", d) for i, d in enumerate(data.get("cue", [])))
    if not practices or not cues or not isinstance(data.get("version"), str):
        raise DataFileError(f"{path.name}: needs a version, [[practice]] and [[cue]] entries")
    exempt = _strings(f"{path.name} exempt_receivers", data.get("exempt_receivers"), tuple(RecipientKind))
    purposes = _strings(f"{path.name} practice_purposes", data.get("practice_purposes"))
    vocab = vocabulary()
    iris = {expand(p) for p in purposes}
    if not all(vocab.is_purpose(p) for p in iris):
        raise DataFileError(f"{path.name} practice_purposes: not all are DPV purposes: {', '.join(purposes)}")
    voice = _voice(f"{path.name} [voice]", data.get("voice"))
    rest = _data_rules(path.name, data)
    return Cues(data["version"], voice, practices, cues, frozenset(exempt), frozenset(iris), *rest)


def _voice(where: str, d: object) -> Voice:
    if not isinstance(d, dict) or not isinstance(d.get("window"), int) or d["window"] < 1:
        raise DataFileError(f"{where}: needs a positive window and negation, first_party, others patterns")
    pats = {k: _regex(f"{where}.{k}", d.get(k)) for k in ("negation", "first_party", "others", "subject_verbs")}
    voice = Voice(d["window"], pats["negation"], pats["first_party"], pats["others"], pats["subject_verbs"])
    examples = example_tables(d.get("examples"), where, {"text": str, "denial": bool, "voiced": bool})
    if not examples:
        raise DataFileError(f"{where}: needs examples")
    for e in examples:
        if voice.voiced(e["text"], e["denial"]) != e["voiced"]:
            raise DataFileError(f"{where}: example {e['text']!r} should {'' if e['voiced'] else 'not '}be voiced")
    return voice


def _data_rules(name: str, data: dict[str, Any]) -> tuple[Any, ...]:
    words = _strings(f"{name} anaphora", data.get("anaphora"))
    anaphora = _regex(f"{name} anaphora", r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\s+(?:\w+\s+)?$")
    generic = {expand(d) for d in _strings(f"{name} generic_data", data.get("generic_data"))}
    if not all(vocabulary().is_personal_data(d) for d in generic):
        raise DataFileError(f"{name} generic_data: not all are DPV personal data categories")
    practices = _strings(f"{name} generic_practices", data.get("generic_practices"), PRACTICES)
    before = _strings(f"{name} generic_before", data.get("generic_before"))
    after = _strings(f"{name} generic_after", data.get("generic_after"))
    return (
        anaphora,
        frozenset(generic),
        frozenset(practices),
        _not_narrower(name, data),
        frozenset(before),
        frozenset(after),
    )


def _not_narrower(name: str, data: dict[str, Any]) -> frozenset[tuple[str, str]]:
    vocab, out = vocabulary(), set()
    for pair in data.get("not_narrower", []):
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(p, str) for p in pair):
            raise DataFileError(f"{name} not_narrower: each entry is [broader, narrower], got {pair!r}")
        top, low = expand(pair[0]), expand(pair[1])
        if low == top or low not in vocab.narrower_closure(top):
            raise DataFileError(f"{name} not_narrower: {pair[1]} is not below {pair[0]} in the vendored DPV")
        out |= {(top, n) for n in vocab.narrower_closure(low)}
    return frozenset(out)


@cache
def cues() -> Cues:
    """The bundled cues, loaded and checked once per process."""
    return load_cues(CUES_FILE)
