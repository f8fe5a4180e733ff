"""Write a policy graph in one of the supported formats, deterministically and in linear time.

The writers are pyoxigraph's (streaming, in Rust). A converted policy's graph comes from the builder as pyoxigraph
Quads, each subject's together, in the order built (graph/build.py), and is written as it is (``serialize_quads``):
no sort and no Python work per triple, so a 5 MB policy's ~970k triples are written in about the serializer's own
time. Making a Quad costs several microseconds when its object is a literal (pyoxigraph tries the node types
first), which is why the builder makes each one once, and why writing makes none. ``write_quads`` streams the
output into the file (convert's way: the output of a policy of megabytes is never whole in memory). The same
input and settings give the same bytes on every run, since the build order depends on the input alone.

An rdflib Dataset (``serialize``) has no order of its own: its triples are sorted first (graph, subject, predicate
by IRI; object by its N-Triples form), so the same graph gives the same bytes whatever order it was filled in.
Prefixes: the project's (graph/namespaces.PREFIXES), all declared.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, BinaryIO

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


def serialize_quads(quads: Sequence[ox.Quad], fmt: str) -> bytes:
    """A policy graph's quads (graph.build.policy_quads, ``Conversion.quads``) in ``fmt``, in the order given:
    Turtle and N-Triples hold the triples alone, TriG/N-Quads/JSON-LD keep the graph's name."""
    import pyoxigraph as ox

    _check(fmt)
    out = ox.serialize(_statements(quads, fmt), format=ox_format(fmt), prefixes=prefixes())
    assert out is not None  # no output file given: the bytes are returned
    return out


def write_quads(quads: Iterable[ox.Quad], fmt: str, fh: BinaryIO) -> None:
    """``serialize_quads`` written into ``fh`` as it is made: the same bytes, never all in memory (on a policy
    of megabytes the output is tens of MB, and the serializer's buffer doubles as it grows)."""
    import pyoxigraph as ox

    _check(fmt)
    ox.serialize(_statements(quads, fmt), fh, format=ox_format(fmt), prefixes=prefixes())


def _statements(quads: Iterable[ox.Quad], fmt: str) -> Iterable[Any]:
    return quads if fmt in QUAD_FORMATS else map(attrgetter("triple"), quads)


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

    _check(fmt)
    out: list[Any]
    if fmt in QUAD_FORMATS:
        out = [ox.Quad(s, p, o, g) for g in sorted(graphs, key=str) for s, p, o in sorted(graphs[g], key=_key)]
    else:
        out = [ox.Triple(s, p, o) for s, p, o in sorted((t for ts in graphs.values() for t in ts), key=_key)]
    data = ox.serialize(out, format=ox_format(fmt), prefixes=prefixes())
    assert data is not None  # no output file given: the bytes are returned
    return data.decode("utf-8")


@cache
def prefixes() -> dict[str, str]:
    from pp_graph.graph.namespaces import PREFIXES

    return {p: str(ns) for p, ns in PREFIXES.items()}


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
