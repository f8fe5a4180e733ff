"""Typed fields: a value that carries its privacy labels everywhere it goes.

A ``Field`` holds the value, its privacy class, an optional DPV personal-data category (validated), the subject it
belongs to, the purpose it was collected for, where it came from and its retention class. The plane accepts only
``Field`` objects: a plain dict of values is rejected, because an unlabelled value cannot be judged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pp_graph.errors import PlaneError
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, compact, vocabulary


class PrivacyClass(StrEnum):
    """Ordered from least to most protected."""

    PUBLIC = "public"
    INTERNAL = "internal"
    PERSONAL = "personal"
    SENSITIVE = "sensitive"
    SECRET = "secret"

    @classmethod
    def parse(cls, value: object, where: str) -> PrivacyClass:
        if isinstance(value, PrivacyClass):
            return value
        if value is None or value == "":
            raise PlaneError(f"{where}: missing privacy class; give one of {CLASS_NAMES}")
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise PlaneError(f"{where}: unknown privacy class {value!r}; one of {CLASS_NAMES}") from None


CLASS_NAMES = ", ".join(c.value for c in PrivacyClass)
Scalar = str | int | float | bool


def dpv_term(term: str, top: str, where: str) -> str:
    """A CURIE/IRI/label → its compact DPV form; PlaneError naming ``where`` when it is not under ``top``."""
    iri = vocabulary().resolve(term, top)
    if iri is None:
        kind = (
            "personal-data category (pd:EmailAddress, …)" if top == PERSONAL_DATA else "purpose (dpv:CustomerCare, …)"
        )
        raise PlaneError(f"{where}: {term!r} is not a DPV 2.3 {kind}")
    return compact(iri)


@dataclass(frozen=True, slots=True)
class Field:
    """One labelled value. ``free_text`` marks prose (a summary, a note) whose content is scanned, not trusted."""

    name: str
    value: Scalar
    cls: PrivacyClass | str  # a PrivacyClass after __post_init__ (strings are parsed)
    category: str | None = None
    subject: str | None = None
    purpose: str | None = None
    provenance: str = "input"
    retention: str | None = None
    free_text: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise PlaneError(f"field name must be a non-empty string, got {self.name!r}")
        where = f"field {self.name!r}"
        if isinstance(self.value, Mapping | list | tuple | set) or not isinstance(self.value, Scalar):
            raise PlaneError(f"{where}: value must be a string, number or boolean, got {type(self.value).__name__}")
        object.__setattr__(self, "cls", PrivacyClass.parse(self.cls, where))
        if self.category is not None:
            object.__setattr__(self, "category", dpv_term(self.category, PERSONAL_DATA, f"{where} category"))
        if self.purpose is not None:
            object.__setattr__(self, "purpose", dpv_term(self.purpose, PURPOSE, f"{where} purpose"))
        if self.subject is not None and (not isinstance(self.subject, str) or not self.subject.strip()):
            raise PlaneError(f"{where}: subject must be a non-empty string such as 'user:42'")
        if not isinstance(self.provenance, str) or not self.provenance:
            raise PlaneError(f"{where}: provenance must be a non-empty string")

    def labels(self) -> dict[str, Any]:
        """Everything but the value: what a ledger may record."""
        return {
            "name": self.name,
            "class": str(self.cls),
            "category": self.category,
            "subject": self.subject is not None,
            "purpose": self.purpose,
            "provenance": self.provenance,
            "retention": self.retention,
        }


def as_fields(fields: object) -> list[Field]:
    """Fields from a Field, an iterable of Fields or a name → Field mapping; anything untyped is refused."""
    if isinstance(fields, Field):
        return [fields]
    if isinstance(fields, Mapping):
        items = list(fields.values())
        bad = [k for k, v in fields.items() if not isinstance(v, Field)]
        if bad:
            raise PlaneError(
                f"untyped value(s) for {', '.join(map(str, bad))}: the plane accepts only Field objects "
                "(wrap each value: Field(name, value, 'personal', category='pd:EmailAddress', …))"
            )
        mismatch = [k for k, v in fields.items() if v.name != k]
        if mismatch:
            raise PlaneError(f"mapping key(s) {', '.join(mismatch)} differ from their Field's name")
    elif isinstance(fields, Iterable) and not isinstance(fields, str | bytes):
        items = list(fields)
    else:
        raise PlaneError(f"expected Field objects, got {type(fields).__name__}")
    for f in items:
        if not isinstance(f, Field):
            raise PlaneError(f"untyped value {type(f).__name__}: the plane accepts only Field objects")
    names = [f.name for f in items]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise PlaneError(f"field name(s) given twice: {', '.join(dup)}")
    return items
