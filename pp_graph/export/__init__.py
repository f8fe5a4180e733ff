"""Exporters: a policy graph (in a store) → another policy language. A registry, loaded lazily.

Each exporter is a function ``(store, policy_iri) -> rdflib.Graph`` reading the policy through the
``queries/export-*.rq`` queries, optionally with a validator ``(graph) -> report`` (a report has
``conforms``, ``results`` and ``text``). Adding one is a module plus one entry in EXPORTERS.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pp_graph.errors import ConfigError, InputError
from pp_graph.outfiles import atomic_write, ensure_dir

if TYPE_CHECKING:
    from rdflib import Graph

    from pp_graph.store.embedded import EmbeddedStore


class Report(Protocol):
    conforms: bool
    results: list[dict[str, str]]
    text: str


def _resolve(target: str) -> Any:
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)


@dataclass(frozen=True)
class Exporter:
    name: str
    target: str  # "module:function"
    suffix: str  # file suffix of one exported policy
    help: str
    validator: str | None = None  # "module:function" checking one exported graph
    validator_help: str = ""

    def load(self) -> Callable[[EmbeddedStore, str], Graph]:
        fn: Callable[[EmbeddedStore, str], Graph] = _resolve(self.target)
        return fn

    def load_validator(self) -> Callable[[Graph], Report]:
        if self.validator is None:
            raise ConfigError(f"the {self.name} exporter has no validator")
        fn: Callable[[Graph], Report] = _resolve(self.validator)
        return fn


EXPORTERS: dict[str, Exporter] = {
    e.name: e
    for e in (
        Exporter(
            "odrl",
            "pp_graph.export.odrl:export_policy",
            ".odrl.ttl",
            "ODRL 2.2 policies with DPV as the profile's vocabulary (one odrl:Set per privacy policy).",
            "pp_graph.export.odrl:validate_odrl",
            "Check the result against the W3C ODRL shapes and the profile shapes.",
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


def export_files(name: str, paths: Iterable[Path], store_dir: Path | None = None) -> dict[str, Graph]:
    """Policy IRI → exported graph, for the policy graphs the files under ``paths`` hold.

    With ``store_dir`` (a persistent store, which may hold other policies too) unchanged files are not
    parsed again.
    """
    from pp_graph.graph.namespaces import POLICY_BASE  # rdflib-backed module: load on use
    from pp_graph.store.embedded import EmbeddedStore

    get_exporter(name)
    paths = list(paths)
    store = EmbeddedStore(store_dir)  # no DPV: the export queries read the policy graphs only
    loaded = store.load_files(paths)
    wanted = {g for graphs in loaded.values() for g in graphs if g.startswith(POLICY_BASE)}
    if not wanted:
        raise InputError(", ".join(map(str, paths)), "no policy graphs found")
    return export_store(name, store, wanted)


def write_export(name: str, graphs: dict[str, Graph], out: Path) -> dict[Path, Graph]:
    """Write exported graphs: ``out`` is a .ttl file (all policies in it) or a folder (one file each).

    In a folder a policy's file is named after its site, plus the policy's digest when several
    versions of one site are exported (so none overwrites another). Returns file → graph written.
    """
    from rdflib import Graph

    exporter = get_exporter(name)
    if out.suffix in {".ttl", ".turtle"}:
        merged = Graph()
        for g in graphs.values():
            for prefix, ns in g.namespaces():
                merged.bind(prefix, ns, override=False)
            merged += g
        atomic_write(out, merged.serialize(format="turtle"))  # OutputError naming it when it cannot be
        return {out: merged}
    ensure_dir(out)
    written: dict[Path, Graph] = {}
    for stem, (_, g) in zip(file_stems(graphs), graphs.items(), strict=True):
        path = out / f"{stem}{exporter.suffix}"
        atomic_write(path, g.serialize(format="turtle"))
        written[path] = g
    return written


def file_stems(policies: Iterable[str]) -> list[str]:
    """One file name stem per policy IRI: the site, or ``site.digest`` when the site occurs more than once."""
    from pp_graph.graph.namespaces import POLICY_BASE  # rdflib-backed module: load on use

    parts = []
    for p in policies:
        site, sep, digest = p.removeprefix(POLICY_BASE).rpartition(":")
        parts.append((site, digest) if sep else (digest, ""))
    count = Counter(site for site, _ in parts)
    return [f"{site}.{digest}" if count[site] > 1 and digest else site for site, digest in parts]


def export_paths(name: str, paths: Iterable[Path], out: Path, store_dir: Path | None = None) -> list[Path]:
    """Export every policy graph under ``paths``; ``out`` is a file (.ttl: all policies in it) or a folder."""
    return list(write_export(name, export_files(name, paths, store_dir), out))
