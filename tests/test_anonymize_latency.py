"""What the detection speed-ups rely on, pinned (no timing here: ``bench_anonymize.py --latency-only`` measures):
the same entities as before the speed-ups on the committed benchmark sample, the same spaCy entities as the full
pipeline on blis, the unused tok2vec left out, the caller's BLAS threads restored (also after an error), the street
pattern's shortcut giving the full pattern's matches, name mentions found as the per-text regex found them, the
CRF features in the order the model was trained on."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pp_graph.anonymize import crf, ner
from pp_graph.anonymize.recognizers import NER_PACKAGE, addresses, recognize
from pp_graph.anonymize.structure import mentions

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
    fast = ner.pipeline()
    assert fast.pipe_names == ["ner"]
    for text in SAMPLE + LONG:
        assert _ents(ner.spacy_doc(text)) == _ents(full(text)), text


def test_the_ner_does_not_listen_to_the_left_out_tok2vec() -> None:
    from spacy.pipeline.tok2vec import Tok2VecListener

    pipe = ner.pipeline().get_pipe("ner")
    assert not any(isinstance(node, Tok2VecListener) for node in pipe.model.walk())
    assert all(node.ops.name == "numpy" and not node.ops.use_blis for node in pipe.model.walk())


def _blas_threads() -> list[int]:
    from threadpoolctl import ThreadpoolController

    return [c.num_threads for c in ThreadpoolController().select(user_api="blas").lib_controllers]


def test_the_callers_blas_threads_are_restored() -> None:
    from threadpoolctl import ThreadpoolController

    ner.pipeline()
    blas = ThreadpoolController().select(user_api="blas")
    if not blas.lib_controllers:
        pytest.skip("no BLAS library loaded")
    with blas.limit(limits=2):
        before = _blas_threads()
        recognize(LONG[1])
        assert _blas_threads() == before
        # calls overlapping in two threads: one BLAS thread until the last leaves, then the caller's setting
        one = ner.ONE_BLAS_THREAD
        one.__enter__()
        one.__enter__()
        assert set(_blas_threads()) == {1}
        one.__exit__(None, None, None)
        assert set(_blas_threads()) == {1}
        one.__exit__(None, None, None)
        assert _blas_threads() == before
        with pytest.raises(ValueError):  # spaCy refuses a non-text inside the limiter: the setting still comes back
            ner.spacy_doc(b"Jane Roe")  # type: ignore[arg-type]
        assert _blas_threads() == before


def _full_street(text: str) -> list[tuple[int, int]]:
    return [
        m.span()
        for m in addresses.STREET.finditer(text)
        if m.group(0) and not addresses.COMMON_BEFORE_NUMBER.fullmatch(m.group(0))
    ]


# Pieces that make and break street matches: numbers, suffixes in both cases, in-word suffixes, lead words, blanks.
_PIECES = [
    "12",
    "7",
    "4b",
    "Main",
    "main",
    "St",
    "st",
    "Street",
    "Dr.",
    "gasse",
    "Harju",
    "kuja",
    "Rue",
    "ul.",
    "Via",
    "Park",
    "August",
    "the",
    "and",
    "Óbuda",
    "tér",
    " ",
    " ",
    "  ",
    "\n",
    ",",
    ".",
]


@given(st.lists(st.sampled_from(_PIECES), max_size=14))
@settings(max_examples=300, deadline=None)
def test_street_shortcut_finds_what_the_full_pattern_finds(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert list(addresses.streets(text)) == _full_street(text)


@pytest.mark.parametrize("text", [*SAMPLE, *LONG, "Harjukuja 54, SEINÄJOKI", "no digits at Main Street", "August 12"])
def test_street_shortcut_on_sentences(text: str) -> None:
    assert list(addresses.streets(text)) == _full_street(text)


def test_crf_feature_order_is_the_trained_one() -> None:
    # crfsuite sums a token's attribute weights in this order; another order could round differently
    text = "Mail Jane Roe at 12 Main St"
    toks = crf.tokens(text)
    feats = crf.features(text, toks, ["O"] * len(toks), ["O"] * len(toks))
    own = ["bias", "suf3", "suf2", "pre3", "digit", "ndig", "nl_before", "sp_before", "line0", "line_pos", "rule"]
    words = ["w", "shape", "title", "upper", "first", "last", "country", "stop"]
    own += ["ner", *words]
    near = [f"{d}:{k}" for d in (-2, -1, 1, 2) for k in (*words, "rule", "ner")]
    assert list(feats[2]) == [*own, *near, "-1|0", "0|1"]
    assert list(feats[0])[len(own) : len(own) + 2] == ["-2:edge", "-1:edge"]
    assert feats[2]["-1|0"] == "jane|roe" and feats[2]["shape"] == "Xxx" and feats[4]["ndig"] == "2"
    assert feats[4]["digit"] is True and feats[2]["title"] is True and feats[2]["sp_before"] is True
    assert feats[1]["first"] is True and feats[2]["last"] is True and feats[3]["stop"] is True


def _alternation(text: str, tokens: set[str]) -> list[tuple[int, int]]:
    """The regex name propagation compiled per text before (the reference ``mentions`` must agree with)."""
    if not tokens:
        return []
    alts = "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
    return [m.span() for m in re.finditer(rf"(?<![\w-])(?:{alts})(?![\w-])", text)]


_NAMES = ["Ann", "Anna", "Annabel", "Jean-Luc", "Luc", "O'Brien", "Brien", "Émile", "Dan", "Dan's", "Dan’s"]


@given(
    st.lists(st.sampled_from([*_NAMES, " ", "-", "_", "x", "'", "\n", ", ", "9"]), max_size=16),
    st.sets(st.sampled_from(_NAMES), max_size=4),
)
@example(["Dan's", " ", "Dan"], {"Dan", "Dan's"})  # at one position the longer token wins
@example(["Anna", " ", "Ann", "-", "Luc"], {"Ann", "Anna", "Luc"})
@settings(max_examples=300, deadline=None)
def test_name_mentions_match_the_alternation_regex(pieces: list[str], tokens: set[str]) -> None:
    text = "".join(pieces)
    assert mentions(text, tokens) == _alternation(text, tokens)
