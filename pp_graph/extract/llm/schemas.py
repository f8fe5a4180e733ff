"""Answer formats: JSON schemas sent to the model, and pydantic models that check each item.

Items are validated one by one, so a single malformed item (wrong keys, unknown enum value) is
rejected and counted while the rest of the answer is kept.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pp_graph.model import AttributeKind, PartyKind, PracticeType, RecipientKind, Role
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, compact, vocabulary

# Item kinds a recognition request can ask for; "+class" also asks for the DPV concept of each span.


class _Item(BaseModel):
    model_config = ConfigDict(extra="ignore")

    text: str = Field(min_length=1)
    occurrence: int | None = None  # 1-based: which occurrence of ``text`` in the segment


class SpanItem(_Item):
    pass


class ClassedSpanItem(_Item):
    concept: str = Field(alias="class", min_length=1)


class PartyItem(_Item):
    kind: PartyKind
    recipient: RecipientKind | None = None


class PracticeItem(_Item):
    type: PracticeType
    negated: bool = False
    from_heading: bool = False


class AttributeItem(_Item):
    kind: AttributeKind
    concept: str | None = None
    duration: str | None = None
    code: str | None = None  # a statement detail's code (data/rules/statements.toml): "scc", "opt-out", "US" …


class LabelItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    n: int
    concept: str = Field(alias="class", min_length=1)


class RelationItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    practice: int
    role: Role
    entity: str = Field(pattern=r"^(data|purpose|party|attr):(\d+|first)$")


ITEM_MODEL: dict[str, type[BaseModel]] = {
    "data": SpanItem,
    "data+class": ClassedSpanItem,
    "purposes": SpanItem,
    "purposes+class": ClassedSpanItem,
    "parties": PartyItem,
    "practices": PracticeItem,
    "attributes": AttributeItem,
}


def answer_key(kind: str) -> str:
    """The JSON key a kind is answered under ('data+class' → 'data')."""
    return kind.partition("+")[0]


@cache
def concept_enum(top: str) -> tuple[str, ...]:
    """Every concept under ``top`` in DPV, as CURIEs (what the model may answer)."""
    return tuple(sorted(compact(i) for i in vocabulary().members(top)))


def concept_listing(top: str) -> str:
    """The concepts under ``top`` for a prompt, grouped by prefix: 'pd: Age, EmailAddress, …' (compact)."""
    groups: dict[str, list[str]] = {}
    for c in concept_enum(top):
        prefix, _, local = c.partition(":")
        groups.setdefault(prefix, []).append(local)
    return "\n".join(f"{p}: {', '.join(names)}" for p, names in groups.items())


def prompt_schema(schema: Any, limit: int = 30) -> Any:
    """The schema as shown in the prompt: long enums (listed elsewhere in the prompt) become strings.

    The full schema, enums included, still goes to the server as response_format.
    """
    if isinstance(schema, dict):
        if "enum" in schema and len(schema["enum"]) > limit:
            return {"type": "string"}
        return {k: prompt_schema(v, limit) for k, v in schema.items()}
    if isinstance(schema, list):
        return [prompt_schema(v, limit) for v in schema]
    return schema


def _obj(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


_TEXT = {"type": "string"}
_OCC = {"type": ["integer", "null"]}


def _item_schema(kind: str) -> dict[str, Any]:
    if kind in ("data", "purposes"):
        return _obj({"text": _TEXT, "occurrence": _OCC})
    if kind == "data+class":
        return _obj({"text": _TEXT, "occurrence": _OCC, "class": {"enum": list(concept_enum(PERSONAL_DATA))}})
    if kind == "purposes+class":
        return _obj({"text": _TEXT, "occurrence": _OCC, "class": {"enum": list(concept_enum(PURPOSE))}})
    if kind == "parties":
        return _obj(
            {
                "text": _TEXT,
                "occurrence": _OCC,
                "kind": {"enum": [k.value for k in PartyKind]},
                "recipient": {"enum": [k.value for k in RecipientKind]},
            }
        )
    if kind == "practices":
        return _obj(
            {
                "text": _TEXT,
                "occurrence": _OCC,
                "type": {"enum": [t.value for t in PracticeType]},
                "negated": {"type": "boolean"},
                "from_heading": {"type": "boolean"},
            }
        )
    if kind == "attributes":
        # Legal-basis and right concepts are listed with their labels in the prompt (CURIEs such as
        # eu-gdpr:A15 say nothing to a model); the answer is resolved against DPV either way.
        return _obj(
            {
                "text": _TEXT,
                "occurrence": _OCC,
                "kind": {"enum": [k.value for k in AttributeKind]},
                "concept": {"type": ["string", "null"]},
                "duration": {"type": ["string", "null"]},
                "code": {"type": ["string", "null"]},
            }
        )
    raise ValueError(f"unknown item kind {kind!r}")


def recognition_schema(kinds: tuple[str, ...]) -> dict[str, Any]:
    seg: dict[str, Any] = {"n": {"type": "integer"}}
    for k in kinds:
        seg[answer_key(k)] = {"type": "array", "items": _item_schema(k)}
    return _obj({"segments": {"type": "array", "items": _obj(seg)}})


def classification_schema(top: str) -> dict[str, Any]:
    item = _obj({"n": {"type": "integer"}, "class": {"enum": list(concept_enum(top))}})
    return _obj({"labels": {"type": "array", "items": item}})


def relations_schema() -> dict[str, Any]:
    rel = _obj(
        {"practice": {"type": "integer"}, "role": {"enum": [r.value for r in Role]}, "entity": {"type": "string"}}
    )
    seg = _obj({"n": {"type": "integer"}, "relations": {"type": "array", "items": rel}})
    return _obj({"segments": {"type": "array", "items": seg}})
