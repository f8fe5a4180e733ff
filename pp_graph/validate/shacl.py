"""SHACL validation of policy graphs, fast enough for a whole corpus.

pyshacl needs about 33 s for the 40-policy corpus (436k triples) on 2 cores, and over 5 minutes with an
oxigraph backing store. Policy graphs only need SHACL Core, so the default engine here ("core") compiles the
shapes file into Python checks over per-graph dictionary indexes: about 2 s for the same corpus
(benchmarks/bench_validate.py). Shapes that use anything beyond the supported subset (sh:closed, qualified
value shapes, SPARQL, SHACL-AF) are run by pyshacl instead, and ``engine="pyshacl"`` forces it; tests check
that both engines report the same results, and tests/test_shacl_w3c.py runs the W3C core test suite.

Each named graph (one per policy) is validated on its own, together with a small typing graph: every DPV
concept in the personal-data, purpose, legal-basis and right schemes typed ``ppg:PersonalDataConcept`` etc.,
plus the rdfs:subClassOf axioms of pr2graph.ttl. That replaces loading all of DPV (see the shapes file).
"""

from __future__ import annotations

import json
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID, ConjunctiveGraph
from rdflib.namespace import OWL, RDF, RDFS, SH, XSD
from rdflib.term import Node

from pp_graph.errors import ConfigError, DataFileError, InputError
from pp_graph.graph.files import GRAPH_SUFFIXES, graph_suffix, parse_failure
from pp_graph.graph.namespaces import PPG, PR2G, bind_prefixes
from pp_graph.resources import PR2GRAPH_ONTOLOGY, PR2GRAPH_SHAPES
from pp_graph.validate.literals import compare, well_formed
from pp_graph.vocab.dpv import LEGAL_BASIS, PERSONAL_DATA, PURPOSE, RIGHT, vocabulary

TYPING_CLASSES = {
    PERSONAL_DATA: PPG.PersonalDataConcept,
    PURPOSE: PPG.PurposeConcept,
    LEGAL_BASIS: PPG.LegalBasisConcept,
    RIGHT: PPG.RightConcept,
}

_XSD_STRING = str(XSD.string)
_LANG_STRING = str(RDF.langString)


# ---------------------------------------------------------------------------------------------------
# Report


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """One SHACL result. ``path`` is the predicate, or a SPARQL property path string for complex paths."""

    focus: Node
    path: URIRef | str | None
    value: Node | None
    message: str
    severity: str  # Violation, Warning or Info
    shape: Node  # the named shape the constraint belongs to (e.g. pps:PracticeShape)
    component: str  # e.g. MinCountConstraintComponent
    graph: Node | None = None  # the named graph it came from (the policy IRI for built graphs)
    policy: URIRef | None = None
    source: Node | None = None  # the shape that produced it (sh:sourceShape; may be a blank property shape)

    def to_dict(self) -> dict[str, Any]:
        return {
            "focus": str(self.focus),
            "path": None if self.path is None else str(self.path),
            "value": None if self.value is None else str(self.value),
            "message": self.message,
            "severity": self.severity,
            "shape": str(self.shape),
            "component": self.component,
            "graph": None if self.graph is None else str(self.graph),
            "policy": None if self.policy is None else str(self.policy),
        }


@dataclass(slots=True)
class ValidationReport:
    conforms: bool
    results: list[ValidationResult] = field(default_factory=list)
    graphs: list[Node | None] = field(default_factory=list)  # graphs validated (None: a file's default graph)
    engine: str = "core"

    def by_graph(self) -> dict[Node | None, ValidationReport]:
        out = {g: ValidationReport(True, [], [g], self.engine) for g in self.graphs}
        for r in self.results:
            rep = out.setdefault(r.graph, ValidationReport(True, [], [r.graph], self.engine))
            rep.results.append(r)
            rep.conforms = False
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "conforms": self.conforms,
            "engine": self.engine,
            "graphs": [None if g is None else str(g) for g in self.graphs],
            "results": [r.to_dict() for r in self.results],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def text(self, limit: int | None = None) -> str:
        if self.conforms:
            return f"conforms ({len(self.graphs)} graph(s))"
        lines = [f"{len(self.results)} result(s) in {len({r.graph for r in self.results})} graph(s)"]
        shown = self.results if limit is None else self.results[:limit]
        for r in shown:
            where = f"  graph {r.graph}" if r.graph is not None else ""
            path = "" if r.path is None else f" {_short(r.path)}"
            value = "" if r.value is None else f" = {_short(r.value)}"
            lines.append(f"[{r.severity}] {_short(r.focus)}{path}{value}{where}")
            lines.append(f"    {r.message}  ({_short(r.shape)}, {r.component})")
        if len(shown) < len(self.results):
            lines.append(f"… and {len(self.results) - len(shown)} more")
        return "\n".join(lines)


_SHORT = Graph()
bind_prefixes(_SHORT)
_SHORT.bind("pps", "urn:pp-graph:shapes#")


def _short(node: object) -> str:
    if isinstance(node, URIRef):
        try:
            return _SHORT.namespace_manager.normalizeUri(node)
        except Exception:  # an IRI that cannot be a CURIE
            return f"<{node}>"
    if isinstance(node, Literal):
        return node.n3(_SHORT.namespace_manager)
    return str(node)


# ---------------------------------------------------------------------------------------------------
# Data indexes. Literals become (lexical, datatype, lang) tuples: C-level hashing and equality.


# Inside the engine an IRI is a plain str, a blank node a _B ("_:" + id) and a literal a plain tuple
# (lexical form, datatype IRI, language or None): rdflib terms hash and compare in Python code, which made
# dictionary lookups the bottleneck.


class _B(str):
    __slots__ = ()


_Lit = tuple[str, str, str | None]
Term = str | _Lit

