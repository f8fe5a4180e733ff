"""The slow path: a model that estimates the policy-violation likelihood L when the graph match is uncertain.

``LikelihoodModel`` is the protocol the engine uses; ``OpenAILikelihoodModel`` talks to any
OpenAI-compatible server with the ``openai`` SDK. The engine only lets a model RAISE L. The prompt
carries categories, purposes, recipients and the policy lines cited as evidence — never the user's text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pp_graph.errors import PPGraphError

PROMPT_VERSION = "risk-likelihood-1"
SYSTEM = (
    "You judge whether an outgoing data flow would violate a website's privacy policy. "
    "You get the flow (personal-data categories as DPV IRIs, purposes, recipient kinds, how the action "
    "was initiated) and the policy statements a knowledge graph matched to it. Answer with JSON only: "
    '{"likelihood": <number between 0 and 1>, "reason": "<one sentence>"} where likelihood is the '
    "probability that the flow is NOT permitted by the policy."
)


class LikelihoodError(PPGraphError):
    """The model did not give a usable likelihood."""


class LikelihoodModel(Protocol):
    name: str

    def estimate(self, context: Mapping[str, Any], evidence: Sequence[Mapping[str, Any]]) -> float: ...


def parse_likelihood(content: str) -> float:
    """A number in [0, 1] from the model's answer: JSON {"likelihood": x}, else the first number."""
    text = content.strip()
    m = re.search(r"\{[\s\S]*\}", text)
    if m:
        try:
            obj = json.loads(m.group(0))
            if isinstance(obj, dict) and "likelihood" in obj:
                return _unit(obj["likelihood"])
        except (ValueError, TypeError):
            pass
    n = re.search(r"(?<![\w.])(0(?:\.\d+)?|1(?:\.0+)?|\.\d+)(?![\w.])", text)
    if n:
        return _unit(n.group(1))
    raise LikelihoodError(f"the model's answer holds no likelihood: {text[:120]!r}")


def _unit(v: Any) -> float:
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise LikelihoodError(f"likelihood {v!r} is not a number") from None
    if not 0.0 <= x <= 1.0:
        raise LikelihoodError(f"likelihood {x} is outside [0, 1]")
    return x


class OpenAILikelihoodModel:
    """Chat completions on an OpenAI-compatible endpoint (temperature 0, JSON answer)."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 20.0,
        max_retries: int = 2,
        api_key_env: str = "OPENAI_API_KEY",
    ) -> None:
        """``base_url``/``api_key`` default to $OPENAI_BASE_URL and $api_key_env; ConfigError if neither is set."""
        from pp_graph.extract.llm.chat import ChatModel

        self.name = model
        self.chat = ChatModel(
            model,
            base_url,
            api_key,
            api_key_env,
            what="risk likelihood model",
            error=LikelihoodError,
            timeout=timeout,
            max_retries=max_retries,
        )

    def estimate(self, context: Mapping[str, Any], evidence: Sequence[Mapping[str, Any]]) -> float:
        user = json.dumps({"action": dict(context), "policy_evidence": list(evidence)}, ensure_ascii=False)
        return parse_likelihood(self.chat.complete(SYSTEM, user, 200))
