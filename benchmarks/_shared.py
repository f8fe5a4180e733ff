"""What every benchmark needs: where ../shared is, the policy corpus, and how a target is reported.

PP_GRAPH_SHARED points elsewhere when shared/ is not beside the repository. A script exits 1 when a
target is missed, so `make bench` can print every figure first and fail at the end.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from pp_graph.load.sources import policy_files

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PP_GRAPH_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "policies"
OPP115 = Path(os.environ.get("OPP115_DIR", SHARED / "datasets" / "opp115"))


def corpus_files() -> list[Path]:
    """The corpus's policy files, by the same rule as `pp-graph convert` (SOURCE.md is not a policy)."""
    return policy_files([CORPUS])[0] if CORPUS.is_dir() else []


def corpus_texts(
    size: int, measure: Callable[[str], int] = len, transform: Callable[[str], str] = lambda t: t
) -> list[str]:
    """The corpus policies' texts (each through ``transform``), one after another and repeated as needed, until
    their sizes (``measure``) add up to ``size``: the input of the big-policy benchmarks."""
    parts: list[str] = []
    n = 0
    files = corpus_files()
    while files and n < size:
        for f in files:
            parts.append(transform(f.read_text(encoding="utf-8")))
            n += measure(parts[-1])
            if n >= size:
                break
    return parts


def target(description: str, ok: bool) -> int:
    print(f"target ({description}): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1
