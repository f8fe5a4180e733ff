"""Every pp-graph ontology term the code or the named queries use is declared in ontologies/pr2graph.ttl (the
builder's terms are checked in test_ontology.py; these are the store's and the queries' own: ppg:within,
ppg:pushLabel, …), and period literals are valid xsd:duration lexical forms (no ISO 8601 week designator)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS

from pp_graph.extract.llm.parse import valid_duration
from pp_graph.extract.offline.backend import OfflineBackend
from pp_graph.extract.pipeline import extract
from pp_graph.graph.namespaces import PPG
from pp_graph.load.sources import policy_from_text
from pp_graph.model import AttributeKind
from pp_graph.resources import PR2GRAPH_ONTOLOGY, QUERIES
from pp_graph.validate.literals import well_formed

ROOT = Path(__file__).resolve().parents[1]
XSD_DURATION = "http://www.w3.org/2001/XMLSchema#duration"
KINDS = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)


def used_terms() -> set[str]:
    found: set[str] = set()
    for f in (ROOT / "pp_graph").rglob("*.py"):
        found |= set(re.findall(r"urn:pp-graph:ontology#([\w-]+)", f.read_text(encoding="utf-8")))
    for f in QUERIES.rglob("*.rq"):
        text = f.read_text(encoding="utf-8")
        assert "PREFIX ppg: <urn:pp-graph:ontology#>" in text or "ppg:" not in text, f.name
        found |= set(re.findall(r"\bppg:([\w-]+)", text))
    return {t for t in found if not t.endswith("-")}  # "recipient-" + kind builds a name: not a term


def test_terms_used_by_code_and_queries_are_declared() -> None:
    onto = Graph().parse(PR2GRAPH_ONTOLOGY, format="turtle")
    used = used_terms()
    assert {"within", "pushLabel"} <= used  # not vacuous
    for name in sorted(used):
        iri = URIRef(PPG[name])
        types = set(onto.objects(iri, RDF.type))
        assert types & set(KINDS) or URIRef(PPG.RecipientKind) in types, f"ppg:{name} is not declared"
        assert (iri, RDFS.comment, None) in onto, f"ppg:{name} has no rdfs:comment"
    assert (URIRef(PPG.within), RDF.type, OWL.TransitiveProperty) in onto


@pytest.mark.parametrize(
    ("given", "expected"),
    [("P2W", "P14D"), ("P1W3D", "P10D"), ("P1Y2W", "P1Y14D"), ("P3M", "P3M"), ("P1DT2H", "P1DT2H"), ("P2X", None)],
)
def test_model_durations_are_xsd(given: str, expected: str | None) -> None:
    assert valid_duration(given) == expected
    if expected is not None:
        assert well_formed(expected, XSD_DURATION)


def test_xsd_duration_has_no_week_designator() -> None:
    assert not well_formed("P2W", XSD_DURATION)  # neither XML Schema 1.0 nor 1.1 has PnW


@pytest.mark.parametrize(("words", "value"), [("two weeks", "P14D"), ("30 days", "P30D"), ("5 years", "P5Y")])
def test_offline_retention_periods_are_xsd(words: str, value: str) -> None:
    policy = policy_from_text(f"We keep your account information for {words}.\n", "example.org")
    ex = extract(policy, OfflineBackend())
    periods = [a.value for r in ex.results for a in r.attributes if a.kind == AttributeKind.RETENTION_PERIOD]
    assert periods == [value] and well_formed(value, XSD_DURATION)
