"""The transparency stage through the model: per segment, the GDPR Art. 13/14 requirements it addresses or denies.

Prompt and answer schema are data (prompts/transparency.toml, prompts/transparency.schema.json), checked at load:
the schema's requirement ids must be exactly those of data/rules/gdpr-transparency.toml, so the model answers in
the ids the graph, ``comply`` and the SHACL profile know. Each answer item is validated against the schema and its
words located in its segment (exact offsets into the policy); an item that fails either is dropped and counted,
never guessed into a statement. Requests go through the backend's client: cached by everything that changes the
answer (model, parameters, prompt and schema digests, the messages), so an interrupted run resumes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pp_graph.comply.rules import RULES_FILE, RuleSet, rules
from pp_graph.errors import DataFileError
from pp_graph.extract.llm.client import LLMClient, LLMRequest
from pp_graph.extract.llm.config import TRANSPARENCY, LLMSettings
from pp_graph.extract.llm.errors import Truncated
from pp_graph.extract.llm.parse import Locator, entry_number, parse_json, segment_entries
from pp_graph.extract.llm.prompts import Prompt, load_prompts
from pp_graph.extract.llm.render import pack, render_segment
from pp_graph.model import Policy, Provenance, RequirementMention, Segment, Span
from pp_graph.resources import PROMPTS

SCHEMA_FILE = PROMPTS / "transparency.schema.json"
# Where the requirement items sit in the schema: segments[].requirements[].
_ITEM_PATH = ("properties", "segments", "items", "properties", "requirements", "items")


@dataclass(frozen=True)
class TransparencySpec:
    """The stage's prompt, answer schema and the validator of one answer item; ``version`` names both files'
    contents (what the graph records as the statements' prompt version)."""

    prompt: Prompt
    schema: dict[str, Any]
    item_validator: Any  # jsonschema validator of one requirement item
    version: str

    @property
    def digest(self) -> str:
        return self.version.removeprefix("transparency-")


def _walk(schema: Any, path: Iterable[str], where: str) -> dict[str, Any]:
    node = schema
    for key in path:
        if not isinstance(node, dict) or key not in node:
            raise DataFileError(f"{where}: no {'.'.join(path)} (requirement items under segments[].requirements[])")
        node = node[key]
    if not isinstance(node, dict):
        raise DataFileError(f"{where}: {'.'.join(path)} is not a schema object")
    return node


def load_schema(path: Path, ruleset: RuleSet) -> tuple[dict[str, Any], Any, bytes]:
    """The answer schema, the validator of one item and the file's bytes; DataFileError naming the file when it
    is not JSON, not a JSON schema, or its requirement ids differ from the rule file's."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        raw = path.read_bytes()
        schema = json.loads(raw)
    except OSError as e:
        raise DataFileError(f"{path}: answer schema cannot be read ({e.strerror})") from e
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise DataFileError(f"{path.name}: not valid JSON ({e})") from e
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as e:
        raise DataFileError(f"{path.name}: not a valid JSON schema ({e.message})") from e
    item = _walk(schema, _ITEM_PATH, path.name)
    ids = _walk(item, ("properties", "id"), path.name).get("enum")
    want = [r.id for r in ruleset.requirements]
    if ids != want:
        raise DataFileError(
            f"{path.name}: the requirement ids must be those of {RULES_FILE.name} in its order "
            f"({', '.join(want)}); got {ids!r}"
        )
    return schema, Draft202012Validator(item), raw


@cache
def transparency_spec(schema_path: Path = SCHEMA_FILE) -> TransparencySpec:
    """The packaged prompt and schema, validated once per process."""
    prompt = load_prompts()[TRANSPARENCY]
    schema, validator, raw = load_schema(schema_path, rules())
    digest = hashlib.sha256(prompt.digest.encode() + b"\n" + raw).hexdigest()[:12]
    return TransparencySpec(prompt, schema, validator, f"transparency-{digest}")


def requirement_listing(ruleset: RuleSet) -> str:
    return "\n".join(f"{r.id}: {r.label} ({r.article})" for r in ruleset.requirements)


# Why an answer or item was dropped (counted as rejected.transparency:<code> in the backend's figures).
DROPPED = {
    "unparseable": "answers that were not JSON",
    "bad_shape": "answers without a segments list",
    "truncated": "segments whose answer was cut off at max_tokens_cap",
    "bad_segment": "items for a segment number not asked about",
    "invalid_item": "items not valid against the answer schema",
    "ungrounded": "items whose words are not in their segment",
    "heading": "items on a heading line",
}


@dataclass
class Outcome:
    """What one policy's answers gave: statements per segment index, and what was dropped, by reason code."""

    found: dict[int, list[RequirementMention]] = field(default_factory=dict)
    dropped: Counter[str] = field(default_factory=Counter)

    def warnings(self) -> list[str]:
        """One line saying what was dropped, for the conversion's warnings (no policy text in it)."""
        if not self.dropped:
            return []
        parts = "; ".join(f"{n} {DROPPED[code]}" for code, n in sorted(self.dropped.items()))
        return [f"transparency stage (llm): model output dropped, no statement made from it: {parts}"]


class TransparencyAsker:
    """Asks the model about one policy's segments, batch by batch, and keeps the grounded, valid items."""

    def __init__(self, client: LLMClient, settings: LLMSettings, spec: TransparencySpec | None = None) -> None:
        self.client, self.settings = client, settings
        self.spec = spec or transparency_spec()
        self.rules = rules()
        model = settings.stage_model(TRANSPARENCY)
        self.provenance = Provenance("llm", model, self.spec.version)

    async def ask(self, policy: Policy, segments: list[Segment]) -> Outcome:
        out = Outcome()
        batches = pack(segments, self.settings.pack_chars, self.settings.pack_segments)
        await asyncio.gather(*(self._batch(policy, b, out) for b in batches))
        for code, n in out.dropped.items():
            self.client.usage.reject(f"{TRANSPARENCY}:{code}", n)
        return out

    def request(self, batch: list[Segment]) -> LLMRequest:
        s, spec = self.settings, self.spec
        block = "\n".join(render_segment(n, seg) for n, seg in enumerate(batch, 1))
        schema_text = json.dumps(spec.schema, separators=(",", ":"), ensure_ascii=False)
        messages = spec.prompt.render(schema=schema_text, requirements=requirement_listing(self.rules), segments=block)
        return LLMRequest(
            TRANSPARENCY,
            s.stage_model(TRANSPARENCY),
            messages,
            spec.schema,
            s.stage_max_tokens(TRANSPARENCY),
            s.stage_temperature(TRANSPARENCY),
            spec.digest,  # prompt and schema: with the model, parameters and messages, the cache key
        )

    async def _batch(self, policy: Policy, batch: list[Segment], out: Outcome) -> None:
        try:
            resp = await self.client.complete(self.request(batch))
        except Truncated:
            if len(batch) > 1:
                half = len(batch) // 2
                await asyncio.gather(self._batch(policy, batch[:half], out), self._batch(policy, batch[half:], out))
            else:
                out.dropped["truncated"] += 1
            return
        value = parse_json(resp.content)
        entries = segment_entries(value) if value is not None else None
        if entries is None:
            out.dropped["unparseable" if value is None else "bad_shape"] += 1
            return
        for entry in entries:
            n = entry_number(entry)
            items = entry.get("requirements", [])
            items = items if isinstance(items, list) else [items]
            if n is None or not 1 <= n <= len(batch):
                out.dropped["bad_segment"] += len(items)
                continue
            seg = batch[n - 1]
            for raw in items:
                code = self._item(raw, policy, seg, out)
                if code:
                    out.dropped[code] += 1

    def _item(self, raw: Any, policy: Policy, seg: Segment, out: Outcome) -> str | None:
        """Keep one item as a statement; the reason code when it is dropped (a repeat is dropped silently)."""
        if not self.spec.item_validator.is_valid(raw):
            return "invalid_item"
        req = self.rules.get(raw["id"])
        if seg.is_heading and not req.headings:
            return "heading"
        # A locator per item: two requirements may rest on the same words (an address for controller and DPO).
        where = Locator(seg.text, seg.start).locate(raw["text"], raw["occurrence"])
        if where is None:
            return "ungrounded"
        found = out.found.setdefault(seg.index, [])
        if all(m.requirement != req.id or m.performed != raw["performed"] for m in found):
            span = Span.at(policy.text, *where)
            rule = f"{req.id}/llm"
            found.append(RequirementMention(span, req.id, raw["performed"], rule, req.concepts, source=self.provenance))
        return None
