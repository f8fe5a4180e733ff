"""The embedded SPARQL store (pyoxigraph): policy graphs, one named graph each, plus DPV.

Queries see the union of all named graphs as their default graph, so a query written once runs
unchanged here and on a SPARQL server configured the same way. Values are bound, never spliced.
A persistent store (a folder) remembers the SHA-256 of every file it loaded and skips it next time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pp_graph.errors import InputError
from pp_graph.resources import DPV_FILES

DPV_GRAPH = ox.NamedNode("urn:pp-graph:graph:dpv")
META_GRAPH = ox.NamedNode("urn:pp-graph:graph:meta")  # which file (by digest) filled which graph

GRAPH_SUFFIXES = {
    ".trig": ox.RdfFormat.TRIG,
    ".nq": ox.RdfFormat.N_QUADS,
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".jsonld": ox.RdfFormat.JSON_LD,
}
POLICY_PREFIX = "urn:pp-graph:policy:"
_POLICY_PREFIX = POLICY_PREFIX  # kept for older imports
_PPG = "urn:pp-graph:ontology#"
_LOADED = ox.NamedNode(_PPG + "loadedGraph")
_SOURCE = ox.NamedNode(_PPG + "sourceFile")
_XSD = "http://www.w3.org/2001/XMLSchema#"
PR2G_POLICY = "urn:pp-analyze:core#PrivacyPolicy"


def graph_files(paths: Iterable[Path]) -> list[Path]:
    """Graph files under the given files/folders (sorted)."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(f for f in sorted(p.rglob("*")) if f.is_file() and f.suffix in GRAPH_SUFFIXES)
        elif p.is_file():
            if p.suffix not in GRAPH_SUFFIXES:
                raise InputError(str(p), f"not a graph file; expected one of {', '.join(GRAPH_SUFFIXES)}")
            out.append(p)
        else:
            raise InputError(str(p), "no such file or folder")
    return out


def to_python(term: Any) -> Any:
    """An oxigraph term → a plain value: IRIs as strings, numbers and booleans as such."""
    if term is None:
        return None
    if isinstance(term, ox.Literal):
        dt = term.datatype.value if term.datatype else ""
        if dt.endswith(("#integer", "#int", "#long", "#nonNegativeInteger")):
            return int(term.value)
        if dt.endswith(("#decimal", "#double", "#float")):
            return float(term.value)
        if dt.endswith("#boolean"):
            return term.value == "true"
        return term.value
    return term.value


def to_term(value: Any) -> ox.NamedNode | ox.Literal:
    """A Python value → an oxigraph term for binding. Strings that look like IRIs become IRIs."""
    if isinstance(value, ox.NamedNode | ox.Literal):
        return value
    if isinstance(value, bool):
        return ox.Literal("true" if value else "false", datatype=ox.NamedNode(_XSD + "boolean"))
    if isinstance(value, int | float):
        return ox.Literal(str(value), datatype=ox.NamedNode(_XSD + ("integer" if isinstance(value, int) else "double")))
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


