"""Requests to an OpenAI-compatible server: cache, budget, bounded concurrency, retries, usage.

The SDK's own retries are off (``max_retries=0``): retries happen here only, for transient faults
(408/409/429/5xx, timeouts, dropped connections), with capped, jittered exponential backoff that
honours Retry-After. Errors every request would repeat (401, unknown model) are fatal.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypedDict

from pp_graph.errors import ConfigError
from pp_graph.extract.llm.cache import CachedResponse, ResponseCache, cache_key
from pp_graph.extract.llm.config import LLMSettings
from pp_graph.extract.llm.errors import (
    BudgetExceeded,
    LLMAuthError,
    LLMConnectionError,
    LLMFatalError,
    LLMModelError,
    LLMNoKeyError,
    LLMRequestError,
    Truncated,
)
from pp_graph.extract.llm.prices import Price, estimate_tokens, price_for
from pp_graph.extras import import_optional

RETRYABLE_STATUS = {408, 409, 429}


@dataclass(frozen=True)
class LLMRequest:
    stage: str
    model: str
    messages: list[dict[str, str]]
    schema: dict[str, Any]
    max_tokens: int
    temperature: float
    prompt_hash: str
    meta: Any = field(default=None, compare=False)  # what the request is about (for the dry-run estimator)

    def prompt_chars(self) -> str:
        return "".join(m["content"] for m in self.messages)


@dataclass(frozen=True)
class LLMResponse:
    content: str
    finish_reason: str | None
    prompt_tokens: int
    completion_tokens: int
    cached: bool = False


class Transport(Protocol):
    async def send(self, req: LLMRequest, mode: str) -> LLMResponse: ...

    async def aclose(self) -> None: ...


class ResponseFormatRejected(Exception):
    """The server answered 400 to a request carrying response_format (internal)."""


@dataclass
class StageUsage:
    requests: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    retries: int = 0
    truncated: int = 0

    def merge(self, other: StageUsage) -> None:
        for k, v in other.__dict__.items():
            setattr(self, k, getattr(self, k) + v)


@dataclass
class Usage:
    """Counters for one policy (or a whole run, merged)."""

    stages: dict[str, StageUsage] = field(default_factory=dict)
    rejected: Counter[str] = field(default_factory=Counter)
    segments_sent: int = 0
    segments_skipped: int = 0
    cost_known: bool = True

    def stage(self, name: str) -> StageUsage:
        return self.stages.setdefault(name, StageUsage())

    def reject(self, stage: str, n: int = 1) -> None:
        if n:
            self.rejected[stage] += n

    def merge(self, other: Usage) -> None:
        for k, v in other.stages.items():
            self.stage(k).merge(v)
        self.rejected.update(other.rejected)
        self.segments_sent += other.segments_sent
        self.segments_skipped += other.segments_skipped
        self.cost_known = self.cost_known and other.cost_known

    def total(self) -> StageUsage:
        t = StageUsage()
        for s in self.stages.values():
            t.merge(s)
        return t

    def flat(self) -> dict[str, float]:
        t = self.total()
        out: dict[str, float] = {
            "requests": t.requests,
            "cache_hits": t.cache_hits,
            "prompt_tokens": t.prompt_tokens,
            "completion_tokens": t.completion_tokens,
            "retries": t.retries,
            "truncated": t.truncated,
            "segments_sent": self.segments_sent,
            "segments_skipped": self.segments_skipped,
        }
        if self.cost_known:
            out["cost_usd"] = round(t.cost_usd, 6)
        for name, s in sorted(self.stages.items()):
            out[f"requests.{name}"] = s.requests
            out[f"prompt_tokens.{name}"] = s.prompt_tokens
            out[f"completion_tokens.{name}"] = s.completion_tokens
        for name, n in sorted(self.rejected.items()):
            out[f"rejected.{name}"] = n
        return out


class Spend:
    """Dollars spent and reserved by requests in flight; refuses a request that could pass the budget."""

    def __init__(self, budget: float | None) -> None:
        self.budget = budget
        self.spent = 0.0
        self.reserved = 0.0

    def reserve(self, estimate: float) -> None:
        if self.budget is not None and self.spent + self.reserved + estimate > self.budget:
            raise BudgetExceeded(
                f"budget ${self.budget:.4f} reached: ${self.spent:.4f} spent, the next request could cost up to "
                f"${estimate:.4f}; raise --budget to continue (answers so far are cached)"
            )
        self.reserved += estimate

    def settle(self, estimate: float, actual: float) -> None:
        self.reserved -= estimate
        self.spent += actual


def retry_after(headers: Any) -> float | None:
    """Seconds to wait from Retry-After / retry-after-ms headers (number or HTTP date)."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        when = email.utils.parsedate_to_datetime(value) if value else None
        return max(0.0, when.timestamp() - time.time()) if when else None


