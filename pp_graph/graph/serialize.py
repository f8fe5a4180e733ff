"""Write a policy dataset in one of the supported formats, deterministically."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pp_graph.errors import ConfigError

if TYPE_CHECKING:  # the format tables are read by the CLI at start-up, without loading rdflib
    from rdflib import Dataset, URIRef

FORMATS = {"trig": "trig", "ttl": "turtle", "nt": "nt", "nq": "nquads", "jsonld": "json-ld"}
SUFFIX = {"trig": ".trig", "ttl": ".ttl", "nt": ".nt", "nq": ".nq", "jsonld": ".jsonld"}
QUAD_FORMATS = {"trig", "nq", "jsonld"}


def serialize(ds: Dataset, graph: URIRef, fmt: str) -> str:
    """Turtle/N-Triples hold the policy's graph alone; TriG/N-Quads/JSON-LD keep its name.

    Line-based formats are sorted so that the same graph always gives the same bytes; rdflib's
    Turtle/TriG writers already order subjects and predicates, and we mint no blank nodes.
    """
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    target = ds if fmt in QUAD_FORMATS else ds.graph(graph)
    if fmt == "jsonld":
        out = target.serialize(format="json-ld", indent=1, sort_keys=True)
    else:
        out = target.serialize(format=FORMATS[fmt])
    if fmt in {"nt", "nq"}:
        lines = sorted(line for line in out.splitlines() if line.strip())
        out = "\n".join(lines) + "\n"
    return out
