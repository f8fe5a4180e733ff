"""ODRL and psDToU exports: golden files, structure, shapes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.compare import graph_diff, isomorphic, to_isomorphic
from rdflib.namespace import RDF

from pp_graph.api import convert
from pp_graph.export import EXPORTERS, export_paths, export_store, get_exporter
from pp_graph.export.odrl import DURATION, validate_odrl
from pp_graph.export.psdtou import DTOU
from pp_graph.graph.namespaces import DPV, ODRL, PD
from pp_graph.resources import QUERIES
from pp_graph.store.embedded import EmbeddedStore, open_store

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "graphs" / "mini.trig"
GOLDEN = FIXTURES / "golden"
SHOP = "urn:pp-graph:policy:shop.example:aaaaaaaaaaaaaaaa"
NEWS = "urn:pp-graph:policy:news.example:bbbbbbbbbbbbbbbb"
REGEN = os.environ.get("PP_GRAPH_REGEN_GOLDEN") == "1"


@pytest.fixture(scope="module")
def mini() -> EmbeddedStore:
    return open_store([MINI])


@pytest.fixture(scope="module")
def bakery() -> tuple[EmbeddedStore, str]:
    """A hand-written policy text → graph (offline extractor) → store."""
    c = convert(GOLDEN / "bakery.example.md")
    store = EmbeddedStore()
    store.load_dpv()
    store.load_dataset(c.dataset)
    return store, str(c.graph)


def check_golden(g: Graph, path: Path) -> None:
    if REGEN or not path.exists():
        g.serialize(path, format="turtle")
        if not REGEN:
            pytest.fail(f"{path.name} did not exist; written — check it and commit it")
    expected = Graph().parse(path, format="turtle")
    if not isomorphic(g, expected):
        _, only_got, only_expected = graph_diff(to_isomorphic(g), to_isomorphic(expected))
        pytest.fail(
            f"{path.name} differs (PP_GRAPH_REGEN_GOLDEN=1 regenerates):\n"
            f"only in export:\n{only_got.serialize(format='nt')}\nonly in golden:\n"
            f"{only_expected.serialize(format='nt')}"
        )


@pytest.mark.parametrize("name", ["odrl", "psdtou"])
def test_golden_from_text(bakery: tuple[EmbeddedStore, str], name: str) -> None:
    store, policy = bakery
    g = export_store(name, store)[policy]
    check_golden(g, GOLDEN / f"bakery.example{get_exporter(name).suffix}")


@pytest.mark.parametrize("name", ["odrl", "psdtou"])
def test_golden_from_hand_made_graph(mini: EmbeddedStore, name: str) -> None:
    g = export_store(name, mini, [SHOP])[SHOP]
    check_golden(g, GOLDEN / f"shop.example{get_exporter(name).suffix}")


def test_export_is_deterministic(mini: EmbeddedStore) -> None:
    a = export_store("odrl", mini)
    b = export_store("odrl", open_store([MINI]))
    assert a.keys() == b.keys() and all(isomorphic(a[k], b[k]) for k in a)


def test_odrl_structure(mini: EmbeddedStore) -> None:
    g = export_store("odrl", mini, [SHOP])[SHOP]
    pol = URIRef(SHOP + "/odrl")
    assert {ODRL.Policy, ODRL.Set} <= set(g.objects(pol, RDF.type))
    assert URIRef("https://w3id.org/dpv/mappings/odrl") in set(g.objects(pol, ODRL.profile))
    perms = set(g.objects(pol, ODRL.permission))
    prohibitions = set(g.objects(pol, ODRL.prohibition))
    assert len(perms) == 4 and len(prohibitions) == 1  # email, name, shared email, transactions; no sale
    share = URIRef(SHOP + "/practice/2-0/odrl/emailaddress/third-service-providers")
    assert share in perms
    assert g.value(share, ODRL.action) == DPV.Share and g.value(share, ODRL.target) == PD.EmailAddress
    assert g.value(share, ODRL.assigner) == URIRef("urn:pp-graph:site:shop.example")
    assert g.value(share, ODRL.assignee) == URIRef(SHOP + "/party/third-service-providers")
    c = g.value(share, ODRL.constraint)
    assert (g.value(c, ODRL.leftOperand), g.value(c, ODRL.operator), g.value(c, ODRL.rightOperand)) == (
        ODRL.purpose,
        ODRL.isA,
        DPV.Marketing,
    )
    sale = next(iter(prohibitions))
    assert g.value(sale, ODRL.target) == PD.TelephoneNumber and g.value(sale, ODRL.action) == DPV.Share
    keep = URIRef(SHOP + "/practice/1-0/odrl/emailaddress")
    assert g.value(keep, ODRL.action) == DPV.Collect  # from the trigger word "collect"
    store_rule = URIRef(SHOP + "/practice/3-0/odrl/transaction")
    d = g.value(store_rule, ODRL.constraint)
    assert g.value(store_rule, ODRL.action) == DPV.Store and g.value(d, ODRL.leftOperand) == DURATION
    assert g.value(d, ODRL.rightOperand) == Literal("P7Y", datatype=URIRef("http://www.w3.org/2001/XMLSchema#duration"))


def test_dpv_actions_exist_in_dpv() -> None:
    from pp_graph.vocab.dpv import PROCESSING, vocabulary

    text = (QUERIES / "export-practices.rq").read_text()
    import re

    for local in set(re.findall(r"dpv:([A-Za-z]+)\)", text)):
        assert vocabulary().in_scheme(str(DPV[local]), PROCESSING), local


def test_odrl_validates_and_shapes_catch_errors(mini: EmbeddedStore, bakery: tuple[EmbeddedStore, str]) -> None:
    for g in [*export_store("odrl", mini).values(), *export_store("odrl", bakery[0]).values()]:
        rep = validate_odrl(g)
        assert rep.conforms, rep.text
    g = export_store("odrl", mini, [SHOP])[SHOP]
    rule = URIRef(SHOP + "/practice/2-0/odrl/emailaddress/third-service-providers")
    broken = Graph() + g
    broken.add((rule, ODRL.target, PD.Name))  # two targets: W3C shape violation
    rep = validate_odrl(broken, profile=False)
    # One result (the policy's rule fails odrl:targetCardShape), not also its nested sh:detail; paths are
    # rendered, not blank-node ids, so the report is the same every run.
    assert not rep.conforms and len(rep.results) == 1
    assert rep.results == validate_odrl(broken, profile=False).results
    assert rep.results[0]["focus"] == SHOP + "/odrl" and "_:" not in rep.results[0]["path"]
    assert rep.results[0]["path"].startswith("odrl:") or "ns/odrl/2/" in rep.results[0]["path"]
    broken = Graph() + g
    broken.set((rule, ODRL.action, ODRL.use))  # not a DPV action: profile violation
    rep = validate_odrl(broken)
    assert not rep.conforms and any("action" in r["path"] for r in rep.results)
    broken = Graph() + g
    c = g.value(rule, ODRL.constraint)
    broken.set((c, ODRL.operator, ODRL.lteq))  # purpose compared with lteq
    assert not validate_odrl(broken).conforms


def test_odrl_conforms_with_and_without_rdfs_inference(mini: EmbeddedStore) -> None:
    """With RDFS inference odrl:action makes each DPV action an odrl:Action, which the W3C shapes'
    odrl:ActionShape requires to have an odrl:includedIn (declared in ontologies/odrl-profile.ttl)."""
    from pp_graph.export.odrl import PROFILE

    g = export_store("odrl", mini, [SHOP])[SHOP]
    assert {DPV.Collect, DPV.Share, DPV.Store} <= set(g.objects(None, ODRL.action))
    for inference in ("none", "rdfs"):
        rep = validate_odrl(g, inference=inference)
        assert rep.conforms, (inference, rep.text)
    undeclared = Graph() + g  # the export as it was before the profile declared its actions
    for t in Graph().parse(PROFILE, format="turtle"):
        undeclared.remove(t)
    assert validate_odrl(undeclared, profile=False).conforms  # without inference the shape checks nothing …
    rep = validate_odrl(undeclared, profile=False, inference="rdfs")  # … with it, every DPV action fails
    assert not rep.conforms and {r["path"] for r in rep.results} == {str(ODRL.includedIn)}
    assert {r["focus"] for r in rep.results} == {str(DPV.Collect), str(DPV.Share), str(DPV.Store)}


@pytest.mark.slow
def test_every_odrl_export_conforms_as_a_user_checks_it(mini: EmbeddedStore, bakery: tuple[EmbeddedStore, str]) -> None:
    """The W3C shapes alone, with pyshacl's RDFS inference over the ODRL ontology (pyshacl -i rdfs -e)."""
    from pyshacl import validate as pyshacl_validate

    from pp_graph.export.odrl import ODRL_ONTOLOGY, ODRL_SHAPES

    for g in [*export_store("odrl", mini).values(), *export_store("odrl", bakery[0]).values()]:
        ok, _, text = pyshacl_validate(
            g, shacl_graph=str(ODRL_SHAPES), ont_graph=str(ODRL_ONTOLOGY), inference="rdfs", advanced=True
        )
        assert ok, text
        assert validate_odrl(g, inference="rdfs").conforms
        for action in set(g.objects(None, ODRL.action)):
            assert (action, RDF.type, ODRL.Action) in g and g.value(action, ODRL.includedIn) is not None


