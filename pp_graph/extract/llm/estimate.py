"""Dry-run cost: the LLM backend with a transport that never leaves the process.

The estimator answers each request with what the offline extractor finds in the same segments, so
the requests that depend on earlier answers (classification, relations) are counted as a real run
would make them. Tokens are characters / 4 for prompts and for the stand-in answers.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pp_graph.extract.llm.backend import LLMBackend, RequestMeta
from pp_graph.extract.llm.client import LLMRequest, LLMResponse
from pp_graph.extract.llm.prices import estimate_tokens
from pp_graph.extract.llm.schemas import answer_key
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.pipeline import extract
from pp_graph.load.segment import segment_lines
from pp_graph.model import Policy, Segment
from pp_graph.vocab.dpv import PERSONAL_DATA, compact


class EstimateTransport:
    """Synthesises plausible answers from the offline extractor; counts nothing itself."""

    def __init__(self) -> None:
        self.offline = OfflineBackend()
        self._key = ""
        self._out: dict[str, list[Any]] = {}

    def _stage(self, policy: Policy, name: str, seg: Segment) -> list[Any]:
        """The offline extractor's output for one segment (run over the whole policy, once)."""
        if self._key != policy.digest:
            off, segs = self.offline, segment_lines(policy)  # the backend is given the policy as read already
            self._key = policy.digest
            self._out = {
                "data": off.data_spans(policy, segs),
                "purposes": off.purpose_spans(policy, segs),
                "parties": off.parties(policy, segs),
                "practices": off.practices(policy, segs),
                "attributes": off.attributes(policy, segs),
            }
        return self._out[name][seg.index]

    async def send(self, req: LLMRequest, mode: str) -> LLMResponse:
        meta = req.meta
        answer = self._answer(meta) if isinstance(meta, RequestMeta) else {}
        content = json.dumps(answer, ensure_ascii=False)
        return LLMResponse(content, "stop", estimate_tokens(req.prompt_chars()), estimate_tokens(content))

    async def aclose(self) -> None:
        return None

    def _answer(self, meta: RequestMeta) -> dict[str, Any]:
        off, policy = self.offline, meta.policy
        if meta.kind == "classify":
            lex = off.lex.data if meta.top == PERSONAL_DATA else off.lex.purposes
            return {
                "labels": [
                    {"n": i, "class": compact(off._concept(lex, sp.text) or meta.top)}
                    for i, sp in enumerate(meta.spans, 1)
                ]
            }
        if meta.kind == "relations":
            rels = off.relations(policy, meta.results)
            return {
                "segments": [
                    {
                        "n": n,
                        "relations": [{"practice": r.practice, "role": r.role.value, "entity": r.entity} for r in rs],
                    }
                    for n, rs in enumerate(rels, 1)
                ]
            }
        segs = meta.segments
        entries: list[dict[str, Any]] = []
        for n, seg in enumerate(segs, 1):
            e: dict[str, Any] = {"n": n}
            for kind in meta.kinds:
                e[answer_key(kind)] = self._items(kind, policy, seg)
            entries.append(e)
        return {"segments": entries}

    def _items(self, kind: str, policy: Policy, seg: Segment) -> list[dict[str, Any]]:
        off = self.offline
        base = answer_key(kind)
        if base in ("data", "purposes"):
            spans = self._stage(policy, base, seg)
            lex = off.lex.data if base == "data" else off.lex.purposes
            return [
                {
                    "text": sp.text,
                    "occurrence": None,
                    **({"class": compact(off._concept(lex, sp.text) or "")} if "+class" in kind else {}),
                }
                for sp in spans
            ]
        if base == "parties":
            return [
                {"text": p.span.text, "occurrence": None, "kind": p.kind.value, "recipient": p.recipient_kind.value}
                for p in self._stage(policy, base, seg)
            ]
        if base == "practices":
            return [
                {
                    "text": p.span.text,
                    "occurrence": None,
                    "type": p.type.value,
                    "negated": p.negated,
                    "from_heading": False,
                }
                for p in self._stage(policy, base, seg)
                if not p.inherited
            ]
        return [
            {
                "text": a.span.text,
                "occurrence": None,
                "kind": a.kind.value,
                "concept": compact(a.concept) if a.concept else None,
                "duration": a.value,
            }
            for a in self._stage(policy, "attributes", seg)
        ]


@cache
def _shared_transport() -> EstimateTransport:
    return EstimateTransport()


def estimate_policy(policy: Policy, **options: Any) -> dict[str, float]:
    """Requests, tokens and dollars one policy would take with these backend options (no network)."""
    options = {**options, "no_cache": True, "budget": None}
    # One transport for every stage and scheme: it runs the offline extractor once per policy.
    transport = _shared_transport()
    backend = LLMBackend(transport=lambda: transport, **options)
    ex = extract(policy, backend)
    stats = dict(ex.stats)
    stats["segments"] = len(ex.segments)
    return stats
