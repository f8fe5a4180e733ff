"""Contracts: per boundary or tool, the fields and classes it may receive and its declared purpose (TOML files).

```toml
[contract]
name = "ticket.create"          # tool or boundary name
boundary = "tool"               # "context" | "tool" | "memory"
purpose = "dpv:CustomerCare"    # declared purpose (validated against DPV)
site = "zendesk.com"            # optional: the recipient domain whose policy graph tightens the projection
recipient = "service_provider"  # optional (pp-graph): the recipient kind the risk engine scores
[fields.customer_email]
classes = ["personal"]          # privacy classes this field may carry
required = true                 # the tool needs it
category = "pd:EmailAddress"    # optional DPV category
free_text = false               # optional (pp-graph): prose whose content is scanned for personal data
level = "L4"                    # optional (pp-graph): anonymization level for that prose (L1–L5; the text
                                #   transformer's floor, L3 by default, still applies; a site's ℓ0 may raise it)
```
Every file is validated at load; an error names the file and the key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.errors import ContractError, PlaneError
from pp_graph.model import RecipientKind
from pp_graph.plane.fields import CLASS_NAMES, PrivacyClass, dpv_term
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE

BOUNDARIES = ("context", "tool", "memory")
RECIPIENT_KINDS = tuple(k.value for k in RecipientKind)  # the risk controller's recipient categories
_CONTRACT_KEYS = {"name", "boundary", "purpose", "site", "recipient", "description"}
_FIELD_KEYS = {"classes", "required", "category", "free_text", "level", "description"}
LEVELS = ("L1", "L2", "L3", "L4", "L5")


@dataclass(frozen=True)
class FieldRule:
    name: str
    classes: frozenset[PrivacyClass]
    required: bool = False
    category: str | None = None
    free_text: bool = False
    level: str | None = None  # anonymization level asked for free text (None: the plane's default)


@dataclass(frozen=True)
class Contract:
    name: str
    boundary: str
    purpose: str
    fields: Mapping[str, FieldRule]
    site: str | None = None
    recipient: str | None = None
    source: str = "<memory>"

    @functools.cached_property
    def digest(self) -> str:
        """SHA-256 of the contract's normalised content (not of its file's bytes or comments)."""
        body = {
            "name": self.name,
            "boundary": self.boundary,
            "purpose": self.purpose,
            "site": self.site,
            "recipient": self.recipient,
            "fields": {
                n: {
                    "classes": sorted(c.value for c in r.classes),
                    "required": r.required,
                    "category": r.category,
                    "free_text": r.free_text,
                    **({"level": r.level} if r.level else {}),  # absent: digests of older contracts unchanged
                }
                for n, r in sorted(self.fields.items())
            },
        }
        return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    @functools.cached_property
    def required(self) -> tuple[str, ...]:
        return tuple(n for n, r in self.fields.items() if r.required)


def _str(src: str, key: str, table: Mapping[str, Any], name: str, optional: bool = False) -> str | None:
    v = table.get(name)
    if v is None:
        if optional:
            return None
        raise ContractError(src, key, f"missing key {name!r}")
    if not isinstance(v, str) or not v.strip():
        raise ContractError(src, f"{key}.{name}", f"must be a non-empty string, got {v!r}")
    return v.strip()


def _unknown(src: str, key: str, table: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(table) - allowed)
    if extra:
        raise ContractError(src, key, f"unknown key(s) {', '.join(extra)}; allowed: {', '.join(sorted(allowed))}")


def _field_rule(src: str, name: str, table: object) -> FieldRule:
    key = f"fields.{name}"
    if not isinstance(table, Mapping):
        raise ContractError(src, key, "must be a table ([fields.NAME])")
    _unknown(src, key, table, _FIELD_KEYS)
    classes = table.get("classes")
    if not isinstance(classes, list) or not classes:
        raise ContractError(src, f"{key}.classes", f"missing or empty; a list drawn from {CLASS_NAMES}")
    parsed: set[PrivacyClass] = set()
    for c in classes:
        try:
            parsed.add(PrivacyClass.parse(c, f"{key}.classes"))
        except PlaneError:
            raise ContractError(src, f"{key}.classes", f"unknown class {c!r}; one of {CLASS_NAMES}") from None
    required = table.get("required", False)
    free_text = table.get("free_text", False)
    for flag, v in (("required", required), ("free_text", free_text)):
        if not isinstance(v, bool):
            raise ContractError(src, f"{key}.{flag}", f"must be true or false, got {v!r}")
    category = _str(src, key, table, "category", optional=True)
    if category is not None:
        try:
            category = dpv_term(category, PERSONAL_DATA, key)
        except PlaneError as e:
            raise ContractError(src, f"{key}.category", str(e)) from None
    level = _str(src, key, table, "level", optional=True)
    if level is not None:
        if level.upper() not in LEVELS:
            raise ContractError(src, f"{key}.level", f"{level!r} is not an anonymization level; one of {LEVELS}")
        if not free_text:
            raise ContractError(src, f"{key}.level", "applies to free text only; set free_text = true")
        level = level.upper()
    return FieldRule(name, frozenset(parsed), required, category, free_text, level)


def parse_contract(doc: Mapping[str, Any], src: str) -> Contract:
    """A contract from a parsed TOML document; ContractError naming ``src`` and the key on any problem."""
    _unknown(src, "top level", doc, {"contract", "fields"})
    head = doc.get("contract")
    if not isinstance(head, Mapping):
        raise ContractError(src, "contract", "missing [contract] table")
    _unknown(src, "contract", head, _CONTRACT_KEYS)
    name = _str(src, "contract", head, "name")
    boundary = _str(src, "contract", head, "boundary")
    if boundary not in BOUNDARIES:
        raise ContractError(src, "contract.boundary", f"{boundary!r} is not one of {', '.join(BOUNDARIES)}")
    purpose = _str(src, "contract", head, "purpose")
    assert name is not None and purpose is not None
    try:
        purpose = dpv_term(purpose, PURPOSE, "contract.purpose")
    except PlaneError as e:
        raise ContractError(src, "contract.purpose", str(e)) from None
    recipient = _str(src, "contract", head, "recipient", optional=True)
    if recipient is not None and recipient not in RECIPIENT_KINDS:
        raise ContractError(src, "contract.recipient", f"{recipient!r} is not one of {', '.join(RECIPIENT_KINDS)}")
    raw = doc.get("fields", {})
    if not isinstance(raw, Mapping) or not raw:
        raise ContractError(src, "fields", "no [fields.NAME] tables: a contract must name what it may receive")
    rules = {n: _field_rule(src, n, t) for n, t in raw.items()}
    site = _str(src, "contract", head, "site", optional=True)
    return Contract(name, boundary, purpose, rules, site.lower() if site else None, recipient, src)


def load_contract(path: Path) -> Contract:
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ContractError(str(path), "file", f"cannot be read ({e.strerror})") from e
    except UnicodeDecodeError as e:
        raise ContractError(str(path), "file", f"not valid UTF-8 (byte {e.start})") from e
    except tomllib.TOMLDecodeError as e:
        raise ContractError(str(path), "file", f"not valid TOML ({e})") from e
    return parse_contract(doc, str(path))


class Contracts(Mapping[str, Contract]):
    """Contracts by name, from one file or every ``*.toml`` in a folder (names must be unique)."""

    def __init__(self, contracts: Mapping[str, Contract] | None = None) -> None:
        self._by_name: dict[str, Contract] = dict(contracts or {})

    @classmethod
    def load(cls, path: str | Path) -> Contracts:
        p = Path(path)
        if p.is_dir():
            files = sorted(p.glob("*.toml"))
            if not files:
                raise ContractError(str(p), "folder", "contains no *.toml contract files")
        elif p.is_file():
            files = [p]
        else:
            raise ContractError(str(p), "path", "no such file or folder")
        out: dict[str, Contract] = {}
        for f in files:
            c = load_contract(f)
            if c.name in out:
                raise ContractError(str(f), "contract.name", f"{c.name!r} is also defined in {out[c.name].source}")
            out[c.name] = c
        return cls(out)

    def __getitem__(self, name: str) -> Contract:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(sorted(self._by_name)) or "none loaded"
            raise PlaneError(f"no contract named {name!r}; known: {known}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def for_context(self, purpose: str) -> Contract | None:
        """The context contract declared for ``purpose`` (compact DPV form), if any."""
        found = [c for c in self._by_name.values() if c.boundary == "context" and c.purpose == purpose]
        return found[0] if len(found) == 1 else None
