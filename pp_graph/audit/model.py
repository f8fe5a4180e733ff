"""The audit's records: a trace of tool calls, the facts its results hold and the flows of facts into later arguments.

A trace line: ``{"id", "instruction", "steps": [{"tool", "args", "result", "site"?, "recipient"?}]}``.
Facts and flows carry JSON paths and character offsets, never the values themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pp_graph.errors import InputError

TRACE_KEYS = frozenset({"id", "instruction", "steps"})
STEP_KEYS = frozenset({"tool", "args", "result", "site", "recipient"})

OVER_EXPOSED, NECESSARY, INTENDED = "over-exposed", "necessary", "intended"


@dataclass(frozen=True)
class Step:
    tool: str
    args: Any = None
    result: Any = None
    site: str | None = None
    recipient: str | None = None  # recipient kind for the risk engine (social_media, service_provider, …)


@dataclass(frozen=True)
class Trace:
    id: str
    instruction: str
    steps: tuple[Step, ...]

    @classmethod
    def from_dict(cls, obj: Any, where: str = "trace") -> Trace:
        """From one JSON object; wrong shapes raise InputError naming the key."""
        if not isinstance(obj, Mapping):
            raise InputError(where, f"expected a JSON object, got {type(obj).__name__}")
        unknown = sorted(set(obj) - TRACE_KEYS)
        if unknown:
            raise InputError(where, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(TRACE_KEYS))}")
        ident, instr, steps = obj.get("id"), obj.get("instruction", ""), obj.get("steps")
        if not isinstance(ident, str | int) or isinstance(ident, bool) or ident == "":
            raise InputError(where, "'id' must be a non-empty string or an integer")
        if not isinstance(instr, str):
            raise InputError(where, "'instruction' must be a string")
        if not isinstance(steps, list) or not steps:
            raise InputError(where, "'steps' must be a non-empty list of tool calls")
        return cls(str(ident), instr, tuple(_step(s, f"{where}: steps[{i}]") for i, s in enumerate(steps)))


def _step(obj: Any, where: str) -> Step:
    if not isinstance(obj, Mapping):
        raise InputError(where, f"expected a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - STEP_KEYS)
    if unknown:
        raise InputError(where, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(STEP_KEYS))}")
    tool = obj.get("tool")
    if not isinstance(tool, str) or not tool:
        raise InputError(where, "'tool' must be a non-empty string")
    for key in ("site", "recipient"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise InputError(where, f"{key!r} must be a string")
    return Step(tool, obj.get("args"), obj.get("result"), obj.get("site"), obj.get("recipient"))


@dataclass(frozen=True, slots=True)
class Fact:
    """A piece of a tool result: a JSON leaf, a sentence of a long string, or a detected personal-data span."""

    step: int
    path: str  # JSON path of the leaf, e.g. $.transactions[0].card_number
    start: int  # offsets inside the leaf's text
    end: int
    unit: str  # leaf | sentence | pii | identifier
    kind: str | None  # pd: IRI when known
    keys: tuple[str, ...]  # content words of the leaf's own key (for intent)
    text: str = field(repr=False)  # the value itself: used for matching, never written out
    norm: str = field(repr=False)
    tokens: frozenset[str] = field(repr=False)
    alts: tuple[str, ...] = field(default=(), repr=False)  # other normalised spellings (a date's other orders)


@dataclass
class Flow:
    source_step: int
    source_path: str
    source_span: tuple[int, int]
    sink_step: int
    sink_tool: str
    sink_path: str
    sink_span: tuple[int, int]
    unit: str
    match: str  # exact | normalised | email | fuzzy
    score: float
    kind: str | None
    verdict: str = OVER_EXPOSED
    reasons: list[str] = field(default_factory=list)
    risk: dict[str, Any] | None = None
    committee: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        from pp_graph.vocab.dpv import compact

        return {
            "source_step": self.source_step,
            "source_path": self.source_path,
            "source_offsets": list(self.source_span),
            "sink_step": self.sink_step,
            "sink_tool": self.sink_tool,
            "sink_path": self.sink_path,
            "sink_offsets": list(self.sink_span),
            "unit": self.unit,
            "match": self.match,
            "score": round(self.score, 3),
            "kind": compact(self.kind) if self.kind else None,
            "verdict": self.verdict,
            "reasons": self.reasons,
            "risk": self.risk,
            **({"committee": self.committee} if self.committee is not None else {}),
        }
