"""What a checklist needs from one policy graph, read from its triples (a conversion's or a TriG file's).

Only a few predicates are kept, so reading the 40 corpus graphs with pyoxigraph takes well under a second.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rdflib.namespace import RDF

from pp_graph.errors import InputError
from pp_graph.graph.namespaces import DPV, PPG, PR2G

_GDPR_REQ = str(PPG) + "gdpr-"
_TYPE, _POLICY = str(RDF.type), str(PR2G.PrivacyPolicy)
# The IRIs read per statement, as strings once (an rdflib Namespace attribute costs a lookup each time).
_STATEMENT, _REQUIREMENT, _ON_TEXT = str(PPG.hasTransparencyStatement), str(PPG.requirement), str(PPG.onText)
_PERFORMED = str(PPG.performed)
_LINE = (str(PR2G.value), str(PPG.start), str(PPG.end))
_KEEP = {
    _TYPE,
    *(
        str(p)
        for p in (
            PR2G["for"],
            PR2G.hasDomain,
            PPG.sourceName,
            PPG.transparencyRules,
            PPG.hasTransparencyStatement,
            PPG.requirement,
            PPG.performed,
            PPG.onText,
            PR2G.value,
            PPG.start,
            PPG.end,
            PPG.statesLegalBasis,
            PR2G.hasDataPractice,
            DPV.hasLegalBasis,
            PR2G.data,
        )
    ),
}


@dataclass(frozen=True, slots=True)
class Evidence:
    start: int
    end: int
    text: str


@dataclass
class PolicyFacts:
    """One policy: its site and source, the rules version (None: converted before the transparency stage), its
    statements per requirement ({True: lines affirming, False: lines denying}) and values of property paths."""

    file: str
    site: str
    rules_version: str | None
    practices: int
    statements: dict[str, dict[bool, list[Evidence]]] = field(default_factory=dict)
    edges: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (subject, predicate) → objects
    node: str = ""

    def path_values(self, path: tuple[str, ...]) -> set[str]:
        nodes = {self.node}
        for pred in path:
            nodes = {o for n in nodes for o in self.edges.get((n, pred), ())}
        return nodes


Triple = tuple[str, str, str]


def _index(triples: Iterable[Triple]) -> dict[tuple[str, str], list[str]]:
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for s, p, o in triples:
        if p in _KEEP:
            edges[(s, p)].append(o)
    return edges


def _one(edges: dict[tuple[str, str], list[str]], s: str, p: object) -> str | None:
    vals = edges.get((s, str(p)))
    return vals[0] if vals else None


def policy_facts(triples: Iterable[Triple], file: str) -> PolicyFacts:
    """The facts of one policy's named graph; InputError when it holds no pr2g:PrivacyPolicy."""
    edges = _index(triples)
    policies = sorted(s for (s, p), os in edges.items() if p == _TYPE and _POLICY in os)
    if len(policies) != 1:
        raise InputError(file, f"expected one pr2g:PrivacyPolicy in a policy graph, found {len(policies)}")
    pol = policies[0]
    site_node = _one(edges, pol, PR2G["for"])
    site = (_one(edges, site_node, PR2G.hasDomain) if site_node else None) or ""
    facts = PolicyFacts(
        file, site, _one(edges, pol, PPG.transparencyRules), len(edges.get((pol, str(PR2G.hasDataPractice)), []))
    )
    facts.edges, facts.node = edges, pol
    seen: set[tuple[str, bool, Evidence]] = set()
    for st in edges.get((pol, _STATEMENT), []):
        req, line = _one(edges, st, _REQUIREMENT), _one(edges, st, _ON_TEXT)
        if req is None or line is None or not req.startswith(_GDPR_REQ):
            raise InputError(file, f"transparency statement {st} lacks its requirement or line")
        performed = _one(edges, st, _PERFORMED) in ("true", "1")
        text, start, end = (_one(edges, line, p) for p in _LINE)
        if text is None or start is None or end is None:
            raise InputError(file, f"line {line} of a transparency statement lacks its text or offsets")
        ev = Evidence(int(start), int(end), text)
        if (req, performed, ev) not in seen:  # a set: the list scan compared Evidence objects 600k times
            seen.add((req, performed, ev))
            facts.statements.setdefault(req[len(_GDPR_REQ) :], {}).setdefault(performed, []).append(ev)
    for by in facts.statements.values():
        for lines in by.values():
            lines.sort(key=lambda e: (e.start, e.end))
    return facts


