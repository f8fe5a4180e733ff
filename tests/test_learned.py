"""The learned layer: training on a tiny synthetic OPP-115-format dataset, the model folder's safety checks,
inferred evidence in the graph (valid, and kept apart from mentions), and the rules-only default unchanged."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from rdflib import Literal
from rdflib.namespace import RDF

from pp_graph.api import convert_policy
from pp_graph.errors import InputError, ModelError
from pp_graph.evaluate import opp115
from pp_graph.evaluate.learn_opp115 import train_opp115
from pp_graph.extract.learned.model import MANIFEST, WEIGHTS, Label, load_model
from pp_graph.graph.namespaces import PD, PPG
from pp_graph.load.sources import policy_from_text
from pp_graph.model import InferredClass, PracticeType
from pp_graph.validate import validate

# Written for these tests: four kinds of segment, each with the labels three annotators would give it.
KINDS = [
    (
        "We collect your {d} when you register so that we can send you newsletters and offers.",
        "First Party Collection/Use",
        {"Personal Information Type": "Contact", "Purpose": "Marketing"},
    ),
    (
        "We may share your {d} with advertising networks that show you ads on other sites.",
        "Third Party Sharing/Collection",
        {"Personal Information Type": "Contact", "Purpose": "Advertising"},
    ),
    ("Your records are kept for {n} months and then erased from our systems.", "Data Retention", {}),
    ("We protect your {d} with encryption and strict access controls.", "Data Security", {}),
]
DATA_WORDS = ["e-mail address", "phone number", "postal address", "mailing address", "email", "name"]


def _policy(i: int) -> tuple[str, list[list[str]]]:
    segs, rows = [], []
    for k in range(8):
        tmpl, cat, attrs = KINDS[(i + k) % 4]
        segs.append(tmpl.format(d=DATA_WORDS[(i * 3 + k) % len(DATA_WORDS)], n=6 + k))
        values = {
            a: {"value": v, "selectedText": "x", "startIndexInSegment": 0, "endIndexInSegment": 1}
            for a, v in attrs.items()
        }
        for ann in ("a1", "a2", "a3"):
            rows.append([f"{i}-{k}-{ann}", "b", ann, str(i), str(k), cat, json.dumps(values), "", ""])
    return "|||".join(segs), rows


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 policies: 8 train (3 of them dev), 4 test; the same split/dev file formats as data/."""
    root = tmp_path_factory.mktemp("opp")
    (root / "sanitized_policies").mkdir()
    (root / "annotations").mkdir()
    split = ["# policy_id\tsite\tsplit"]
    for i in range(1, 13):
        html, rows = _policy(i)
        (root / "sanitized_policies" / f"{i}_site{i}.com.html").write_text(html)
        with open(root / "annotations" / f"{i}_site{i}.com.csv", "w", newline="") as fh:
            csv.writer(fh).writerows(rows)
        split.append(f"{i}\tsite{i}.com\t{'train' if i <= 8 else 'test'}")
    (root / "split.tsv").write_text("\n".join(split) + "\n")
    (root / "dev.tsv").write_text("2\tsite2.com\n5\tsite5.com\n7\tsite7.com\n")
    return root


