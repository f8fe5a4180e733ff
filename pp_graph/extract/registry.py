"""Registries: extraction stages by name, backends by name (loaded lazily).

A backend implements the stage methods of :class:`Backend`; each works on a whole policy (all its
segments at once) so a backend may batch requests. The pipeline, not the backend, enforces the
contracts: one output per segment, spans grounded in the text, concepts inside DPV.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pp_graph.errors import ConfigError
from pp_graph.model import (
    AttributeMention,
    PartyMention,
    Policy,
    PracticeMention,
    Provenance,
    Relation,
    RequirementMention,
    Segment,
    SegmentExtraction,
    Span,
)


class Backend(ABC):
    """One implementation of the Pr2Graph stages. Outputs are lists aligned with ``segments``."""

    name: str = ""
    # The languages (ISO 639 codes) the backend extracts from; None: any. A policy detected (confidently) in
    # another language gets a warning naming it (pp_graph.extract.languages).
    languages: frozenset[str] | None = None

    @property
    @abstractmethod
    def provenance(self) -> Provenance: ...

    def begin(self, policy: Policy, segments: list[Segment]) -> None:  # noqa: B027 - optional hook
        """Called by the pipeline before the stages of each policy: reset per-policy state here."""

    def finish(self, policy: Policy, results: list[SegmentExtraction]) -> None:  # noqa: B027 - optional hook
        """Called by the pipeline after the stages, on their checked results (the offline backend records there
        the rules that made and linked each mention)."""

    @abstractmethod
    def data_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]: ...

    @abstractmethod
    def data_classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]: ...

    @abstractmethod
    def purpose_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]: ...

    @abstractmethod
    def purpose_classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]: ...

    @abstractmethod
    def parties(self, policy: Policy, segments: list[Segment]) -> list[list[PartyMention]]: ...

    @abstractmethod
    def practices(self, policy: Policy, segments: list[Segment]) -> list[list[PracticeMention]]: ...

    @abstractmethod
    def attributes(self, policy: Policy, segments: list[Segment]) -> list[list[AttributeMention]]: ...

    @abstractmethod
    def relations(self, policy: Policy, results: list[SegmentExtraction]) -> list[list[Relation]]: ...

    def requirements(self, policy: Policy, segments: list[Segment]) -> list[list[RequirementMention]] | None:
        """The transparency statements of each segment when the backend finds them itself (the LLM backend with
        ``transparency = "llm"``); None: the transparency rules find them from the other stages' facts."""
        return None

    def warnings(self) -> list[str]:
        """What the conversion of the current policy should tell the user (added to the extraction's warnings)."""
        return []

    def stats(self) -> dict[str, float]:
        """Backend counters for the report (requests, tokens, cache hits…)."""
        return {}


# ---- stages ----


@dataclass(frozen=True)
class StageSpec:
    name: str
    doc: str
    run: Callable[[Backend, Policy, list[Segment], list[SegmentExtraction]], None]


STAGES: dict[str, StageSpec] = {}


def stage(name: str, doc: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a stage; stages run in registration order."""

    def deco(fn: Callable[..., None]) -> Callable[..., None]:
        STAGES[name] = StageSpec(name, doc, fn)
        return fn

    return deco


# ---- backends ----

BACKENDS: dict[str, str] = {
    "offline": "pp_graph.extract.offline.backend:OfflineBackend",
    "llm": "pp_graph.extract.llm.backend:LLMBackend",
}


def register_backend(name: str, target: str) -> None:
    """Add a backend: ``target`` is 'module:Class'."""
    BACKENDS[name] = target


def backend_target(name: str) -> str:
    """The 'module:Class' of backend ``name``, looked up now (a backend registered after import is found);
    ConfigError naming an unknown one and the registered ones."""
    target = BACKENDS.get(name)
    if target is None:
        raise ConfigError(f"unknown backend {name!r}; choose one of: {', '.join(sorted(BACKENDS))}")
    return target


def get_backend(name: str, **options: Any) -> Backend:
    module, _, cls = backend_target(name).partition(":")
    backend_cls = getattr(importlib.import_module(module), cls)
    backend: Backend = backend_cls(**options)
    return backend
