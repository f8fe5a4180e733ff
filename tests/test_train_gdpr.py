"""The transparency learned layer: `pp-graph train gdpr` on a tiny synthetic dataset written for these tests, the
model used by `comply --model` (a statement the rules miss, with the model's provenance in the graph), the model
folder's checks (exit 2) and the test split left out of training."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from rdflib import Literal, URIRef
from rdflib.namespace import PROV

from pp_graph.api import convert_policy
from pp_graph.cli import main
from pp_graph.errors import ModelError
from pp_graph.evaluate import gdpr
from pp_graph.evaluate.learn_gdpr import combine
from pp_graph.extract.learned.transparency import (
    FORMAT,
    MANIFEST,
    VECTORIZERS,
    WEIGHTS,
    lines_of,
    load_transparency_model,
)
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.graph.namespaces import PPG
from pp_graph.load.sources import policy_from_text
from pp_graph.validate import validate

# Written for these tests (not from any dataset): the retention line is one the rules do not recognise.
DATA = ["email address", "phone number", "nickname", "postal address"]
SEASONS = ["season", "tournament", "league year", "spring cup"]
RETENTION = "Old scorecards vanish from the archive when the {s} closes."
LINES = [
    ("We use your {d} to send match reminders.", ["Data Categories", "Processing Purpose"]),
    (RETENTION, ["Data Retention Period"]),
    ("Tell the league office at desk {n} if a scorecard looks wrong.", ["Right to Rectification"]),
    ("Our games are played on field {n} every weekend.", []),
]


def _document(i: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = [{"type": "headline", "context": [], "passage": "Privacy notice", "annotations": []}]
    for k in range(len(LINES) * 2):
        tmpl, labels = LINES[(i + k) % len(LINES)]
        text = tmpl.format(d=DATA[(i + k) % 4], s=SEASONS[(i * 3 + k) % 4], n=i + k)
        anns = [{"requirement": lb, "value": "x", "performed": True} for lb in labels]
        out.append({"type": "text", "context": [], "passage": text, "annotations": anns})
    return out


def _write(folder: Path, ids: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, doc_id in enumerate(ids):
        (folder / f"{doc_id}.json").write_text(json.dumps(_document(i)), encoding="utf-8")
    return folder


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gdpr-synthetic")
    held = sorted(gdpr.test_ids())[0]  # one id of the fixed test split (its name only): must be left out
    _write(root / "policies", [f"synthetic-{i:02d}" for i in range(8)] + [held])
    out = root / "model"
    code, stdout, stderr = run("train", "gdpr", str(root), "-o", str(out), "--folds", "4")
    assert code == 0, stderr
    assert "retention-period" in stdout
    return out


def test_train_records_what_it_was_trained_on(trained: Path) -> None:
    man = json.loads((trained / MANIFEST).read_text(encoding="utf-8"))
    on = man["trained_on"]
    assert on["documents"] == [f"synthetic-{i:02d}" for i in range(8)]  # the test-split id left out
    assert on["test_documents_left_out"] == 1 and on["test_documents_included"] is False
    assert on["dataset_digest"].startswith("sha256:")
    assert man["rules_version"] and man["versions"]["pp-graph"]
    assert man["choices"]["retention-period"]["mode"] in ("union", "confirm")  # the rules alone find nothing
    state = json.loads((trained / VECTORIZERS).read_text(encoding="utf-8"))
    assert state["lead"]["vocabulary"] == {}  # no list in these documents: the block adds no column (was a ValueError)
    assert "reminders" in state["before"]["vocabulary"] and "reminders" in state["after"]["vocabulary"]


def test_include_test_flag_trains_on_test_ids(tmp_path: Path) -> None:
    held = sorted(gdpr.test_ids())[:2]
    _write(tmp_path / "d", held)  # only test-split documents: refused without the flag
    code, _, stderr = run("train", "gdpr", str(tmp_path / "d"), "-o", str(tmp_path / "m"))
    assert code == 2 and "--include-test" in stderr and "Traceback" not in stderr
    assert not (tmp_path / "m").exists()
    code, _, stderr = run("train", "gdpr", str(tmp_path / "d"), "-o", str(tmp_path / "m"), "--include-test")
    assert code == 0, stderr
    on = json.loads((tmp_path / "m" / MANIFEST).read_text(encoding="utf-8"))["trained_on"]
    assert on["documents"] == held and on["test_documents_included"] is True


BAD_DATASETS = {
    # a file that is not a list of passages, and passages or annotations of the wrong shape (were tracebacks)
    "an-object": ({"a": 1}, "a list of passages expected, found dict"),
    "strings": (["a", "b"], "passage 0 is not a dataset passage"),
    "no-requirement": ([{"passage": "x", "annotations": [{"value": "x"}]}], "passage 0 is not a dataset passage"),
    # a label the rules do not know was dropped from the gold without a word
    "unknown-label": (
        [{"passage": "We keep it.", "annotations": [{"requirement": "Retention Period", "value": "x"}]}],
        "requirement 'Retention Period' is not a label of the transparency rules",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_DATASETS))
def test_malformed_dataset_exits_2_naming_the_file(tmp_path: Path, name: str) -> None:
    body, problem = BAD_DATASETS[name]
    _write(tmp_path / "d", ["synthetic-00"])
    (tmp_path / "d" / f"{name}.json").write_text(json.dumps(body), encoding="utf-8")
    code, _, stderr = run("train", "gdpr", str(tmp_path / "d"), "-o", str(tmp_path / "m"))
    assert code == 2 and "Traceback" not in stderr
    assert f"{name}.json: " in stderr and problem in stderr, stderr
    assert not (tmp_path / "m").exists()


def test_dataset_too_small_or_unannotated_exits_2(tmp_path: Path) -> None:
    # Two one-line documents: too few lines for the features (was scikit-learn's ValueError traceback).
    for i in range(2):
        doc = [{"passage": f"We use word{i}.", "annotations": [{"requirement": "Data Categories", "value": "x"}]}]
        (tmp_path / "tiny").mkdir(exist_ok=True)
        (tmp_path / "tiny" / f"t{i}.json").write_text(json.dumps(doc), encoding="utf-8")
    code, _, stderr = run("train", "gdpr", str(tmp_path / "tiny"), "-o", str(tmp_path / "m"))
    assert code == 2 and "Traceback" not in stderr and "too little text to train on (2 lines)" in stderr, stderr
    # Documents without any annotation would train a model that never fires.
    _write(tmp_path / "bare", ["synthetic-00", "synthetic-01"])
    for f in (tmp_path / "bare").glob("*.json"):
        doc = json.loads(f.read_text(encoding="utf-8"))
        f.write_text(json.dumps([{**p, "annotations": []} for p in doc]), encoding="utf-8")
    code, _, stderr = run("train", "gdpr", str(tmp_path / "bare"), "-o", str(tmp_path / "m"))
    assert code == 2 and "none of the 2 training documents has an annotation" in stderr, stderr
    assert not (tmp_path / "m").exists()


POLICY = (
    "# Privacy notice\n\nWe use your email address to send match reminders.\n\n"
    + RETENTION.format(s="season")
    + "\n\nTell the league office at desk 3 if a scorecard looks wrong.\n"
)


def test_learned_statement_has_provenance_and_validates(trained: Path) -> None:
    model = load_transparency_model(trained)
    conv = convert_policy(policy_from_text(POLICY, "club.example"), "offline", transparency=model)
    g = conv.dataset.graph(conv.graph)
    rule = Literal("retention-period/learned")
    nodes = list(g.subjects(PPG.transparencyRule, rule))
    assert len(nodes) == 1
    node = nodes[0]
    assert (node, PPG.modelDigest, Literal(model.digest)) in g
    score = float(next(g.objects(node, PPG.score)))
    assert model.choices["retention-period"].threshold <= score <= 1
    run_node = next(g.objects(node, PROV.wasGeneratedBy))
    assert (run_node, PPG.extractor, Literal("learned")) in g
    assert (run_node, PPG.model, Literal(model.digest)) in g
    assert (None, PPG.requirement, URIRef(str(PPG) + "gdpr-retention-period")) in g
    assert validate(conv.dataset).conforms
    plain = convert_policy(policy_from_text(POLICY, "club.example"), "offline")
    assert not list(plain.dataset.graph(plain.graph).subjects(PPG.transparencyRule, rule))


def test_comply_model_addresses_what_rules_miss(trained: Path, tmp_path: Path) -> None:
    text = tmp_path / "club.example.md"
    text.write_text(POLICY, encoding="utf-8")

    def status(*extra: str) -> str:
        code, stdout, stderr = run("comply", str(text), "--format", "json", *extra)
        assert code in (0, 1), stderr
        reqs = json.loads(stdout)["policies"][0]["requirements"]
        return next(r["status"] for r in reqs if r["id"] == "retention-period")

    assert status() == "missing"
    assert status("--model", str(trained)) == "addressed"


def test_corrupt_or_missing_model_exits_2(trained: Path, tmp_path: Path) -> None:
    text = tmp_path / "club.example.md"
    text.write_text(POLICY, encoding="utf-8")
    broken = tmp_path / "broken"
    broken.mkdir()
    for f in trained.iterdir():
        (broken / f.name).write_bytes(f.read_bytes())
    (broken / WEIGHTS).write_bytes((broken / WEIGHTS).read_bytes()[:-8] + b"\0" * 8)
    code, _, stderr = run("comply", str(text), "--model", str(broken))
    assert code == 2 and "weights.npy" in stderr and "changed since training" in stderr
    assert "Traceback" not in stderr
    code, _, stderr = run("comply", str(text), "--model", str(tmp_path / "nowhere"))
    assert code == 2 and "no manifest.json" in stderr
    man = json.loads((trained / MANIFEST).read_text(encoding="utf-8"))
    (broken / MANIFEST).write_text(json.dumps({**man, "format": "pp-graph-learned/3"}), encoding="utf-8")
    with pytest.raises(ModelError, match=f"format 'pp-graph-learned/3', expected '{FORMAT}'"):
        load_transparency_model(broken)


def test_model_of_the_first_format_is_refused(trained: Path, tmp_path: Path) -> None:
    # Format 1 had no context blocks: its weights do not fit these features, so comply and convert refuse it.
    old = tmp_path / "old"
    old.mkdir()
    for f in trained.iterdir():
        (old / f.name).write_bytes(f.read_bytes())
    man = json.loads((trained / MANIFEST).read_text(encoding="utf-8"))
    (old / MANIFEST).write_text(json.dumps({**man, "format": "pp-graph-transparency-learned/1"}), encoding="utf-8")
    text = tmp_path / "in" / "club.example.md"
    text.parent.mkdir()
    text.write_text(POLICY, encoding="utf-8")
    code, _, stderr = run("comply", str(text), "--model", str(old))
    assert code == 2 and "older pp-graph" in stderr and "train gdpr` again" in stderr and "Traceback" not in stderr
    code, _, stderr = run("convert", str(text.parent), "-o", str(tmp_path / "out"), "--gdpr-model", str(old))
    assert code == 2 and "older pp-graph" in stderr and "train gdpr` again" in stderr, stderr


def test_convert_gdpr_model_writes_learned_statements(trained: Path, tmp_path: Path) -> None:
    text = tmp_path / "in" / "club.example.md"
    text.parent.mkdir()
    text.write_text(POLICY, encoding="utf-8")
    code, _, stderr = run("convert", str(text.parent), "-o", str(tmp_path / "out"), "--gdpr-model", str(trained))
    assert code == 0, stderr
    trig = (tmp_path / "out" / "club.example.trig").read_text(encoding="utf-8")
    assert '"retention-period/learned"' in trig
    assert load_transparency_model(trained).digest in trig
    code, _, stderr = run("convert", str(text.parent), "-o", str(tmp_path / "o2"), "--gdpr-model", str(tmp_path))
    assert code == 2 and "not a" in stderr and "Traceback" not in stderr


def test_model_of_other_rules_is_refused(trained: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from pp_graph.comply import rules as rules_module

    other = replace(rules_module.rules(), version="0.0+other")
    monkeypatch.setattr(rules_module, "rules", lambda: other)
    with pytest.raises(ModelError, match=r"trained with transparency rules .* run `pp-graph train gdpr` again"):
        load_transparency_model(trained)


LISTED = (
    "# Your rights\n\nYou can ask us for the following:\n\n- a copy of your scorecards\n\n- a fix of a wrong score\n\n"
    "# Keeping\n\n- scorecards go after a season\n"
)


def test_lines_carry_their_context() -> None:
    ex = extract(policy_from_text(LISTED, "club.example"), get_backend("offline"))
    lines = lines_of(ex.results)
    assert [ln.text for ln in lines] == [res.segment.text for res in ex.results]
    by_text = {ln.text: ln for ln in lines}
    first, second = by_text["- a copy of your scorecards"], by_text["- a fix of a wrong score"]
    assert first.lead == second.lead == "You can ask us for the following:"  # the items' lead-in line
    assert first.before == "You can ask us for the following:" and first.after == "- a fix of a wrong score"
    assert by_text["You can ask us for the following:"].lead == ""  # only a list item has a lead-in
    assert by_text["- scorecards go after a season"].lead == ""  # a heading ends the lead-in's reach
    assert lines[0].is_heading and lines[0].before == "" and lines[-1].after == ""


def test_scoring_adds_no_learned_statement_on_a_heading() -> None:
    # TransparencyModel.apply writes no learned statement on a heading line: the scoring must not count one.
    rules_col, scores, heads = np.array([0, 0, 1]), np.array([0.9, 0.9, 0.9]), np.array([True, False, True])
    assert combine(rules_col, scores, "union", 0.5, heads).tolist() == [False, True, True]
    assert combine(rules_col, scores, "confirm", 0.5, heads).tolist() == [False, True, True]
    assert combine(rules_col, scores * 0, "confirm", 0.5, heads).tolist() == [False, False, False]
