"""Evaluation loaders: brat (hand-written fixture), OPP-115 (skips without the dataset), data files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.errors import DataFileError, InputError
from pp_graph.evaluate import opp115
from pp_graph.evaluate.brat import evaluate_brat, load_document, load_folder
from pp_graph.evaluate.metrics import ZERO
from pp_graph.model import PracticeType

FIXTURES = Path(__file__).parent / "fixtures" / "brat"
OPP115 = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "opp115"
needs_opp115 = pytest.mark.skipif(not (OPP115 / "annotations").is_dir(), reason="OPP-115 not available")


def test_brat_loader_reads_entities_events_relations_concepts():
    doc = load_document(FIXTURES / "example.com.ann")
    assert len(doc.entities) == 7
    for e in doc.entities.values():
        assert doc.text[e.start : e.end] == e.text
    assert doc.entities["T3"].type == "Data" and doc.entities["T3"].text == "email address"
    assert doc.events["E1"].trigger == "T2"
    assert doc.events["E1"].args == (("Data-Collected", "T3"), ("Purpose-Argument", "T4"))
    assert doc.concepts["T3"] == "pd:EmailAddress"
    assert ("T6", "Data-Receiver", "T5") in doc.tuples()
    assert len(doc.tuples()) == 4


def test_brat_loader_rejects_ungrounded_span_and_dangling_reference(tmp_path):
    (tmp_path / "a.txt").write_text("We collect data.\n")
    (tmp_path / "a.ann").write_text("T1\tData 11 15\tdatum\n")
    with pytest.raises(InputError, match="not 'datum'"):
        load_document(tmp_path / "a.ann")
    (tmp_path / "a.ann").write_text("T1\tData 11 15\tdata\nE1\tfirst-party-collection-use:T9 Data-Collected:T1\n")
    with pytest.raises(InputError, match="T9"):
        load_document(tmp_path / "a.ann")
    with pytest.raises(InputError):
        load_folder(tmp_path / "missing")


def test_brat_evaluation_on_fixture():
    scores = evaluate_brat(FIXTURES)
    # The offline extractor finds both practice triggers and both data spans with their classes exactly.
    assert scores["practices"].micro.f1 == 1.0
    assert scores["data spans"].micro.f1 == 1.0
    assert scores["data classes (exact)"].micro.f1 == 1.0
    # Its purpose span ("newsletters") is shorter than the gold one: no relaxed match.
    assert scores["purpose spans"].micro.tp_pred == 0.0
    rel = scores["relations"].micro
    assert rel.n_gold == 4 and 0 < rel.tp_pred < rel.n_gold


def test_cli_evaluate_brat(tmp_path):
    from pp_graph.cli.evaluate import evaluate

    out = tmp_path / "s.json"
    res = CliRunner().invoke(evaluate, ["brat", str(FIXTURES), "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "practices" in res.output and out.is_file()
    res = CliRunner().invoke(evaluate, ["brat", str(tmp_path / "none")])
    assert res.exit_code == 2 and "no such folder" in res.output


def test_segment_text_and_policy_offsets():
    assert (
        opp115.segment_text("Title <br> <br> We &amp; you <b>collect</b>  data. <br>")
        == "Title\nWe & you collect data."
    )
    pol = opp115.OppPolicy("1", "example.com", ["A b", "C"])
    text, bounds = pol.text_and_offsets()
    assert [text[a:b] for a, b in bounds] == ["A b", "C"]


def test_gold_needs_two_of_three_annotators():
    A = opp115.Annotation
    pol = opp115.OppPolicy(
        "1",
        "example.com",
        ["s0", "s1"],
        [
            A("x", 0, "Data Retention", ()),
            A("y", 0, "Data Retention", ()),
            A("z", 0, "Other", ()),
            A("x", 1, "Data Security", ()),
            A("x", 1, "Data Security", ()),  # one annotator twice: not agreement
        ],
    )
    assert pol.gold(lambda a: [a.category]) == [{"Data Retention"}, set()]


def test_mapping_and_split_files_are_valid():
    m = opp115.load_mapping()
    cats = m.practice_types()
    assert cats["third party sharing/collection"] == {
        PracticeType.THIRD_PARTY_SHARING_DISCLOSURE,
        PracticeType.THIRD_PARTY_COLLECTION_USE,
    }
    assert len(cats) == 8  # the five data-practice types as four labels, and the four statement types
    assert cats["do not track"] == {PracticeType.DO_NOT_TRACK}
    # where data is kept or sent is OPP-115's International and Specific Audiences, how long its Data Retention
    assert cats["international and specific audiences"] == {PracticeType.SPECIFIC_AUDIENCE, opp115.STORAGE_PLACE}
    assert cats["data retention"] == {PracticeType.DATA_STORAGE_RETENTION_DELETION}
    assert m.target("Personal Information Type", "user PROFILE") == m.target(
        "Personal Information Type", "User profile"
    )
    assert m.target("Purpose", "Unspecified") is None
    split = opp115.load_split()
    assert sorted(split.values()).count("test") == 50 and len(split) == 115
    assert [p for p in opp115.split_order(split) if split[p] == "train"] == opp115.split_order(split)[:65]


def test_a_storage_statement_with_a_place_is_scored_as_a_place_not_retention():
    """OPP-115's annotators file storage places and transfers under International and Specific Audiences; a storage
    statement with a place scored as Data Retention was the largest source of retention false positives."""
    from pp_graph.api import convert_text

    def kinds(sentence: str) -> set[str]:
        ex = convert_text(f"# Privacy at Lumen\n\n{sentence}\n", "lumen-notes.example").extraction
        return {k for res in ex.results for i in range(len(res.practices)) for k in opp115.scored_kinds(res, i)}

    assert kinds("Your data may be stored and processed in the United States.") == {opp115.STORAGE_PLACE}
    assert kinds("We rely on Standard Contractual Clauses for transfers of your data.") == {opp115.STORAGE_PLACE}
    both = kinds("We keep your account data in the EU for two years.")
    assert both == {opp115.STORAGE_PLACE, PracticeType.DATA_STORAGE_RETENTION_DELETION}
    assert kinds("We keep your account data for two years.") == {PracticeType.DATA_STORAGE_RETENTION_DELETION}
    assert kinds("We share your email address with advertisers.") == {PracticeType.THIRD_PARTY_SHARING_DISCLOSURE}


def test_mapping_rejects_unknown_concept(tmp_path):
    bad = tmp_path / "m.tsv"
    bad.write_text("Purpose\tAdvertising\tdpv:NoSuchPurpose\twhy\n")
    with pytest.raises(DataFileError, match="NoSuchPurpose"):
        opp115.load_mapping(bad)
    bad.write_text("category\tData Retention\tstorage-places\twhy\n")
    with pytest.raises(DataFileError, match="not a practice type or 'storage-place'"):
        opp115.load_mapping(bad)
    bad.write_text("Purpose\tAdvertising\n")
    with pytest.raises(DataFileError, match="4 tab-separated"):
        opp115.load_mapping(bad)


@needs_opp115
def test_opp115_loader_reads_real_corpus():
    split = opp115.load_split()
    ids = set(sorted(split)[:2])
    corpus = opp115.load_corpus(OPP115, ids)
    assert {p.policy_id for p in corpus} == ids
    for pol in corpus:
        assert pol.segments and pol.annotations
        assert len({a.annotator for a in pol.annotations}) == 3
        assert all(0 <= a.segment < len(pol.segments) for a in pol.annotations)
        assert any(pol.gold(lambda a: [a.category]))


@needs_opp115
def test_opp115_evaluation_runs_on_a_few_policies(tmp_path):
    split = opp115.load_split()
    small = tmp_path / "split.tsv"
    few = [p for p in sorted(split) if split[p] == "train"][:3]
    small.write_text("".join(f"{p}\tx\ttrain\n" for p in few))
    res = opp115.evaluate_opp115(OPP115, split="train", split_file=small)
    assert res.policies == 3
    cat = res.categories.micro
    assert cat.n_gold > 0 and cat.n_pred > 0 and 0 < cat.f1 <= 1
    # one bootstrap unit per policy, summing to the pooled counts; the interval brackets the estimate
    assert len(res.category_units) == 3
    for lab, prf in res.categories.per_label.items():
        assert sum((u[lab] for u in res.category_units), ZERO) == prf
    iv = res.category_interval(resamples=200)
    assert iv.units == 3 and iv.low <= res.categories.macro_f1 <= iv.high


def test_opp115_missing_folder_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="not an OPP-115 folder"):
        opp115.load_corpus(tmp_path)


@needs_opp115
def test_cli_evaluate_opp115_prints_and_writes_the_interval(tmp_path):
    import json

    from pp_graph.cli.evaluate import evaluate

    out = tmp_path / "train.json"
    res = CliRunner().invoke(evaluate, ["opp115", str(OPP115), "--split", "train", "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert "practice categories macro-F1, 95% bootstrap interval over 65 policies" in res.output
    cat = json.loads(out.read_text())["tasks"]["practice categories"]
    iv = cat["macro_f1_interval"]
    assert iv["unit"] == "policy" and iv["units"] == 65 and iv["resamples"] == 1000
    assert iv["low"] <= cat["macro_f1"] <= iv["high"]


def test_dev_subset_is_fixed_by_its_seeded_rule_and_inside_train():
    split = opp115.load_split()
    train = [p for p, s in split.items() if s == "train"]
    dev = opp115.load_dev()
    assert len(dev) == opp115.DEV_SIZE
    assert dev == opp115.dev_order(train)[: opp115.DEV_SIZE]
    assert opp115.split_ids("dev") == set(dev)
    assert opp115.split_ids("fit") == set(train) - set(dev)
    assert not opp115.split_ids("dev") & opp115.split_ids("test")


def test_dev_file_naming_a_test_policy_is_rejected(tmp_path):
    split = opp115.load_split()
    test_id = next(p for p, s in split.items() if s == "test")
    bad = tmp_path / "dev.tsv"
    bad.write_text(f"{test_id}\tx.com\n")
    with pytest.raises(DataFileError, match="not in the train split"):
        opp115.load_dev(bad)
    with pytest.raises(InputError, match="unknown split"):
        opp115.split_ids("validation")


def test_the_opp115_split_is_never_a_default(tmp_path):
    """The test split is read on purpose only: a forgotten --split is a usage error, not a test-split run."""
    import inspect
    import subprocess
    import sys

    from pp_graph.cli.evaluate import evaluate

    res = CliRunner().invoke(evaluate, ["opp115", str(tmp_path)])
    assert res.exit_code == 2 and "Missing option '--split'" in res.output, res.output
    assert all(s in res.output for s in opp115.SPLITS), res.output  # the choices are listed
    assert "not an OPP-115 folder" not in res.output  # refused before any policy is read
    assert inspect.signature(opp115.evaluate_opp115).parameters["split"].default is inspect.Parameter.empty
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "eval_opp115.py"
    env = {**os.environ, "OPP115_DIR": str(tmp_path)}  # no dataset there: the old script skipped with exit 0
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2 and "--split" in r.stderr and "Traceback" not in r.stderr, (r.returncode, r.stderr)


def test_evaluate_accepts_a_backend_registered_after_import(tmp_path):
    """--backend is checked against the registry when the command runs, as `convert` does."""
    import json

    from pp_graph.cli.evaluate import evaluate
    from pp_graph.extract import registry

    registry.register_backend("test-later", "pp_graph.extract.offline.backend:OfflineBackend")
    try:
        out = tmp_path / "s.json"
        res = CliRunner().invoke(evaluate, ["brat", str(FIXTURES), "--backend", "test-later", "--json", str(out)])
        assert res.exit_code == 0, res.output
        assert json.loads(out.read_text())["backend"] == "test-later"
        for cmd in (["brat", str(FIXTURES)], ["opp115", str(tmp_path), "--split", "train"]):
            res = CliRunner().invoke(evaluate, [*cmd, "--backend", "nonsense"])
            assert res.exit_code == 2 and "'nonsense'" in res.output and "test-later" in res.output, res.output
            assert "Invalid value for '--backend'" in res.output  # a usage error, before anything is read
        from pp_graph.cli import main

        res = CliRunner().invoke(main, ["convert", str(FIXTURES), "-o", str(tmp_path / "g"), "--backend", "nonsense"])
        assert res.exit_code == 2 and "Invalid value for '--backend'" in res.output and "test-later" in res.output
        assert not (tmp_path / "g").exists()  # the same check as evaluate's, before any work
    finally:
        del registry.BACKENDS["test-later"]


def test_backend_help_lists_the_backends_registered_when_it_is_shown() -> None:
    from pp_graph.cli import main
    from pp_graph.extract import registry

    registry.register_backend("testhelpbackend", "pp_graph.extract.offline.backend:OfflineBackend")
    try:
        for cmd in (["convert"], ["evaluate", "brat"], ["evaluate", "opp115"]):
            res = CliRunner().invoke(main, [*cmd, "--help"])
            flat = " ".join(res.output.split())
            assert res.exit_code == 0 and "--backend BACKEND" in flat, flat
            assert all(name in flat for name in ("testhelpbackend", "offline", "llm")), flat
    finally:
        del registry.BACKENDS["testhelpbackend"]
    assert "testhelpbackend" not in CliRunner().invoke(main, ["convert", "--help"]).output
