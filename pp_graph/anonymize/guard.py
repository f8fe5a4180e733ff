"""The guard: a risk decision plus the text that may leave.

allow → the original text; transform → the rewrite, from ℓ0 (the AMRSF band position) with verified
escalation up to ``max_level``; deny → no text. The record is the decision record plus ``anonymization``
(levels run and why, entity offsets and replacements, every guess's verdict) — never an original value.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from pp_graph.anonymize.core import Anonymized, Rewriter, anonymize
from pp_graph.anonymize.guesser import Guesser
from pp_graph.anonymize.recognizers.base import Detected
from pp_graph.anonymize.sweep import DEFAULT_SWEEP, SweepSettings


class _Decision(Protocol):
    decision: str
    level: str

    def to_dict(self) -> dict[str, Any]: ...


@dataclass
class Guarded:
    decision: Any  # pp_graph.risk.Decision
    text: str | None  # what may leave: the original (allow), the rewrite (transform) or None (deny)
    anonymized: Anonymized | None

    def record(self) -> dict[str, Any]:
        """The decision record with the anonymization trail; holds no raw value (the released text is apart)."""
        rec = dict(self.decision.to_dict())
        a = self.anonymized
        rec["anonymization"] = (
            None
            if a is None
            else {
                "start_level": f"L{a.start_level}",
                "final_level": f"L{a.level}",
                "levels_run": a.levels_run,
                "entities": [r.to_dict() for r in a.entities],
                "guesses": [g.to_dict() for g in a.guesses],
                "unnecessary_escalations": a.unnecessary_escalations,
                "detector": a.detector,
                "ner_mode": a.ner_mode,
                "sweep": a.sweep,
            }
        )
        return rec

    def to_dict(self) -> dict[str, Any]:
        return {**self.record(), "text": self.text}


def guard_text(
    decision: _Decision,
    text: str | None,
    *,
    max_level: int = 5,
    guesser: Guesser | None = None,
    rewriter: Rewriter | None = None,
    mode: str | None = None,
    detected: Detected | None = None,
    residual: SweepSettings = DEFAULT_SWEEP,
) -> Guarded:
    """The text that may leave under ``decision``; a rewrite detects in NER ``mode`` (the decision's), or
    rewrites ``detected`` when given: the entities the decision judged, whose mode and detector digest travel
    with them (``pp_graph.risk.detect.entities``) and go into the record. From L3 on the ``residual`` sweep runs
    too (the record's ``sweep`` digest names it)."""
    if decision.decision == "allow":
        return Guarded(decision, text, None)
    if decision.decision == "deny" or text is None or not text.strip():
        return Guarded(decision, None, None)
    start = min(int(decision.level.lstrip("L")), max_level)
    a = anonymize(
        text,
        start,
        escalate=True,
        max_level=max_level,
        entities=detected.entities if detected is not None else None,
        guesser=guesser,
        rewriter=rewriter,
        mode=mode,
        residual=residual,
    )
    if detected is not None:  # the record names the detection the entities came from
        a = replace(a, detector=detected.detector, ner_mode=detected.mode)
    return Guarded(decision, a.text, a)