@pytest.fixture(scope="module")
def model_dir(synthetic: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("model")
    train_opp115(synthetic, out, split_file=synthetic / "split.tsv", dev_file=synthetic / "dev.tsv")
    return out


def test_policies_without_words_are_an_input_error(synthetic: Path, tmp_path: Path) -> None:
    # Binary or empty policy texts left the vectorizers no vocabulary: scikit-learn's ValueError traceback.
    root = tmp_path / "opp"
    shutil.copytree(synthetic, root)
    for f in (root / "sanitized_policies").glob("*.html"):
        f.write_bytes(b"\x00\x01|||\x02")
    with pytest.raises(InputError, match=r"opp: too little text to train on \(8 policies\): empty vocabulary"):
        train_opp115(root, tmp_path / "m", split_file=root / "split.tsv", dev_file=root / "dev.tsv")
    assert not (tmp_path / "m").exists()


def test_training_writes_a_manifest_that_names_data_split_and_digests(model_dir: Path, synthetic: Path) -> None:
    man = json.loads((model_dir / MANIFEST).read_text())
    assert man["split"]["dev"] == ["2", "5", "7"] and man["dataset"]["policies"] == 8  # test policies never read
    assert man["dataset"]["digest"].startswith("sha256:") and man["model_digest"].startswith("sha256:")
    assert set(man["files"]) == {"vectorizers.json", "weights.npy"}
    assert {c["mode"] for c in man["choices"].values()} <= {"rules", "union", "learned"}
    assert man["split"]["folds"] == 5 and set(man["dev_report"]) == set(man["choices"]) == set(man["cv_report"])
    # Practice categories chosen on the dev subset, data and purposes on CV (CHOOSE_ON), each label says where.
    assert man["split"]["choose_on"] == {"practice": "dev", "data": "cv", "purpose": "cv"}
    kinds = {lab["name"]: lab["kind"] for lab in man["labels"]}
    assert all(c["chosen_on"] == man["split"]["choose_on"][kinds[n]] for n, c in man["choices"].items())
    assert "scikit-learn" in man["versions"]
    # Same data, same settings: the same model, byte for byte.
    again = model_dir.parent / "again"
    train_opp115(synthetic, again, split_file=synthetic / "split.tsv", dev_file=synthetic / "dev.tsv")
    assert json.loads((again / MANIFEST).read_text())["model_digest"] == man["model_digest"]


def test_model_learns_the_synthetic_categories(model_dir: Path) -> None:
    model = load_model(model_dir)
    from pp_graph.extract.learned.features import Unit

    idx = {lab.name: j for j, lab in enumerate(model.labels)}
    s = model.scores([Unit("Your records are kept for 9 months and then erased from our systems.", " | ", "NONE")])
    assert s[0, idx["data retention"]] > 0.5 > s[0, idx["third party sharing/collection"]]


def test_a_changed_model_file_or_manifest_is_refused(model_dir: Path, tmp_path: Path) -> None:
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(model_dir, bad)
    w = np.load(bad / WEIGHTS, allow_pickle=False)
    w[0, 0] += 1.0
    with open(bad / WEIGHTS, "wb") as fh:
        np.save(fh, w, allow_pickle=False)
    with pytest.raises(ModelError, match="changed since training"):
        load_model(bad)
    shutil.copy(model_dir / WEIGHTS, bad / WEIGHTS)
    man = json.loads((bad / MANIFEST).read_text())
    man["labels"][0]["threshold"] = 0.01
    (bad / MANIFEST).write_text(json.dumps(man))
    with pytest.raises(ModelError, match="model digest"):
        load_model(bad)
    with pytest.raises(ModelError, match=r"no manifest\.json"):
        load_model(tmp_path)


@pytest.mark.parametrize(
    ("setting", "change"),
    [
        ("features", lambda m: m["features"]["text"].update(ngram_range=[1, 3])),
        ("block_scale", lambda m: m["block_scale"].update(rules=1.0)),
        ("block_field", lambda m: m["block_field"].update(para_chars="text")),
        ("C", lambda m: m.update(C=1.0)),
        ("classifier", lambda m: m.update(classifier="logistic")),
    ],
)
def test_a_model_trained_with_other_feature_settings_is_refused(
    model_dir: Path, tmp_path: Path, setting: str, change: Any
) -> None:
    """A manifest honestly re-digested (as an older training would have written it) with one feature setting
    unlike the code's: loading it would rebuild the features from the code's settings, so it is refused."""
    import shutil

    from pp_graph.extract.learned.model import manifest_digest

    old = tmp_path / "old"
    shutil.copytree(model_dir, old)
    man = json.loads((old / MANIFEST).read_text())
    change(man)
    man["model_digest"] = manifest_digest(man)
    (old / MANIFEST).write_text(json.dumps(man))
    with pytest.raises(ModelError, match=rf"\b{setting}\b.*differs"):
        load_model(old)
    assert load_model(model_dir).digest  # the unchanged folder still loads


TEXT = """# Privacy at Example Notes
We collect your email address when you register so that we can send you newsletters.
We may share your phone number with advertising networks that show you ads on other sites.
Your records are kept for 6 months and then erased from our systems.
"""


def test_inferred_classes_are_valid_graph_evidence_apart_from_mentions(model_dir: Path) -> None:
    model = load_model(model_dir)
    policy = policy_from_text(TEXT, "example-notes.example")
    plain = convert_policy(policy)
    learned = convert_policy(policy, learned=model)
    inferred = [c for r in learned.extraction.results for c in r.inferred]
    assert inferred and all(isinstance(c, InferredClass) and c.model == model.digest for c in inferred)
    g, g0 = learned.dataset.graph(learned.graph), plain.dataset.graph(plain.graph)
    nodes = set(g.subjects(RDF.type, PPG.InferredClass))
    assert len(nodes) == len(inferred)
    for n in nodes:
        assert (n, PPG.modelDigest, Literal(model.digest)) in g
        assert (n, PPG.denotes, None) not in g and (n, RDF.type, PPG.Mention) not in g
    rep = validate(learned.dataset)
    assert rep.conforms, rep.text()
    # Every triple of the rules-only graph is still there; what is added is the inferred evidence only.
    assert set(g0) <= set(g)
    # A broken inferred node is caught by the shapes.
    n = sorted(nodes)[0]
    g.remove((n, PPG.score, None))
    g.add((n, PPG.score, Literal("1.7", datatype=PPG.score.__class__("http://www.w3.org/2001/XMLSchema#decimal"))))
    assert not validate(learned.dataset).conforms


def test_learned_mode_replaces_the_rule_decision_for_its_label() -> None:
    from pp_graph.model import Segment, SegmentExtraction

    text = "We share your data.\n"
    seg = Segment(0, 0, len(text) - 1, text[:-1])
    res = SegmentExtraction(seg)
    from pp_graph.model import PracticeMention, Span

    res.practices.append(PracticeMention(Span(3, 8, "share"), PracticeType.THIRD_PARTY_SHARING_DISCLOSURE))
    res.inferred.append(InferredClass("data", str(PD.Contact), 0.9, "sha256:0"))

    class Ex:
        def __init__(self) -> None:
            self.results = [res]

    pol = opp115.OppPolicy("1", "x.com", [text[:-1]])
    tp = ("third-party-collection-use", "third-party-sharing-disclosure")
    drop = Label("third party sharing/collection", "practice", tp[1], tp, mode="learned")
    add = Label("contact", "data", str(PD.Contact), (str(PD.Contact),), mode="union")
    out = opp115.predictions(pol, Ex(), [(0, len(text) - 1)], [drop, add])  # type: ignore[arg-type]
    assert out[0]["practices"] == set() and out[0]["data"] == {str(PD.Contact)}
    keep = Label(drop.name, "practice", tp[1], tp, mode="rules")
    out = opp115.predictions(pol, Ex(), [(0, len(text) - 1)], [keep])  # type: ignore[arg-type]
    assert out[0]["practices"] == {PracticeType.THIRD_PARTY_SHARING_DISCLOSURE}


def test_cli_convert_with_a_folder_that_is_no_model_fails_clearly(tmp_path: Path) -> None:
    from pp_graph.cli import main

    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "example.com.txt").write_text(TEXT)
    res = CliRunner().invoke(
        main, ["convert", str(tmp_path / "p"), "-o", str(tmp_path / "o"), "--model", str(tmp_path)]
    )
    assert res.exit_code == 2 and "not a learned model folder" in res.output and "Traceback" not in res.output