_TYPE = str(RDF.type)
_SUBCLASS = str(RDFS.subClassOf)


# rdflib normalises lexical forms: "none"^^xsd:boolean becomes "false" (flagged ill_typed), which would
# otherwise share its key with a real "false" and pass or fail by whichever the index saw last.
_ILL = "\x00ill-typed:"


def _from_rdflib(o: Node) -> Term:
    if isinstance(o, Literal):
        if o.language:
            return (str(o), _LANG_STRING, o.language.lower())
        if o.datatype is None:
            return (str(o), _XSD_STRING, None)
        dt = str(o.datatype)
        if o.ill_typed and well_formed(str(o), dt):
            return (_ILL + str(o), dt, None)
        return (str(o), dt, None)
    if isinstance(o, BNode):
        return _B("_:" + o)
    return str(o)


def _to_rdflib(t: Term) -> Node:
    if isinstance(t, tuple):
        if t[2]:
            return Literal(t[0], lang=t[2])
        if t[1] == _XSD_STRING:
            return Literal(t[0])
        with warnings.catch_warnings():  # rdflib warns on ill-typed lexical forms, which is what we report
            warnings.simplefilter("ignore")
            # As written: normalising would turn "none"^^xsd:boolean into a term equal to "false".
            return Literal(t[0].removeprefix(_ILL), datatype=URIRef(t[1]), normalize=False)
    if isinstance(t, _B):
        return BNode(t[2:])
    return URIRef(t)


class _Index:
    """One graph: s → p → [o]; per-predicate pairs and o → [s] are built on first use."""

    __slots__ = ("_inv", "_over", "_pso", "_sub_cache", "_sup_cache", "active", "name", "orig", "overlay", "spo")

    def __init__(self, name: Node | None, overlay: _Index | None = None) -> None:
        self.name = name
        self.overlay = overlay
        self._over = overlay.predicates() if overlay is not None else frozenset()
        self.spo: dict[Term, dict[str, list[Term]]] = {}
        self.orig: dict[_Lit, Literal] = {}  # keeps rdflib literals so reports show them unchanged
        self._pso: dict[str, list[tuple[Term, Term]]] = {}
        self._inv: dict[str, dict[Term, list[Term]]] = {}
        self._sup_cache: dict[Term, frozenset[Term]] = {}
        self._sub_cache: dict[Term, frozenset[Term]] = {}
        # (shape, focus) pairs being checked through sh:node: meeting one again (a recursive shape on
        # cyclic data) counts as conforming instead of recursing for ever.
        self.active: set[tuple[int, Term]] = set()

    def add(self, s: Term, p: str, o: Term) -> None:
        """Add a triple the caller knows is new (rdflib graphs are sets; the file reader deduplicates)."""
        po = self.spo.get(s)
        if po is None:
            self.spo[s] = {p: [o]}
            return
        objs = po.get(p)
        if objs is None:
            po[p] = [o]
        else:
            objs.append(o)

    def predicates(self) -> frozenset[str]:
        return frozenset(p for po in self.spo.values() for p in po)

    def __len__(self) -> int:
        return sum(len(objs) for po in self.spo.values() for objs in po.values())

    def objects(self, s: Term, p: str) -> list[Term]:
        po = self.spo.get(s)
        own = po.get(p, []) if po is not None else []
        if p in self._over:
            assert self.overlay is not None
            extra = self.overlay.objects(s, p)
            if extra:
                return own + [o for o in extra if o not in own]
        return own

    def prepare(self, preds: Iterable[str]) -> None:
        """Build the pairs of several predicates in one scan (targets and inverse paths need them)."""
        todo = {p: [] for p in preds if p not in self._pso}  # type: dict[str, list[tuple[Term, Term]]]
        if todo:
            for s, po in self.spo.items():
                for p, objs in po.items():
                    lst = todo.get(p)
                    if lst is not None:
                        for o in objs:
                            lst.append((s, o))
            self._pso.update(todo)

    def own_pairs(self, p: str) -> list[tuple[Term, Term]]:
        got = self._pso.get(p)
        if got is None:  # one scan per predicate a shape targets or inverts: a few per graph
            got = self._pso[p] = [(s, o) for s, po in self.spo.items() for o in po.get(p, ())]
        return got

    def pairs(self, p: str) -> Iterator[tuple[Term, Term]]:
        yield from self.own_pairs(p)
        if p in self._over:
            assert self.overlay is not None
            yield from self.overlay.pairs(p)

    def subjects(self, p: str, o: Term) -> list[Term]:
        inv = self._inv.get(p)
        if inv is None:
            inv = self._inv[p] = {}
            for s, oo in self.own_pairs(p):
                inv.setdefault(oo, []).append(s)
        own = inv.get(o, [])
        if p in self._over:
            assert self.overlay is not None
            extra = self.overlay.subjects(p, o)
            if extra:
                return own + [s for s in extra if s not in own]
        return own

    def superclasses(self, c: Term) -> frozenset[Term]:
        got = self._sup_cache.get(c)
        if got is None:
            seen, todo = {c}, [c]
            while todo:
                for sup in self.objects(todo.pop(), _SUBCLASS):
                    if sup not in seen:
                        seen.add(sup)
                        todo.append(sup)
            got = self._sup_cache[c] = frozenset(seen)
        return got

    def subclasses(self, c: Term) -> frozenset[Term]:
        got = self._sub_cache.get(c)
        if got is None:
            seen, todo = {c}, [c]
            while todo:
                for sub in self.subjects(_SUBCLASS, todo.pop()):
                    if sub not in seen:
                        seen.add(sub)
                        todo.append(sub)
            got = self._sub_cache[c] = frozenset(seen)
        return got

    def is_instance(self, node: Term, cls: Term) -> bool:
        if isinstance(node, tuple):
            return False
        return any(cls in self.superclasses(t) for t in self.objects(node, _TYPE))

    def instances(self, cls: Term) -> list[Term]:
        out: dict[Term, None] = {}
        for c in self.subclasses(cls):
            out.update(dict.fromkeys(self.subjects(_TYPE, c)))
        return list(out)

    def policy(self) -> URIRef | None:
        policies = [s for s in self.subjects(_TYPE, str(PR2G.PrivacyPolicy)) if type(s) is str]
        if isinstance(self.name, URIRef) and str(self.name) in policies:
            return self.name
        return URIRef(policies[0]) if len(policies) == 1 else None


