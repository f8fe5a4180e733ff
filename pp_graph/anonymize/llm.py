"""L4/L5 rewriting by a chat model on an OpenAI-compatible endpoint (the prompt is prompts/anonymize-rewrite.txt).

The model sees only the L3 text (placeholders, no detected value); core.py rejects a rewrite that brings an
original value back and falls back to the offline rules.
"""

from __future__ import annotations

from typing import Any

from pp_graph.errors import PPGraphError
from pp_graph.extract.llm.chat import ChatRole
from pp_graph.resources import PROMPTS


class RewriterError(PPGraphError):
    """The rewriting model gave no usable answer."""


class OpenAIRewriter(ChatRole):
    what = "anonymize rewriter"
    error = RewriterError

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.system = (PROMPTS / "anonymize-rewrite.txt").read_text(encoding="utf-8")

    def rewrite(self, text: str, level: int) -> str:
        out = self.chat.complete(self.system, f"Level {level}.\n\n{text}", max(200, len(text))).strip()
        if not out:
            raise RewriterError(f"{self.model}: empty answer")
        return out
