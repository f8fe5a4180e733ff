"""The embedded SPARQL store (pyoxigraph): policy graphs, one named graph each, plus DPV.

The named queries read named graphs only (``GRAPH ?policy {…}``, DPV in ``urn:pp-graph:graph:dpv``), so
they mean the same here and on any SPARQL 1.1 server. For ad-hoc queries the default graph is the union
of the named graphs. Values are bound, never spliced. A store can be *scoped* to some policy graphs
(``scope``): queries then see those graphs and DPV only, however many more the folder holds.
A persistent store (a folder) remembers the SHA-256 and path of every file it loaded: unchanged files
are skipped next time, and a file whose content changed replaces the graphs its old version held.
The bookkeeping lives in the named graph ``urn:pp-graph:graph:meta`` (so it is part of the union
default graph too; the named queries only read policy graphs and DPV).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pp_graph.deadline import check_budget
from pp_graph.errors import InputError
from pp_graph.graph.files import GRAPH_SUFFIXES, graph_files, graph_suffix, parse_failure
from pp_graph.graph.namespaces import POLICY_BASE
from pp_graph.resources import DPV_FILES
from pp_graph.store.values import XSD_NS, literal_value
from pp_graph.vocab.dpv import WITHIN, within_pairs

DPV_GRAPH = ox.NamedNode("urn:pp-graph:graph:dpv")
META_GRAPH = ox.NamedNode("urn:pp-graph:graph:meta")  # which file (by digest and path) filled which graph

RDF_FORMATS = {
    ".trig": ox.RdfFormat.TRIG,
    ".nq": ox.RdfFormat.N_QUADS,
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".jsonld": ox.RdfFormat.JSON_LD,
}
_TRIPLE_FORMATS = (ox.RdfFormat.TURTLE, ox.RdfFormat.N_TRIPLES)
_PPG = "urn:pp-graph:ontology#"
_LOADED = ox.NamedNode(_PPG + "loadedGraph")
_SOURCE = ox.NamedNode(_PPG + "sourceFile")
PR2G_POLICY = "urn:pp-analyze:core#PrivacyPolicy"


def to_python(term: Any) -> Any:
    """An oxigraph term → a plain value: IRIs as strings, numbers and booleans as such."""
    if term is None:
        return None
    if isinstance(term, ox.Literal):
        return literal_value(term.value, term.datatype.value if term.datatype else None)
    return term.value


def to_term(value: Any) -> ox.NamedNode | ox.Literal:
    """A Python value → an oxigraph term for binding. Strings that look like IRIs become IRIs."""
    if isinstance(value, ox.NamedNode | ox.Literal):
        return value
    if isinstance(value, bool):
        return ox.Literal("true" if value else "false", datatype=ox.NamedNode(XSD_NS + "boolean"))
    if isinstance(value, int | float):
        dt = XSD_NS + ("integer" if isinstance(value, int) else "double")
        return ox.Literal(str(value), datatype=ox.NamedNode(dt))
    s = str(value)
    if s.startswith(("http://", "https://", "urn:")):
        return ox.NamedNode(s)
    return ox.Literal(s)


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_graph_file(path: Path) -> dict[str, list[ox.Quad]]:
    """Graph IRI → its quads, for one graph file; every triple ends up in a named graph.

    Triples formats (.ttl, .nt) hold one policy: its triples go into the graph named by its
    pr2g:PrivacyPolicy. Quads formats must put every triple in a named graph. Otherwise InputError
    naming the file.
    """
    fmt = RDF_FORMATS[graph_suffix(path)]
    try:
        quads = list(ox.parse(path=str(path), format=fmt))
    except (SyntaxError, ValueError, OSError, MemoryError) as e:
        raise parse_failure(path, e, GRAPH_SUFFIXES[path.suffix.lower()]) from e
    if fmt in _TRIPLE_FORMATS:
        g = _policy_graph_of(quads)
        if g is None:
            raise InputError(path.name, "no pr2g:PrivacyPolicy in this file: cannot tell its named graph")
        return {g.value: [ox.Quad(q.subject, q.predicate, q.object, g) for q in quads]}
    out: dict[str, list[ox.Quad]] = {}
    for q in quads:
        if not isinstance(q.graph_name, ox.NamedNode):
            raise InputError(path.name, "triples outside a named graph; every policy must be its own graph")
        out.setdefault(q.graph_name.value, []).append(q)
    return out


def _rows(res: ox.QuerySolutions) -> list[dict[str, Any]]:
    """The solutions as dicts. A failure while evaluating (a SERVICE call that fails, a store read error) is an
    InputError that holds no reference to ``res``: pyoxigraph's solutions may only be dropped on their own thread."""
    names = [v.value for v in res.variables]
    out: list[dict[str, Any]] = []
    try:
        for i, sol in enumerate(res):
            if not i & 255:  # a caller's time budget (the UI) stops a long result here
                check_budget()
            out.append({n: to_python(sol[n]) for n in names})
        return out
    except (OSError, RuntimeError) as e:
        problem = str(e)
    del res
    raise InputError("query", f"the query failed while running: {problem}")


