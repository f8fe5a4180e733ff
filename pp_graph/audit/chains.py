"""The cross-tool call graph from tool signatures: which tool's results can reach which tool's arguments.

A result field can flow into a parameter when their JSON-schema types are compatible: free text (a string
without ``format`` or ``enum``) takes any scalar or whole object, a formatted string only a field of the same
format or category (an ``email`` parameter takes e-mail addresses), a number a number, an ``enum`` or boolean
nothing from a result. Each field's category comes from its format or its key words (data/audit/kind_terms.tsv)
and weighs what the AMRSF data-weight table gives it; a chain (source tool → sink tool, one hop) is ranked by the
heaviest category that can flow, then by how many fields can. Longer chains through relaying tools are not built.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pp_graph.audit.contracts import SinkSpec
from pp_graph.audit.text import kinds_named
from pp_graph.risk.tables import default_tables
from pp_graph.vocab.dpv import PD, PERSONAL_DATA, compact

EMAIL = PD + "EmailAddress"


@dataclass(frozen=True)
class SchemaField:
    path: str
    type: str | None
    format: str | None
    enum: bool
    category: str | None


def schema_fields(schema: Any, path: str = "$", key: str = "") -> Iterator[SchemaField]:
    """Leaf fields of a JSON schema (objects and arrays walked; an object without properties is one leaf)."""
    if not isinstance(schema, dict):
        return
    typ = schema.get("type")
    typ = typ if isinstance(typ, str) else None
    props = schema.get("properties")
    if isinstance(props, dict) and props:
        for k, sub in props.items():
            yield from schema_fields(sub, f"{path}.{k}", str(k))
        return
    if typ == "array" and isinstance(schema.get("items"), dict):
        yield from schema_fields(schema["items"], f"{path}[]", key)
        return
    fmt = schema.get("format") if isinstance(schema.get("format"), str) else None
    named = kinds_named(key) if key else []
    category = EMAIL if fmt == "email" else (named[0] if named else None)
    yield SchemaField(path, typ, fmt, "enum" in schema or "const" in schema, category)


def compatible(src: SchemaField, dst: SchemaField) -> bool:
    if dst.enum or dst.type == "boolean":
        return False
    if dst.type in ("number", "integer"):
        return src.type in ("number", "integer")
    if dst.format:
        return src.format == dst.format or (dst.format == "email" and src.category == EMAIL)
    return dst.type in (None, "string", "object", "array") and src.type != "boolean"


def call_graph(tools: Mapping[str, SinkSpec]) -> list[dict[str, Any]]:
    """Ranked source → sink chains: one row per pair of tools with at least one compatible field."""
    t = default_tables()
    rows: list[dict[str, Any]] = []
    sources = {n: list(schema_fields(s.result)) for n, s in tools.items() if s.result is not None}
    sinks = {n: list(schema_fields(s.parameters)) for n, s in tools.items() if s.parameters is not None}
    for src, outs in sources.items():
        for dst, ins in sinks.items():
            if src == dst:
                continue
            pairs = [(o, i) for o in outs for i in ins if compatible(o, i)]
            if not pairs:
                continue
            cats = sorted({o.category or PERSONAL_DATA for o, _ in pairs}, key=lambda c: (-t.data_weight.get(c), c))
            top = cats[0]
            rows.append(
                {
                    "source": src,
                    "sink": dst,
                    "site": tools[dst].site,
                    "sensitivity": round(t.data_weight.get(top), 3),
                    "top_category": compact(top),
                    "categories": ", ".join(compact(c) for c in cats),
                    "fields": len(pairs),
                    "flows": ", ".join(f"{o.path}→{i.path}" for o, i in pairs),
                }
            )
    rows.sort(key=lambda r: (-float(r["sensitivity"]), -int(r["fields"]), str(r["source"]), str(r["sink"])))
    return [{"rank": n, **r} for n, r in enumerate(rows, 1)]