@cache
def typing_graph() -> Graph:
    """The DPV typing triples plus the ontology's class hierarchy (about 530 triples); see the shapes file."""
    g = Graph()
    vocab = vocabulary()
    for top, cls in TYPING_CLASSES.items():
        for c in sorted(vocab.members(top)):
            g.add((URIRef(c), RDF.type, cls))
    onto = Graph().parse(PR2GRAPH_ONTOLOGY, format="turtle")
    for s, o in onto.subject_objects(RDFS.subClassOf):
        if isinstance(s, URIRef) and isinstance(o, URIRef):
            g.add((s, RDFS.subClassOf, o))
    return g


@cache
def _typing_index() -> _Index:
    idx = _Index(None)
    for s, p, o in typing_graph():
        idx.add(_from_rdflib(s), str(p), _from_rdflib(o))
    return idx


# ---------------------------------------------------------------------------------------------------
# Literal checks


def _well_formed(lit: _Lit) -> bool:
    return well_formed(lit[0], lit[1])


def _compare(a: Term, b: Term) -> int | None:
    """-1/0/1 for comparable literals, None otherwise (SHACL: incomparable values fail)."""
    if not (isinstance(a, tuple) and isinstance(b, tuple)):
        return None
    return compare(a, b)


# ---------------------------------------------------------------------------------------------------
# Shapes → compiled checks


class _Unsupported(Exception):
    """The shapes use a SHACL feature the core engine does not implement (pyshacl runs them instead)."""


class UnsupportedShapes(ConfigError):
    """``engine="core"`` was asked for shapes that need more than the core engine implements."""


_IGNORED = {
    SH.message,
    SH.severity,
    SH.deactivated,
    SH.name,
    SH.description,
    SH.order,
    SH.group,
    SH.defaultValue,
    SH.property,
    SH.path,
    SH.targetClass,
    SH.targetNode,
    SH.targetSubjectsOf,
    SH.targetObjectsOf,
    SH.flags,
}
_SUPPORTED = {
    SH.minCount,
    SH.maxCount,
    SH.datatype,
    SH["class"],
    SH.nodeKind,
    SH["in"],
    SH.pattern,
    SH.minLength,
    SH.maxLength,
    SH.minInclusive,
    SH.maxInclusive,
    SH.minExclusive,
    SH.maxExclusive,
    SH.lessThan,
    SH.lessThanOrEquals,
    SH.equals,
    SH.disjoint,
    SH.hasValue,
    SH.node,
    SH.uniqueLang,
    SH.languageIn,
    SH["not"],
    SH["and"],
    SH["or"],
    SH.xone,
}
_SEVERITY = {SH.Violation: "Violation", SH.Warning: "Warning", SH.Info: "Info"}

Check = Callable[["_Shape", Term, list[Term], _Index, list["_Hit"]], None]


class _Hit(NamedTuple):
    focus: Term
    value: Term | None
    shape: _Shape
    component: str
    default_message: str


@dataclass(eq=False)
class _Shape:
    node: Node
    named: Node  # nearest named ancestor shape, for reports
    path: Any = None  # compiled path, None for node shapes
    path_out: URIRef | str | None = None
    message: str | None = None
    severity: str = "Violation"
    targets: list[tuple[URIRef, Term]] = field(default_factory=list)  # (sh:targetX, engine term)
    checks: list[Check] = field(default_factory=list)
    properties: list[_Shape] = field(default_factory=list)
    on_empty: bool = False  # a check can fail with no value nodes (sh:minCount, sh:hasValue, sh:equals)


_REPEATS = {SH.zeroOrMorePath: "*", SH.oneOrMorePath: "+", SH.zeroOrOnePath: "?"}


def _path_form(g: Graph, p: Node) -> tuple[str, Any]:
    """The form of a SHACL path node: ("iri"|"seq"|"alt"|"inv"|"*"|"+"|"?", argument).

    A node that is a non-empty RDF list is a sequence path even if it has other path triples too (W3C
    test path/path-strange-001); a node that is none of the forms is an error in the shapes."""
    if isinstance(p, URIRef):
        return ("iri", p)
    if g.value(p, RDF.first) is not None:
        return ("seq", list(Collection(g, p)))
    for pred, form in ((SH.inversePath, "inv"), (SH.alternativePath, "alt"), *_REPEATS.items()):
        arg = g.value(p, pred)
        if arg is not None:
            return (form, list(Collection(g, arg)) if form == "alt" else arg)
    raise _Unsupported(f"path {p}: not a SHACL property path")


def render_path(g: Graph, p: Node) -> URIRef | str:
    """A SPARQL property path string for a complex path (the predicate IRI for a simple one)."""
    form, arg = _path_form(g, p)
    if form == "iri":
        return arg

    def part(x: Node) -> str:
        inner = render_path(g, x)
        return _short(inner) if isinstance(inner, URIRef) else f"({inner})"

    if form == "seq":
        return "/".join(part(x) for x in arg)
    if form == "alt":
        return "|".join(part(x) for x in arg)
    if form == "inv":
        return "^" + part(arg)
    return part(arg) + form