def test_cli_train_and_convert_with_model(model_dir: Path, synthetic: Path, tmp_path: Path) -> None:
    from pp_graph.cli import main

    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "example.com.txt").write_text(TEXT)
    res = CliRunner().invoke(
        main, ["convert", str(tmp_path / "p"), "-o", str(tmp_path / "o"), "--model", str(model_dir)]
    )
    assert res.exit_code == 0, res.output
    assert "ppg:InferredClass" in (tmp_path / "o" / "example.com.trig").read_text()
    # Without the model the settings differ: the same output folder is converted again, not kept as "unchanged".
    res = CliRunner().invoke(main, ["convert", str(tmp_path / "p"), "-o", str(tmp_path / "o")])
    assert res.exit_code == 0 and "1 converted" in res.output, res.output
    assert "InferredClass" not in (tmp_path / "o" / "example.com.trig").read_text()


def test_a_label_with_too_little_gold_keeps_the_rules(model_dir: Path) -> None:
    from pp_graph.evaluate.learn_opp115 import MIN_SUPPORT, Prepared, choose, segment_scores
    from pp_graph.extract.learned.features import Unit

    model = load_model(model_dir)
    keep = Unit("Your records are kept for 9 months and then erased from our systems.", " | ", "NONE")
    other = Unit("We may share your email with advertising networks that show you ads.", " | ", "NONE")

    def preps(n: int) -> list[Prepared]:
        # n retention segments the rules miss and the classifier finds, among as many others
        return [Prepared(str(i), [keep, other], [0, 1], [{"data retention"}, set()], [set(), set()]) for i in range(n)]

    def scores(ps: list[Prepared]) -> np.ndarray:
        return np.vstack([segment_scores(model, p) for p in ps])

    many, few = preps(MIN_SUPPORT), preps(MIN_SUPPORT - 1)
    assert choose(model.labels, many, scores(many))["data retention"]["mode"] != "rules"
    rare = choose(model.labels, few, scores(few))["data retention"]
    assert rare["mode"] == "rules" and rare["support"] == MIN_SUPPORT - 1