class OpenAIClientArgs(TypedDict):
    base_url: str | None
    api_key: str


def openai_client_kwargs(
    base_url: str | None,
    api_key: str | None,
    api_key_env: str = "OPENAI_API_KEY",
    *,
    what: str = "llm backend",
    option: str = "--option base_url=…",
) -> OpenAIClientArgs:
    """``base_url`` and ``api_key`` for an ``openai`` SDK client, falling back to $OPENAI_BASE_URL and $api_key_env.

    Without a key a base URL is required (a local server, which accepts any key): ConfigError otherwise, so
    nothing is ever sent unauthenticated to the public API.
    """
    settings = LLMSettings(base_url=base_url, api_key=api_key, api_key_env=api_key_env)
    url, key = settings.resolved_base_url(), settings.resolved_api_key()
    if key is None:
        if url is None:
            raise ConfigError(
                f"{what}: no API key; set {api_key_env}, or point OPENAI_BASE_URL / "
                f"{option} at a local server (Ollama, vLLM, llama.cpp)"
            )
        key = "not-needed"  # local servers accept any key
    return {"base_url": url, "api_key": key}


class OpenAITransport:
    """The real thing: ``openai.AsyncOpenAI`` against any OpenAI-compatible base URL."""

    def __init__(self, settings: LLMSettings) -> None:
        AsyncOpenAI = import_optional("openai", "llm", "LLM extraction").AsyncOpenAI

        try:
            kwargs = openai_client_kwargs(settings.base_url, settings.api_key, settings.api_key_env)
        except ConfigError as e:  # fatal here: said once for the batch, not once per policy
            raise LLMNoKeyError(str(e)) from e
        self.settings = settings
        self.base_url = kwargs["base_url"] or "https://api.openai.com/v1"
        self.client = AsyncOpenAI(**kwargs, timeout=settings.timeout, max_retries=0)

    async def send(self, req: LLMRequest, mode: str) -> LLMResponse:
        kwargs: dict[str, Any] = {
            "model": req.model,
            "messages": req.messages,
            "temperature": req.temperature,
            "max_tokens": req.max_tokens,
        }
        if self.settings.seed is not None:
            kwargs["seed"] = self.settings.seed
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": req.stage, "schema": req.schema, "strict": True},
            }
        elif mode == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
        resp = await self.client.chat.completions.create(**kwargs)
        choice = resp.choices[0] if resp.choices else None
        content = (choice.message.content if choice else None) or ""
        usage = resp.usage
        return LLMResponse(
            content=content,
            finish_reason=choice.finish_reason if choice else None,
            prompt_tokens=usage.prompt_tokens if usage else estimate_tokens(req.prompt_chars()),
            completion_tokens=usage.completion_tokens if usage else estimate_tokens(content),
        )

    async def aclose(self) -> None:
        await self.client.close()


