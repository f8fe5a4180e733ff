"""Exporters: a policy graph (in a store) → another policy language. A registry, loaded lazily.

Each exporter is a function ``(store, policy_iri) -> rdflib.Graph`` reading the policy through the
``queries/export-*.rq`` queries. Adding one is a module plus one line in EXPORTERS.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pp_graph.errors import ConfigError, InputError

if TYPE_CHECKING:
    from rdflib import Graph

    from pp_graph.store.embedded import EmbeddedStore


@dataclass(frozen=True)
class Exporter:
    name: str
    target: str  # "module:function"
    suffix: str  # file suffix of one exported policy
    help: str

    def load(self) -> Callable[[EmbeddedStore, str], Graph]:
        module, _, func = self.target.partition(":")
        fn: Callable[[EmbeddedStore, str], Graph] = getattr(importlib.import_module(module), func)
        return fn


EXPORTERS: dict[str, Exporter] = {
    e.name: e
    for e in (
        Exporter(
            "odrl",
            "pp_graph.export.odrl:export_policy",
            ".odrl.ttl",
            "ODRL 2.2 policies with DPV as the profile's vocabulary (one odrl:Set per privacy policy).",
        ),
        Exporter(
            "psdtou",
            "pp_graph.export.psdtou:export_policy",
            ".dtou.ttl",
            "psDToU app policies (urn:dtou:core#): one dtou:AppPolicy per service.",
        ),
    )
}


def get_exporter(name: str) -> Exporter:
    try:
        return EXPORTERS[name]
    except KeyError:
        raise ConfigError(f"unknown exporter {name!r}; available: {', '.join(EXPORTERS)}") from None


def export_store(name: str, store: EmbeddedStore, policies: Iterable[str] | None = None) -> dict[str, Graph]:
    """Policy IRI → exported graph, for every policy in the store (or the given ones)."""
    fn = get_exporter(name).load()
    return {p: fn(store, p) for p in (sorted(policies) if policies is not None else store.policies())}


def export_paths(name: str, paths: Iterable[Path], out: Path, store_dir: Path | None = None) -> list[Path]:
    """Export every policy graph under ``paths``; ``out`` is a file (.ttl: all policies in it) or a folder."""
    from rdflib import Graph

    from pp_graph.store.embedded import open_store

    exporter = get_exporter(name)
    store = open_store(paths, store_dir)
    wanted = _policies_in(paths) if store_dir is not None else None
    graphs = export_store(name, store, wanted)
    if not graphs:
        raise InputError(", ".join(map(str, paths)), "no policy graphs found")
    written: list[Path] = []
    if out.suffix in {".ttl", ".turtle"}:
        merged = Graph()
        for g in graphs.values():
            for prefix, ns in g.namespaces():
                merged.bind(prefix, ns, override=False)
            merged += g
        out.parent.mkdir(parents=True, exist_ok=True)
        merged.serialize(out, format="turtle")
        return [out]
    out.mkdir(parents=True, exist_ok=True)
    for policy, g in graphs.items():
        site = policy.removeprefix("urn:pp-graph:policy:").rsplit(":", 1)[0]
        path = out / f"{site}{exporter.suffix}"
        g.serialize(path, format="turtle")
        written.append(path)
    return written


def _policies_in(paths: Iterable[Path]) -> list[str]:
    """Policy graphs the given files hold (a persistent store may hold others too)."""
    from pp_graph.store.embedded import EmbeddedStore

    tmp = EmbeddedStore()
    tmp.load(paths)
    return tmp.policies()
