"""The optional LLM committee: several models vote on each flow; a majority may add "over-exposed", never clear it.

Each member gets the instruction and, per flow, its source and sink (tools, JSON paths, key words), category and
match kind — never the values. A flow a majority of members calls over-exposed becomes over-exposed with their
reason; a majority for "necessary" or "intended" changes nothing (it is recorded). A member that fails or answers
badly abstains; the majority is of all members, so abstentions never help a verdict through.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from functools import cache
from typing import Any

from pp_graph.audit.model import INTENDED, NECESSARY, OVER_EXPOSED, Flow, Trace
from pp_graph.errors import DataFileError
from pp_graph.resources import PROMPTS
from pp_graph.rulefiles import read_toml
from pp_graph.vocab.dpv import compact

VERDICTS = (OVER_EXPOSED, NECESSARY, INTENDED)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["flows"],
    "properties": {
        "flows": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "verdict", "reason"],
                "properties": {
                    "id": {"type": "integer"},
                    "verdict": {"type": "string", "enum": list(VERDICTS)},
                    "reason": {"type": "string"},
                },
            },
        }
    },
}


@cache
def prompt() -> tuple[str, str, str]:
    """(stage, version, system prompt) from prompts/audit_committee.toml."""
    path = PROMPTS / "audit_committee.toml"
    doc = read_toml(path)
    missing = [k for k in ("stage", "version", "system") if not isinstance(doc.get(k), str) or not doc[k].strip()]
    if missing:
        raise DataFileError(f"{path.name}: missing or empty {', '.join(missing)}")
    return doc["stage"], doc["version"], doc["system"].strip()


def describe(trace: Trace, flows: list[Flow]) -> str:
    """The user message: the instruction and the flows without any value."""
    items = [
        {
            "id": i,
            "source": {"tool": trace.steps[f.source_step].tool, "path": f.source_path, "unit": f.unit},
            "sink": {"tool": f.sink_tool, "path": f.sink_path, "site": trace.steps[f.sink_step].site},
            "category": compact(f.kind) if f.kind else None,
            "match": f.match,
            "current_verdict": f.verdict,
        }
        for i, f in enumerate(flows)
    ]
    return json.dumps({"instruction": trace.instruction, "flows": items}, ensure_ascii=False)


def parse_votes(content: str, n: int) -> dict[int, tuple[str, str]]:
    """flow id → (verdict, reason) from one member's answer; unknown ids and verdicts are dropped."""
    try:
        obj = json.loads(content)
    except ValueError:
        return {}
    out: dict[int, tuple[str, str]] = {}
    for v in obj.get("flows", []) if isinstance(obj, dict) else []:
        if isinstance(v, dict) and isinstance(v.get("id"), int) and 0 <= v["id"] < n and v.get("verdict") in VERDICTS:
            out[v["id"]] = (v["verdict"], str(v.get("reason", ""))[:300])
    return out


def apply_votes(flows: list[Flow], ballots: list[dict[int, tuple[str, str]]], members: list[str]) -> None:
    """Majority of all members: over-exposed is added with its reason; any other majority clears nothing."""
    need = len(members) // 2 + 1
    for i, f in enumerate(flows):
        votes = [(m, b[i]) for m, b in zip(members, ballots, strict=True) if i in b]
        tally = Counter(v for _, (v, _r) in votes)
        winner = next((v for v in VERDICTS if tally[v] >= need), None)
        f.committee = {"votes": dict(sorted(tally.items())), "members": len(members), "majority": winner}
        if winner == OVER_EXPOSED and f.verdict != OVER_EXPOSED:
            reason = next(r for _, (v, r) in votes if v == OVER_EXPOSED)
            f.verdict = OVER_EXPOSED
            f.reasons = [*f.reasons, f"committee ({tally[OVER_EXPOSED]}/{len(members)}): {reason}"]
        elif winner is not None and winner != f.verdict and f.verdict == OVER_EXPOSED:
            f.reasons = [*f.reasons, f"committee majority said {winner}; a committee cannot clear a flagged flow"]


class LLMCommittee:
    """Members are model names on one OpenAI-compatible server, asked through the project's LLM client."""

    def __init__(self, models: list[str], base_url: str | None = None, api_key_env: str = "OPENAI_API_KEY") -> None:
        from pp_graph.extract.llm.client import LLMClient, OpenAITransport, Spend, openai_client_kwargs
        from pp_graph.extract.llm.config import LLMSettings

        if not models:
            raise DataFileError("a committee needs at least one model")
        self.models = list(models)
        settings = LLMSettings(base_url=base_url, api_key_env=api_key_env, retries=1, timeout=30.0)
        # ConfigError now, not at the first trace, when there is neither a key nor a base URL.
        openai_client_kwargs(base_url, None, api_key_env, what="audit committee", option="--llm-base-url")
        self.client = LLMClient(settings, None, lambda: OpenAITransport(settings), Spend(None))

    def review(self, trace: Trace, flows: list[Flow]) -> None:
        ballots = asyncio.run(self._ask(trace, flows))
        apply_votes(flows, ballots, self.models)

    async def _ask(self, trace: Trace, flows: list[Flow]) -> list[dict[int, tuple[str, str]]]:
        from pp_graph.extract.llm.client import LLMRequest
        from pp_graph.extract.llm.errors import LLMRequestError, Truncated

        stage, version, system = prompt()
        messages = [{"role": "system", "content": system}, {"role": "user", "content": describe(trace, flows)}]

        async def one(model: str) -> dict[int, tuple[str, str]]:
            req = LLMRequest(stage, model, messages, SCHEMA, 200 + 60 * len(flows), 0.0, version)
            try:
                resp = await self.client.complete(req)
            except (LLMRequestError, Truncated):
                return {}  # abstains (fatal errors — a wrong key, an unknown model — propagate)
            return parse_votes(resp.content, len(flows))

        async with self.client.session():
            return list(await asyncio.gather(*(one(m) for m in self.models)))