class EmbeddedStore:
    """A pyoxigraph store; in memory by default, or persistent in a folder reused between runs."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        if path is not None:
            path.mkdir(parents=True, exist_ok=True)
        self.store = ox.Store(str(path)) if path else ox.Store()
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
        fmt = GRAPH_SUFFIXES.get(path.suffix)
        if fmt is None:
            raise InputError(str(path), f"not a graph file; expected one of {', '.join(GRAPH_SUFFIXES)}")
        digest = file_digest(path)
        if self.has_file(digest):
            self.skipped += 1
            return False
        try:
            quads = list(ox.parse(path=str(path), format=fmt))
        except (SyntaxError, ValueError, OSError) as e:
            raise InputError(path.name, f"cannot be loaded as RDF: {e}") from e
        if fmt in (ox.RdfFormat.TURTLE, ox.RdfFormat.N_TRIPLES):
            # Triples formats: put them in the policy's own named graph, found from its IRI.
            graph = _policy_graph_of(quads) or ox.DefaultGraph()
            quads = [ox.Quad(q.subject, q.predicate, q.object, graph) for q in quads]
        graphs = {q.graph_name for q in quads if isinstance(q.graph_name, ox.NamedNode)}
        for g in graphs:
            # A new version of a graph replaces the old one instead of merging with it.
            if self.store.contains_named_graph(g):
                self._forget_graph(g)
        self.store.bulk_extend(quads)
        node = self._file_node(digest)
        meta = [ox.Quad(node, _LOADED, g, META_GRAPH) for g in sorted(graphs, key=lambda g: g.value)]
        meta.append(ox.Quad(node, _SOURCE, ox.Literal(str(path)), META_GRAPH))
        self.store.extend(meta)
        self.loaded += 1
        return True

    def _forget_graph(self, g: ox.NamedNode) -> None:
        self.store.remove_graph(g)
        for q in list(self.store.quads_for_pattern(None, _LOADED, g, META_GRAPH)):
            for m in list(self.store.quads_for_pattern(q.subject, None, None, META_GRAPH)):
                self.store.remove(m)

    def load(self, paths: Iterable[Path]) -> int:
        """Load every graph file under ``paths``; returns how many files were found."""
        files = graph_files(paths)
        for f in files:
            self.load_file(f)
        if self.path is not None:
            self.store.flush()
        return len(files)

    def load_dataset(self, ds: Any) -> None:
        """Add an rdflib Dataset's quads (e.g. a fresh conversion) without writing a file."""
        data = ds.serialize(format="nquads", encoding="utf-8")
        self.store.bulk_extend(ox.parse(data, format=ox.RdfFormat.N_QUADS))

    def load_dpv(self) -> None:
        """DPV (SKOS) into its own named graph, for hierarchy-aware queries (skos:broader*)."""
        if any(True for _ in self.store.quads_for_pattern(None, None, None, DPV_GRAPH)):
            return
        for f in DPV_FILES:
            self.store.bulk_load(path=str(f), format=ox.RdfFormat.TURTLE, to_graph=DPV_GRAPH)

    def query(
        self, sparql: str, bindings: Mapping[str, Any] | None = None, graphs: Sequence[str] | None = None
    ) -> list[dict[str, Any]]:
        """Run a SELECT (rows as dicts of plain values) or ASK (one row {'ask': bool}).

        ``graphs`` restricts the default graph to those named graphs (plus DPV); by default it is
        the union of all graphs.
        """
        res = self.raw_query(sparql, bindings, graphs)
        if isinstance(res, bool):
            return [{"ask": res}]
        if isinstance(res, ox.QuerySolutions):
            names = [v.value for v in res.variables]
            return [{n: to_python(sol[n]) for n in names} for sol in res]
        raise InputError("query", "CONSTRUCT/DESCRIBE queries are not supported here; use SELECT or ASK")

    def raw_query(
        self, sparql: str, bindings: Mapping[str, Any] | None = None, graphs: Sequence[str] | None = None
    ) -> Any:
        """The pyoxigraph result itself (solutions with terms, a boolean, or triples)."""
        try:
            subs: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {
                ox.Variable(k): to_term(v) for k, v in (bindings or {}).items()
            }
        except ValueError as e:
            raise InputError("query", f"a bound value is not a valid RDF term: {e}") from e
        try:
            if graphs is None:
                return self.store.query(sparql, use_default_graph_as_union=True, substitutions=subs)
            default: list[Any] = [ox.NamedNode(g) for g in graphs] + [DPV_GRAPH]
            return self.store.query(sparql, default_graph=default, substitutions=subs)
        except SyntaxError as e:
            raise InputError("query", f"SPARQL syntax error: {e}") from e

    def policies(self) -> list[str]:
        return sorted(
            g.value
            for g in self.store.named_graphs()
            if isinstance(g, ox.NamedNode) and g.value.startswith(POLICY_PREFIX)
        )

    def graph_triples(self, graph: str) -> int:
        return sum(1 for _ in self.store.quads_for_pattern(None, None, None, ox.NamedNode(graph)))

    def dump_graph(self, graph: str, fmt: ox.RdfFormat = ox.RdfFormat.N_TRIPLES) -> bytes:
        out = self.store.dump(format=fmt, from_graph=ox.NamedNode(graph))
        assert out is not None
        return out

    def flush(self) -> None:
        if self.path is not None:
            self.store.flush()


def open_store(paths: Iterable[Path], store_dir: Path | None = None, dpv: bool = True) -> EmbeddedStore:
    """An embedded store with DPV and the graphs under ``paths`` (reusing ``store_dir`` when given)."""
    store = EmbeddedStore(store_dir)
    if dpv:
        store.load_dpv()
    store.load(paths)
    return store


def _policy_graph_of(quads: list[ox.Quad]) -> ox.NamedNode | None:
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    for q in quads:
        o = q.object
        if q.predicate.value == rdf_type and isinstance(o, ox.NamedNode) and o.value == PR2G_POLICY:
            s = q.subject
            return s if isinstance(s, ox.NamedNode) else None
    return None
