"""ODRL 2.2 export following DPV's guidance: DPV terms inside ODRL rules.

Per privacy policy one ``odrl:Set`` (typed ``odrl:Policy`` too) with ``odrl:profile``; per stated
practice and data class a permission, per negated one ("we do not sell …") a prohibition (on the data it names
beyond generic personal data, when it names any):
target = the pd: category, action = the DPV processing concept, assigner = the site, assignee = the
recipient (sharing) or third-party collector; purposes as ``odrl:purpose odrl:isA dpv:…`` constraints,
retention as a ``dpv-odrl:Duration`` constraint, legal basis as ``dpv-odrl:LegalBasis``, a storage region as an
``odrl:spatial`` constraint on DPV's location concept (``loc:DE``, ``loc:EEA``; "outside the EEA" is ``neq
loc:EEA``; "any country" and "your country" name no place and constrain nothing).
A prohibition whose sentence states an exception ("unless you consent", "except as required by law") or a
condition ("if you do not create an account") keeps it as a constraint on the profile's left operands
``ppgo:statedException eq false`` / ``ppgo:statedCondition eq true``, described by the words: the policy does not
prohibit the practice outright, and an evaluator that cannot know whether the exception applies reports the rule
undetermined instead of active.
Security practices are measures, not permissions to process: they are not exported; nor are the statements
beside the practices (user choice, policy change, Do Not Track, audiences, a transfer's safeguard): ODRL and
DPV's mapping have no term for them.
All IRIs derive from the policy graph's IRIs, so the export is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import DCTERMS, RDF, RDFS, SH, XSD
from rdflib.term import Node

from pp_graph.export.qualifiers import Qualifier, practice_qualifiers, sentence_data
from pp_graph.export.source import policy_rows
from pp_graph.graph.namespaces import DPV, ODRL, PD, slug
from pp_graph.query.runner import Store
from pp_graph.resources import ONTOLOGIES
from pp_graph.validate.shacl import named_shape, render_path, top_results

DPV_ODRL = "https://w3id.org/dpv/mappings/odrl#"
DPV_ODRL_PROFILE = URIRef("https://w3id.org/dpv/mappings/odrl")  # DPV's ODRL profile (the mapping)
PPG_PROFILE = URIRef("urn:pp-graph:odrl-profile")  # our constraints on it: ontologies/odrl-profile-shapes.ttl
PPGO = "urn:pp-graph:odrl-profile#"  # the profile's own left operands
STATED = {  # a qualifier's left operand, and the value under which the prohibition holds
    "exception": (URIRef(PPGO + "statedException"), False),
    "condition": (URIRef(PPGO + "statedCondition"), True),
}
DURATION = URIRef(DPV_ODRL + "Duration")
LEGAL_BASIS = URIRef(DPV_ODRL + "LegalBasis")
DPV_LOC = "https://w3id.org/dpv/loc#"  # DPV's locations: ISO 3166 codes and regions (EU, EEA)
# storage regions that name no place one can constrain to
NO_PLACE = {"any-country", "user-country", "outside-user-country"}

ODRL_ONTOLOGY = ONTOLOGIES / "vendor" / "odrl" / "ODRL22.ttl"
ODRL_SHAPES = ONTOLOGIES / "vendor" / "odrl" / "shacl" / "shapesv2.ttl"
PROFILE_SHAPES = ONTOLOGIES / "odrl-profile-shapes.ttl"
PROFILE = ONTOLOGIES / "odrl-profile.ttl"  # the DPV actions as odrl:Action with odrl:includedIn


def export_policy(store: Store, policy: str) -> Graph:
    """The ODRL policy of one privacy policy in the store (its graph named ``policy``)."""
    src = policy_rows(store, policy)
    return build_odrl(policy, src.site, src.domain, src.practices, src.party_names)


def new_graph() -> Graph:
    g = Graph()
    for prefix, ns in (
        ("odrl", ODRL),
        ("dpv", DPV),
        ("pd", PD),
        ("dpv-odrl", DPV_ODRL),
        ("ppgo", PPGO),
        ("dct", DCTERMS),
        ("xsd", XSD),
        ("rdfs", RDFS),
    ):
        g.bind(prefix, ns)
    return g


@dataclass
class _Rule:
    iri: URIRef
    kind: URIRef  # odrl:permission or odrl:prohibition
    target: URIRef
    action: URIRef
    assignee: URIRef | None


def build_odrl(
    policy: str, site: str, domain: str, practices: Iterable[dict[str, Any]], names: dict[str, str]
) -> Graph:
    g = new_graph()
    pol = URIRef(policy + "/odrl")
    g.add((pol, RDF.type, ODRL.Policy))
    g.add((pol, RDF.type, ODRL.Set))
    g.add((pol, ODRL.uid, pol))
    g.add((pol, ODRL.profile, DPV_ODRL_PROFILE))
    g.add((pol, ODRL.profile, PPG_PROFILE))
    g.add((pol, DCTERMS.source, URIRef(policy)))
    g.add((pol, RDFS.label, Literal(f"Data practices stated in the privacy policy of {domain}")))
    assigner = URIRef(site)
    g.add((assigner, RDF.type, ODRL.Party))
    g.add((assigner, RDF.type, DPV.DataController))
    g.add((assigner, RDFS.label, Literal(domain)))

    for row in practices:
        practice = str(row["practice"])
        kind = ODRL.prohibition if row["negated"] else ODRL.permission
        quals = practice_qualifiers(row)
        action = URIRef(str(row["action"]))
        assignees: list[URIRef | None] = (
            [URIRef(r) for r in row["receivers"]] or [URIRef(c) for c in row["collectors"]] or [None]
        )
        for party in assignees:
            if party is not None:
                g.add((party, RDF.type, ODRL.Party))
                g.add((party, RDF.type, DPV.ThirdParty))
                if str(party) in names:
                    g.add((party, RDFS.label, Literal(names[str(party)])))
        for data in _targets(row):
            for party in assignees:
                tail = slug(data.rsplit("#", 1)[-1])
                if party is not None:
                    tail += "/" + slug(str(party).rsplit("/", 1)[-1])
                rule = _Rule(URIRef(f"{practice}/odrl/{tail}"), kind, URIRef(data), action, party)
                _add_rule(g, pol, rule, assigner, row)
                _add_qualifiers(g, rule.iri, quals)
    _declare_actions(g)
    return g


def _targets(row: dict[str, Any]) -> list[str]:
    """The rule targets of a practice row. A denial prohibits the data its own sentence names, when it names some
    (its line may name other data in other sentences), and of those the ones besides generic personal data ("we do
    not share information that identifies you, such as your name or email address"): the generic word is the head
    the examples narrow, and a prohibition on all personal data would forbid what the policy states it does
    elsewhere. A stated practice keeps every class it names."""
    classes = [str(d) for d in row["dataClasses"]] or [str(DPV.PersonalData)]
    if not row["negated"]:
        return classes
    named = [d for d in sentence_data(row) if d in classes] or classes
    return [d for d in named if d != str(DPV.PersonalData)] or named


def _declare_actions(g: Graph) -> None:
    """Copy the profile's declarations of the actions used and of the actions including them
    (odrl:includedIn), so the export conforms to the W3C ODRL shapes with RDFS inference too."""
    prof = _profile()
    todo: list[Node] = sorted(set(g.objects(None, ODRL.action)), key=str)
    seen: set[Node] = set()
    while todo:
        act = todo.pop()
        if act in seen:
            continue
        seen.add(act)
        for p, o in prof.predicate_objects(act):
            g.add((act, p, o))
            if p == ODRL.includedIn:
                todo.append(o)


@cache
def _profile() -> Graph:
    return Graph().parse(PROFILE, format="turtle")


def _add_rule(g: Graph, pol: URIRef, rule: _Rule, assigner: URIRef, row: dict[str, Any]) -> None:
    r = rule.iri
    g.add((pol, rule.kind, r))
    g.add((r, RDF.type, ODRL.Permission if rule.kind == ODRL.permission else ODRL.Prohibition))
    g.add((r, ODRL.target, rule.target))
    g.add((r, ODRL.action, rule.action))
    g.add((r, ODRL.assigner, assigner))
    if rule.assignee is not None:
        g.add((r, ODRL.assignee, rule.assignee))
    g.add((r, DCTERMS.source, URIRef(str(row["practice"]))))
    purposes = sorted(row["purposes"])
    if len(purposes) == 1:
        g.add((r, ODRL.constraint, _purpose(g, URIRef(f"{r}/purpose"), purposes[0])))
    elif purposes:
        # "for A and B" permits use for either purpose: one isA constraint each, joined by odrl:or.
        lc = URIRef(f"{r}/purposes")
        g.add((lc, RDF.type, ODRL.LogicalConstraint))
        items = [_purpose(g, URIRef(f"{r}/purpose/{slug(p.rsplit('#', 1)[-1])}"), p) for p in purposes]
        head = BNode()
        Collection(g, head, items)  # type: ignore[arg-type]
        g.add((lc, ODRL["or"], head))
        g.add((r, ODRL.constraint, lc))
    if row.get("retention"):
        c = URIRef(f"{r}/duration")
        g.add((c, RDF.type, ODRL.Constraint))
        g.add((c, ODRL.leftOperand, DURATION))
        g.add((c, ODRL.operator, ODRL.lteq))
        g.add((c, ODRL.rightOperand, Literal(str(row["retention"]), datatype=XSD.duration)))
        g.add((r, ODRL.constraint, c))
    for region in sorted(set(row.get("regions", [])) - NO_PLACE):
        outside = region == "outside-EEA"  # "transferred outside the EEA": anywhere but there
        c = URIRef(f"{r}/spatial/{slug(region)}")
        g.add((c, RDF.type, ODRL.Constraint))
        g.add((c, ODRL.leftOperand, ODRL.spatial))
        g.add((c, ODRL.operator, ODRL.neq if outside else ODRL.eq))
        g.add((c, ODRL.rightOperand, URIRef(DPV_LOC + ("EEA" if outside else region))))
        g.add((r, ODRL.constraint, c))
    for basis in sorted(row.get("legalBases", [])):
        c = URIRef(f"{r}/legal-basis/{slug(basis.rsplit('#', 1)[-1])}")
        g.add((c, RDF.type, ODRL.Constraint))
        g.add((c, ODRL.leftOperand, LEGAL_BASIS))
        g.add((c, ODRL.operator, ODRL.eq))
        g.add((c, ODRL.rightOperand, URIRef(basis)))
        g.add((r, ODRL.constraint, c))


def _add_qualifiers(g: Graph, r: URIRef, quals: list[Qualifier]) -> None:
    for q in quals:
        left, holds = STATED[q.kind]
        c = URIRef(f"{r}/stated-{q.kind}")
        g.add((c, RDF.type, ODRL.Constraint))
        g.add((c, ODRL.leftOperand, left))
        g.add((c, ODRL.operator, ODRL.eq))
        g.add((c, ODRL.rightOperand, Literal(holds)))
        g.add(
            (
                c,
                DCTERMS.description,
                Literal(f'the policy line states {"an" if q.kind == "exception" else "a"} {q.kind}: "{q.wording}"'),
            )
        )
        g.add((r, ODRL.constraint, c))


def _purpose(g: Graph, c: URIRef, purpose: str) -> URIRef:
    g.add((c, RDF.type, ODRL.Constraint))
    g.add((c, ODRL.leftOperand, ODRL.purpose))
    g.add((c, ODRL.operator, ODRL.isA))
    g.add((c, ODRL.rightOperand, URIRef(purpose)))
    return c


# -- validation -------------------------------------------------------------------------------------


@dataclass
class OdrlReport:
    conforms: bool
    results: list[dict[str, str]]
    text: str


@cache
def _class_closure() -> dict[URIRef, frozenset[URIRef]]:
    """ODRL class → its ODRL superclasses (rdfs:subClassOf*), from the ODRL 2.2 ontology."""
    onto = Graph().parse(ODRL_ONTOLOGY, format="turtle")
    sup: dict[URIRef, set[URIRef]] = {}
    for s, o in onto.subject_objects(RDFS.subClassOf):
        if isinstance(s, URIRef) and isinstance(o, URIRef):
            sup.setdefault(s, set()).add(o)
    closure: dict[URIRef, frozenset[URIRef]] = {}
    for c in sup:
        seen: set[URIRef] = set()
        todo = list(sup[c])
        while todo:
            x = todo.pop()
            if x not in seen:
                seen.add(x)
                todo.extend(sup.get(x, ()))
        closure[c] = frozenset(seen)
    return closure


@cache
def _shapes() -> tuple[Graph, Graph]:
    return Graph().parse(ODRL_SHAPES, format="turtle"), Graph().parse(PROFILE_SHAPES, format="turtle")


@cache
def _odrl_ontology() -> Graph:
    return Graph().parse(ODRL_ONTOLOGY, format="turtle")


def validate_odrl(data: Graph, profile: bool = True, inference: str = "none") -> OdrlReport:
    """Validate against the W3C ODRL shapes plus (``profile``) our profile shapes.

    The W3C shapes target odrl:Policy / odrl:Rule; the types of the data are closed over ODRL's
    rdfs:subClassOf here (odrl:Permission → odrl:Rule …) on a copy. ``inference="rdfs"`` also runs
    pyshacl's RDFS inference with the ODRL ontology, as a user checking an export would; the export
    conforms either way (the DPV actions carry their odrl:includedIn, see ontologies/odrl-profile.ttl).
    """
    if inference not in ("none", "rdfs"):
        raise ValueError(f"inference must be 'none' or 'rdfs', not {inference!r}")
    from pyshacl import validate

    g = Graph()
    g += data
    closure = _class_closure()
    for s, o in list(data.subject_objects(RDF.type)):
        for sup in closure.get(o, ()):  # type: ignore[call-overload]
            g.add((s, RDF.type, sup))
    # Two runs: pyshacl is several times slower with both shape sets in one graph.
    ok, results, texts = True, [], []
    for shapes in _shapes() if profile else _shapes()[:1]:
        ont = _odrl_ontology() if inference == "rdfs" else None
        conforms, rg, text = validate(
            g, shacl_graph=shapes, ont_graph=ont, inference=inference, advanced=True, inplace=inference == "none"
        )
        ok = ok and bool(conforms)
        texts.append(str(text))
        for res in top_results(rg):  # not the sh:detail results nested under them
            path = rg.value(res, SH.resultPath)
            results.append(
                {
                    "focus": str(rg.value(res, SH.focusNode)),
                    "path": "None" if path is None else str(render_path(rg, path)),  # not a blank node id
                    "message": str(rg.value(res, SH.resultMessage)),
                    "shape": str(named_shape(shapes, rg.value(res, SH.sourceShape))),
                }
            )
    results.sort(key=lambda r: (r["focus"], r["path"], r["shape"], r["message"]))
    return OdrlReport(ok, results, "\n".join(texts))