def test_folds_group_lines_by_policy_and_out_of_fold_scores_never_see_their_policy(synthetic: Path) -> None:
    from pp_graph.evaluate import learn_opp115 as lo
    from pp_graph.extract.registry import get_backend

    fold = lo.fold_of([str(i) for i in range(1, 9)], 4)
    assert sorted(fold.values()) == [0, 0, 1, 1, 2, 2, 3, 3]  # every policy in exactly one fold, folds balanced
    mapping = opp115.load_mapping()
    labels = lo.labels_of(mapping)
    pols = opp115.load_corpus(synthetic, {str(i) for i in range(1, 9)})
    preps = [lo.prepare(p, mapping, labels, get_backend("offline")) for p in pols]
    oof = lo.out_of_fold(preps, labels, 4)
    assert oof.shape == (sum(len(p.gold) for p in preps), len(labels))
    # A word only policy 1 has, on every line of it: a model that saw policy 1 would learn it (and score policy 1
    # differently); out of fold, the model that scores policy 1 never saw it, so its scores do not move.
    import dataclasses

    odd = [dataclasses.replace(u, text=u.text + " zyxqv") for u in preps[0].units]
    again = lo.out_of_fold([dataclasses.replace(preps[0], units=odd), *preps[1:]], labels, 4)
    n0 = len(preps[0].gold)
    assert np.allclose(again[:n0], oof[:n0])
    assert not np.allclose(again[n0:], oof[n0:])  # the models that did train on policy 1 changed


def test_queries_count_inferred_classes_apart_from_mentions(model_dir: Path, tmp_path: Path) -> None:
    from pp_graph.graph.serialize import serialize
    from pp_graph.query.runner import run_query
    from pp_graph.store.embedded import open_store

    policy = policy_from_text(TEXT, "example-notes.example")
    files = {}
    for name, learned in (("plain", None), ("learned", load_model(model_dir))):
        conv = convert_policy(policy, learned=learned)
        files[name] = tmp_path / f"{name}.trig"
        files[name].write_text(serialize(conv.dataset, conv.graph, "trig"))
        if learned:
            n_inferred = sum(len(r.inferred) for r in conv.extraction.results)
    plain, learned_store = open_store([files["plain"]]), open_store([files["learned"]])
    assert run_query(plain, "inferred-classes", {}) == []
    rows = run_query(learned_store, "inferred-classes", {})
    assert sum(r["lines"] for r in rows) == n_inferred > 0
    # The mention counts are those of the rules alone.
    for name in ("top-data-classes", "top-purposes"):
        assert run_query(learned_store, name, {}) == run_query(plain, name, {})


