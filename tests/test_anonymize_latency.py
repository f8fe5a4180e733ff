"""What the detection speed-ups rely on, pinned (no timing here: ``bench_anonymize.py --latency-only`` measures):
the same entities as before the speed-ups on the committed benchmark sample, the same spaCy entities as the full
pipeline on blis, the unused tok2vec left out, the heap frozen once, the caller's BLAS threads restored."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

from pp_graph.anonymize import recognizers
from pp_graph.anonymize.recognizers import NER_PACKAGE, recognize

FIXTURES = Path(__file__).parent / "fixtures" / "pii-synth"
SAMPLE = [r["full_text"] for r in json.loads((FIXTURES / "sample.json").read_text(encoding="utf-8"))]
# Longer, many-entity texts: the latency tail is long sentences.
LONG = [
    "Dear Dr. Amelia Okonkwo-Hart, your order shipped from 2212 Lakeview Terrace, Springfield to Jonas Brenner "
    "of Keller & Sons Holdings in Zürich on March 3rd, 2021; call +41 44 668 18 00 or mail jonas@keller.ch.",
    "Efimiya, Mary, Ariana and Jodi met Vanessa P. Hertzog at the Deutsche Bank office in Frankfurt, where "
    "Vanessa, a Nigerian engineer who works for Siemens Healthineers, said the Ford Foundation pays.\nVanessa",
]


def test_entities_unchanged_on_the_benchmark_sample() -> None:
    want = json.loads((FIXTURES / "detections.json").read_text(encoding="utf-8"))["modes"]
    for mode, per_text in want.items():
        got = [[[e.start, e.end, e.type, e.recognizer] for e in recognize(t, mode=mode)] for t in SAMPLE]
        assert got == per_text, mode


def _ents(doc: Any) -> list[tuple[int, int, str]]:
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


def test_spacy_entities_match_the_full_pipeline_on_blis() -> None:
    spacy = pytest.importorskip("spacy")
    full = spacy.load(NER_PACKAGE, exclude=["parser", "lemmatizer", "attribute_ruler", "tagger", "senter"])
    assert "tok2vec" in full.pipe_names  # the reference keeps the shared tok2vec and thinc's default ops
    fast = recognizers._nlp()
    assert fast.pipe_names == ["ner"]
    for text in SAMPLE + LONG:
        assert _ents(recognizers._spacy_doc(text)) == _ents(full(text)), text


def test_the_ner_does_not_listen_to_the_left_out_tok2vec() -> None:
    from spacy.pipeline.tok2vec import Tok2VecListener

    ner = recognizers._nlp().get_pipe("ner")
    assert not any(isinstance(node, Tok2VecListener) for node in ner.model.walk())
    assert all(node.ops.name == "numpy" and not node.ops.use_blis for node in ner.model.walk())


def test_the_heap_is_frozen_once(monkeypatch: pytest.MonkeyPatch) -> None:
    recognizers._nlp()
    assert gc.get_freeze_count() > 0  # the pipeline's objects are out of the collector's view
    calls: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(1))
    recognizers._freeze_heap.cache_clear()
    recognizers._freeze_heap()
    recognizers._freeze_heap()
    recognize(LONG[0])
    assert calls == [1]


def test_the_callers_blas_threads_are_restored() -> None:
    from threadpoolctl import ThreadpoolController

    blas = ThreadpoolController().select(user_api="blas")
    if not blas.lib_controllers:
        pytest.skip("no BLAS library loaded")
    with blas.limit(limits=2):
        before = [c.num_threads for c in blas.lib_controllers]
        recognize(LONG[1])
        assert [c.num_threads for c in ThreadpoolController().select(user_api="blas").lib_controllers] == before
