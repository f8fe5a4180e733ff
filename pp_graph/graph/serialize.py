"""Write a policy graph in one of the supported formats, deterministically and in linear time.

rdflib's Turtle/TriG writers compute a prefixed name for every IRI through a namespace trie that grows
with every distinct IRI "namespace" (each span IRI has its own), so they are quadratic: a 5 MB policy
took 24 minutes. The writers here produce the same bytes as rdflib's for the graphs we build (no blank
nodes, every predicate in a bound namespace; tests/test_serialize.py compares them on the fixtures and
the corpus) with a prefixed-name lookup that costs one regular-expression match for an instance IRI.
A graph outside that shape (a blank node, a predicate without a prefix, several non-empty graphs) is
handed to rdflib unchanged. JSON-LD keeps rdflib's expanded layout but sorts nodes and values: rdflib
emits them in hash order, so the same graph gave different bytes from one run to the next.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any

from pp_graph.errors import ConfigError

if TYPE_CHECKING:  # the format tables are read by the CLI at start-up, without loading rdflib
    from rdflib import Dataset, URIRef
    from rdflib.namespace import NamespaceManager
    from rdflib.term import Node

FORMATS = {"trig": "trig", "ttl": "turtle", "nt": "nt", "nq": "nquads", "jsonld": "json-ld"}
SUFFIX = {"trig": ".trig", "ttl": ".ttl", "nt": ".nt", "nq": ".nq", "jsonld": ".jsonld"}
QUAD_FORMATS = {"trig", "nq", "jsonld"}

Triple = tuple[Any, Any, Any]


class _Unsupported(Exception):
    """The graph is outside the shape the fast writers reproduce exactly (internal: use rdflib)."""


def serialize(ds: Dataset, graph: URIRef, fmt: str) -> str:
    """Turtle/N-Triples hold the policy's graph alone; TriG/N-Quads/JSON-LD keep its name."""
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    g = ds.graph(graph)
    others = fmt in QUAD_FORMATS and any(len(c) and c.identifier != graph for c in ds.graphs())
    if not others:
        try:
            return serialize_triples(g, graph, fmt, ds.namespace_manager)
        except _Unsupported:
            pass
    return _rdflib(ds, graph, fmt)


def serialize_triples(triples: Iterable[Triple], graph: URIRef, fmt: str, names: NamespaceManager) -> str:
    """One named graph's triples in ``fmt``, prefixes from ``names``; raises _Unsupported (see module doc)."""
    if fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}; choose one of: {', '.join(FORMATS)}")
    if fmt in {"nt", "nq"}:
        return _lines(triples, graph if fmt == "nq" else None)
    if fmt == "jsonld":
        return _jsonld(triples, graph)
    return _turtle(list(triples), graph if fmt == "trig" else None, _Names(names))


def serialize_policy(triples: Collection[Triple], graph: URIRef, fmt: str) -> str:
    """A policy graph given as triples (see graph.build.policy_triples), with the project's prefixes."""
    from pp_graph.graph.build import to_dataset
    from pp_graph.graph.namespaces import namespace_manager

    try:
        return serialize_triples(triples, graph, fmt, namespace_manager())
    except _Unsupported:
        return _rdflib(to_dataset(graph, triples), graph, fmt)


def _rdflib(ds: Dataset, graph: URIRef, fmt: str) -> str:
    target = ds if fmt in QUAD_FORMATS else ds.graph(graph)
    if fmt == "jsonld":
        return _sorted_jsonld(target.serialize(format="json-ld", indent=1, sort_keys=True))
    out = target.serialize(format=FORMATS[fmt])
    if fmt in {"nt", "nq"}:
        out = "".join(sorted((line + "\n" for line in out.split("\n") if line.strip()), key=lambda r: r[:-1]))
    return out


# ---- N-Triples / N-Quads: rdflib's own line writer, lines sorted ----