def _compile_path(g: Graph, p: Node) -> Any:
    form, arg = _path_form(g, p)
    if form == "iri":
        return str(arg)
    if form in ("seq", "alt"):
        return (form, [_compile_path(g, i) for i in arg])
    inner = _compile_path(g, arg)
    if form == "inv" and type(inner) is str:
        return ("inv", inner)
    return ("cinv" if form == "inv" else form, inner)


def _values(idx: _Index, focus: Term, path: Any) -> list[Term]:
    if type(path) is str:
        return idx.objects(focus, path)
    kind, arg = path
    if kind == "inv":
        return idx.subjects(arg, focus)
    if kind == "alt":
        out: dict[Term, None] = {}
        for sub in arg:
            out.update(dict.fromkeys(_values(idx, focus, sub)))
        return list(out)
    if kind == "seq":
        nodes = [focus]
        for sub in arg:
            nxt: dict[Term, None] = {}
            for n in nodes:
                nxt.update(dict.fromkeys(_values(idx, n, sub)))
            nodes = list(nxt)
        return nodes
    if kind == "cinv":
        return _inverse_values(idx, focus, arg)
    return _repeat(kind, focus, lambda n: _values(idx, n, arg))


def _inverse_values(idx: _Index, focus: Term, path: Any) -> list[Term]:
    """Nodes from which ``path`` leads to ``focus``."""
    if type(path) is str:
        return idx.subjects(path, focus)
    kind, arg = path
    if kind == "inv":
        return idx.objects(focus, arg)
    if kind == "cinv":
        return _values(idx, focus, arg)
    if kind == "alt":
        out: dict[Term, None] = {}
        for sub in arg:
            out.update(dict.fromkeys(_inverse_values(idx, focus, sub)))
        return list(out)
    if kind == "seq":  # ^(a/b) = ^b/^a
        nodes = [focus]
        for sub in reversed(arg):
            nxt: dict[Term, None] = {}
            for n in nodes:
                nxt.update(dict.fromkeys(_inverse_values(idx, n, sub)))
            nodes = list(nxt)
        return nodes
    return _repeat(kind, focus, lambda n: _inverse_values(idx, n, arg))  # ^(p*) = (^p)*


def _repeat(kind: str, focus: Term, step: Callable[[Term], list[Term]]) -> list[Term]:
    """A "*", "+" or "?" path over one step: breadth-first; the visited set ends cycles."""
    seen: dict[Term, None] = {focus: None} if kind in ("*", "?") else {}
    frontier = [focus]
    while frontier:
        nxt: list[Term] = []
        for n in frontier:
            for v in step(n):
                if v not in seen:
                    seen[v] = None
                    nxt.append(v)
        frontier = [] if kind == "?" else nxt
    return list(seen)


def _metaclasses(g: Graph) -> set[Node]:
    """rdfs:Class, owl:Class and whatever the shapes graph makes a subclass of them."""
    out: set[Node] = {RDFS.Class, OWL.Class}
    todo = list(out)
    while todo:
        for sub in g.subjects(RDFS.subClassOf, todo.pop()):
            if sub not in out:
                out.add(sub)
                todo.append(sub)
    return out


