"""Each SHACL shape fires on a graph broken on purpose; a converted graph conforms; both engines agree."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.namespace import PROV, RDF, XSD

from pp_graph.errors import InputError
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.graph.build import build_graph
from pp_graph.graph.namespaces import DPV, PD, PPG, PR2G
from pp_graph.load.sources import policy_from_text
from pp_graph.validate import ValidationReport, validate, validate_files

# Written for these tests; every practice class appears at least once.
TEXT = """# How Lumen Notes handles your information
We collect your email address and phone number to provide the service and for marketing.
We share your location with advertising partners.
We sell your browsing history.
We keep your account data for 2 years on servers in Ireland.
We use encryption to protect your data against unauthorized access.
You have the right to access your data. We process data based on your consent.
"""

PPS = "urn:pp-graph:shapes#"


@pytest.fixture(scope="module")
def built() -> tuple[Dataset, URIRef]:
    ex = extract(policy_from_text(TEXT, "lumen-notes.example"), get_backend("offline"))
    return build_graph(ex)


@pytest.fixture()
def g(built: tuple[Dataset, URIRef]) -> Graph:
    """A private, mutable copy of the policy graph, named by the policy IRI."""
    ds, name = built
    copy = Graph(identifier=name)
    for t in ds.graph(name):
        copy.add(t)
    return copy


def _one(g: Graph, s: object, p: URIRef) -> URIRef:
    found = sorted(g.subjects(RDF.type, p)) if s is None else sorted(g.objects(s, p))  # type: ignore[arg-type]
    assert found, f"fixture graph lacks {p}"
    return found[0]


def practice(g: Graph, cls: URIRef) -> URIRef:
    return _one(g, None, cls)


def policy(g: Graph) -> URIRef:
    return _one(g, None, PR2G.PrivacyPolicy)


def set_value(g: Graph, s: URIRef, p: URIRef, o: object) -> None:
    g.remove((s, p, None))
    g.add((s, p, o))  # type: ignore[arg-type]


def fired(rep: ValidationReport, shape: str, path: URIRef | str, component: str) -> list:
    return [
        r for r in rep.results if str(r.shape) == PPS + shape and str(r.path) == str(path) and r.component == component
    ]


# ---------------------------------------------------------------------------------------------------


def test_converted_graph_conforms(built: tuple[Dataset, URIRef]) -> None:
    ds, name = built
    rep = validate(ds)
    assert rep.conforms, rep.text()
    assert rep.graphs == [name]
    g = ds.graph(name)
    # Not vacuous: the graph has every practice class, DPV values and a retention period.
    for cls in (
        PR2G.DataCollectionUse,
        PR2G.DataSharingDisclosure,
        PR2G.DataStorageRetention,
        PR2G.DataSecurityProtection,
    ):
        assert (None, RDF.type, cls) in g
    assert (None, PR2G.data, PD.EmailAddress) in g
    assert (None, PR2G.purpose, DPV.Marketing) in g
    assert (None, PPG.retentionPeriod, Literal("P2Y", datatype=XSD.duration)) in g


def _drop_text(g: Graph) -> None:
    g.remove((practice(g, PR2G.DataCollectionUse), PR2G.text, None))


def _drop_text_value(g: Graph) -> None:
    g.remove((_one(g, practice(g, PR2G.DataCollectionUse), PR2G.text), PR2G.value, None))


def _text_start_string(g: Graph) -> None:
    text = _one(g, practice(g, PR2G.DataCollectionUse), PR2G.text)
    set_value(g, text, PPG.start, Literal("17"))


def _data_not_a_thing(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), PR2G.data, PD.NotAThing))


def _data_is_a_purpose(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), PR2G.data, DPV.Marketing))


def _data_is_a_literal(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), PR2G.data, Literal("email address")))


def _data_owl_iri(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), PR2G.data, URIRef("https://w3id.org/dpv/pd/owl#EmailAddress")))


def _purpose_is_data(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), PR2G.purpose, PD.EmailAddress))


def _legal_basis_is_purpose(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), DPV.hasLegalBasis, DPV.Marketing))


def _right_is_data(g: Graph) -> None:
    g.add((policy(g), PPG.disclosesRight, PD.EmailAddress))


def _sharing_without_receiver(g: Graph) -> None:
    for p in g.subjects(RDF.type, PR2G.DataSharingDisclosure):
        g.remove((p, PR2G.receiver, None))


def _receiver_literal(g: Graph) -> None:
    set_value(g, practice(g, PR2G.DataSharingDisclosure), PR2G.receiver, Literal("advertisers"))


def _negated_yes(g: Graph) -> None:
    set_value(g, practice(g, PR2G.DataCollectionUse), PPG.negated, Literal("yes"))


def _negated_missing(g: Graph) -> None:
    g.remove((practice(g, PR2G.DataCollectionUse), PPG.negated, None))


def _mention_start_string(g: Graph) -> None:
    m = _one(g, practice(g, PR2G.DataCollectionUse), PPG.trigger)
    set_value(g, m, PPG.start, Literal("20", datatype=XSD.string))


def _mention_start_after_end(g: Graph) -> None:
    m = _one(g, practice(g, PR2G.DataCollectionUse), PPG.trigger)
    set_value(g, m, PPG.start, Literal(500, datatype=XSD.integer))


def _retention_words(g: Graph) -> None:
    set_value(g, practice(g, PR2G.DataStorageRetention), PPG.retentionPeriod, Literal("2 years", datatype=XSD.duration))


def _retention_plain_string(g: Graph) -> None:
    set_value(g, practice(g, PR2G.DataStorageRetention), PPG.retentionPeriod, Literal("P2Y"))


def _policy_without_site(g: Graph) -> None:
    g.remove((policy(g), PR2G["for"], None))


def _site_without_domain(g: Graph) -> None:
    g.remove((_one(g, policy(g), PR2G["for"]), PR2G.hasDomain, None))


def _site_bad_domain(g: Graph) -> None:
    set_value(g, _one(g, policy(g), PR2G["for"]), PR2G.hasDomain, Literal("Lumen Notes"))


def _no_provenance(g: Graph) -> None:
    g.remove((practice(g, PR2G.DataCollectionUse), PROV.wasGeneratedBy, None))


def _activity_without_model(g: Graph) -> None:
    g.remove((_one(g, practice(g, PR2G.DataCollectionUse), PROV.wasGeneratedBy), PPG.model, None))


def _activity_without_prompt_version(g: Graph) -> None:
    g.remove((_one(g, practice(g, PR2G.DataCollectionUse), PROV.wasGeneratedBy), PPG.promptVersion, None))


def _unknown_label(g: Graph) -> None:
    set_value(g, practice(g, PR2G.DataCollectionUse), PPG.practiceLabel, Literal("collection"))


def _two_labels(g: Graph) -> None:
    g.add((practice(g, PR2G.DataCollectionUse), PPG.practiceLabel, Literal("third-party-collection-use")))


def _label_disagrees_with_class(g: Graph) -> None:
    sharing = practice(g, PR2G.DataSharingDisclosure)
    set_value(g, sharing, PPG.practiceLabel, Literal("first-party-collection-use"))


def _untyped_practice(g: Graph) -> None:
    g.remove((practice(g, PR2G.DataSecurityProtection), RDF.type, None))


def _unknown_recipient_kind(g: Graph) -> None:
    set_value(
        g, _one(g, practice(g, PR2G.DataSharingDisclosure), PR2G.receiver), PPG.recipientKind, PPG["recipient-aliens"]
    )


CASES: list[tuple[str, Callable[[Graph], None], str, URIRef | str, str]] = [
    ("practice without text", _drop_text, "PracticeShape", PR2G.text, "MinCountConstraintComponent"),
    ("text without value", _drop_text_value, "TextShape", PR2G.value, "MinCountConstraintComponent"),
    ("text offset string", _text_start_string, "TextShape", PPG.start, "DatatypeConstraintComponent"),
    ("data pd:NotAThing", _data_not_a_thing, "PracticeShape", PR2G.data, "ClassConstraintComponent"),
    ("data dpv:Marketing", _data_is_a_purpose, "PracticeShape", PR2G.data, "ClassConstraintComponent"),
    ("data literal", _data_is_a_literal, "PracticeShape", PR2G.data, "NodeKindConstraintComponent"),
    ("data /owl# IRI", _data_owl_iri, "PracticeShape", PR2G.data, "ClassConstraintComponent"),
    ("purpose pd:EmailAddress", _purpose_is_data, "PracticeShape", PR2G.purpose, "ClassConstraintComponent"),
    (
        "legal basis dpv:Marketing",
        _legal_basis_is_purpose,
        "PracticeShape",
        DPV.hasLegalBasis,
        "ClassConstraintComponent",
    ),
    ("right pd:EmailAddress", _right_is_data, "PolicyShape", PPG.disclosesRight, "ClassConstraintComponent"),
    (
        "sharing without receiver",
        _sharing_without_receiver,
        "SharingShape",
        PR2G.receiver,
        "MinCountConstraintComponent",
    ),
    (
        "receiver literal",
        _receiver_literal,
        "PracticeShape",
        "ppg:collector|pr2g:provider|pr2g:sharer|pr2g:receiver|ppg:holder|ppg:protector|pr2g:user",
        "ClassConstraintComponent",
    ),
    ("negated 'yes'", _negated_yes, "PracticeShape", PPG.negated, "DatatypeConstraintComponent"),
    ("negated missing", _negated_missing, "PracticeShape", PPG.negated, "MinCountConstraintComponent"),
    ("mention start xsd:string", _mention_start_string, "MentionShape", PPG.start, "DatatypeConstraintComponent"),
    ("mention start >= end", _mention_start_after_end, "MentionShape", PPG.start, "LessThanConstraintComponent"),
    ("retention '2 years'", _retention_words, "PracticeShape", PPG.retentionPeriod, "DatatypeConstraintComponent"),
    (
        "retention plain string",
        _retention_plain_string,
        "PracticeShape",
        PPG.retentionPeriod,
        "DatatypeConstraintComponent",
    ),
    ("policy without website", _policy_without_site, "PolicyShape", PR2G["for"], "MinCountConstraintComponent"),
    ("website without domain", _site_without_domain, "WebsiteShape", PR2G.hasDomain, "MinCountConstraintComponent"),
    ("website domain not a domain", _site_bad_domain, "WebsiteShape", PR2G.hasDomain, "PatternConstraintComponent"),
    ("no provenance", _no_provenance, "PracticeShape", PROV.wasGeneratedBy, "MinCountConstraintComponent"),
    ("activity without model", _activity_without_model, "ActivityShape", PPG.model, "MinCountConstraintComponent"),
    (
        "activity without prompt version",
        _activity_without_prompt_version,
        "ActivityShape",
        PPG.promptVersion,
        "MinCountConstraintComponent",
    ),
    ("unknown practice label", _unknown_label, "PracticeShape", PPG.practiceLabel, "InConstraintComponent"),
    ("two practice labels", _two_labels, "PracticeShape", PPG.practiceLabel, "MaxCountConstraintComponent"),
    (
        "label disagrees with class",
        _label_disagrees_with_class,
        "SharingShape",
        PPG.practiceLabel,
        "InConstraintComponent",
    ),
    ("untyped practice", _untyped_practice, "PolicyShape", PR2G.hasDataPractice, "ClassConstraintComponent"),
    ("unknown recipient kind", _unknown_recipient_kind, "PartyShape", PPG.recipientKind, "InConstraintComponent"),
]


@pytest.mark.parametrize(("why", "breaks", "shape", "path", "component"), CASES, ids=[c[0] for c in CASES])
def test_shape_fires(
    g: Graph, why: str, breaks: Callable[[Graph], None], shape: str, path: URIRef | str, component: str
) -> None:
    assert not fired(validate(g), shape, path, component)  # the intact graph does not trip it
    breaks(g)
    rep = validate(g)
    assert not rep.conforms
    hits = fired(rep, shape, path, component)
    assert hits, f"{why}: expected {shape} {path} {component}, got:\n{rep.text()}"
    assert all(h.graph == g.identifier and h.policy == policy(g) for h in hits)
    assert all(h.message and h.severity == "Violation" for h in hits)


def test_messages_say_what_is_right(g: Graph) -> None:
    _data_is_a_purpose(g)
    [hit] = fired(validate(g), "PracticeShape", PR2G.data, "ClassConstraintComponent")
    assert hit.value == DPV.Marketing
    assert "personal-data concept" in hit.message and "pd:EmailAddress" in hit.message
    assert "dpv:Marketing" in validate(g).text()


def test_engines_agree(g: Graph) -> None:
    """The fast core engine and pyshacl report the same results on a graph with many faults."""
    for _, breaks, *_ in reversed(CASES):  # reversed: faults that remove a node come after those that edit it
        breaks(g)
    core, ref = validate(g, engine="core"), validate(g, engine="pyshacl")

    def key(rep: ValidationReport) -> set[tuple[str, ...]]:
        return {(str(r.focus), str(r.path), r.component, str(r.value), str(r.shape), r.message) for r in rep.results}

    assert len(core.results) >= 25
    assert key(core) == key(ref)


def test_dataset_results_name_their_policy(built: tuple[Dataset, URIRef], g: Graph) -> None:
    ds, name = built
    other = "other-notes.example"
    ds2, name2 = build_graph(extract(policy_from_text(TEXT.replace("Lumen", "Other"), other), get_backend("offline")))
    broken = ds2.graph(name2)
    broken.remove((name2, PR2G["for"], None))
    both = Dataset()
    for n, src in ((name, ds.graph(name)), (name2, broken)):
        tgt = both.graph(n)
        for t in src:
            tgt.add(t)
    rep = validate(both)
    assert set(rep.graphs) == {name, name2}
    assert rep.results and {r.graph for r in rep.results} == {name2}
    assert {r.policy for r in rep.results} == {name2}
    per = rep.by_graph()
    assert per[name].conforms and not per[name2].conforms


def test_validate_files_roundtrip(tmp_path: Path, built: tuple[Dataset, URIRef], g: Graph) -> None:
    ds, name = built
    good = tmp_path / "good.trig"
    ds.serialize(good, format="trig")
    _negated_yes(g)
    bad = tmp_path / "bad.ttl"
    g.serialize(bad, format="turtle")
    nq = tmp_path / "good.nq"
    ds.serialize(nq, format="nquads")
    reports = dict(validate_files([good, bad, nq]))
    assert reports[good].conforms and reports[good].graphs == [name]
    assert reports[nq].conforms
    assert fired(reports[bad], "PracticeShape", PPG.negated, "DatatypeConstraintComponent")
    assert reports[bad].results[0].value == Literal("yes")  # the literal as written in the file


def test_validate_files_errors_name_the_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    broken.write_text("<urn:a> <urn:b> .\n")
    with pytest.raises(InputError, match=r"broken\.ttl.*not valid turtle"):
        validate_files([broken])
    with pytest.raises(InputError, match=r"missing\.trig.*cannot be read"):
        validate_files([tmp_path / "missing.trig"])
    odd = tmp_path / "graph.xml"
    odd.write_text("<rdf/>")
    with pytest.raises(InputError, match=r"graph\.xml.*unsupported"):
        validate_files([odd])


def test_shapes_beyond_core_fall_back_to_pyshacl(g: Graph) -> None:
    extra = Graph().parse(
        data="""
        @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix pr2g: <urn:pp-analyze:core#> .
        @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
        <urn:x:S> a sh:NodeShape ; sh:targetClass pr2g:Website ; sh:closed true ;
            sh:property [ sh:path rdf:type ] .
    """,
        format="turtle",
    )
    rep = validate(g, shapes=extra)
    assert rep.engine == "pyshacl"
    assert [(r.component, r.path) for r in rep.results] == [("ClosedConstraintComponent", PR2G.hasDomain)]


def test_same_results_through_any_rdflib_store(g: Graph) -> None:
    """The Memory-store fast path and the public triples() API see the same graph."""
    _negated_yes(g)
    _data_is_a_purpose(g)
    other = Graph(store="SimpleMemory", identifier=g.identifier)
    for t in g:
        other.add(t)
    fast, slow = validate(g), validate(other)
    assert len(fast.results) == 2
    assert [r.to_dict() for r in fast.results] == [r.to_dict() for r in slow.results]
