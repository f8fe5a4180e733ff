"""``anonymize(text, level=…)``: detect, rewrite at a level, and optionally escalate on verified guesses.

The stable front door (also ``pp_graph.anonymize(text, level=...)``):

    r = anonymize("Mail Jane Roe at jane@roe.org", level=3)
    r.text        # 'Mail [PERSON_1] at [EMAIL_ADDRESS_1]'
    r.entities    # [Replacement(type, start, end, replacement, level, kind), …] — offsets in the input
    anonymize(text, level=1, escalate=True, max_level=5)  # start at L1, go up while a guess is supported

``to_dict()`` is the JSON record: entities with offsets and replacements, levels run with why, every guess's
verdict; never an original value. Same input and settings → identical output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pp_graph.anonymize.guesser import Guesser, OfflineGuesser, Verdict, judge
from pp_graph.anonymize.levels import LEVELS, Replacement, apply_level, mask_entities
from pp_graph.anonymize.pipeline import recognize
from pp_graph.anonymize.recognizers.base import Entity
from pp_graph.anonymize.sweep import DEFAULT_SWEEP, SweepSettings, sweep_digest
from pp_graph.errors import InputError, PPGraphError

MAX_CHARS = 100_000  # one text; longer inputs are refused with a clear error (split them first)


class Rewriter(Protocol):
    """L4/L5 rewriting by a model: gets the L3 text, returns the rewrite (checked before it is used)."""

    name: str

    def rewrite(self, text: str, level: int) -> str: ...


@dataclass
class Anonymized:
    text: str
    level: int
    start_level: int
    entities: list[Replacement]
    detections: list[Entity]
    levels_run: list[dict[str, Any]] = field(default_factory=list)
    guesses: list[Verdict] = field(default_factory=list)
    unnecessary_escalations: int = 0  # escalations an unverified guess would have caused
    detector: str | None = None  # digest of the models that found the entities (None: none ran)
    ner_mode: str | None = None  # the NER mode that found them ("none": patterns only; None: entities given)
    sweep: str | None = None  # digest of the residual sweep that ran (``sweep_digest``; None: none ran, L1/L2)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "level": self.level,
            "start_level": self.start_level,
            "entities": [r.to_dict() for r in self.entities],
            "levels_run": self.levels_run,
            "guesses": [g.to_dict() for g in self.guesses],
            "unnecessary_escalations": self.unnecessary_escalations,
            "detector": self.detector,
            "ner_mode": self.ner_mode,
            "sweep": self.sweep,
        }


def check_input(text: object, level: int = 3, *, escalate: bool = False, max_level: int = 5) -> str:
    """The text (NUL-free, non-empty, at most ``MAX_CHARS``) and levels ``anonymize`` accepts; raises InputError
    naming the problem otherwise. A caller checks first to load no model for a text that will be refused."""
    text = _check_text(text)
    if isinstance(level, bool) or level not in LEVELS or max_level not in LEVELS:
        raise InputError("level", f"level {level} / max_level {max_level}: each must be one of 1–5")
    if escalate and max_level < level:
        raise InputError("max_level", f"{max_level} is below the starting level {level}")
    return text


def _check_text(text: object) -> str:
    if not isinstance(text, str):
        raise InputError("text", f"is {_json_kind(text)}; expected a string")
    if not text.strip():
        raise InputError("text", "is empty")
    if len(text) > MAX_CHARS:
        raise InputError("text", f"{len(text):,} characters is over the limit of {MAX_CHARS:,}; split it")
    if "\x00" in text:
        raise InputError("text", "contains NUL bytes (binary data?)")
    return text


def _json_kind(value: object) -> str:
    """What a value is, in the words of the JSON it came from (a JSONL line, an MCP call), not Python's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object" if isinstance(value, dict) else f"a {type(value).__name__}"


def _rewrite(
    text: str,
    ents: Sequence[Entity],
    level: int,
    rewriter: Rewriter | None,
    run: dict[str, Any],
    residual: SweepSettings = DEFAULT_SWEEP,
) -> tuple[str, list[Replacement]]:
    out, reps = apply_level(text, ents, level, residual=residual)
    if rewriter is None or level < 4:
        run["by"] = "rules"
        return out, reps
    l3, _ = mask_entities(text, ents, 3, residual)
    try:
        cand = rewriter.rewrite(l3, level)
    except PPGraphError as e:
        run["by"], run["rewriter_error"] = "rules", str(e)
        return out, reps
    leaked = [e for e in ents if len(text[e.start : e.end]) > 2 and text[e.start : e.end].lower() in cand.lower()]
    if leaked or not cand.strip():
        run["by"] = "rules"
        run["rewriter_rejected"] = "reintroduced an original value" if leaked else "empty rewrite"
        return out, reps
    run["by"] = rewriter.name
    return cand, reps


def _detector(entities_given: bool, ner: bool, mode: str | None) -> tuple[str | None, str | None]:
    """The digest of the models that ran and the NER mode's name, for the record."""
    from pp_graph.anonymize.modes import detector_digest, mode_name

    if entities_given:
        return None, None
    return (detector_digest(mode), mode_name(mode)) if ner else (None, "none")


def anonymize(
    text: str,
    level: int = 3,
    *,
    escalate: bool = False,
    max_level: int = 5,
    entities: Sequence[Entity] | None = None,
    guesser: Guesser | None = None,
    rewriter: Rewriter | None = None,
    ner: bool = True,
    mode: str | None = None,
    residual: SweepSettings = DEFAULT_SWEEP,
) -> Anonymized:
    """Rewrite ``text`` at ``level`` (1–5). With ``escalate``, the verified guesser lifts the level up to
    ``max_level`` while a guess is supported by the original text; a guess the original does not support never
    escalates (it is counted in ``unnecessary_escalations``). From L3 on, ``residual`` (``sweep.py``) masks what
    the detector left that looks identifying (``NO_SWEEP``: detected entities only). Raises InputError on bad
    text or levels."""
    text = check_input(text, level, escalate=escalate, max_level=max_level)
    ents = list(entities) if entities is not None else recognize(text, ner=ner, mode=mode)
    g = guesser or OfflineGuesser()
    cur = level
    detector, ner_mode = _detector(entities is not None, ner, mode)
    result = Anonymized("", level, level, [], ents, detector=detector, ner_mode=ner_mode)
    while True:
        run: dict[str, Any] = {"level": cur}
        out, reps = _rewrite(text, ents, cur, rewriter, run, residual)
        verdicts = judge(g, out, text, ents, cur) if escalate else []
        supported = sum(v.supported for v in verdicts)
        run.update(supported_guesses=supported, unsupported_guesses=len(verdicts) - supported)
        result.guesses.extend(verdicts)
        result.text, result.level, result.entities = out, cur, reps
        result.sweep = sweep_digest(residual) if cur >= 3 else None
        if escalate and supported and cur < max_level:
            run["why"] = f"{supported} supported guess(es) at L{cur}: escalate to L{cur + 1}"
            result.levels_run.append(run)
            cur += 1
            continue
        if escalate and not supported and verdicts and cur < max_level:
            result.unnecessary_escalations += 1
        run["why"] = _stop_reason(escalate, supported, cur, max_level)
        result.levels_run.append(run)
        return result


def _stop_reason(escalate: bool, supported: int, cur: int, max_level: int) -> str:
    if not escalate:
        return "fixed level"
    if supported:
        return f"{supported} supported guess(es) but L{cur} is the maximum (--max-level {max_level})"
    return "no supported guess: stop"
