"""The embedded SPARQL store (pyoxigraph): policy graphs, one named graph each, plus DPV.

Queries see the union of all named graphs as their default graph, so a query written once runs
unchanged here and on a SPARQL server configured the same way. Values are bound, never spliced.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pp_graph.errors import InputError
from pp_graph.resources import DPV_FILES

DPV_GRAPH = ox.NamedNode("urn:pp-graph:graph:dpv")

GRAPH_SUFFIXES = {
    ".trig": ox.RdfFormat.TRIG,
    ".nq": ox.RdfFormat.N_QUADS,
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".jsonld": ox.RdfFormat.JSON_LD,
}
_POLICY_PREFIX = "urn:pp-graph:policy:"


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
        return ox.Literal("true" if value else "false",
                          datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#boolean"))
    if isinstance(value, int | float):
        return ox.Literal(str(value), datatype=ox.NamedNode(
            "http://www.w3.org/2001/XMLSchema#" + ("integer" if isinstance(value, int) else "double")))
    s = str(value)
    if s.startswith(("http://", "https://", "urn:")):
        return ox.NamedNode(s)
    return ox.Literal(s)


class EmbeddedStore:
    """A pyoxigraph store; in memory by default, or persistent in a folder reused between runs."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.store = ox.Store(str(path)) if path else ox.Store()

    def __len__(self) -> int:
        return len(self.store)

    def load_file(self, path: Path) -> None:
        fmt = GRAPH_SUFFIXES.get(path.suffix)
        if fmt is None:
            raise InputError(str(path), f"not a graph file; expected one of {', '.join(GRAPH_SUFFIXES)}")
        try:
            if fmt in (ox.RdfFormat.TRIG, ox.RdfFormat.N_QUADS, ox.RdfFormat.JSON_LD):
                self.store.bulk_load(path=str(path), format=fmt)
            else:
                # Triples formats: put them in the policy's own named graph, found from its IRI.
                quads = list(ox.parse(path=str(path), format=fmt))
                graph = _policy_graph_of(quads) or ox.DefaultGraph()
                self.store.bulk_extend(ox.Quad(q.subject, q.predicate, q.object, graph) for q in quads)
        except (SyntaxError, ValueError, OSError) as e:
            raise InputError(path.name, f"cannot be loaded as RDF: {e}") from e

    def load(self, paths: Iterable[Path]) -> int:
        files = graph_files(paths)
        for f in files:
            self.load_file(f)
        return len(files)

    def load_dpv(self) -> None:
        """DPV (SKOS) into its own named graph, for hierarchy-aware queries (skos:broader*)."""
        if any(True for _ in self.store.quads_for_pattern(None, None, None, DPV_GRAPH)):
            return
        for f in DPV_FILES:
            self.store.bulk_load(path=str(f), format=ox.RdfFormat.TURTLE, to_graph=DPV_GRAPH)

    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a SELECT (rows as dicts of plain values) or ASK (one row {'ask': bool})."""
        subs = {ox.Variable(k): to_term(v) for k, v in (bindings or {}).items()}
        res = self.store.query(sparql, use_default_graph_as_union=True, substitutions=subs)
        if isinstance(res, bool):
            return [{"ask": res}]
        if isinstance(res, ox.QuerySolutions):
            names = [v.value for v in res.variables]
            return [{n: to_python(sol[n]) for n in names} for sol in res]
        raise InputError("query", "CONSTRUCT/DESCRIBE queries are not supported here; use SELECT or ASK")

    def policies(self) -> list[str]:
        return sorted(g.value for g in self.store.named_graphs()
                      if isinstance(g, ox.NamedNode) and g.value.startswith(_POLICY_PREFIX))


def _policy_graph_of(quads: list[ox.Quad]) -> ox.NamedNode | None:
    rdf_type = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
    for q in quads:
        if q.predicate.value == rdf_type and q.object.value == "urn:pp-analyze:core#PrivacyPolicy":
            s = q.subject
            return s if isinstance(s, ox.NamedNode) else None
    return None