def _lines(triples: Iterable[Triple], graph: URIRef | None) -> str:
    from rdflib.plugins.serializers.nquads import _nq_row
    from rdflib.plugins.serializers.nt import _nt_row

    # Sorted as rows, not by splitting the text: a literal may hold a form feed or U+2028, which
    # str.splitlines() would have cut into two "lines".
    rows = [_nq_row(t, graph) if graph is not None else _nt_row(t) for t in triples]
    rows.sort(key=lambda r: r[:-1])
    return "".join(rows)


# ---- Turtle / TriG: rdflib's TurtleSerializer layout ----

_PCT = re.compile(r"%(?![0-9A-Fa-f]{2})")


class _Names:
    """rdflib's prefixed name of an IRI (TurtleSerializer.get_pname, generate=False), memoised."""

    def __init__(self, manager: NamespaceManager) -> None:
        self.prefix_of: dict[str, str] = {}
        for _, ns in manager.namespaces():
            p = manager.store.prefix(ns)
            if p is not None:
                if p.startswith("_"):
                    raise _Unsupported  # rdflib would rename the prefix
                self.prefix_of[str(ns)] = p
        bound = sorted(self.prefix_of, key=len, reverse=True)
        # An IRI can only get a prefix when some bound namespace starts it: one match rules most IRIs out.
        self.any_bound = re.compile("|".join(map(re.escape, bound))) if bound else re.compile(r"(?!)")
        self.bound = bound
        self.cache: dict[str, tuple[str, str, str] | None] = {}
        self.used: dict[str, str] = {}

    def pname(self, uri: str) -> str | None:
        if uri in self.cache:
            hit = self.cache[uri]
        else:
            hit = self.cache[uri] = self._compute(uri)
        if hit is None:
            return None
        self.used[hit[0]] = hit[1]
        return hit[2]

    def _compute(self, uri: str) -> tuple[str, str, str] | None:
        from rdflib.namespace import split_uri

        if not self.any_bound.match(uri):
            return None
        try:
            ns, local = split_uri(uri)
        except ValueError:
            p = self.prefix_of.get(uri)
            return (p, uri, f"{p}:") if p else None
        # rdflib takes the longest bound namespace that extends the split point and starts the IRI.
        for b in self.bound:
            if len(b) > len(ns) and b.startswith(ns) and uri.startswith(b):
                ns, local = b, uri[len(b) :]
                break
        prefix = self.prefix_of.get(ns)
        if prefix is None:
            p = self.prefix_of.get(uri)
            return (p, uri, f"{p}:") if p else None
        local = _PCT.sub("\\%", local.replace("(", r"\(").replace(")", r"\)"))
        if local.endswith("."):
            return None
        return prefix, ns, f"{prefix}:{local}"


def _turtle(triples: list[Triple], graph: URIRef | None, names: _Names) -> str:
    from rdflib import BNode, Literal
    from rdflib.namespace import RDF, RDFS

    # Terms compared by set membership (a hash): rdflib's __eq__ and namespace look-ups are Python-level.
    rdf_type, rdfs_class = RDF.type, RDFS.Class
    is_type, is_nil = {rdf_type}, {RDF.nil}
    refs: defaultdict[Any, int] = defaultdict(int)
    props: dict[Any, dict[Any, list[Node]]] = {}
    for s, p, o in triples:
        if isinstance(s, BNode) or isinstance(o, BNode) or o in is_nil:
            raise _Unsupported
        if p not in is_type and names.pname(p) is None:
            raise _Unsupported  # rdflib would invent an ns1: prefix for it
        names.pname(s)
        if isinstance(o, Literal):
            if o.datatype is not None:
                names.pname(o.datatype)
        else:
            names.pname(o)
        refs[o] += 1
        props.setdefault(s, {}).setdefault(p, []).append(o)
    if graph is not None:
        names.pname(graph)
        for s in props:
            refs[s] += 1
    top = sorted(s for s, pv in props.items() if rdfs_class in pv.get(rdf_type, ()))
    seen = set(top)
    rest = sorted((False, refs[s], s) for s in props if s not in seen)
    order = [*top, *(s for _, _, s in rest)]
    labels: dict[Any, str] = {rdf_type: "a"}  # IRIs only (verbs: rdf:type is "a"; it is never a subject here)

    def label(node: Any) -> str:
        if isinstance(node, Literal):
            return str(node._literal_n3(use_plain=True, qname_callback=names.pname))
        hit = labels.get(node)
        if hit is None:
            hit = labels[node] = names.pname(node) or str(node.n3())
        return hit

    def object_label(node: Any) -> str:
        return label(node) if node not in is_type else (names.pname(node) or str(node.n3()))

    out: list[str] = [f"@prefix {p}: <{ns}> .\n" for p, ns in sorted(names.used.items())]
    indent = "    " if graph is not None else ""
    if graph is not None:
        out.append(f"\n{names.pname(graph) or graph.n3()} {{")
    predicate_order = (rdf_type, RDFS.label)  # rdflib's
    for s in order:
        out.append(f"\n{indent}{object_label(s)}")
        pv = props[s]
        first = [p for p in predicate_order if p in pv]
        plist = first + sorted(p for p in pv if p not in first)
        for i, p in enumerate(plist):
            out.append(f" ;\n{indent}    {label(p)}" if i else f" {label(p)}")
            objs = pv[p]
            if len(objs) > 1:
                objs = sorted(objs)  # type: ignore[type-var]  # rdflib's term order
            more = f",\n{indent}{'        ' if len(objs) > 1 else '    '}"
            out.append(" " + more.join(object_label(o) for o in objs))
        out.append(" .\n")
    if graph is not None:
        out.append("}\n")
    out.append("\n")
    return "".join(out)