def test_a_different_model_digest_reconverts_and_the_same_one_does_not(
    model_dir: Path, synthetic: Path, tmp_path: Path
) -> None:
    from pp_graph.cli import main

    other = tmp_path / "other"  # same data, other folds: other choices, so another model digest
    train_opp115(synthetic, other, split_file=synthetic / "split.tsv", dev_file=synthetic / "dev.tsv", folds=4)
    assert load_model(other).digest != load_model(model_dir).digest
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "example.com.txt").write_text(TEXT)
    args = ["convert", str(tmp_path / "p"), "-o", str(tmp_path / "o"), "--model"]
    runs = [CliRunner().invoke(main, [*args, str(m)]) for m in (model_dir, model_dir, other)]
    assert all(r.exit_code == 0 for r in runs), [r.output for r in runs]
    assert "1 converted" in runs[0].output and "1 converted" not in runs[1].output
    assert "1 converted" in runs[2].output
    assert load_model(other).digest in (tmp_path / "o" / "example.com.trig").read_text()


def test_choices_on_dev_are_made_on_dev_scores_of_a_model_that_never_saw_dev(synthetic: Path, tmp_path: Path) -> None:
    import dataclasses

    from pp_graph.evaluate import learn_opp115 as lo
    from pp_graph.extract.registry import get_backend

    mapping = opp115.load_mapping()
    labels = lo.labels_of(mapping)
    pols = opp115.load_corpus(synthetic, {str(i) for i in range(1, 9)})
    preps = [lo.prepare(p, mapping, labels, get_backend("offline")) for p in pols]
    dev_ids = {"2", "5", "7"}
    dev, s = lo.dev_scores(preps, labels, dev_ids)
    assert [p.policy_id for p in dev] == ["2", "5", "7"] and s.shape == (sum(len(p.gold) for p in dev), len(labels))

    def marked(pid: str) -> list[lo.Prepared]:
        return [
            dataclasses.replace(p, units=[dataclasses.replace(u, text=u.text + " zyxqv") for u in p.units])
            if p.policy_id == pid
            else p
            for p in preps
        ]

    # A word on every line of dev policy 2 moves no score: a model that saw policy 2 would learn the word …
    _, s2 = lo.dev_scores(marked("2"), labels, dev_ids)
    assert np.allclose(s2, s)
    # … as it does when the word is on a fit policy: the model changes, so the dev scores do.
    _, s1 = lo.dev_scores(marked("1"), labels, dev_ids)
    assert not np.allclose(s1, s)
    # Everything chosen on dev: no CV run, and each choice is the best of its dev scores (its report agrees).
    out = tmp_path / "dev-model"
    man = train_opp115(
        synthetic, out, split_file=synthetic / "split.tsv", dev_file=synthetic / "dev.tsv", choose_where="dev"
    )
    assert man["cv_report"] is None and man["split"]["folds"] is None
    assert {c["chosen_on"] for c in man["choices"].values()} == {"dev"}
    for name, c in man["choices"].items():
        assert c["f1"] == man["dev_report"][name]["f1"] >= c["rules_f1"] == man["dev_report"][name]["rules_f1"]
    assert load_model(out).digest == man["model_digest"]


def test_dev_choice_follows_the_dev_subset_not_train() -> None:
    """On dev the classifier is right and the rules wrong; on the rest of train the other way round: a choice made
    on dev lets the classifier decide, one made on the same scores of train keeps the rules."""
    from pp_graph.evaluate.learn_opp115 import MIN_DEV_SUPPORT, Prepared, choose
    from pp_graph.extract.learned.features import Unit

    lab = [Label("data retention", "practice", "data-storage-retention-deletion", ("data-storage-retention-deletion",))]
    u = Unit("x", " | ", "NONE")
    n = MIN_DEV_SUPPORT
    dev = [Prepared(str(i), [u, u], [0, 1], [{"data retention"}, set()], [set(), {"data retention"}]) for i in range(n)]
    fit = [Prepared(str(i), [u, u], [0, 1], [set(), {"data retention"}], [set(), {"data retention"}]) for i in range(n)]
    scores = np.tile([[0.9], [0.1]], (n, 1))  # high on each first segment, low on each second
    on_dev = choose(lab, dev, scores, "dev", MIN_DEV_SUPPORT)["data retention"]
    assert on_dev["mode"] == "learned" and 0.1 < on_dev["threshold"] <= 0.9 and on_dev["f1"] == 1.0
    assert on_dev["rules_f1"] == 0.0 and on_dev["chosen_on"] == "dev"
    assert choose(lab, fit, scores, "cv")["data retention"]["mode"] == "rules"