class LLMClient:
    """Cache → budget → bounded, retried request → usage; one instance per backend."""

    def __init__(
        self,
        settings: LLMSettings,
        cache: ResponseCache | None,
        transport_factory: Callable[[], Transport],
        spend: Spend,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self.settings = settings
        self.cache = cache
        self.transport_factory = transport_factory
        self.spend = spend
        self.sleep = sleep if sleep is not None else asyncio.sleep
        self.usage = Usage()
        self.base_url = settings.resolved_base_url() or "https://api.openai.com/v1"
        self._modes: dict[str, str] = {}
        self._transport: Transport | None = None
        self._sems: dict[str, asyncio.Semaphore] = {}
        self._global: asyncio.Semaphore | None = None

    # -- pricing --

    def price(self, model: str) -> Price | None:
        s = self.settings
        if s.price_in is not None or s.price_out is not None:
            return Price(model, s.price_in or 0.0, s.price_out or 0.0)
        return price_for(model)

    # -- session: one transport and its semaphores per event loop --

    @asynccontextmanager
    async def session(self) -> AsyncIterator[LLMClient]:
        self._transport = None
        self._global = asyncio.Semaphore(self.settings.concurrency)
        self._sems = {}
        try:
            yield self
        finally:
            if self._transport is not None:
                await self._transport.aclose()
            self._transport = None

    def _transport_now(self) -> Transport:
        if self._transport is None:
            self._transport = self.transport_factory()
        return self._transport

    @asynccontextmanager
    async def _slot(self, stage: str) -> AsyncIterator[None]:
        assert self._global is not None, "use the client inside session()"
        limit = self.settings.stage(stage).concurrency
        sem = self._sems.setdefault(stage, asyncio.Semaphore(limit)) if limit else None
        if sem is not None:
            async with sem, self._global:
                yield
        else:
            async with self._global:
                yield

    # -- structured-output mode per model (auto: json_schema until the server refuses it) --

    def _fact_key(self, model: str) -> str:
        return f"no-json-schema|{self.base_url}|{model}"

    def mode(self, model: str) -> str:
        if model not in self._modes:
            mode = self.settings.structured_output
            if mode == "auto":
                refused = self.cache is not None and self.cache.fact(self._fact_key(model)) is not None
                mode = "none" if refused else "json_schema"
            self._modes[model] = mode
        return self._modes[model]

    def _fall_back(self, model: str) -> None:
        self._modes[model] = "none"
        if self.cache is not None:
            self.cache.set_fact(self._fact_key(model), "400")

    # -- requests --

    async def complete(self, req: LLMRequest) -> LLMResponse:
        """One answer, escalating max_tokens on truncation; raises Truncated at the cap."""
        while True:
            resp = await self._complete_once(req)
            if resp.finish_reason != "length":
                return resp
            self.usage.stage(req.stage).truncated += 1
            if req.max_tokens >= self.settings.max_tokens_cap:
                raise Truncated(f"{req.stage}: answer truncated at max_tokens={req.max_tokens} (the cap)")
            req = replace(req, max_tokens=min(self.settings.max_tokens_cap, req.max_tokens * 2))

    async def _complete_once(self, req: LLMRequest) -> LLMResponse:
        su = self.usage.stage(req.stage)
        while True:
            mode = self.mode(req.model)
            params = {
                "temperature": req.temperature,
                "max_tokens": req.max_tokens,
                "seed": self.settings.seed,
                "mode": mode,
                "schema": req.schema if mode == "json_schema" else None,
            }
            key = cache_key(req.stage, req.prompt_hash, req.model, params, req.messages)
            if self.cache is not None:
                hit = self.cache.get(key)
                if hit is not None:
                    su.cache_hits += 1
                    return LLMResponse(
                        hit.content, hit.finish_reason, hit.prompt_tokens, hit.completion_tokens, cached=True
                    )
            price = self.price(req.model)
            if price is None:
                self.usage.cost_known = False
            estimate = price.cost(estimate_tokens(req.prompt_chars()), req.max_tokens) if price else 0.0
            self.spend.reserve(estimate)
            actual = 0.0
            try:
                resp = await self._send_retrying(req, mode)
                actual = price.cost(resp.prompt_tokens, resp.completion_tokens) if price else 0.0
            except ResponseFormatRejected:
                self._fall_back(req.model)
                continue
            finally:
                self.spend.settle(estimate, actual)
            su.requests += 1
            su.prompt_tokens += resp.prompt_tokens
            su.completion_tokens += resp.completion_tokens
            su.cost_usd += actual
            if self.cache is not None:
                self.cache.put(
                    key,
                    req.stage,
                    req.model,
                    CachedResponse(resp.content, resp.finish_reason, resp.prompt_tokens, resp.completion_tokens),
                )
            return resp

    async def _send_retrying(self, req: LLMRequest, mode: str) -> LLMResponse:
        import openai

        s = self.settings
        attempt = 0
        while True:
            wait: float | None = None
            unreachable = False
            try:
                async with self._slot(req.stage):
                    return await self._transport_now().send(req, mode)
            except openai.APIStatusError as e:
                status = e.status_code
                detail = _detail(e)
                if status in (401, 403):
                    raise LLMAuthError(
                        f"the server at {self.base_url} refused the API key ({status}: {detail}); set "
                        f"{s.api_key_env} or --option api_key=… (nothing further was sent)"
                    ) from e
                if status == 404:
                    raise LLMModelError(
                        f"model {req.model!r} not found at {self.base_url} (404: {detail}); check --model and "
                        "the stage models in the config, and that the base URL ends in /v1"
                    ) from e
                if status in (400, 422):
                    low = detail.lower()
                    if mode != "none" and s.structured_output == "auto":
                        raise ResponseFormatRejected from e
                    if mode != "none" and ("response_format" in low or "json_schema" in low):
                        raise LLMFatalError(
                            f"the server at {self.base_url} rejects response_format {mode!r} ({detail}); "
                            'set structured_output = "auto" or "none"'
                        ) from e
                    if "model" in low:
                        raise LLMModelError(
                            f"the server at {self.base_url} rejects model {req.model!r} ({status}: {detail})"
                        ) from e
                    raise LLMRequestError(f"{req.stage}: the server refused the request ({status}: {detail})") from e
                if status not in RETRYABLE_STATUS and status < 500:
                    raise LLMRequestError(f"{req.stage}: request failed ({status}: {detail})") from e
                wait = retry_after(e.response.headers)
                last = f"{status}: {detail}"
            except openai.APITimeoutError:
                last = f"no answer within {s.timeout:g}s"
            except openai.APIConnectionError as e:
                last = f"connection failed: {_cause(e)}"
                unreachable = True
            attempt += 1
            if attempt > s.retries:
                if unreachable:
                    # Not this request's fault: every further one would fail the same way, so the batch stops.
                    raise LLMConnectionError(
                        f"cannot reach the LLM server at {self.base_url} ({last}) after {attempt} attempts; start "
                        "it, or fix --option base_url / OPENAI_BASE_URL"
                    )
                raise LLMRequestError(f"{req.stage}: giving up after {attempt} attempts ({last}) at {self.base_url}")
            self.usage.stage(req.stage).retries += 1
            backoff = min(s.backoff_cap, s.backoff_base * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0)
            delay = min(wait, s.retry_after_cap) if wait is not None else backoff
            await self.sleep(delay)


def _cause(e: BaseException) -> str:
    """The innermost reason of a connection error ('[Errno 111] Connection refused'), not the SDK's wrapper."""
    while e.__cause__ is not None:
        e = e.__cause__
    return str(e) or type(e).__name__


def _detail(e: Any) -> str:
    body = getattr(e, "body", None)
    if isinstance(body, dict):
        inner = body.get("error")
        msg = inner.get("message") if isinstance(inner, dict) else body.get("message")
        if msg:
            return str(msg)[:300]
    return str(getattr(e, "message", e))[:300]
