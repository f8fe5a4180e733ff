"""The GDPR-spans experiments' labelling and scoring (benchmarks/exp_gdpr_spans.py, exp_gdpr_span_tagger.py) on a
small synthetic dataset file of our own: the figures they report rest on these."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

pytest.importorskip("sklearn", reason="the learned extra is not installed")

import exp_gdpr_span_tagger as tagger
import exp_gdpr_spans as spans

from pp_graph.evaluate import learn_opp115 as lo
from pp_graph.evaluate.opp115 import load_mapping
from pp_graph.extract.learned.features import Unit
from pp_graph.extract.learned.model import LearnedModel
from pp_graph.extract.registry import get_backend

PASSAGES = [
    {"type": "headline", "context": [], "passage": "Sharing", "annotations": []},
    {
        "type": "text",
        "context": [],
        "passage": "We share your email address with advertising partners.",
        "annotations": [
            {"requirement": "Data Categories", "value": "email address", "performed": True},
            {"requirement": "Data Recipients", "value": "advertising partners", "performed": True},
        ],
    },
    {"type": "text", "context": [], "passage": "Thank you for reading this page.", "annotations": []},
    {
        "type": "text",
        "context": [],
        "passage": "We keep the widgets you make.",
        "annotations": [{"requirement": "Data Categories", "value": "widgets you make", "performed": True}],
    },
    {
        "type": "text",
        "context": [],
        "passage": "We keep logs for a while.",
        "annotations": [{"requirement": "Data Retention Period", "value": "not in the passage", "performed": True}],
    },
]


@pytest.fixture
def doc_file(tmp_path: Path) -> Path:
    f = tmp_path / "org.example.app.json"
    f.write_text(json.dumps(PASSAGES), encoding="utf-8")
    return f


def test_gold_spans_point_at_each_value_in_its_own_passage(doc_file: Path) -> None:
    from pp_graph.evaluate.gdpr import read_doc

    doc = read_doc(doc_file)
    got = spans.gold_spans(PASSAGES, doc.text, doc.passages)
    (s, e), (rs, re_) = got[(1, "Data Categories")][0], got[(1, "Data Recipients")][0]
    assert doc.text[s:e] == "email address" and doc.text[rs:re_] == "advertising partners"
    assert got[(4, "Data Retention Period")] == [None]  # not verbatim in the passage: no span, not a wrong one
    assert (2, "Data Categories") not in got


def test_extra_lines_label_practices_and_data_from_the_annotations_and_mask_what_is_unknown(doc_file: Path) -> None:
    mapping = load_mapping()
    labels = lo.labels_of(mapping)
    col = {lab.name: j for j, lab in enumerate(labels)}
    ex = spans.extra_lines(doc_file, mapping, labels, get_backend("offline"))
    row = {u.text: i for i, u in enumerate(ex.units)}
    share, thanks, widgets = (
        row[t] for t in (PASSAGES[1]["passage"], PASSAGES[2]["passage"], "We keep the widgets you make.")
    )
    contact = next(lab.name for lab in labels if lab.name.startswith("pd:Contact"))
    assert ex.y[share, col["third party sharing/collection"]] == 1
    assert ex.y[share, col["first party collection/use"]] == 1
    assert ex.known[share, col[contact]] and ex.y[share, col[contact]] == 1
    assert ex.y[thanks].sum() == 0 and ex.known[thanks, col[contact]]  # nothing annotated: a negative
    assert not ex.known[thanks, col["data security"]]  # not annotated in the dataset: unknown, not negative
    assert not ex.known[widgets, col[contact]]  # a data span the rules do not name: the line's data labels unknown


def test_a_label_known_on_no_line_is_not_fitted_to_the_masked_lines() -> None:
    labels = lo.labels_of(load_mapping())[:2]
    data = [
        Unit(f"line {w} text", "Heading | before", "NONE", f"line {w} text")
        for w in ("alpha", "beta", "gamma", "delta")
    ] * 3
    y = np.array([[0, i % 2] for i in range(len(data))])
    y[:6, 0] = 1  # positives for label 0 only on lines where it is masked out
    known = np.ones_like(y, dtype=bool)
    known[:6, 0] = False
    model = LearnedModel.fit(data, y, labels, known)
    assert model.weights[0, -1] == -20.0 and not model.weights[0, :-1].any()  # a constant: only negatives seen
    assert model.weights[1, :-1].any()


def test_tagged_words_form_spans_and_overlap_scores_count_both_sides() -> None:
    text = "We collect your name, email and phone."
    words = [(m.group(0), m.start(), m.end()) for m in tagger.WORD.finditer(text)]
    doc = tagger.Doc("d", words, [], {}, {}, {})
    on = np.array([w in ("name", ",", "email", "phone") for w, _, _ in words])
    spans_found = tagger.spans_of(doc, on)
    assert [text[s:e] for s, e in spans_found] == ["name, email", "phone"]
    gold = [(text.index("name"), text.index("name") + 4), (text.index("We"), text.index("We") + 2)]
    assert tagger.span_counts(spans_found, gold).tolist() == [1, 2, 1, 2]
    assert tagger.f1s(np.array([1, 2, 1, 2])) == (0.5, 0.5, 0.5)
