"""Write a policy graph in one of the supported formats, deterministically and in linear time.

The writers are pyoxigraph's (streaming, in Rust) fed with the builder's pyoxigraph terms (graph/terms.py): a
5 MB policy's 640k triples are written in well under a second, where rdflib's Turtle writer took minutes (its
prefixed-name lookup is quadratic) and a writer of our own in Python took seconds. The serializers write triples
in the order given, so the triples are sorted first (graph, subject, predicate by IRI; object by its N-Triples form):
the same graph gives the same bytes from one run to the next, whatever order it was built in, and Turtle/TriG
group each subject's statements. Prefixes: the project's (graph/namespaces.PREFIXES), all declared.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pp_graph.errors import ConfigError

if TYPE_CHECKING:  # the format tables are read by the CLI at start-up, without loading rdflib or pyoxigraph
    import pyoxigraph as ox
    from rdflib import Dataset, URIRef

    from pp_graph.graph.terms import Triple

FORMATS = {"trig": "trig", "ttl": "turtle", "nt": "nt", "nq": "nquads", "jsonld": "json-ld"}
SUFFIX = {"trig": ".trig", "ttl": ".ttl", "nt": ".nt", "nq": ".nq", "jsonld": ".jsonld"}
QUAD_FORMATS = {"trig", "nq", "jsonld"}


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")


def serialize_policy(triples: Iterable[Triple], graph: ox.NamedNode | URIRef, fmt: str) -> str:
    """A policy graph given as triples of pyoxigraph terms (graph.build.policy_triples) named ``graph``: Turtle and
    N-Triples hold the triples alone, TriG/N-Quads/JSON-LD keep the graph's name."""
    import pyoxigraph as ox

    _check(fmt)
    name = graph if isinstance(graph, ox.NamedNode) else ox.NamedNode(str(graph))
    return write({name: triples}, fmt)


def serialize(ds: Dataset, graph: URIRef, fmt: str) -> str:
    """An rdflib Dataset's graph ``graph`` (Turtle/N-Triples), or every non-empty graph of it (the quad formats)."""
    import pyoxigraph as ox
    from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

    from pp_graph.graph.terms import from_rdflib

    _check(fmt)
    contexts = [c for c in ds.graphs() if len(c)] if fmt in QUAD_FORMATS else [ds.graph(graph)]
    graphs: dict[Any, list[Triple]] = {}
    for c in contexts:
        name = ox.DefaultGraph() if c.identifier == DATASET_DEFAULT_GRAPH_ID else from_rdflib(c.identifier)
        graphs[name] = [(from_rdflib(s), from_rdflib(p), from_rdflib(o)) for s, p, o in c]  # type: ignore[misc]
    return write(graphs, fmt)


def write(graphs: Mapping[Any, Iterable[Triple]], fmt: str) -> str:
    """Graphs (name → triples) in ``fmt``, sorted; Turtle/N-Triples write the triples of every graph as one."""
    import pyoxigraph as ox

    from pp_graph.graph.namespaces import PREFIXES

    _check(fmt)
    out: list[Any]
    if fmt in QUAD_FORMATS:
        out = [ox.Quad(s, p, o, g) for g in sorted(graphs, key=str) for s, p, o in sorted(graphs[g], key=_key)]
    else:
        out = [ox.Triple(s, p, o) for s, p, o in sorted((t for ts in graphs.values() for t in ts), key=_key)]
    data = ox.serialize(out, format=ox_format(fmt), prefixes={p: str(ns) for p, ns in PREFIXES.items()})
    assert data is not None  # no output file given: the bytes are returned
    return data.decode("utf-8")


def _key(t: Triple) -> tuple[str, str, str]:
    # Subjects by IRI (a policy's node before its children's), objects by their N-Triples form (IRIs, then literals).
    return t[0].value, t[1].value, str(t[2])


def ox_format(fmt: str) -> ox.RdfFormat:
    """pyoxigraph's format for one of FORMATS."""
    import pyoxigraph as ox

    table = {
        "trig": ox.RdfFormat.TRIG,
        "ttl": ox.RdfFormat.TURTLE,
        "nt": ox.RdfFormat.N_TRIPLES,
        "nq": ox.RdfFormat.N_QUADS,
        "jsonld": ox.RdfFormat.JSON_LD,
    }
    return table[fmt]
