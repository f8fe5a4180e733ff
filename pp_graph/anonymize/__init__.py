"""Anonymization of outgoing text: recognisers → levels L1–L5 → verified guesser → escalation.

Stable API (the data plane calls it): ``anonymize(text, level=3, *, escalate=False, max_level=5, …) -> Anonymized``.
``warm_up(mode, freeze_heap=False)`` loads the detection models ahead of the first call (and, only when asked,
freezes the process's heap for a lower tail latency).
Layers: recognizers (detection) → levels (pure rewrites) → guesser (attacker + verification) → core (escalation).
"""

import sys
import types
from typing import Any

from pp_graph.anonymize.core import MAX_CHARS, Anonymized, Rewriter, anonymize, check_input
from pp_graph.anonymize.guesser import Guess, Guesser, OfflineGuesser, OpenAIGuesser, Verdict, verify
from pp_graph.anonymize.levels import LEVELS, Replacement, apply_level
from pp_graph.anonymize.pipeline import recognize, warm_up
from pp_graph.anonymize.recognizers.base import TYPES, Entity

__all__ = [
    "LEVELS",
    "MAX_CHARS",
    "TYPES",
    "Anonymized",
    "Entity",
    "Guess",
    "Guesser",
    "OfflineGuesser",
    "OpenAIGuesser",
    "Replacement",
    "Rewriter",
    "Verdict",
    "anonymize",
    "apply_level",
    "check_input",
    "recognize",
    "verify",
    "warm_up",
]


class _CallableModule(types.ModuleType):
    """``pp_graph.anonymize(text, level=…)`` calls :func:`anonymize`; the package stays importable as usual."""

    def __call__(self, text: str, level: int = 3, **kwargs: Any) -> Anonymized:
        return anonymize(text, level, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
