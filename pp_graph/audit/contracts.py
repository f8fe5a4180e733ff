"""What a sink needs: the data plane's contract files and tools' JSON-schema signatures.

``read_contract`` reads a contract file with the data plane's loader (pp_graph/plane/contracts.py)::

    [contract]
    name = "ticket.create"          # tool or boundary name
    boundary = "tool"               # "context" | "tool" | "memory"
    purpose = "dpv:CustomerCare"
    site = "zendesk.com"            # optional recipient domain
    [fields.customer_email]
    classes = ["personal"]          # public, internal, personal, sensitive, secret
    required = true
    category = "pd:EmailAddress"    # optional

``read_tools`` reads a tools file: a JSON list of ``{"name", "parameters": <JSON schema>, "result": <JSON
schema>, "site"?, "description"?}`` (``returns`` is accepted for ``result``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pp_graph.errors import InputError, VocabularyError
from pp_graph.vocab.dpv import PERSONAL_DATA, expand, vocabulary

BOUNDARIES = ("context", "tool", "memory")
CLASSES = ("public", "internal", "personal", "sensitive", "secret")


@dataclass(frozen=True)
class FieldSpec:
    name: str
    required: bool = False
    category: str | None = None  # pd: IRI
    classes: tuple[str, ...] = ()
    format: str | None = None  # JSON-schema "format" (email, …)
    type: str | None = None  # JSON-schema type


@dataclass(frozen=True)
class SinkSpec:
    """A sink's needs, from a contract file or a tool's JSON schema."""

    name: str
    fields: dict[str, FieldSpec]
    purpose: str | None = None
    site: str | None = None
    source: str = "schema"  # contract | schema
    recipient: str | None = None  # recipient kind for the risk engine (social_media, service_provider, …)
    result: Any = field(default=None, compare=False)  # the tool's result schema (for the call graph)
    parameters: Any = field(default=None, compare=False)


def _str(where: str, table: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    v = table.get(key)
    if v is None:
        if required:
            raise InputError(where, f"missing {key!r}")
        return None
    if not isinstance(v, str) or not v:
        raise InputError(where, f"{key!r} must be a non-empty string")
    return v


def _resolve(where: str, term: str, top: str, what: str) -> str:
    try:
        iri = vocabulary().resolve(term, top)
    except VocabularyError:
        iri = None
    if iri is None:
        raise InputError(where, f"{term!r} is not a {what} in DPV")
    return iri


def read_contract(path: Path) -> SinkSpec:
    """One contract file, read by the data plane's own loader (one format, one set of checks)."""
    from pp_graph.plane.contracts import load_contract

    c = load_contract(path)
    fields_ = {
        n: FieldSpec(
            n,
            required=r.required,
            category=expand(r.category) if r.category else None,
            classes=tuple(sorted(x.value for x in r.classes)),
        )
        for n, r in c.fields.items()
    }
    purpose = expand(c.purpose) if c.purpose else None
    return SinkSpec(c.name, fields_, purpose=purpose, site=c.site, source="contract", recipient=c.recipient)


def read_contracts(paths: list[Path]) -> dict[str, SinkSpec]:
    """Contract files, or folders of ``*.toml`` contracts, by contract name."""
    out: dict[str, SinkSpec] = {}
    for p in paths:
        files = sorted(p.glob("*.toml")) if p.is_dir() else [p]
        for f in files:
            spec = read_contract(f)
            if spec.name in out:
                raise InputError(f.name, f"a second contract named {spec.name!r}")
            out[spec.name] = spec
    return out


def _schema_fields(where: str, schema: Any) -> dict[str, FieldSpec]:
    if schema is None:
        return {}
    if not isinstance(schema, dict):
        raise InputError(where, "'parameters' must be a JSON schema object")
    props = schema.get("properties") or {}
    required = schema.get("required") or []
    if not isinstance(props, dict) or not isinstance(required, list):
        raise InputError(where, "'properties' must be an object and 'required' a list")
    out = {}
    for name, prop in props.items():
        prop = prop if isinstance(prop, dict) else {}
        fmt = prop.get("format")
        typ = prop.get("type")
        out[name] = FieldSpec(
            name,
            required=name in required,
            category=vocabulary().resolve("pd:EmailAddress", PERSONAL_DATA) if fmt == "email" else None,
            format=fmt if isinstance(fmt, str) else None,
            type=typ if isinstance(typ, str) else None,
        )
    return out


def read_tools(path: Path) -> dict[str, SinkSpec]:
    """A tools file (JSON list of tool signatures, see the module docstring) by tool name."""
    where = str(path.name)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(where, f"cannot be read ({e.strerror})") from e
    except ValueError as e:
        raise InputError(where, f"not valid JSON: {e}") from e
    items = doc.get("tools") if isinstance(doc, dict) else doc
    if not isinstance(items, list):
        raise InputError(where, 'expected a JSON list of tools (or {"tools": [...]})')
    out: dict[str, SinkSpec] = {}
    for i, t in enumerate(items):
        tw = f"{where}: tools[{i}]"
        if not isinstance(t, dict):
            raise InputError(tw, "expected a JSON object")
        name = _str(tw, t, "name", required=True)
        assert name is not None
        if name in out:
            raise InputError(tw, f"a second tool named {name!r}")
        params = t.get("parameters")
        result = t.get("result", t.get("returns"))
        out[name] = SinkSpec(
            name,
            _schema_fields(tw, params),
            site=_str(tw, t, "site"),
            recipient=_str(tw, t, "recipient"),
            result=result,
            parameters=params,
        )
    return out
