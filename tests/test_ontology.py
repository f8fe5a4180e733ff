"""ontologies/pr2graph.ttl: OWL-consistent (HermiT), and it declares everything the builder emits."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SH

from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.graph.build import build_graph
from pp_graph.graph.namespaces import PPG, PR2G
from pp_graph.model import RecipientKind
from pp_graph.resources import PR2GRAPH_ONTOLOGY, PR2GRAPH_SHAPES
from pp_graph.validate import typing_graph

# Written for these tests: every practice type, parties of several kinds, retention, rights, legal basis.
TEXT = """# Privacy at Birch Garden
We collect your name, email address and IP address to provide the service and to improve it.
We share your purchase history with our analytics providers and with Meta for advertising.
We do not sell your personal data.
We keep your order records for 6 years on servers in Germany.
We use encryption to protect your data against unauthorized access.
You have the right to access your data and the right to erasure. We rely on your consent.
"""


@pytest.fixture(scope="module")
def onto() -> Graph:
    return Graph().parse(PR2GRAPH_ONTOLOGY, format="turtle")


@pytest.fixture(scope="module")
def emitted() -> Graph:
    ds, name = build_graph(extract(policy_from(TEXT), get_backend("offline")))
    assert isinstance(ds, Dataset)
    return ds.graph(name)


def policy_from(text: str):  # type: ignore[no-untyped-def]
    from pp_graph.load.sources import policy_from_text

    return policy_from_text(text, "birch-garden.example")


def _reason(data: bytes) -> None:
    from owlready2 import World, sync_reasoner

    world = World()
    onto = world.get_ontology("urn:pp-graph:ontology").load(fileobj=io.BytesIO(data), format="ntriples")
    with onto:
        sync_reasoner(world, infer_property_values=False, debug=0)
    assert not list(world.inconsistent_classes())


needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="HermiT needs java")


@needs_java
def test_ontology_is_consistent(onto: Graph) -> None:
    _reason(onto.serialize(format="nt", encoding="utf-8"))


@needs_java
def test_reasoner_would_catch_an_inconsistency(onto: Graph) -> None:
    """Proves the check above runs a reasoner: a party that is both first and third party is rejected."""
    from owlready2 import OwlReadyInconsistentOntologyError

    bad = Graph()
    for t in onto:
        bad.add(t)
    x = URIRef("urn:test:both")
    bad.add((x, RDF.type, OWL.NamedIndividual))
    bad.add((x, RDF.type, PR2G.FirstParty))
    bad.add((x, RDF.type, PR2G.ThirdParty))
    with pytest.raises(OwlReadyInconsistentOntologyError):
        _reason(bad.serialize(format="nt", encoding="utf-8"))


def _declared(onto: Graph, term: URIRef, *kinds: URIRef) -> bool:
    return any((term, RDF.type, k) in onto for k in kinds)


def test_every_emitted_term_is_declared(onto: Graph, emitted: Graph) -> None:
    """Every predicate, class and recipient kind the builder emits is declared: the ontology cannot drift."""
    preds = set(emitted.predicates()) - {RDF.type}
    # Not vacuous: the text exercises the DPV-valued, party and retention properties.
    assert {PR2G.data, PR2G.purpose, PR2G.receiver, PPG.retentionPeriod, PPG.disclosesRight} <= preds
    for p in sorted(preds):
        objects = set(emitted.objects(None, p))
        if all(isinstance(o, Literal) for o in objects):
            assert _declared(onto, p, OWL.DatatypeProperty), f"{p} is not declared as owl:DatatypeProperty"
        else:
            assert all(not isinstance(o, Literal) for o in objects), f"{p} mixes literals and resources"
            assert _declared(onto, p, OWL.ObjectProperty), f"{p} is not declared as owl:ObjectProperty"
        assert (p, RDFS.label, None) in onto and (p, RDFS.comment, None) in onto, f"{p} lacks label/comment"
    for c in sorted(set(emitted.objects(None, RDF.type))):
        assert _declared(onto, c, OWL.Class), f"class {c} is not declared"  # type: ignore[arg-type]
    for k in set(emitted.objects(None, PPG.recipientKind)):
        assert (k, RDF.type, PPG.RecipientKind) in onto, f"{k} is not a declared ppg:RecipientKind"


def test_every_term_in_the_builder_source_is_declared(onto: Graph) -> None:
    """Static check over build.py, for terms a given text may not trigger (ppg:implicit, ppg:headingPath…)."""
    import ast

    import pp_graph.graph.build as build

    tree = ast.parse(Path(build.__file__).read_text(encoding="utf-8"))
    ns = {"PPG": PPG, "PR2G": PR2G}
    used: set[URIRef] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ns:
            used.add(ns[node.value.id][node.attr])
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)
            and node.value.id in ns
            and isinstance(node.slice, ast.Constant)
        ):
            used.add(ns[node.value.id][node.slice.value])
    assert len(used) > 30
    for t in used:
        assert _declared(onto, t, OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty), f"{t} is not declared"


def test_recipient_kinds_match_the_model(onto: Graph) -> None:
    declared = set(onto.subjects(RDF.type, PPG.RecipientKind))
    assert declared == {PPG["recipient-" + k.value.replace("_", "-")] for k in RecipientKind}


def test_every_declared_term_is_documented(onto: Graph) -> None:
    for kind in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty):
        for t in onto.subjects(RDF.type, kind):
            if isinstance(t, URIRef):
                assert (t, RDFS.label, None) in onto and (t, RDFS.comment, None) in onto, t


def test_practice_and_party_superclasses(onto: Graph) -> None:
    for c in (
        PR2G.DataCollectionUse,
        PR2G.DataSharingDisclosure,
        PR2G.DataStorageRetention,
        PR2G.DataSecurityProtection,
    ):
        assert (c, RDFS.subClassOf, PPG.DataPractice) in onto
    for c in (PR2G.FirstParty, PR2G.ThirdParty, PR2G.User):
        assert (c, RDFS.subClassOf, PPG.Party) in onto


def test_shapes_use_only_declared_terms(onto: Graph) -> None:
    """Shapes and the validator's typing graph use only predicates and classes the ontology declares."""
    shapes = Graph().parse(PR2GRAPH_SHAPES, format="turtle")
    paths = {p for p in shapes.objects(None, SH.path) if isinstance(p, URIRef)}
    for lst in shapes.objects(None, SH.alternativePath):
        paths |= {p for p in shapes.items(lst) if isinstance(p, URIRef)}  # type: ignore[arg-type]
    paths |= {p for p in shapes.objects(None, SH.inversePath) if isinstance(p, URIRef)}
    paths.discard(RDF.type)  # RDF's own (pps:PolicyGraphShape counts a graph's ^rdf:type of pr2g:PrivacyPolicy)
    for p in paths:
        assert _declared(onto, p, OWL.ObjectProperty, OWL.DatatypeProperty), f"shape path {p} not declared"
    classes = set(shapes.objects(None, SH["class"])) | set(shapes.objects(None, SH.targetClass))
    classes |= set(typing_graph().objects(None, RDF.type))
    for c in classes:
        assert _declared(onto, c, OWL.Class), f"class {c} used by the shapes is not declared"  # type: ignore[arg-type]