def test_psdtou_follows_the_spec(mini: EmbeddedStore) -> None:
    g = export_store("psdtou", mini, [SHOP])[SHOP]
    app = URIRef(SHOP + "/dtou")
    assert list(g.subjects(RDF.type, DTOU.AppPolicy)) == [app]
    assert g.value(app, DTOU.name) == URIRef("urn:pp-graph:site:shop.example")
    assert (app, DTOU.app_name, None) not in g
    assert (None, RDF.type, DTOU.Expectation) not in g
    specs = {g.value(s, DTOU.data): s for s in g.objects(app, DTOU.input_spec)}
    # Collected email and name; the shared email has a downstream; the negated sale adds nothing.
    assert set(specs) == {PD.EmailAddress, PD.Name}
    email = specs[PD.EmailAddress]
    assert {g.value(p, DTOU.descriptor) for p in g.objects(email, DTOU.purpose)} == {DPV.ServiceProvision}
    (down,) = g.objects(email, DTOU.downstream)
    assert g.value(down, RDF.type) == DTOU.DownstreamSpec
    assert g.value(down, DTOU.app_name) == URIRef(SHOP + "/party/third-service-providers")
    assert {g.value(p, DTOU.descriptor) for p in g.objects(down, DTOU.purpose)} == {DPV.Marketing}
    assert all(g.value(p, RDF.type) == DTOU.PurposeExpectation for p in g.subjects(DTOU.descriptor, None))