@pytest.mark.parametrize("bad", ["test", {"practice": "dev"}, {"practice": "dev", "data": "cv", "purpose": "x"}])
def test_choose_on_names_a_bad_source(bad: Any) -> None:
    from pp_graph.errors import InputError
    from pp_graph.evaluate.learn_opp115 import choose_on

    with pytest.raises(InputError, match="choose-on"):
        choose_on(bad)
    assert choose_on("cv") == {"practice": "cv", "data": "cv", "purpose": "cv"}


def test_cli_train_choose_on_dev(synthetic: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.cli import main
    from pp_graph.evaluate import learn_opp115 as lo

    monkeypatch.setattr(lo, "train_opp115", _with_synthetic_files(lo.train_opp115, synthetic))
    res = CliRunner().invoke(
        main, ["train", "opp115", str(synthetic), "-o", str(tmp_path / "m"), "--choose-on", "dev", "--format", "json"]
    )
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output[: res.output.rindex("]") + 1])
    assert rows and {r["chosen_on"] for r in rows} == {"dev"} and all(r["cv_f1"] is None for r in rows)
    res = CliRunner().invoke(main, ["train", "opp115", str(synthetic), "-o", str(tmp_path / "n"), "--choose-on", "x"])
    assert res.exit_code == 2 and "Traceback" not in res.output


def _with_synthetic_files(fn: Any, root: Path) -> Any:
    def call(*args: Any, **kw: Any) -> Any:
        return fn(*args, split_file=root / "split.tsv", dev_file=root / "dev.tsv", **kw)

    return call


def test_fit_on_fit_leaves_dev_out_of_the_weights_and_evaluate_says_when_figures_are_in_sample(
    synthetic: Path, model_dir: Path, tmp_path: Path
) -> None:
    from pp_graph.cli.evaluate import _in_sample

    out = tmp_path / "fit-model"
    kw = {"split_file": synthetic / "split.tsv", "dev_file": synthetic / "dev.tsv", "choose_where": "dev"}
    man = train_opp115(synthetic, out, fit_on="fit", **kw)
    assert man["split"]["fit_on"] == "fit"
    full = json.loads((model_dir / MANIFEST).read_text())
    assert full["split"]["fit_on"] == "train"
    # Weights fitted without dev differ from those fitted on all of train.
    assert not np.array_equal(np.load(out / WEIGHTS), np.load(model_dir / WEIGHTS))
    # Weights fitted without dev, but every mode and threshold chosen on dev: dev figures are in sample for them.
    note = _in_sample(man, "dev")
    assert "in sample" in note and "practice, data, purpose" in note and "fitted" not in note
    assert "in sample" in _in_sample(man, "train")
    fit_note = _in_sample(man, "fit")  # the weights saw fit; the choices (all on dev) did not
    assert "fitted" in fit_note and "modes" not in fit_note
    assert "in sample" in _in_sample(full, "dev") and _in_sample(full, "test") == ""
    from pp_graph.errors import InputError

    with pytest.raises(InputError, match="fit-on"):
        train_opp115(synthetic, tmp_path / "x", fit_on="dev", **kw)


def test_in_sample_names_the_kinds_whose_choices_saw_the_split() -> None:
    from pp_graph.cli.evaluate import _in_sample

    # The README's pair: `train --fit-on fit` (default --choose-on kind), then `evaluate --split dev`.
    man = {"split": {"fit_on": "fit", "choose_on": {"practice": "dev", "data": "cv", "purpose": "cv"}}}
    note = _in_sample(man, "dev")
    assert "practice, data, purpose" in note and "fitted" not in note
    # fit = train without dev: the practice choices never saw it, the CV ones (over all of train) did.
    note = _in_sample(man, "fit")
    assert "data, purpose" in note and "practice" not in note and "fitted" in note
    assert _in_sample(man, "test") == ""
    cv_only = {"split": {"fit_on": "fit", "choose_on": dict.fromkeys(("practice", "data", "purpose"), "cv")}}
    assert "practice, data, purpose" in _in_sample(cv_only, "all")


