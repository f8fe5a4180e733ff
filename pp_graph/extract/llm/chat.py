"""One synchronous chat model on an OpenAI-compatible endpoint, for the callers outside the extraction batch:
the risk controller's likelihood model and the anonymizer's rewriter and attacker.

Each asks one question at a time and needs the same things: the key and base-URL rules of
``openai_client_kwargs`` (never unauthenticated to the public API), temperature 0 with a fixed seed (same input,
same answer where the server honours it), bounded SDK retries, and SDK failures turned into the caller's own
typed error naming the model.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pp_graph.errors import PPGraphError
from pp_graph.extras import import_optional


class ChatModel:
    def __init__(
        self,
        model: str,
        base_url: str | None,
        api_key: str | None,
        api_key_env: str = "OPENAI_API_KEY",
        *,
        what: str,
        error: type[PPGraphError],
        timeout: float = 30.0,
        max_retries: int = 1,
    ) -> None:
        """ConfigError (from ``openai_client_kwargs``) when there is neither a key nor a base URL."""
        OpenAI = import_optional("openai", "llm", "the LLM backend").OpenAI

        from pp_graph.extract.llm.client import openai_client_kwargs  # lazy: the batch client's imports are heavy

        args = openai_client_kwargs(base_url, api_key, api_key_env, what=what, option="--llm-base-url")
        self.model = model
        self.error = error
        self.client: Any = OpenAI(**args, timeout=timeout, max_retries=max_retries)

    def complete(self, system: str, user: str, max_tokens: int) -> str:
        """The answer's text; ``error`` on an SDK failure or an answer without content."""
        import openai

        try:
            resp = self.client.chat.completions.create(
                model=self.model,
                temperature=0,
                seed=0,
                max_tokens=max_tokens,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
            )
        except openai.OpenAIError as e:
            raise self.error(f"{self.model}: {type(e).__name__}: {e}") from e
        content = resp.choices[0].message.content if resp.choices else None
        if content is None or not str(content).strip():
            raise self.error(f"{self.model}: empty answer")
        return str(content)


class ChatRole:
    """A part a chat model plays (the anonymizer's rewriter, its attacker): ``name`` is ``llm:<model>``."""

    what: ClassVar[str] = "chat model"
    error: ClassVar[type[PPGraphError]] = PPGraphError

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float = 30.0,
    ) -> None:
        self.name = f"llm:{model}"
        self.model = model
        self.chat = ChatModel(model, base_url, api_key, api_key_env, what=self.what, error=self.error, timeout=timeout)