def test_export_paths_writes_a_file_or_a_folder(tmp_path: Path) -> None:
    files = export_paths("psdtou", [MINI], tmp_path / "dtou")
    assert sorted(f.name for f in files) == ["news.example.dtou.ttl", "quiet.example.dtou.ttl", "shop.example.dtou.ttl"]
    (one,) = export_paths("odrl", [MINI], tmp_path / "all.odrl.ttl")
    g = Graph().parse(one, format="turtle")
    assert len(set(g.subjects(RDF.type, ODRL.Set))) == 3


def test_registry() -> None:
    assert set(EXPORTERS) == {"odrl", "psdtou"}
    assert callable(get_exporter("odrl").load())
    from pp_graph.errors import ConfigError

    with pytest.raises(ConfigError, match="available: odrl, psdtou"):
        get_exporter("xacml")
    assert NEWS  # the fixture holds three policies


def test_cli_export(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    out = tmp_path / "shop.odrl.ttl"
    res = CliRunner().invoke(main, ["export", "odrl", str(MINI), "-o", str(out), "--validate"])
    assert res.exit_code == 0, res.output
    assert "1/1 file(s) conform" in res.output and out.exists()
    res = CliRunner().invoke(main, ["export", "psdtou", str(MINI), "-o", str(tmp_path / "dtou")])
    assert res.exit_code == 0 and len(list((tmp_path / "dtou").glob("*.dtou.ttl"))) == 3


def test_export_folder_keeps_two_versions_of_one_site(tmp_path: Path) -> None:
    v2 = tmp_path / "v2.trig"
    v2.write_text(MINI.read_text().replace("aaaaaaaaaaaaaaaa", "dddddddddddddddd"))
    files = export_paths("psdtou", [MINI, v2], tmp_path / "dtou")
    assert sorted(f.name for f in files) == [
        "news.example.dtou.ttl",
        "quiet.example.dtou.ttl",
        "shop.example.aaaaaaaaaaaaaaaa.dtou.ttl",
        "shop.example.dddddddddddddddd.dtou.ttl",
    ]
    assert len(list((tmp_path / "dtou").iterdir())) == 4


def test_export_from_a_persistent_store_exports_only_the_given_files(tmp_path: Path) -> None:
    other = tmp_path / "other.trig"
    other.write_text(MINI.read_text().replace("shop.example", "other.example"))
    store_dir = tmp_path / "store"
    export_paths("psdtou", [other], tmp_path / "first", store_dir)
    files = export_paths("psdtou", [MINI], tmp_path / "dtou", store_dir)
    assert sorted(f.name for f in files) == ["news.example.dtou.ttl", "quiet.example.dtou.ttl", "shop.example.dtou.ttl"]


def test_cli_validate_is_offered_only_by_exporters_with_a_validator(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    out = tmp_path / "dtou"
    res = CliRunner().invoke(main, ["export", "psdtou", str(MINI), "-o", str(out), "--validate"])
    assert res.exit_code == 2 and "--validate" in res.output
    assert not out.exists()  # refused before anything was written
    assert EXPORTERS["odrl"].validator and EXPORTERS["psdtou"].validator is None


def test_cli_validate_checks_each_written_policy(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    res = CliRunner().invoke(main, ["export", "odrl", str(MINI), "-o", str(tmp_path / "odrl"), "--validate"])
    assert res.exit_code == 0, res.output
    assert "3/3 file(s) conform" in res.output