def test_a_model_trained_before_the_manifest_change_is_refused(model_dir: Path, tmp_path: Path) -> None:
    import shutil

    from pp_graph.extract.learned.model import manifest_digest

    old = tmp_path / "old"
    shutil.copytree(model_dir, old)
    man = json.loads((old / MANIFEST).read_text())
    # The former layout: cv_f1/cv_rules_f1/cv_support per choice, choices_on, no cv_report, format 2.
    man["choices"] = {
        n: {"mode": c["mode"], "threshold": c["threshold"], "cv_f1": 0.5, "cv_rules_f1": 0.4, "cv_support": 3}
        for n, c in man["choices"].items()
    }
    man["split"] = {k: v for k, v in man["split"].items() if k not in ("choose_on", "sources")}
    man["split"]["choices_on"] = "dev"
    del man["cv_report"]
    man["format"] = "pp-graph-learned/2"
    man["model_digest"] = manifest_digest(man)
    (old / MANIFEST).write_text(json.dumps(man))
    with pytest.raises(ModelError) as e:
        load_model(old)
    assert "older pp-graph" in str(e.value) and "pp-graph train" in str(e.value), str(e.value)


def test_reports_mark_the_labels_whose_choice_was_made_on_their_segments(model_dir: Path) -> None:
    man = json.loads((model_dir / MANIFEST).read_text())
    for name, c in man["choices"].items():
        assert man["dev_report"][name]["in_sample"] is (c["chosen_on"] == "dev")
        assert man["cv_report"][name]["in_sample"] is (c["chosen_on"] == "cv")
    assert {r["in_sample"] for r in man["dev_report"].values()} == {True, False}


def test_folds_do_not_change_a_model_that_never_ran_cv(synthetic: Path, tmp_path: Path) -> None:
    kw = {"split_file": synthetic / "split.tsv", "dev_file": synthetic / "dev.tsv", "choose_where": "dev"}
    a = train_opp115(synthetic, tmp_path / "a", folds=3, **kw)
    b = train_opp115(synthetic, tmp_path / "b", folds=4, **kw)
    assert a["model_digest"] == b["model_digest"] and "cv" not in a["split"]["sources"]


def test_dev_scores_names_the_dev_file_not_choose_on() -> None:
    from pp_graph.errors import InputError
    from pp_graph.evaluate import learn_opp115 as lo

    with pytest.raises(InputError) as e:
        lo.dev_scores([], [], set())
    assert "choose-on" not in str(e.value) and "dev" in e.value.source


def test_print_choices_survives_a_kind_without_dev_support(
    model_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = Path(__file__).resolve().parents[1] / "benchmarks"
    monkeypatch.syspath_prepend(str(bench))
    import importlib

    eval_opp115 = importlib.import_module("eval_opp115")
    man = json.loads((model_dir / MANIFEST).read_text())
    kinds = {lab["name"]: lab["kind"] for lab in man["labels"]}
    for name, rep in man["dev_report"].items():
        if kinds[name] == "purpose":
            rep["support"] = 0
    eval_opp115.print_choices(man)
    out = capsys.readouterr().out
    purpose = next(line for line in out.splitlines() if line.startswith("purpose"))
    assert "no dev support" in purpose
    practice = next(line for line in out.splitlines() if line.startswith("practice"))
    assert "." in practice and "no dev support" not in practice


def test_cli_evaluate_prints_the_in_sample_note_for_the_choices(
    synthetic: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pp_graph.cli import main

    kw = {"split_file": synthetic / "split.tsv", "dev_file": synthetic / "dev.tsv", "choose_where": "dev"}
    train_opp115(synthetic, tmp_path / "m", fit_on="fit", **kw)
    monkeypatch.setattr(opp115, "evaluate_opp115", _with_split_file(opp115.evaluate_opp115, synthetic / "split.tsv"))
    args = ["evaluate", "opp115", str(synthetic), "--model", str(tmp_path / "m"), "--split"]
    res = CliRunner().invoke(main, [*args, "train"])
    assert res.exit_code == 0, res.output
    note = next((line for line in res.output.splitlines() if line.startswith("note:")), "")
    assert "in sample" in note and "practice, data, purpose labels were chosen on them (dev)" in note, note
    res = CliRunner().invoke(main, [*args, "test"])
    assert res.exit_code == 0 and "in sample" not in res.output, res.output


def _with_split_file(fn: Any, split_file: Path) -> Any:
    def call(*args: Any, **kw: Any) -> Any:
        return fn(*args, split_file=split_file, **kw)

    return call