def built_triples(triples: Iterable[tuple[Any, Any, Any]]) -> Iterator[Triple]:
    """A conversion's triples (pyoxigraph terms, graph.build) as strings: IRIs and literals by their lexical form."""
    for s, p, o in triples:
        yield s.value, p.value, o.value


def graph_file_facts(path: Path) -> list[PolicyFacts]:
    """Every policy (named graph) of a graph file, read with pyoxigraph; InputError naming the file if unreadable."""
    import pyoxigraph as ox

    from pp_graph.graph.files import graph_suffix

    fmt = {".trig": ox.RdfFormat.TRIG, ".nq": ox.RdfFormat.N_QUADS, ".ttl": ox.RdfFormat.TURTLE}.get(graph_suffix(path))
    if fmt is None:
        raise InputError(path.name, "comply reads .trig, .nq or .ttl graphs (as written by pp-graph convert)")
    by_graph: dict[str, list[Triple]] = defaultdict(list)
    # Compared as pyoxigraph terms: reading .value of every quad costs more than parsing the file.
    offsets = {ox.NamedNode(str(PPG.start)), ox.NamedNode(str(PPG.end))}  # wanted of lines (…/text/n) only
    keep = {ox.NamedNode(p) for p in _KEEP if p != _TYPE} - offsets
    rdf_type, policy = ox.NamedNode(_TYPE), ox.NamedNode(_POLICY)
    try:
        with open(path, "rb") as fh:
            for q in ox.parse(fh, format=fmt):
                pred = q.predicate
                if (
                    pred in keep
                    or (pred == rdf_type and q.object == policy)
                    or (pred in offsets and "/text/" in q.subject.value)
                ):
                    g = q.graph_name.value if isinstance(q.graph_name, ox.NamedNode) else ""
                    by_graph[g].append((q.subject.value, pred.value, q.object.value))
    except (OSError, SyntaxError, ValueError) as e:
        raise InputError(path.name, f"cannot be read as RDF ({e})") from e
    return [policy_facts(ts, str(path)) for _, ts in sorted(by_graph.items())]


def store_facts(store: object, graph: str, file: str) -> PolicyFacts:
    """The facts of one policy's named graph in a pyoxigraph store (a corpus opened for the UI or the report),
    read predicate by predicate so the rest of the graph is never touched."""
    import pyoxigraph as ox

    if not isinstance(store, ox.Store):
        raise TypeError("store_facts reads a pyoxigraph.Store")

    def lex(term: object) -> str:
        return term.value if isinstance(term, (ox.NamedNode, ox.BlankNode, ox.Literal)) else str(term)

    g = ox.NamedNode(graph)
    triples: list[Triple] = [
        (lex(q.subject), _TYPE, _POLICY)
        for q in store.quads_for_pattern(None, ox.NamedNode(_TYPE), ox.NamedNode(_POLICY), g)
    ]
    offsets = {str(PPG.start), str(PPG.end)}
    for pred in sorted(_KEEP - {_TYPE}):
        for q in store.quads_for_pattern(None, ox.NamedNode(pred), None, g):
            subject = lex(q.subject)
            if pred not in offsets or "/text/" in subject:  # offsets wanted of lines only
                triples.append((subject, pred, lex(q.object)))
    return policy_facts(triples, file)