# ---- JSON-LD: rdflib's expanded layout (no context), nodes by @id, values in rdflib's term order ----

_NATIVE = {
    "http://www.w3.org/2001/XMLSchema#boolean",
    "http://www.w3.org/2001/XMLSchema#integer",
    "http://www.w3.org/2001/XMLSchema#double",
    "http://www.w3.org/2001/XMLSchema#string",
}


def _jsonld(triples: Iterable[Triple], graph: URIRef) -> str:
    from rdflib import BNode, Literal, URIRef
    from rdflib.namespace import RDF

    props: dict[Any, dict[Any, list[Node]]] = {}
    for s, p, o in triples:
        if isinstance(s, BNode) or isinstance(o, BNode) or o == RDF.nil:
            raise _Unsupported
        props.setdefault(s, {}).setdefault(p, []).append(o)

    def value(o: Any) -> Any:
        if isinstance(o, URIRef):
            return {"@id": str(o)}
        assert isinstance(o, Literal)
        if o.datatype is not None:
            v = o.toPython() if str(o.datatype) in _NATIVE else str(o)
            return {"@type": str(o.datatype), "@value": v}
        if o.language:
            return {"@language": o.language, "@value": str(o)}
        return {"@value": str(o)}

    nodes = []
    for s in sorted(props, key=str):
        node: dict[str, Any] = {"@id": str(s)}
        for p, objs in props[s].items():
            objs.sort()  # type: ignore[call-arg]  # rdflib's term order
            if p == RDF.type:
                node["@type"] = [str(o) if isinstance(o, URIRef) else value(o) for o in objs]
            else:
                node[str(p)] = [value(o) for o in objs]
        nodes.append(node)
    doc = [{"@graph": nodes, "@id": str(graph)}] if nodes else []
    return json.dumps(doc, indent=1, separators=(",", ": "), sort_keys=True, ensure_ascii=False)


def _sorted_jsonld(text: str) -> str:
    """rdflib's JSON-LD with nodes sorted by @id and values by their JSON text (its own order is hash order)."""
    doc = json.loads(text)
    graphs = doc if isinstance(doc, list) else [doc]
    for g in graphs:
        if isinstance(g, dict) and isinstance(g.get("@graph"), list):
            g["@graph"].sort(key=lambda n: str(n.get("@id")))
            for n in g["@graph"]:
                for v in n.values():
                    if isinstance(v, list):
                        v.sort(key=lambda x: json.dumps(x, sort_keys=True))
    return json.dumps(doc, indent=1, separators=(",", ": "), sort_keys=True, ensure_ascii=False)
