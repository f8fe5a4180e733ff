"""GDPR transparency requirements as graph facts, `pp-graph comply` and the gdpr-transparency SHACL profile."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import Dataset, Graph
from rdflib.compare import isomorphic

from pp_graph.api import convert
from pp_graph.cli import main
from pp_graph.comply.checklist import MISSING, checklist
from pp_graph.comply.facts import built_triples, graph_file_facts, policy_facts
from pp_graph.comply.laws import get_law, load_law
from pp_graph.comply.rules import parse_rules, rules
from pp_graph.comply.shapes import law_shapes, profile_path
from pp_graph.errors import DataFileError
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.load.sources import policy_from_text
from pp_graph.validate import validate_each

FIX = Path(__file__).parent / "fixtures" / "comply"
COMPLETE = FIX / "complete.example.md"
PARTIAL = FIX / "partial.example.md"
RECIPE = FIX / "recipe.example.md"
# The 21 requirements exactly as the GDPR transparency dataset names them (its SOURCE.md).
DATASET_LABELS = [
    "Controller Name", "Controller Contact", "DPO Contact", "Data Categories", "Processing Purpose",
    "Legal Basis for Processing", "Legitimate Interests for Processing", "Source of Data", "Data Retention Period",
    "Data Recipients", "Third-country Transfers", "Mandatory Data Disclosure", "Automated Decision-Making",
    "Right to Access", "Right to Rectification", "Right to Erasure", "Right to Restrict", "Right to Object",
    "Right to Portability", "Right to Withdraw Consent", "Right to Lodge Complaint",
]  # fmt: skip


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def _found(text: str) -> dict[str, set[bool]]:
    ex = extract(policy_from_text(text + "\n", "rules.example"), get_backend("offline"))
    out: dict[str, set[bool]] = {}
    for res in ex.results:
        for m in res.requirements:
            out.setdefault(m.requirement, set()).add(m.performed)
    return out


def test_rules_name_the_dataset_requirements() -> None:
    assert [r.label for r in rules().requirements] == DATASET_LABELS
    assert [i.label for i in get_law("gdpr").items] == DATASET_LABELS


@pytest.mark.parametrize(
    ("rid", "example"), [(r.id, e) for r in rules().requirements for e in r.examples], ids=lambda x: str(x)[:40]
)
def test_rule_file_examples(rid: str, example: object) -> None:
    found = _found(example.text)  # type: ignore[attr-defined]
    assert (rid in found) == example.found  # type: ignore[attr-defined]
    if example.found and example.performed is not None:  # type: ignore[attr-defined]
        assert found[rid] == {example.performed}  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (("cues = [", "cues = ['(unclosed',"), "not a valid regular expression"),
        (('concepts = ["dpv:DataController"]', 'concepts = ["dpv:NoSuchThing"]'), "not defined in the vendored DPV"),
        (('facts = ["data"]', 'facts = ["gossip"]'), "fact 'gossip'"),
    ],
)
def test_rules_file_is_validated(edit: tuple[str, str], problem: str) -> None:
    from pp_graph.comply.rules import RULES_FILE

    text = RULES_FILE.read_text(encoding="utf-8").replace(*edit, 1)
    with pytest.raises(DataFileError, match=re.escape(problem)):
        parse_rules(text.encode())


def test_statements_in_the_graph_carry_provenance_and_exact_spans() -> None:
    conv = convert(COMPLETE)
    text = conv.extraction.policy.text
    for res in conv.extraction.results:
        for m in res.requirements:
            assert text[m.span.start : m.span.end] == m.span.text and m.rule.startswith(m.requirement + "/")
    g = conv.dataset.graph(conv.graph)  # the rdflib view of the built triples
    q = """PREFIX ppg: <urn:pp-graph:ontology#> PREFIX prov: <http://www.w3.org/ns/prov#>
    SELECT ?req ?performed ?rule ?ext ?start ?anchor WHERE { ?p ppg:hasTransparencyStatement ?s .
      ?s ppg:requirement ?req ; ppg:performed ?performed ; ppg:transparencyRule ?rule ; prov:wasGeneratedBy ?run ;
         ppg:evidence ?m . ?run ppg:extractor ?ext . ?m ppg:start ?start ; ppg:anchorText ?anchor }"""
    rows = list(g.query(q))
    assert {str(r[0]).rsplit("gdpr-", 1)[1] for r in rows} == {r.id for r in rules().requirements}
    assert all(str(r[3]) == "transparency-rules" for r in rows)
    denied = [r for r in rows if str(r[0]).endswith("automated-decision-making")]
    assert denied and all(r[1].toPython() is False for r in denied)
    for r in rows:
        start = int(r[4])
        assert text[start : start + len(str(r[5]))] == str(r[5])


def test_comply_json_contract_and_exact_evidence() -> None:
    code, out, _ = run("comply", str(COMPLETE), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    (pol,) = doc["policies"]
    assert set(pol) == {"file", "site", "law", "requirements"} and pol["law"] == "gdpr"
    assert [r["label"] for r in pol["requirements"]] == DATASET_LABELS
    text = COMPLETE.read_text(encoding="utf-8")
    for r in pol["requirements"]:
        assert set(r) == {"id", "label", "article", "status", "evidence"}
        assert r["status"] in ("addressed", "denied") and r["evidence"]
        for e in r["evidence"]:
            assert set(e) == {"start", "end", "text"} and text[e["start"] : e["end"]] == e["text"]
    adm = next(r for r in pol["requirements"] if r["label"] == "Automated Decision-Making")
    assert adm["status"] == "denied"


def test_missing_and_not_applicable_with_reasons() -> None:
    code, out, _ = run("comply", str(PARTIAL), "--format", "json")
    assert code == 1
    status = {r["id"]: r for r in json.loads(out)["policies"][0]["requirements"]}
    assert status["third-country-transfers"]["status"] == "denied"
    assert status["right-access"]["status"] == MISSING and status["right-access"]["evidence"] == []
    for rid in ("dpo-contact", "legitimate-interests", "right-withdraw-consent"):
        assert status[rid]["status"] == "not applicable" and status[rid]["reason"]


def test_condition_makes_an_item_owed() -> None:
    """Consent as a legal basis makes the right to withdraw it owed: n.a. becomes missing."""
    base = PARTIAL.read_text(encoding="utf-8")
    facts = [
        policy_facts(built_triples(convert_text_triples(t)), "x") for t in (base, base + "\nWe rely on your consent.\n")
    ]
    law = get_law("gdpr")
    before, after = (next(r for r in checklist(f, law).results if r.item.id == "right-withdraw-consent") for f in facts)
    assert before.status == "not applicable" and after.status == MISSING


def convert_text_triples(text: str) -> dict:  # type: ignore[type-arg]
    from pp_graph.api import convert_text

    return convert_text(text, "partial.example").triples


def test_graphs_give_the_same_answer_as_texts(tmp_path: Path) -> None:
    code, _, _ = run("convert", str(COMPLETE), str(PARTIAL), "-o", str(tmp_path / "out"))
    assert code == 0
    from_text = json.loads(run("comply", str(COMPLETE), str(PARTIAL), "--format", "json")[1])
    code, out, _ = run("comply", str(tmp_path / "out"), "--format", "json")
    assert code == 1
    from_graph = json.loads(out)
    strip = lambda d: sorted((p["site"], json.dumps(p["requirements"])) for p in d["policies"])  # noqa: E731
    assert strip(from_graph) == strip(from_text)


def test_stale_graph_asks_to_reconvert(tmp_path: Path) -> None:
    run("convert", str(PARTIAL), "-o", str(tmp_path / "out"))
    trig = tmp_path / "out" / "partial.example.trig"
    ds = Dataset()
    ds.parse(trig, format="trig")
    for s, p, o, g in list(ds.quads()):  # what a graph converted before the transparency stage lacks
        if "transparency" in f"{s}{p}{o}".lower() or "gdpr-" in str(o):
            ds.remove((s, p, o, g))
    trig.write_text(ds.serialize(format="trig"), "utf-8")
    code, out, err = run("comply", str(trig))
    assert code == 2 and "convert it again" in err and "missing" not in out


def test_not_a_policy_is_all_missing_with_a_warning() -> None:
    code, out, err = run("comply", str(RECIPE), "--format", "json")
    assert code == 1 and "does not look like a privacy policy" in err
    assert {r["status"] for r in json.loads(out)["policies"][0]["requirements"]} == {MISSING}


def test_unknown_law_lists_the_known_ones() -> None:
    code, _, err = run("comply", str(PARTIAL), "--law", "hammurabi")
    assert code == 2 and "gdpr" in err and "ccpa" in err


def test_second_law_is_data_and_marked_unmeasured() -> None:
    law = get_law("ccpa")
    assert not law.measured and len(law.items) >= 5
    code, out, err = run("comply", str(COMPLETE), "--law", "ccpa", "--format", "csv")
    assert code == 0 and "unmeasured" in err and out.startswith("file,site,law,id,label")


def test_law_file_is_validated(tmp_path: Path) -> None:
    from pp_graph.comply.laws import LAWS_DIR

    src = (LAWS_DIR / "gdpr.toml").read_text("utf-8")
    bad = tmp_path / "gdpr.toml"
    bad.write_text(src.replace('requirement = "dpo-contact"\n', 'requirement = "dpo-kontakt"\n', 1), "utf-8")
    with pytest.raises(DataFileError, match="dpo-kontakt"):
        load_law(bad)


@pytest.mark.parametrize("engine", ["core", "pyshacl"])
def test_shacl_profile_agrees_with_comply(tmp_path: Path, engine: str) -> None:
    run("convert", str(PARTIAL), str(COMPLETE), "-o", str(tmp_path / "out"))
    law = get_law("gdpr")
    counts = {}
    for trig in sorted((tmp_path / "out").glob("*.trig")):
        (facts,) = graph_file_facts(trig)
        missing = {f"'{r.item.label}'" for r in checklist(facts, law).results if r.status == MISSING}
        (o,) = validate_each([trig], shapes=profile_path("gdpr-transparency"), engine=engine)
        assert o.report is not None
        said = {re.search(r"'[^']+'", r.message).group() for r in o.report.results}  # type: ignore[union-attr]
        assert said == missing
        assert all(re.match(r"GDPR Art\. \d", r.message) for r in o.report.results)
        counts[trig.stem] = len(missing)
    assert counts["complete.example"] == 0 and counts["partial.example"] >= 10  # not vacuous


def test_validate_profile_cli(tmp_path: Path) -> None:
    run("convert", str(PARTIAL), "-o", str(tmp_path / "out"))
    code, out, _ = run("validate", str(tmp_path / "out"), "--profile", "gdpr-transparency")
    assert code == 1 and "'Right to Access' is not addressed" in out and "Art. 13(2)(b)" in out
    code, _, err = run("validate", str(tmp_path / "out"), "--profile", "nope")
    assert code == 2 and "gdpr-transparency" in err


def test_committed_profiles_match_the_law_data() -> None:
    for law in ("gdpr", "ccpa"):
        committed = Graph().parse(profile_path(f"{law}-transparency"), format="turtle")
        assert isomorphic(committed, law_shapes(get_law(law)))


def test_comply_output_is_deterministic(tmp_path: Path) -> None:
    shutil.copy(PARTIAL, tmp_path / "partial.example.md")
    a = run("comply", str(tmp_path / "partial.example.md"), "--format", "markdown")
    b = run("comply", str(tmp_path / "partial.example.md"), "--format", "markdown")
    assert a == b and "Third-country Transfers" in a[1]


def test_run_on_line_stays_linear() -> None:
    """A 20,000-word line without full stops (a mangled table): the stage must not go quadratic."""
    import time

    from pp_graph.comply.detect import detect_line
    from pp_graph.model import Segment, SegmentExtraction

    words = [
        "we",
        "do",
        "not",
        "share",
        "your",
        "email",
        "address",
        "with",
        "third",
        "parties",
        "or",
        "transfer",
        "it",
        "outside",
        "the",
        "EEA",
        "and",
        "you",
        "can",
    ]
    line = " ".join(words[i % len(words)] for i in range(20_000))
    res = SegmentExtraction(Segment(0, 0, len(line), line))
    t0 = time.perf_counter()
    found = detect_line(rules(), res)
    assert time.perf_counter() - t0 < 5.0
    assert {m.requirement for m in found} >= {"data-recipients", "third-country-transfers"}


def test_graph_without_the_stage_has_no_transparency_marker() -> None:
    """Only a conversion that ran the transparency stage claims it: otherwise comply asks to convert again."""
    from pp_graph.comply.checklist import StaleGraph
    from pp_graph.extract.registry import STAGES
    from pp_graph.graph.build import policy_quads, triples_of

    policy = policy_from_text(PARTIAL.read_text(encoding="utf-8"), "partial.example")
    ex = extract(policy, get_backend("offline"), stages=[s for s in STAGES if s != "transparency"])
    facts = policy_facts(built_triples(triples_of(policy_quads(ex)[1])), "partial.example.md")
    assert facts.rules_version is None and not facts.statements
    with pytest.raises(StaleGraph, match="convert it again"):
        checklist(facts, get_law("gdpr"))


def test_a_line_of_links_addresses_nothing() -> None:
    toc = "[Who we are](#who)[Your right to lodge a complaint](#complaint)[International transfers](#transfers)"
    assert _found(toc) == {}
    assert "right-lodge-complaint" in _found("You may lodge a complaint with a supervisory authority.")