class _Shapes:
    def __init__(self, g: Graph) -> None:
        self.g = g
        self.compiled: dict[Node, _Shape] = {}
        roots = set(g.subjects(RDF.type, SH.NodeShape)) | set(g.subjects(RDF.type, SH.PropertyShape))
        for t in (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf):
            roots |= set(g.subjects(t, None))
        if (None, SH.target, None) in g:
            raise _Unsupported("sh:target (SHACL-AF targets)")
        for kind in (SH.SPARQLTarget, SH.SPARQLConstraint, SH.JSConstraint):
            if (None, RDF.type, kind) in g:
                raise _Unsupported(str(kind))
        self.metaclasses = _metaclasses(g)
        # A class that is also a shape (any SHACL predicate on it) targets its instances (SHACL 2.1.3.1).
        roots |= {
            c
            for m in self.metaclasses
            for c in g.subjects(RDF.type, m)
            if any(str(p).startswith(str(SH)) for p in g.predicates(c))
        }
        self.top = [self.shape(s, s) for s in sorted(roots, key=str)]
        self.top = [s for s in self.top if s.targets]
        # Predicates whose pairs every graph needs: targets, inverse paths, typing.
        self.scan = {_TYPE, _SUBCLASS} | {
            str(o) for t in (SH.targetSubjectsOf, SH.targetObjectsOf) for o in g.objects(None, t)
        }
        self.scan |= {str(o) for o in g.objects(None, SH.inversePath) if isinstance(o, URIRef)}

    def shape(self, node: Node, named: Node) -> _Shape:
        got = self.compiled.get(node)
        if got is not None:
            return got
        g = self.g
        if isinstance(node, URIRef):
            named = node
        sh = _Shape(node, named)
        self.compiled[node] = sh  # before recursion: sh:node cycles terminate
        if (node, SH.deactivated, Literal(True)) in g:
            sh.targets = []
            return sh
        path = g.value(node, SH.path)
        if path is not None:
            sh.path = _compile_path(g, path)
            sh.path_out = render_path(g, path)
        msgs = list(g.objects(node, SH.message))
        if msgs:
            en = [m for m in msgs if isinstance(m, Literal) and m.language in (None, "en")]
            sh.message = str((en or msgs)[0])
        sev = g.value(node, SH.severity)
        if sev is not None:
            sh.severity = _SEVERITY.get(sev, str(sev))  # type: ignore[call-overload]
        for t in (SH.targetClass, SH.targetNode, SH.targetSubjectsOf, SH.targetObjectsOf):
            sh.targets.extend((t, _from_rdflib(o)) for o in g.objects(node, t))
        if any((node, RDF.type, m) in g for m in self.metaclasses):
            sh.targets.append((SH.targetClass, _from_rdflib(node)))  # implicit class target
        for p, o in g.predicate_objects(node):
            if p == SH.property:
                sh.properties.append(self.shape(o, named))
            elif p in _SUPPORTED:
                sh.checks.append(self.check(p, o, sh))
                if p in (SH.hasValue, SH.equals) or (p == SH.minCount and int(o) > 0):  # type: ignore[call-overload]
                    sh.on_empty = True
            elif str(p).startswith(str(SH)) and p not in _IGNORED:
                raise _Unsupported(f"{_short(p)} on {_short(node)}")
        return sh

    def check(self, p: Node, o: Node, sh: _Shape) -> Check:  # one branch per constraint component
        g = self.g
        oo = _from_rdflib(o)

        fail_each = _fail_each
        if p in (SH.minCount, SH.maxCount):
            n = int(o)  # type: ignore[call-overload]
            is_min = p == SH.minCount

            def card(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
                if (len(values) < n) if is_min else (len(values) > n):
                    comp = "MinCountConstraintComponent" if is_min else "MaxCountConstraintComponent"
                    why = f"{'fewer' if is_min else 'more'} than {n} value(s)"
                    out.append(_Hit(focus, None, s, comp, why))

            return card
        if p == SH.datatype:
            dt = str(o)
            return fail_each(
                "DatatypeConstraintComponent",
                lambda v: isinstance(v, tuple) and v[1] == dt and _well_formed(v),
                f"value is not a well-formed {_short(o)} literal",
            )
        if p == SH["class"]:

            def cls(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
                for v in values:
                    if not idx.is_instance(v, oo):
                        why = f"value is not a {_short(o)}"
                        out.append(_Hit(focus, v, s, "ClassConstraintComponent", why))

            return cls
        if p == SH.nodeKind:
            kinds = {
                SH.IRI: "i",
                SH.BlankNode: "b",
                SH.Literal: "l",
                SH.BlankNodeOrIRI: "bi",
                SH.BlankNodeOrLiteral: "bl",
                SH.IRIOrLiteral: "il",
            }.get(o)  # type: ignore[call-overload]
            if kinds is None:
                raise _Unsupported(f"sh:nodeKind {o}")
            return fail_each(
                "NodeKindConstraintComponent", lambda v: _kind(v) in kinds, f"value is not of node kind {_short(o)}"
            )
        if p == SH["in"]:
            allowed = frozenset(_from_rdflib(x) for x in Collection(g, o))
            return fail_each("InConstraintComponent", lambda v: v in allowed, "value is not among the allowed values")
        if p in (SH.minInclusive, SH.maxInclusive, SH.minExclusive, SH.maxExclusive):
            want = {SH.minInclusive: (0, 1), SH.maxInclusive: (-1, 0), SH.minExclusive: (1,), SH.maxExclusive: (-1,)}[p]  # type: ignore[index]
            comp = str(p).rsplit("#", 1)[1]
            comp = comp[0].upper() + comp[1:] + "ConstraintComponent"
            return fail_each(comp, lambda v: _compare(v, oo) in want, f"value is not {_short(p)} {o}")
        if p in (SH.lessThan, SH.lessThanOrEquals, SH.equals, SH.disjoint, SH.hasValue):
            return _check_pairs(p, o)
        if p == SH.node:
            nested = self.shape(o, o if isinstance(o, URIRef) else sh.named)

            def node(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
                for v in values:
                    if not _conforms(nested, v, idx):
                        why = f"value does not conform to {_short(o)}"
                        out.append(_Hit(focus, v, s, "NodeConstraintComponent", why))

            return node
        if p in _LOGICAL:
            return self.check_logical(p, o, sh)
        return self.check_strings(p, o, sh)

    def check_logical(self, p: Node, o: Node, sh: _Shape) -> Check:
        """sh:not, sh:and, sh:or, sh:xone: how many of the member shapes each value node conforms to."""
        members = [o] if p == SH["not"] else list(Collection(self.g, o))
        shapes = [self.shape(m, m if isinstance(m, URIRef) else sh.named) for m in members]
        name, ok = _LOGICAL[p]
        comp = name + "ConstraintComponent"
        why = f"value fails sh:{name.lower()}"

        def logical(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
            for v in values:
                if not ok(sum(_conforms(x, v, idx) for x in shapes), len(shapes)):
                    out.append(_Hit(focus, v, s, comp, why))

        return logical

    def check_strings(self, p: Node, o: Node, sh: _Shape) -> Check:
        g, fail_each = self.g, _fail_each
        if p == SH.pattern:
            flags = 0
            for f in str(g.value(sh.node, SH.flags) or ""):
                flags |= {"i": re.I, "m": re.M, "s": re.S, "x": re.X}.get(f, 0)
            rx = re.compile(str(o), flags)
            return fail_each(
                "PatternConstraintComponent",
                lambda v: not isinstance(v, _B) and rx.search(_lex(v)) is not None,
                f"value does not match {str(o)!r}",
            )
        if p in (SH.minLength, SH.maxLength):
            n = int(o)  # type: ignore[call-overload]
            if p == SH.minLength:
                return fail_each(
                    "MinLengthConstraintComponent",
                    lambda v: not isinstance(v, _B) and len(_lex(v)) >= n,
                    f"shorter than {n}",
                )
            return fail_each(
                "MaxLengthConstraintComponent",
                lambda v: not isinstance(v, _B) and len(_lex(v)) <= n,
                f"longer than {n}",
            )
        if p == SH.uniqueLang:
            # Only "true" switches it on; "1"^^xsd:boolean does not (W3C test property/uniqueLang-002).
            on = isinstance(o, Literal) and o.datatype == XSD.boolean and str(o) == "true"

            def unique(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
                if not on:
                    return
                langs = Counter(v[2] for v in values if isinstance(v, tuple) and v[2])
                for lang in sorted(lang for lang, n in langs.items() if n > 1):
                    out.append(_Hit(focus, None, s, "UniqueLangConstraintComponent", f"more than one @{lang} value"))

            return unique
        if p == SH.languageIn:
            ranges = [str(x).lower() for x in Collection(self.g, o)]

            def lang_ok(v: Term) -> bool:
                tag = v[2] if isinstance(v, tuple) else None
                return bool(tag) and any(r == "*" or tag == r or tag.startswith(r + "-") for r in ranges)  # type: ignore[union-attr]

            return _fail_each("LanguageInConstraintComponent", lang_ok, f"language not in {ranges}")
        raise _Unsupported(str(p))


# Constraint → (component name, does a value conforming to n of the m member shapes pass?).
_LOGICAL: dict[Node, tuple[str, Callable[[int, int], bool]]] = {
    SH["not"]: ("Not", lambda n, m: n == 0),
    SH["and"]: ("And", lambda n, m: n == m),
    SH["or"]: ("Or", lambda n, m: n > 0),
    SH.xone: ("Xone", lambda n, m: n == 1),
}


def _conforms(shape: _Shape, v: Term, idx: _Index) -> bool:
    """Does ``v`` conform to ``shape``? Meeting the same (shape, node) again inside its own check (a
    recursive shape on cyclic data) counts as conforming instead of recursing for ever."""
    key = (id(shape), v)
    if key in idx.active:
        return True
    inner: list[_Hit] = []
    idx.active.add(key)
    try:
        _run_shape(shape, v, idx, inner)
    finally:
        idx.active.discard(key)
    return not inner


def _check_pairs(p: Node, o: Node) -> Check:
    """sh:lessThan(OrEquals), sh:equals, sh:disjoint (against another property's values) and sh:hasValue."""
    oo = _from_rdflib(o)
    if p in (SH.lessThan, SH.lessThanOrEquals):
        other = str(o)
        want2 = (-1,) if p == SH.lessThan else (-1, 0)
        comp = "LessThanConstraintComponent" if p == SH.lessThan else "LessThanOrEqualsConstraintComponent"

        def lt(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
            others = idx.objects(focus, other)
            for v in values:
                for w in others:
                    if _compare(v, w) not in want2:
                        out.append(_Hit(focus, v, s, comp, f"value is not less than {_short(other)}"))

        return lt
    if p in (SH.equals, SH.disjoint):
        other = str(o)
        is_eq = p == SH.equals

        def eq(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
            others = idx.objects(focus, other)
            if is_eq:
                for v in [v for v in values if v not in others] + [w for w in others if w not in values]:
                    why = f"differs from {_short(other)}"
                    out.append(_Hit(focus, v, s, "EqualsConstraintComponent", why))
            else:
                for v in values:
                    if v in others:
                        why = f"shared with {_short(other)}"
                        out.append(_Hit(focus, v, s, "DisjointConstraintComponent", why))

        return eq
    if p == SH.hasValue:

        def has(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
            if oo not in values:
                why = f"missing value {_short(o)}"
                out.append(_Hit(focus, None, s, "HasValueConstraintComponent", why))

        return has
    raise AssertionError(p)


def _fail_each(component: str, ok: Callable[[Term], bool], why: str) -> Check:
    def run(s: _Shape, focus: Term, values: list[Term], idx: _Index, out: list[_Hit]) -> None:
        for v in values:
            if not ok(v):
                out.append(_Hit(focus, v, s, component, why))

    return run


_NONE: list[Term] = []


def _lex(v: Term) -> str:
    return v[0].removeprefix(_ILL) if isinstance(v, tuple) else v


def _kind(v: Term) -> str:
    return "l" if isinstance(v, tuple) else ("b" if isinstance(v, _B) else "i")


def _run_shape(sh: _Shape, focus: Term, idx: _Index, out: list[_Hit]) -> None:
    path = sh.path
    if path is None:
        values = [focus]
    elif type(path) is str and path not in idx._over:  # the common case, inlined
        po = idx.spo.get(focus)
        values = po.get(path, _NONE) if po is not None else _NONE
    else:
        values = _values(idx, focus, path)
    if not values and not sh.on_empty:
        return
    for check in sh.checks:
        check(sh, focus, values, idx, out)
    for prop in sh.properties:
        for v in values:
            _run_shape(prop, v, idx, out)


def _focus_nodes(sh: _Shape, idx: _Index) -> list[Term]:
    out: dict[Term, None] = {}
    for kind, arg in sh.targets:
        if kind == SH.targetClass:
            out.update(dict.fromkeys(idx.instances(arg)))
        elif kind == SH.targetNode:
            out[arg] = None
        elif kind == SH.targetSubjectsOf:
            out.update(dict.fromkeys(s for s, _ in idx.pairs(arg)))  # type: ignore[arg-type]
        else:
            out.update(dict.fromkeys(o for _, o in idx.pairs(arg)))  # type: ignore[arg-type]
    return list(out)


@cache
def _default_shapes_graph() -> Graph:
    return _parse_shapes(PR2GRAPH_SHAPES)


def _parse_shapes(path: Path) -> Graph:
    try:
        return Graph().parse(path, format="turtle")
    except Exception as e:  # rdflib raises several unrelated types for bad Turtle
        raise DataFileError(f"{path.name}: not valid Turtle SHACL shapes ({e})") from e


@cache
def _default_compiled() -> _Shapes:
    return _Shapes(_default_shapes_graph())


def _compiled(g: Graph) -> _Shapes:
    # Only the default shapes are cached: rdflib graphs hash by identifier, not content.
    return _default_compiled() if g is _default_shapes_graph() else _Shapes(g)


def _validate_core(units: list[_Index], shapes_g: Graph) -> ValidationReport:
    shapes = _compiled(shapes_g)
    results: list[ValidationResult] = []
    for idx in units:
        hits: list[_Hit] = []
        idx.prepare(shapes.scan)
        try:
            for sh in shapes.top:
                for focus in _focus_nodes(sh, idx):
                    _run_shape(sh, focus, idx, hits)
        except RecursionError:
            where = "the default graph" if idx.name is None else f"graph <{idx.name}>"
            raise InputError(where, "nests shapes (sh:node, sh:property) deeper than can be checked") from None
        if hits:
            policy = idx.policy()
            for h in hits:
                value = None if h.value is None else _original(idx, h.value)
                msg = h.shape.message or f"{_short(h.shape.path_out or h.focus)}: {h.default_message}"
                results.append(
                    ValidationResult(
                        focus=_original(idx, h.focus),
                        path=h.shape.path_out,
                        value=value,
                        message=msg,
                        severity=h.shape.severity,
                        shape=h.shape.named,
                        component=h.component,
                        graph=idx.name,
                        policy=policy,
                        source=h.shape.node,
                    )
                )
    results.sort(key=_result_key)
    return ValidationReport(not results, results, [u.name for u in units], "core")


def _original(idx: _Index, t: Term) -> Node:
    if isinstance(t, tuple):
        lit = idx.orig.get(t)
        return lit if lit is not None else _to_rdflib(t)
    return _to_rdflib(t)


def _result_key(r: ValidationResult) -> tuple[str, ...]:
    return (str(r.graph), str(r.focus), str(r.path), r.component, str(r.value))


# ---------------------------------------------------------------------------------------------------
# pyshacl engine (reference, and for shapes beyond the core subset)


def _validate_pyshacl(units: list[_Index], shapes_g: Graph) -> ValidationReport:
    from pyshacl import validate as pyshacl_validate

    results: list[ValidationResult] = []
    for idx in units:
        g = Graph()
        for s, po in idx.spo.items():
            for p, objs in po.items():
                for o in objs:
                    g.add((_to_rdflib(s), URIRef(p), _original(idx, o)))
        for t in typing_graph():
            g.add(t)
        _conforms, rg, _text = pyshacl_validate(g, shacl_graph=shapes_g, inference="none", inplace=True)
        policy = idx.policy()
        for r in top_results(rg):
            src = rg.value(r, SH.sourceShape)
            named = named_shape(shapes_g, src)
            path = rg.value(r, SH.resultPath)
            msg = rg.value(r, SH.resultMessage)
            sev = rg.value(r, SH.resultSeverity)
            comp = str(rg.value(r, SH.sourceConstraintComponent)).rsplit("#", 1)[-1]
            results.append(
                ValidationResult(
                    focus=rg.value(r, SH.focusNode),
                    path=None if path is None else render_path(rg, path),
                    value=rg.value(r, SH.value),
                    message=str(msg) if msg is not None else "",
                    severity=_SEVERITY.get(sev, str(sev)),
                    shape=named,
                    component=comp,
                    graph=idx.name,
                    policy=policy,
                    source=src,
                )
            )
    results.sort(key=_result_key)
    return ValidationReport(not results, results, [u.name for u in units], "pyshacl")


def top_results(rg: Graph) -> list[Node]:
    """The report's own results: those nested under sh:detail (why an sh:node failed) are not counted."""
    return sorted(
        {r for rep in rg.subjects(RDF.type, SH.ValidationReport) for r in rg.objects(rep, SH.result)}, key=str
    )


def named_shape(g: Graph, node: Node | None) -> Node:
    seen: set[Node] = set()
    while node is not None and not isinstance(node, URIRef) and node not in seen:
        seen.add(node)
        parent = g.value(None, SH.property, node) or g.value(None, SH.node, node)
        if parent is None:
            break
        node = parent
    return node if node is not None else URIRef("urn:unknown-shape")


# ---------------------------------------------------------------------------------------------------
# Inputs


def _graph_triples(g: Graph) -> Iterable[tuple[Node, Node, Node]]:
    """All triples of one graph, through rdflib's public API (its Memory store checks each triple's contexts, which
    is slower than reading its internal per-context sets, but those are not an interface)."""
    return g.triples((None, None, None))


def _units_from_rdflib(data: Graph) -> list[_Index]:
    overlay = _typing_index()
    units: list[_Index] = []
    graphs: Iterable[Graph] = [data]
    if isinstance(data, Dataset):
        graphs = data.graphs()
    elif isinstance(data, ConjunctiveGraph):
        graphs = data.contexts()
    uri, lit = URIRef, Literal
    for g in sorted(graphs, key=lambda x: str(x.identifier)):
        # The default graph and anonymous graphs have no useful name.
        name: Node | None = g.identifier
        if name == DATASET_DEFAULT_GRAPH_ID or not isinstance(name, URIRef):
            name = None
        idx = _Index(name, overlay)
        orig, add = idx.orig, idx.add
        for s, p, o in _graph_triples(g):
            # _from_rdflib inlined for the common cases: this loop sees every triple.
            ts = str(s) if type(s) is uri else _from_rdflib(s)
            to = type(o)
            if to is uri:
                add(ts, str(p), str(o))
            elif to is lit:
                lo = _from_rdflib(o)
                orig[lo] = o  # type: ignore[index,assignment]
                add(ts, str(p), lo)
            else:
                add(ts, str(p), _from_rdflib(o))
        if idx.spo:
            units.append(idx)
    return units


def _units_from_file(path: Path) -> list[_Index]:
    import pyoxigraph as ox

    from pp_graph.store.embedded import RDF_FORMATS

    suffix = graph_suffix(path)
    fmt = RDF_FORMATS[suffix]
    overlay = _typing_index()
    units: dict[str, _Index] = {}
    named, blank, lit = ox.NamedNode, ox.BlankNode, ox.Literal

    def term(t: Any) -> Term:
        kind = type(t)
        if kind is named:
            return t.value
        if kind is blank:
            return _B("_:" + t.value)
        if kind is lit:
            lang = t.language
            return (t.value, _LANG_STRING if lang else t.datatype.value, lang.lower() if lang else None)
        raise InputError(str(path), "contains RDF-star triple terms, which policy graphs never use")

    last: Any = None
    spo: dict[Term, dict[str, list[Term]]] = {}
    big: dict[tuple[str, Term, str], set[Term]] = {}
    key = ""
    try:
        with open(path, "rb") as fh:
            for q in ox.parse(fh, format=fmt):
                gn = q.graph_name
                if gn != last:  # quads usually come grouped by graph
                    last = gn
                    key = "" if isinstance(gn, ox.DefaultGraph) else str(gn)
                    idx = units.get(key)
                    if idx is None:
                        # Blank-node graph names are file-local: reported as no name.
                        gname = URIRef(gn.value) if isinstance(gn, named) else None
                        idx = units[key] = _Index(gname, overlay)
                    spo = idx.spo
                # Inlined _Index.add with duplicate removal (a file may repeat a triple).
                s = term(q.subject)
                p = q.predicate.value
                o = term(q.object)
                po = spo.get(s)
                if po is None:
                    spo[s] = {p: [o]}
                    continue
                objs = po.get(p)
                if objs is None:
                    po[p] = [o]
                elif len(objs) < 64:
                    if o not in objs:
                        objs.append(o)
                else:  # long value lists: a set keeps this linear
                    seen = big.get((key, s, p))
                    if seen is None:
                        seen = big[(key, s, p)] = set(objs)
                    if o not in seen:
                        seen.add(o)
                        objs.append(o)
    except (OSError, SyntaxError, ValueError, MemoryError) as e:
        raise parse_failure(path, e, GRAPH_SUFFIXES[suffix]) from e
    if not units:
        raise InputError(str(path), "contains no triples")
    return [units[k] for k in sorted(units)]


def _shapes_graph(shapes: Graph | Path | str | None) -> Graph:
    if shapes is None:
        return _default_shapes_graph()
    if isinstance(shapes, Graph):
        return shapes
    return _parse_shapes(Path(shapes))


def _run(units: list[_Index], shapes: Graph | Path | str | None, engine: str) -> ValidationReport:
    g = _shapes_graph(shapes)
    if engine not in ("core", "pyshacl", "auto"):
        raise ValueError(f"engine must be 'auto', 'core' or 'pyshacl', not {engine!r}")
    if engine != "pyshacl":
        try:
            return _validate_core(units, g)
        except _Unsupported as e:
            if engine == "core":
                raise UnsupportedShapes(f"the core engine does not run {e}; use engine 'auto' or 'pyshacl'") from e
    try:
        return _validate_pyshacl(units, g)
    except _Unsupported as e:  # a path or shape no engine can run
        raise DataFileError(f"SHACL shapes: {e}") from e
    except Exception as e:
        from pyshacl.errors import ConstraintLoadError, ReportableRuntimeError, ShapeLoadError

        if isinstance(e, (ConstraintLoadError, ReportableRuntimeError, ShapeLoadError)):
            raise DataFileError(f"SHACL shapes cannot be run: {e}") from e
        raise


# ---------------------------------------------------------------------------------------------------
# Public API


def validate(
    graph_or_dataset: Graph,
    *,
    shapes: Graph | Path | str | None = None,
    engine: str = "auto",
) -> ValidationReport:
    """Validate a policy graph, or every named graph of a Dataset separately, against the shapes.

    ``shapes`` defaults to ontologies/pr2graph-shapes.ttl. ``engine``: "auto" (core engine, pyshacl when
    the shapes need more than SHACL Core), "core" or "pyshacl". Each result names its graph and policy.
    """
    return _run(_units_from_rdflib(graph_or_dataset), shapes, engine)


def validate_files(
    paths: Sequence[Path | str],
    *,
    shapes: Graph | Path | str | None = None,
    engine: str = "auto",
) -> list[tuple[Path, ValidationReport]]:
    """Validate graph files (.trig, .ttl, .nq, .nt, .jsonld); one report per file.

    Raises InputError naming the file when one cannot be read or parsed; :func:`validate_each` goes on.
    """
    out = []
    for p in map(Path, paths):
        out.append((p, _run(_units_from_file(p), shapes, engine)))
    return out


@dataclass(frozen=True, slots=True)
class FileValidation:
    """The outcome for one file: a report, or the error that kept it from being validated."""

    path: Path
    report: ValidationReport | None
    error: InputError | None = None

    def to_dict(self) -> dict[str, Any]:
        if self.report is None:
            assert self.error is not None
            return {"file": str(self.path), "conforms": None, "error": self.error.problem}
        return {"file": str(self.path), "error": None, **self.report.to_dict()}


def validate_each(
    paths: Sequence[Path | str],
    *,
    shapes: Graph | Path | str | None = None,
    engine: str = "auto",
) -> list[FileValidation]:
    """Like :func:`validate_files`, but a file that cannot be read or parsed is reported and the rest are
    still validated (a folder with one broken file must not hide the violations of the others)."""
    g = _shapes_graph(shapes)  # a bad shapes file is one error for all, raised here
    out = []
    for p in map(Path, paths):
        try:
            units = _units_from_file(p)
        except InputError as e:
            out.append(FileValidation(p, None, e))
            continue
        out.append(FileValidation(p, _run(units, g, engine)))
    return out
