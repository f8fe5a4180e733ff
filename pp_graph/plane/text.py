"""Free text through the anonymizer: the data plane's default ``TextTransformer``.

The plane asks for a level (``"L1"``…``"L5"``: L1 for prose a contract passes, the site's ℓ0 when AMRSF says
transform); the anonymizer rewrites the text at that level, but never below ``floor`` (default L3), because the
plane promises that personal data in free text is replaced, and L1/L2 only generalise (a name becomes initials).
Typed placeholders become the plane's subject-scoped tokens, so one value has one token across fields and calls.
Risk detection runs too: what it finds and the anonymizer's types do not cover (credentials, health terms, MAC
and GPS) is tokenised as well, and its categories win where both saw a span (a date with a birth cue is
pd:BirthDate, not pd:LifeHistory). The result names categories, types and input offsets — never a value.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pp_graph.anonymize.sweep import DEFAULT_SWEEP, SweepSettings
from pp_graph.errors import PlaneError

_PLACEHOLDER = re.compile(r"\[[A-Z_]+_\d+\]")


@dataclass(frozen=True, slots=True)
class TextSpan:
    """One replaced span: its DPV category, the detector's type, offsets in the input text."""

    category: str
    type: str
    start: int
    end: int

    def label(self) -> str:
        """The ledger's form: ``pd:Name PERSON 5-13``."""
        return f"{self.category} {self.type} {self.start}-{self.end}"


@dataclass(frozen=True, slots=True)
class TextRewrite:
    """What a TextTransformer returns: the text, the categories found, the spans replaced and how."""

    text: str
    categories: list[str]
    spans: tuple[TextSpan, ...] = ()
    how: str = "replaced by tokens"
    level: int = 0  # the level the text was rewritten at (0: the transformer has no levels)
    ner_mode: str | None = None  # the NER mode that judged the text (None: the transformer does not say)
    detector: str | None = None  # the digest of the models that mode ran (None: none ran, or not said)
    sweep: str | None = None  # the digest of the anonymizer's residual sweep (None: none ran, or not said)


def parse_level(level: str | int) -> int:
    s = str(level).strip().upper().removeprefix("L")
    if not s.isdigit() or not 1 <= int(s) <= 5:
        raise PlaneError(f"anonymization level {level!r}: expected L1–L5")
    return int(s)


@dataclass(frozen=True)
class AnonymizerText:
    """``TextTransformer`` running ``pp_graph.anonymize`` at the asked level (at least ``floor``), detecting in
    the NER ``mode`` (None: the anonymizer's default; an unknown mode is refused here, not at the first text)."""

    floor: int = 3
    mode: str | None = None
    residual: SweepSettings = DEFAULT_SWEEP  # the residual sweep from L3 on (NO_SWEEP: detected entities only)

    def __post_init__(self) -> None:
        from pp_graph.anonymize.recognizers import mode_name

        mode_name(self.mode)

    def __call__(self, text: str, level: str, token: Callable[[str], str]) -> TextRewrite:
        from pp_graph.anonymize.chunks import ner_coverage, recognize_long
        from pp_graph.anonymize.levels import apply_level
        from pp_graph.anonymize.recognizers import Occupied, detector_digest, mode_name
        from pp_graph.anonymize.sweep import sweep_digest
        from pp_graph.risk import detect as risk_detect

        lv = max(parse_level(level), self.floor)
        bound = risk_detect.NER_MAX_CHARS  # the same bound as risk detection: NER cost grows with the text
        entities = recognize_long(text, ner_chars=bound, mode=self.mode)
        out, reps = apply_level(text, entities, lv, residual=self.residual)
        found = risk_detect.detect(text, entities=entities)  # sorted, non-overlapping; NER not run again
        starts = [d.start for d in found]
        spans = [
            TextSpan(_category(r.type, _overlap(found, starts, r.start, r.end)), r.type, r.start, r.end) for r in reps
        ]
        taken = Occupied()  # reps never overlap: one sorted index, O(log n) per detection
        for r in sorted(reps, key=lambda r: r.start):
            taken.take(r.start, r.end)
        extra = [d for d in found if taken.free(d.start, d.end)]
        out = _tokenise(out, {text[d.start : d.end] for d in extra}, token)  # what the anonymizer's types miss
        spans += [TextSpan(_compact(d.category), d.recognizer, d.start, d.end) for d in extra]
        values: dict[str, str] = {}
        for r in reps:
            if _PLACEHOLDER.fullmatch(r.replacement):
                values.setdefault(r.replacement, text[r.start : r.end])
        out = _PLACEHOLDER.sub(lambda m: token(values[m.group(0)]) if m.group(0) in values else m.group(0), out)
        spans.sort(key=lambda s: (s.start, s.end))
        how = f"anonymized at L{lv}, entities replaced by tokens"
        read = ner_coverage(text, bound)
        if read < len(text):
            how += f" (names by NER in the first {read:,} of {len(text):,} characters)"
        cats = sorted({s.category for s in spans})
        detector = detector_digest(self.mode)
        return TextRewrite(
            out, cats, tuple(spans), how, lv, mode_name(self.mode), detector, sweep_digest(self.residual)
        )


def _overlap(spans: Sequence[Any], starts: list[int], s: int, e: int) -> Any:
    """The span of sorted, non-overlapping ``spans`` (objects with start/end) that overlaps [s, e)."""
    i = bisect.bisect_right(starts, s)
    for j in (i - 1, i):
        if 0 <= j < len(spans) and spans[j].start < e and s < spans[j].end:
            return spans[j]
    return None


def _tokenise(out: str, values: set[str], token: Callable[[str], str]) -> str:
    """Every surviving occurrence of each value (as a whole word) becomes its token, in one pass."""
    if not values:
        return out
    alts = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    return re.sub(rf"(?<!\w)(?:{alts})(?!\w)", lambda m: token(m.group(0)), out)


def _compact(iri: str) -> str:
    from pp_graph.vocab.dpv import compact

    return compact(iri)


def _category(type_: str, seen: Any) -> str:
    """Risk detection's category when it saw the same span (it reads cues), else the type's table row."""
    from pp_graph.anonymize.categories import category

    return _compact(seen.category) if seen is not None else _compact(category(type_))
