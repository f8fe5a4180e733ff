"""The LLM backend: the Pr2Graph stages through an OpenAI-compatible chat model.

Two schemes over the same prompts, parsing and grounding:

* ``ours`` (default): three requests per *batch* of consecutive segments — ``entities`` (data and
  purpose spans with their DPV concepts), ``structure`` (parties, practices, practice details) and
  ``relations`` (over ids given by the code, only for segments that have a practice).
* ``paper``: one request per stage per segment, seven stages, as in the original Pr2Graph.

Everything the model says passes through :mod:`parse`: spans not found in their segment, labels not
in DPV and malformed items are rejected and counted per stage (``rejected.<stage>`` in the stats).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from pp_graph.errors import ConfigError
from pp_graph.extract.llm.cache import ResponseCache, default_cache_path
from pp_graph.extract.llm.client import LLMClient, LLMRequest, OpenAITransport, Spend, Transport, Usage
from pp_graph.extract.llm.config import SCHEMES, LLMSettings, load_settings
from pp_graph.extract.llm.errors import Truncated
from pp_graph.extract.llm.parse import Locator, entry_number, parse_json, segment_entries, valid_duration
from pp_graph.extract.llm.prompts import Prompt, load_prompts, prompt_version
from pp_graph.extract.llm.render import neutral, pack, render_segment
from pp_graph.extract.llm.schemas import (
    ITEM_MODEL,
    AttributeItem,
    ClassedSpanItem,
    LabelItem,
    PartyItem,
    PracticeItem,
    RelationItem,
    answer_key,
    classification_schema,
    concept_listing,
    prompt_schema,
    recognition_schema,
    relations_schema,
)
from pp_graph.extract.offline.statement_rules import DETAIL_KINDS, checked_code, statement_rules
from pp_graph.extract.registry import Backend
from pp_graph.extras import need
from pp_graph.load.language import detect
from pp_graph.model import (
    AttributeKind,
    AttributeMention,
    PartyKind,
    PartyMention,
    Policy,
    PracticeMention,
    Provenance,
    RecipientKind,
    Relation,
    RequirementMention,
    Role,
    Segment,
    SegmentExtraction,
    Span,
)
from pp_graph.vocab.dpv import LEGAL_BASIS, PERSONAL_DATA, PURPOSE, RIGHT, compact, vocabulary

T = TypeVar("T")

# Which pipeline stage an item kind's rejections are counted under.
REJECT_STAGE = {
    "data": "data_spans",
    "purposes": "purpose_spans",
    "parties": "parties",
    "practices": "practices",
    "attributes": "attributes",
}

# Recognition requests: stage → item kinds asked for in one answer.
RECOGNITION: dict[str, tuple[str, ...]] = {
    "entities": ("data+class", "purposes+class"),
    "structure": ("parties", "practices", "attributes"),
    "data_spans": ("data",),
    "purpose_spans": ("purposes",),
    "parties": ("parties",),
    "practices": ("practices",),
}


@dataclass(frozen=True)
class RequestMeta:
    """What a request is about, for the dry-run estimator (never sent)."""

    kind: str  # recognise | classify | relations
    policy: Policy
    segments: list[Segment]
    kinds: tuple[str, ...] = ()
    top: str = ""
    spans: list[Span] = field(default_factory=list)
    results: list[SegmentExtraction] = field(default_factory=list)


@dataclass
class _Found:
    data: list[tuple[Span, str | None]] = field(default_factory=list)
    purposes: list[tuple[Span, str | None]] = field(default_factory=list)
    parties: list[PartyMention] = field(default_factory=list)
    practices: list[PracticeMention] = field(default_factory=list)
    attributes: list[AttributeMention] = field(default_factory=list)


_NUMBER_WORDS = {
    1: ("one", "a ", "an "),
    2: ("two",),
    3: ("three",),
    4: ("four",),
    5: ("five",),
    6: ("six",),
    7: ("seven",),
    8: ("eight",),
    9: ("nine",),
    10: ("ten",),
    12: ("twelve",),
    18: ("eighteen",),
    24: ("twenty-four",),
    30: ("thirty",),
    60: ("sixty",),
    90: ("ninety",),
}


def _duration_grounded(duration: str, text: str) -> bool:
    """Every number in the duration is written in the span (as digits or a word): no invented periods."""
    low = f" {text.lower()} "
    for num in map(int, re.findall(r"\d+", duration)):
        if not re.search(rf"(?<!\d){num}(?!\d)", low) and not any(w in low for w in _NUMBER_WORDS.get(num, ())):
            return False
    return True


# Data and purposes differ only in these: (paper-scheme span stage, its class stage, DPV top concept).
_ENTITY = {
    "data": ("data_spans", "data_classes", PERSONAL_DATA),
    "purposes": ("purpose_spans", "purpose_classes", PURPOSE),
}


class LLMBackend(Backend):
    name = "llm"

    def __init__(
        self,
        model: str | None = None,
        config: str | Path | None = None,
        prefilter: bool | None = None,
        budget: float | None = None,
        no_cache: bool | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        transport: Callable[[], Transport] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        **options: Any,
    ) -> None:
        if transport is None:  # the default transport is the openai client
            need("llm", "the LLM backend")
        self.settings: LLMSettings = load_settings(
            config,
            model=model,
            prefilter=prefilter,
            budget=budget,
            no_cache=no_cache,
            base_url=base_url,
            api_key=api_key,
            **options,
        )
        s = self.settings
        self.scheme = s.scheme
        self.prompts: dict[str, Prompt] = load_prompts()
        self.stages = SCHEMES[self.scheme]
        self.prompt_version = f"{self.scheme}-{prompt_version(self.prompts, self.stages)}"
        cache = None
        if not s.no_cache:
            cache = ResponseCache(Path(s.cache_path) if s.cache_path else default_cache_path())
        self.cache = cache
        self.spend = Spend(s.budget)
        self.client = LLMClient(s, cache, transport or (lambda: OpenAITransport(s)), self.spend, sleep)
        if s.budget is not None:
            unpriced = [m for m in s.models() if self.client.price(m) is None]
            if unpriced:
                raise ConfigError(
                    f"--budget needs prices, but data/llm-prices.tsv has none for {', '.join(unpriced)}; add a row "
                    "or give --option price_in=… --option price_out=… (USD per 1M tokens)"
                )
        self._key: tuple[str, int] | None = None
        self._found: dict[int, _Found] = {}
        self._active: list[Segment] = []
        self._done: set[str] = set()
        self._warnings: list[str] = []
        self._offline: Any = None

    # -- Backend API --

    @property
    def provenance(self) -> Provenance:
        models = {self.settings.stage_model(s) for s in self.stages}
        model = (
            self.settings.model
            if models == {self.settings.model}
            else ",".join(f"{s}={self.settings.stage_model(s)}" for s in self.stages)
        )
        return Provenance("llm", model, self.prompt_version)

    def stats(self) -> dict[str, float]:
        return self.client.usage.flat()

    def data_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return self._entity_spans("data", policy, segments)

    def data_classes(self, policy: Policy, segments: list[Segment], spans: list[list[Span]]) -> list[list[str | None]]:
        return self._entity_classes("data", policy, segments, spans)

    def purpose_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return self._entity_spans("purposes", policy, segments)

    def purpose_classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]:
        return self._entity_classes("purposes", policy, segments, spans)

    def _entity_spans(self, kind: str, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        self._begin(policy, segments)
        self._ensure("entities" if self.scheme == "ours" else _ENTITY[kind][0], policy, segments)
        return [[sp for sp, _ in getattr(self._get(s), kind)] for s in segments]

    def _entity_classes(
        self, kind: str, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]:
        self._begin(policy, segments)
        if self.scheme == "paper":
            _, stage, top = _ENTITY[kind]
            return self._run(lambda: self._classify(stage, top, policy, segments, spans))
        return [self._lookup(getattr(self._get(s), kind), ss) for s, ss in zip(segments, spans, strict=True)]

    def parties(self, policy: Policy, segments: list[Segment]) -> list[list[PartyMention]]:
        self._begin(policy, segments)
        self._ensure("structure" if self.scheme == "ours" else "parties", policy, segments)
        return [self._get(s).parties for s in segments]

    def practices(self, policy: Policy, segments: list[Segment]) -> list[list[PracticeMention]]:
        self._begin(policy, segments)
        self._ensure("structure" if self.scheme == "ours" else "practices", policy, segments)
        return [self._get(s).practices for s in segments]

    def attributes(self, policy: Policy, segments: list[Segment]) -> list[list[AttributeMention]]:
        self._begin(policy, segments)
        if self.scheme == "ours":  # the paper scheme has no attribute stage
            self._ensure("structure", policy, segments)
        return [self._get(s).attributes for s in segments]

    def requirements(self, policy: Policy, segments: list[Segment]) -> list[list[RequirementMention]] | None:
        """With ``transparency = "llm"``: the model's transparency statements per segment (every segment is sent,
        the prefilter does not apply: a contact line has no practice); else None, and the rules decide."""
        if self.settings.transparency != "llm":
            return None
        from pp_graph.extract.llm.transparency import TransparencyAsker

        self._begin(policy, segments)
        outcome = self._run(lambda: TransparencyAsker(self.client, self.settings).ask(policy, segments))
        self._warnings.extend(outcome.warnings())
        return [outcome.found.get(s.index, []) for s in segments]

    def warnings(self) -> list[str]:
        return list(self._warnings)

    def relations(self, policy: Policy, results: list[SegmentExtraction]) -> list[list[Relation]]:
        segments = [r.segment for r in results]
        self._begin(policy, segments)
        active = {s.index for s in self._active}
        todo = [r for r in results if r.practices and r.segment.index in active]
        found = self._run(lambda: self._relations(policy, todo))
        return [found.get(r.segment.index, []) for r in results]

    # -- per-policy state --

    def begin(self, policy: Policy, segments: list[Segment]) -> None:
        """A new policy (or the same one again): forget the previous answers and counters."""
        key = (policy.digest, len(segments))
        self.client.usage = Usage()
        self._key, self._found, self._done, self._warnings = key, {}, set(), []
        self._active = self._prefilter(policy, segments) if self.settings.prefilter else list(segments)
        self.client.usage.segments_sent = len(self._active)
        self.client.usage.segments_skipped = len(segments) - len(self._active)

    def _begin(self, policy: Policy, segments: list[Segment]) -> None:
        """Stage methods called directly, outside the pipeline, start the policy themselves."""
        if (policy.digest, len(segments)) != self._key:
            self.begin(policy, segments)

    def _prefilter(self, policy: Policy, segments: list[Segment]) -> list[Segment]:
        """Segments where the offline extractor finds a practice, a data span or a purpose span; every segment
        of a policy in a language the offline extractor cannot read (it would find nothing, and skip them all)."""
        if self._offline is None:
            from pp_graph.extract.offline.backend import OfflineBackend

            self._offline = OfflineBackend()
        off = self._offline
        lang = detect(policy.text)
        if lang is not None and lang.confident and off.languages is not None and lang.code not in off.languages:
            return list(segments)
        hits = zip(
            off.data_spans(policy, segments),
            off.purpose_spans(policy, segments),
            off.practices(policy, segments),
            strict=True,
        )
        return [s for s, (d, p, pr) in zip(segments, hits, strict=True) if d or p or pr]

    def _get(self, seg: Segment) -> _Found:
        return self._found.setdefault(seg.index, _Found())

    @staticmethod
    def _lookup(found: list[tuple[Span, str | None]], spans: list[Span]) -> list[str | None]:
        by_span = {sp: c for sp, c in found}
        return [by_span.get(sp) for sp in spans]

    def _ensure(self, stage: str, policy: Policy, segments: list[Segment]) -> None:
        if stage in self._done:
            return
        self._run(lambda: self._recognise(stage, policy, segments))
        self._done.add(stage)

    def _run(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        async def main() -> T:
            async with self.client.session():
                return await make()

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(main())
        with ThreadPoolExecutor(1) as ex:  # called from inside an event loop (a notebook): run beside it
            return ex.submit(asyncio.run, main()).result()

    # -- requests --

    def _request(self, stage: str, meta: RequestMeta, schema: dict[str, Any], **values: str) -> LLMRequest:
        prompt = self.prompts[stage]
        schema_text = json.dumps(prompt_schema(schema), separators=(",", ":"), ensure_ascii=False)
        system_values = {"schema": schema_text}
        if stage in RECOGNITION:
            system_values |= {
                "data_concepts": concept_listing(PERSONAL_DATA),
                "purpose_concepts": concept_listing(PURPOSE),
            }
        elif stage in ("data_classes", "purpose_classes"):
            system_values["concepts"] = concept_listing(PERSONAL_DATA if stage == "data_classes" else PURPOSE)
        elif stage == "relations":
            system_values["roles"] = ", ".join(r.value for r in Role)
        messages = prompt.render(**system_values, **values)
        s = self.settings
        return LLMRequest(
            stage,
            s.stage_model(stage),
            messages,
            schema,
            s.stage_max_tokens(stage),
            s.stage_temperature(stage),
            prompt.digest,
            meta,
        )

    async def _ask(self, req: LLMRequest) -> Any | None:
        """The parsed JSON answer, or None (counted) if the model said nothing usable."""
        resp = await self.client.complete(req)
        value = parse_json(resp.content)
        if value is None:
            self.client.usage.reject(f"{req.stage}:unparseable")
        return value

    # recognition: spans (with or without classes), parties, practices, attributes

    async def _recognise(self, stage: str, policy: Policy, segments: list[Segment]) -> None:
        active = {s.index for s in self._active}
        todo = [s for s in segments if s.index in active]
        if self.scheme == "paper":
            batches = [[s] for s in todo]
        else:
            batches = pack(todo, self.settings.pack_chars, self.settings.pack_segments)
        await asyncio.gather(*(self._recognise_batch(stage, policy, segments, b) for b in batches))

    async def _recognise_batch(self, stage: str, policy: Policy, segments: list[Segment], batch: list[Segment]) -> None:
        kinds = RECOGNITION[stage]
        block = "\n".join(render_segment(n, s) for n, s in enumerate(batch, 1))
        meta = RequestMeta("recognise", policy, batch, kinds)
        req = self._request(stage, meta, recognition_schema(kinds), segments=block)
        try:
            value = await self._ask(req)
        except Truncated:
            if len(batch) > 1:
                half = len(batch) // 2
                await asyncio.gather(
                    self._recognise_batch(stage, policy, segments, batch[:half]),
                    self._recognise_batch(stage, policy, segments, batch[half:]),
                )
            else:
                self.client.usage.reject(f"{stage}:truncated")
            return
        entries = segment_entries(value) if value is not None else None
        if entries is None:
            if value is not None:
                self.client.usage.reject(f"{stage}:bad_shape")
            return
        locators: dict[int, dict[str, Locator]] = {}
        for entry in entries:
            n = entry_number(entry)
            for kind in kinds:
                key = answer_key(kind)
                items = entry.get(key, [])
                if not isinstance(items, list):
                    items = [items]
                if n is None or not 1 <= n <= len(batch):
                    self.client.usage.reject(REJECT_STAGE[key], len(items))
                    continue
                seg = batch[n - 1]
                # Successive mentions of one text map to successive occurrences within one list.
                loc = locators.setdefault(n, {}).setdefault(key, Locator(seg.text, seg.start))
                for raw in items:
                    if not self._accept(kind, raw, policy, segments, seg, loc):
                        self.client.usage.reject(REJECT_STAGE[key])

    def _accept(self, kind: str, raw: Any, policy: Policy, segments: list[Segment], seg: Segment, loc: Locator) -> bool:
        """Validate, ground and store one item; False if it is rejected."""
        if isinstance(raw, str) and kind in ("data", "purposes"):
            raw = {"text": raw}
        try:
            item: BaseModel = ITEM_MODEL[kind].model_validate(raw)
        except ValidationError:
            return False
        found = self._get(seg)
        text = policy.text
        if isinstance(item, PracticeItem) and item.from_heading:
            where = self._heading_locate(item.text, seg, segments)
            if where is None:
                return False
            found.practices.append(PracticeMention(Span.at(text, *where), item.type, item.negated, inherited=True))
            return True
        occ = getattr(item, "occurrence", None)
        where = loc.locate(getattr(item, "text", ""), occ)
        if where is None:
            return False
        span = Span.at(text, *where)
        vocab = vocabulary()
        if kind in ("data", "purposes", "data+class", "purposes+class"):
            concept = None
            if isinstance(item, ClassedSpanItem):
                # Unresolved → None: the pipeline rejects and counts it as a classification failure.
                concept = vocab.resolve(item.concept, PERSONAL_DATA if kind.startswith("data") else PURPOSE)
            (found.data if kind.startswith("data") else found.purposes).append((span, concept))
        elif isinstance(item, PartyItem):
            rk: RecipientKind = RecipientKind.FIRST_PARTY
            name: str = item.kind.value
            if item.kind == PartyKind.THIRD_PARTY:
                rk = item.recipient or RecipientKind.UNKNOWN
                if rk == RecipientKind.FIRST_PARTY:
                    rk = RecipientKind.UNKNOWN  # a third party is never typed as the first party
                name = span.text.lower()
            found.parties.append(PartyMention(span, item.kind, rk, name))
        elif isinstance(item, PracticeItem):
            found.practices.append(PracticeMention(span, item.type, item.negated))
        elif isinstance(item, AttributeItem):
            concept = None
            if item.kind in (AttributeKind.LEGAL_BASIS, AttributeKind.USER_RIGHT):
                top = LEGAL_BASIS if item.kind == AttributeKind.LEGAL_BASIS else RIGHT
                concept = vocab.resolve(item.concept, top) if item.concept else None
                if concept is None:
                    return False
            value = None
            if item.kind == AttributeKind.RETENTION_PERIOD:
                value = valid_duration(item.duration)
                if value and not _duration_grounded(value, span.text):
                    value = None  # keep the span, drop a period the text does not state
            elif item.kind in DETAIL_KINDS:  # a code the statement rules know, or none (the span is kept)
                code, concept = checked_code(statement_rules(), item.kind, item.code, span.text)
                value = code or None
            found.attributes.append(AttributeMention(span, item.kind, concept, value))
        return True

    @staticmethod
    def _heading_locate(trigger: str, seg: Segment, segments: list[Segment]) -> tuple[int, int] | None:
        """The trigger in the nearest heading above the segment (an inherited practice)."""
        for prev in reversed(segments[: seg.index]):
            if prev.is_heading:
                where = Locator(prev.text, prev.start).locate(trigger)
                if where is not None:
                    return where
                if len(prev.heading_path) <= 1:
                    break
        return None

    # classification (paper scheme): one request per segment with spans

    async def _classify(
        self, stage: str, top: str, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]:
        out: list[list[str | None]] = [[None] * len(ss) for ss in spans]
        active = {s.index for s in self._active}

        async def one(i: int, seg: Segment, ss: list[Span]) -> None:
            listing = "\n".join(f'{k}. "{neutral(sp.text)}"' for k, sp in enumerate(ss, 1))
            meta = RequestMeta("classify", policy, [seg], top=top, spans=ss)
            req = self._request(
                stage,
                meta,
                classification_schema(top),
                segment=render_segment(1, seg),
                spans=f"<spans>\n{listing}\n</spans>",
            )
            try:
                value = await self._ask(req)
            except Truncated:
                self.client.usage.reject(f"{stage}:truncated")
                return
            labels = value.get("labels") if isinstance(value, dict) else value
            if not isinstance(labels, list):
                return  # every span stays None: the pipeline counts each as rejected
            vocab = vocabulary()
            for raw in labels:
                try:
                    item = LabelItem.model_validate(raw)
                except ValidationError:
                    self.client.usage.reject(stage)
                    continue
                if not 1 <= item.n <= len(ss) or out[i][item.n - 1] is not None:
                    self.client.usage.reject(stage)  # no such span, or a second label for one
                    continue
                out[i][item.n - 1] = vocab.resolve(item.concept, top)

        await asyncio.gather(
            *(
                one(i, seg, ss)
                for i, (seg, ss) in enumerate(zip(segments, spans, strict=True))
                if ss and seg.index in active
            )
        )
        return out

    # relations: ids given by the code

    async def _relations(self, policy: Policy, todo: list[SegmentExtraction]) -> dict[int, list[Relation]]:
        found: dict[int, list[Relation]] = {}
        if self.scheme == "paper":
            batches = [[r] for r in todo]
        else:
            by_seg = {r.segment.index: r for r in todo}
            batches = [
                [by_seg[s.index] for s in b]
                for b in pack([r.segment for r in todo], self.settings.pack_chars, self.settings.pack_segments)
            ]
        await asyncio.gather(*(self._relations_batch(policy, b, found) for b in batches))
        return found

    async def _relations_batch(
        self, policy: Policy, batch: list[SegmentExtraction], found: dict[int, list[Relation]]
    ) -> None:
        block = "\n".join(_relation_block(n, r) for n, r in enumerate(batch, 1))
        meta = RequestMeta("relations", policy, [r.segment for r in batch], results=batch)
        req = self._request("relations", meta, relations_schema(), segments=block)
        try:
            value = await self._ask(req)
        except Truncated:
            if len(batch) > 1:
                half = len(batch) // 2
                await asyncio.gather(
                    self._relations_batch(policy, batch[:half], found),
                    self._relations_batch(policy, batch[half:], found),
                )
            else:
                self.client.usage.reject("relations:truncated")
            return
        entries = segment_entries(value) if value is not None else None
        for entry in entries or []:
            n = entry_number(entry)
            rels = entry.get("relations", [])
            if not isinstance(rels, list):
                rels = [rels]
            if n is None or not 1 <= n <= len(batch):
                self.client.usage.reject("relations", len(rels))
                continue
            out = found.setdefault(batch[n - 1].segment.index, [])
            for raw in rels:
                try:
                    item = RelationItem.model_validate(raw)
                except ValidationError:
                    self.client.usage.reject("relations")
                    continue
                # Id existence and role/target fit are checked (and counted) by the pipeline.
                out.append(Relation(item.practice, item.role, item.entity))


def _relation_block(n: int, r: SegmentExtraction) -> str:
    lines = [render_segment(n, r.segment), f'<practices n="{n}">']
    for i, p in enumerate(r.practices):
        neg = " (negated)" if p.negated else ""
        lines.append(f'P{i}: "{neutral(p.span.text)}" {p.type.value}{neg}')
    lines += ["</practices>", f'<entities n="{n}">', "party:first: the policy's own company (implied)"]
    lines += [f'data:{i}: "{neutral(d.span.text)}" {compact(d.concept or "")}' for i, d in enumerate(r.data)]
    lines += [f'purpose:{i}: "{neutral(p.span.text)}" {compact(p.concept or "")}' for i, p in enumerate(r.purposes)]
    lines += [f'party:{i}: "{neutral(p.span.text)}" {p.kind.value}' for i, p in enumerate(r.parties)]
    lines += [f'attr:{i}: "{neutral(a.span.text)}" {a.kind.value}' for i, a in enumerate(r.attributes)]
    lines.append("</entities>")
    return "\n".join(lines)
