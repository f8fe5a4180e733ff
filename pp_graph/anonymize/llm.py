"""L4/L5 rewriting by a chat model on an OpenAI-compatible endpoint (the prompt is prompts/anonymize-rewrite.txt).

The model sees only the L3 text (placeholders, no detected value); core.py rejects a rewrite that brings an
original value back and falls back to the offline rules.
"""

from __future__ import annotations

from pp_graph.errors import PPGraphError
from pp_graph.resources import PROMPTS


class RewriterError(PPGraphError):
    """The rewriting model gave no usable answer."""


class OpenAIRewriter:
    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 30.0,
    ) -> None:
        from openai import OpenAI

        from pp_graph.extract.llm.client import openai_client_kwargs

        self.name = f"llm:{model}"
        self.model = model
        args = openai_client_kwargs(base_url, api_key, api_key_env, what="anonymize rewriter", option="--llm-base-url")
        self.client = OpenAI(**args, timeout=timeout, max_retries=1)
        self.system = (PROMPTS / "anonymize-rewrite.txt").read_text(encoding="utf-8")

    def rewrite(self, text: str, level: int) -> str:
        import openai

        try:
            resp = self.client.chat.completions.create(
                model=self.model,
                temperature=0,
                seed=0,
                max_tokens=max(200, len(text)),
                messages=[
                    {"role": "system", "content": self.system},
                    {"role": "user", "content": f"Level {level}.\n\n{text}"},
                ],
            )
        except openai.OpenAIError as e:
            raise RewriterError(f"{self.model}: {type(e).__name__}: {e}") from e
        if not resp.choices or not resp.choices[0].message.content:
            raise RewriterError(f"{self.model}: empty answer")
        return resp.choices[0].message.content.strip()