class EmbeddedStore:
    """A pyoxigraph store; in memory by default, or persistent in a folder reused between runs."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        if path is not None:
            path.mkdir(parents=True, exist_ok=True)
        self.store = ox.Store(str(path)) if path else ox.Store()
        self.scope: list[str] | None = None  # policy graphs queries may see (None: all)
        self.loaded = 0  # files loaded by this object
        self.skipped = 0  # files skipped because the same content was loaded before (persistent store)

    def __len__(self) -> int:
        return len(self.store)

    def _file_node(self, digest: str) -> ox.NamedNode:
        return ox.NamedNode(f"urn:pp-graph:file:sha256:{digest}")

    def has_file(self, digest: str) -> bool:
        node = self._file_node(digest)
        return any(True for _ in self.store.quads_for_pattern(node, _LOADED, None, META_GRAPH))

    def load_file(self, path: Path) -> bool:
        """Load one graph file; False when a file with the same content was loaded already."""
        return self._load_file(path)[0]

    def _load_file(self, path: Path) -> tuple[bool, list[str]]:
        """(loaded?, the graph IRIs the file holds: from the parse, or as recorded when skipped)."""
        graph_suffix(path)
        digest = file_digest(path)
        node = self._file_node(digest)
        source = ox.Literal(str(path.resolve()))
        if self.has_file(digest):
            self._drop_source(source, keep=node)
            self.store.add(ox.Quad(node, _SOURCE, source, META_GRAPH))
            self.skipped += 1
            return False, self._graphs_loaded_by(node)
        graphs = {ox.NamedNode(g): quads for g, quads in read_graph_file(path).items()}
        # An earlier version of this file (same path, other content) is replaced, not kept beside it.
        self._drop_source(source, keep=node)
        for g in graphs:
            # A new version of a graph replaces the old one instead of merging with it.
            if self.store.contains_named_graph(g):
                self._forget_graph(g)
        self.store.bulk_extend(q for quads in graphs.values() for q in quads)
        names = sorted(graphs, key=lambda g: g.value)
        meta = [ox.Quad(node, _LOADED, g, META_GRAPH) for g in names]
        meta.append(ox.Quad(node, _SOURCE, source, META_GRAPH))
        self.store.extend(meta)
        self.loaded += 1
        return True, [g.value for g in names]

    def _graphs_loaded_by(self, node: ox.NamedNode) -> list[str]:
        quads = self.store.quads_for_pattern(node, _LOADED, None, META_GRAPH)
        return sorted(q.object.value for q in quads if isinstance(q.object, ox.NamedNode))

    def _drop_source(self, source: ox.Literal, keep: ox.NamedNode) -> None:
        """Forget the graphs of other file versions loaded from ``source`` (unless another path holds them)."""
        for q in list(self.store.quads_for_pattern(None, _SOURCE, source, META_GRAPH)):
            old = q.subject
            if old == keep or not isinstance(old, ox.NamedNode):
                continue
            self.store.remove(q)
            if any(True for _ in self.store.quads_for_pattern(old, _SOURCE, None, META_GRAPH)):
                continue  # the same old content is still the content of another file
            for g in self._graphs_loaded_by(old):
                self._forget_graph(ox.NamedNode(g))
            for m in list(self.store.quads_for_pattern(old, None, None, META_GRAPH)):
                self.store.remove(m)

    def _forget_graph(self, g: ox.NamedNode) -> None:
        self.store.remove_graph(g)
        for q in list(self.store.quads_for_pattern(None, _LOADED, g, META_GRAPH)):
            for m in list(self.store.quads_for_pattern(q.subject, None, None, META_GRAPH)):
                self.store.remove(m)

    def load_files(self, paths: Iterable[Path]) -> dict[Path, list[str]]:
        """Load every graph file under ``paths``; file → the graph IRIs it holds (also for skipped files)."""
        out = {f: self._load_file(f)[1] for f in graph_files(paths)}
        if self.path is not None:
            self.store.flush()
        return out

    def load(self, paths: Iterable[Path]) -> int:
        """Load every graph file under ``paths``; returns how many files were found."""
        return len(self.load_files(paths))

    def load_dataset(self, ds: Any) -> None:
        """Add an rdflib Dataset's quads (e.g. a fresh conversion) without writing a file."""
        data = ds.serialize(format="nquads", encoding="utf-8")
        self.store.bulk_extend(ox.parse(data, format=ox.RdfFormat.N_QUADS))

    def load_dpv(self) -> None:
        """DPV (SKOS) into its own named graph, with its ``ppg:within`` closure (see :func:`dpv_closure`)."""
        within = ox.NamedNode(WITHIN)
        if not any(True for _ in self.store.quads_for_pattern(None, within, None, DPV_GRAPH)):
            if any(True for _ in self.store.quads_for_pattern(None, None, None, DPV_GRAPH)):
                self.store.remove_graph(DPV_GRAPH)  # written by an older version, without the closure
            for f in DPV_FILES:
                self.store.bulk_load(path=str(f), format=ox.RdfFormat.TURTLE, to_graph=DPV_GRAPH)
            self.store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object, DPV_GRAPH) for t in dpv_closure())

    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a SELECT (rows as dicts of plain values) or ASK (one row {'ask': bool}) over the union graph."""
        try:
            subs: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {
                ox.Variable(k): to_term(v) for k, v in (bindings or {}).items()
            }
        except ValueError as e:
            raise InputError("query", f"a bound value is not a valid RDF term: {e}") from e
        try:
            res = self.store.query(sparql, substitutions=subs, **self._dataset())
        except SyntaxError as e:
            raise InputError("query", f"SPARQL syntax error: {e}") from e
        if isinstance(res, ox.QueryBoolean | bool):  # pyoxigraph 0.5 answers ASK with a QueryBoolean
            return [{"ask": bool(res)}]
        if not isinstance(res, ox.QuerySolutions):
            raise InputError("query", "CONSTRUCT/DESCRIBE queries are not supported here; use SELECT or ASK")
        return _rows(res)

    def _dataset(self) -> dict[str, Any]:
        """Query dataset options: the union default graph, restricted to the scope when there is one."""
        if self.scope is None:
            return {"use_default_graph_as_union": True}
        graphs = [ox.NamedNode(g) for g in (*self.scope, DPV_GRAPH.value)]
        return {"default_graph": graphs, "named_graphs": graphs}

    def policies(self) -> list[str]:
        return sorted(
            g.value
            for g in self.store.named_graphs()
            if isinstance(g, ox.NamedNode)
            and g.value.startswith(POLICY_BASE)
            and (self.scope is None or g.value in self.scope)
        )


def open_store(paths: Iterable[Path], store_dir: Path | None = None, dpv: bool = True) -> EmbeddedStore:
    """An embedded store with DPV and the graphs under ``paths`` (reusing ``store_dir`` when given).

    With both ``store_dir`` and ``paths`` the store is scoped to the graphs of those files; with
    ``store_dir`` alone queries see everything it holds.
    """
    store = EmbeddedStore(store_dir)
    if dpv:
        store.load_dpv()
    loaded = store.load_files(paths)
    if store_dir is not None and loaded:
        # A persistent folder may hold other policies too: answer over the given files only.
        store.scope = sorted({g for graphs in loaded.values() for g in graphs})
    return store


def dpv_closure() -> list[ox.Triple]:
    """``?c ppg:within ?a`` for every DPV concept and each of its ancestors, itself included."""
    within = ox.NamedNode(WITHIN)
    return [ox.Triple(ox.NamedNode(c), within, ox.NamedNode(a)) for c, a in within_pairs()]


def _policy_graph_of(quads: list[ox.Quad]) -> ox.NamedNode | None:
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    for q in quads:
        o = q.object
        if q.predicate.value == rdf_type and isinstance(o, ox.NamedNode) and o.value == PR2G_POLICY:
            s = q.subject
            return s if isinstance(s, ox.NamedNode) else None
    return None
