"""The recogniser registry: which pattern recognisers the pipeline runs.

``RecognizerRegistry.with_defaults()`` holds every built-in family (one module each under this package);
``add`` / ``remove`` change a registry, and ``pipeline.recognize(text, registry=…)`` runs the one given (the
module-level ``REGISTRY`` when none is). Recognisers run in (priority, name) order, so where they were added does
not change the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from pp_graph.anonymize.recognizers import (
    addresses,
    dates,
    email_addresses,
    financial,
    ids,
    names,
    network,
    orgs,
    passwords,
    phone,
    places,
    titles,
)
from pp_graph.anonymize.recognizers.base import TYPES, Family, Finder, Recognizer
from pp_graph.errors import ConfigError

# The built-in families, in the order the registry lists them (the run order is by priority).
DEFAULT_FAMILIES: tuple[Family, ...] = tuple(
    m.FAMILY
    for m in (
        passwords,
        email_addresses,
        financial,
        network,
        ids,
        dates,
        titles,
        orgs,
        addresses,
        phone,
        names,
        places,
    )
)


class RecognizerRegistry:
    """Named recognisers. ``add`` refuses a second one under a name (``replace=True`` swaps it); ``remove``
    refuses an unknown name. A registry reads like a mapping: ``registry["email"]``, ``"email" in registry``."""

    def __init__(self, recognizers: Iterable[Recognizer] = ()) -> None:
        self.by_name: dict[str, Recognizer] = {}
        for r in recognizers:
            self.add(r)

    @classmethod
    def with_defaults(cls) -> RecognizerRegistry:
        return cls(r for family in DEFAULT_FAMILIES for r in family.members)

    def add(self, recognizer: Recognizer, *, replace: bool = False) -> None:
        if not isinstance(recognizer, Recognizer):
            raise ConfigError(f"a registry holds Recognizer records, not {type(recognizer).__name__}")
        if recognizer.name in self.by_name and not replace:
            raise ConfigError(f"recogniser {recognizer.name!r} is registered already (replace=True swaps it)")
        self.by_name[recognizer.name] = recognizer

    def remove(self, name: str) -> Recognizer:
        if name not in self.by_name:
            raise ConfigError(f"no recogniser {name!r} to remove (registered: {', '.join(sorted(self.by_name))})")
        return self.by_name.pop(name)

    def copy(self) -> RecognizerRegistry:
        return RecognizerRegistry(self.by_name.values())

    def families(self) -> dict[str, tuple[str, ...]]:
        """Each family's recogniser names, families in registration order."""
        out: dict[str, list[str]] = {}
        for r in self.by_name.values():
            out.setdefault(r.family, []).append(r.name)
        return {f: tuple(names) for f, names in out.items()}

    def types(self) -> frozenset[str]:
        """The entity types the registered recognisers find."""
        return frozenset(t for r in self.by_name.values() for t in r.supported_types)

    def ordered(self) -> list[Recognizer]:
        """The recognisers in run order: lower priority first, then by name."""
        return sorted(self.by_name.values(), key=lambda r: (r.priority, r.name))

    def values(self) -> list[Recognizer]:
        return list(self.by_name.values())

    def __getitem__(self, name: str) -> Recognizer:
        return self.by_name[name]

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __iter__(self) -> Iterator[str]:
        return iter(self.by_name)

    def __len__(self) -> int:
        return len(self.by_name)


# The registry ``recognize`` runs when it is given none.
REGISTRY = RecognizerRegistry.with_defaults()


def recognizer(name: str, type_: str, priority: int) -> Callable[[Finder], Finder]:
    """Decorator: add ``fn`` (``text -> iterable of (start, end)``) to ``REGISTRY`` as recogniser ``name``."""
    if type_ not in TYPES:
        raise ConfigError(f"unknown entity type {type_!r}")

    def register(fn: Finder) -> Finder:
        REGISTRY.add(Recognizer(name, type_, priority, fn), replace=True)
        return fn

    return register
