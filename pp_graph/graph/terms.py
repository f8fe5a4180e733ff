"""The graph builder's RDF terms: pyoxigraph's, so the writers (pyoxigraph's serializers) take them as they are.

An rdflib term costs several times a pyoxigraph one to make, and converting 640k triples at write time cost more
than the writing itself. rdflib stays the library's public face (``Conversion.dataset``): ``to_rdflib`` and
``from_rdflib`` map one term to the other, 1:1 (a plain literal is an xsd:string literal in pyoxigraph, a literal
without a datatype in rdflib).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import pyoxigraph as ox

if TYPE_CHECKING:
    from rdflib.term import Node

XSD = "http://www.w3.org/2001/XMLSchema#"
XSD_STRING = XSD + "string"

Subject = ox.NamedNode | ox.BlankNode
Object = ox.NamedNode | ox.BlankNode | ox.Literal
Triple = tuple[Subject, ox.NamedNode, Object]


class Vocabulary:
    """``V.term`` and ``V["term"]``: the IRI ``base + term`` as a pyoxigraph NamedNode, made once."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.made: dict[str, ox.NamedNode] = {}

    def __getitem__(self, name: str) -> ox.NamedNode:
        node = self.made.get(name)
        if node is None:
            node = self.made[name] = ox.NamedNode(self.base + name)
        return node

    def __getattr__(self, name: str) -> ox.NamedNode:
        if name.startswith("__"):  # copy/pickle probes: not terms
            raise AttributeError(name)
        return self[name]


@cache
def datatype(name: str) -> ox.NamedNode:
    """xsd:``name``."""
    return ox.NamedNode(XSD + name)


def integer(n: int) -> ox.Literal:
    return ox.Literal(str(n), datatype=datatype("integer"))


def boolean(b: bool) -> ox.Literal:
    return ox.Literal("true" if b else "false", datatype=datatype("boolean"))


def typed(lexical: str, xsd_name: str) -> ox.Literal:
    """A literal of datatype xsd:``xsd_name``, its lexical form normalised as rdflib normalises it ("P18M" →
    "P1Y6M", "…Z" → "…+00:00"): what the graphs have always held, and what ``Conversion.dataset`` holds."""
    from rdflib import Literal, URIRef

    return ox.Literal(str(Literal(lexical, datatype=URIRef(XSD + xsd_name))), datatype=datatype(xsd_name))


def to_rdflib(term: Object) -> Node:
    from rdflib import BNode, Literal, URIRef

    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if term.language:
        return Literal(term.value, lang=term.language)
    dt = term.datatype.value
    return Literal(term.value) if dt == XSD_STRING else Literal(term.value, datatype=URIRef(dt))


def from_rdflib(term: Node) -> Object:
    from rdflib import BNode, Literal, URIRef

    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if isinstance(term, Literal):
        if term.language:
            return ox.Literal(str(term), language=term.language)
        if term.datatype is not None:
            return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
        return ox.Literal(str(term))
    raise TypeError(f"not an RDF term a policy graph holds: {term!r}")
