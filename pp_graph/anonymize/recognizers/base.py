"""What a recogniser is: the entity types, the ``Entity`` span it reports and the ``Recognizer`` record.

A recogniser has a name, the one entity type it finds, a priority (lower runs first and wins overlaps) and a
finder ``text -> iterable of (start, end)``; ``analyze(text)`` gives its spans as entities. ``regex`` makes one
from a pattern. The registry (``registry.py``) holds them; the pipeline (``pipeline.py``) runs them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pp_graph.errors import ConfigError

TYPES = (
    "PERSON",
    "STREET_ADDRESS",
    "GPE",
    "ORGANIZATION",
    "CREDIT_CARD",
    "DATE_TIME",
    "TITLE",
    "PHONE_NUMBER",
    "AGE",
    "NRP",
    "EMAIL_ADDRESS",
    "ZIP_CODE",
    "DOMAIN_NAME",
    "IBAN_CODE",
    "US_SSN",
    "IP_ADDRESS",
    "US_DRIVER_LICENSE",
    "PASSPORT",
    "SECRET",
)


@dataclass(frozen=True, slots=True)
class Entity:
    type: str
    start: int
    end: int
    recognizer: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "start": self.start, "end": self.end, "recognizer": self.recognizer}


@dataclass(frozen=True, slots=True)
class Detected:
    """The entities one detection found, with its provenance: the NER mode's name and the digest of the models it
    ran. A rewrite of them records these (``guard_text``), so a record names the detector that judged the text."""

    entities: tuple[Entity, ...]
    mode: str
    detector: str | None


Finder = Callable[[str], Iterable[tuple[int, int]]]


@dataclass(frozen=True)
class Recognizer:
    name: str
    type: str
    priority: int  # lower runs first and wins overlaps
    find: Finder
    family: str = "custom"  # the module it comes from ("email", "phone", …): what the registry lists it under

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ConfigError(
                f"recogniser {self.name!r}: unknown entity type {self.type!r} (one of {', '.join(TYPES)})"
            )

    @property
    def supported_types(self) -> tuple[str, ...]:
        return (self.type,)

    def analyze(self, text: str) -> list[Entity]:
        """This recogniser's spans in ``text`` alone (no normalisation, no overlap resolution)."""
        return [Entity(self.type, s, e, self.name) for s, e in self.find(text) if e > s]


def regex(
    name: str, type_: str, priority: int, pattern: str, group: int = 0, check: Any = None, family: str = "custom"
) -> Recognizer:
    """A recogniser whose spans are ``pattern``'s matches (``group``: that group's; -1: the first alternative's
    group that took part), kept when ``check(match)`` holds."""
    rx = re.compile(pattern)

    def find(text: str) -> Iterator[tuple[int, int]]:
        for m in rx.finditer(text):
            # group -1: the first alternative's group that took part in the match
            g = group if group >= 0 else next((i for i in range(1, len(m.groups()) + 1) if m.group(i)), 0)
            if m.group(g) and (check is None or check(m)):
                yield m.start(g), m.end(g)

    return Recognizer(name, type_, priority, find, family)


class Family:
    """The recognisers one module defines, in its order: ``FAMILY.regex(…)`` / ``FAMILY.add(…)`` make and keep
    them, and the registry loads ``FAMILY.members`` under ``FAMILY.name``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.members: list[Recognizer] = []

    def add(self, name: str, type_: str, priority: int, find: Finder) -> Recognizer:
        r = Recognizer(name, type_, priority, find, self.name)
        self.members.append(r)
        return r

    def regex(
        self, name: str, type_: str, priority: int, pattern: str, group: int = 0, check: Any = None
    ) -> Recognizer:
        r = regex(name, type_, priority, pattern, group, check, self.name)
        self.members.append(r)
        return r
