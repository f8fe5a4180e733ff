"""What every benchmark needs: where ../shared is, the policy corpus, and how a target is reported.

PP_GRAPH_SHARED points elsewhere when shared/ is not beside the repository. A script exits 1 when a
target is missed, so `make bench` can print every figure first and fail at the end.
"""

from __future__ import annotations

import os
from pathlib import Path

from pp_graph.load.sources import policy_files

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PP_GRAPH_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "policies"
OPP115 = Path(os.environ.get("OPP115_DIR", SHARED / "datasets" / "opp115"))


def corpus_files() -> list[Path]:
    """The corpus's policy files, by the same rule as `pp-graph convert` (SOURCE.md is not a policy)."""
    return policy_files([CORPUS])[0] if CORPUS.is_dir() else []


def target(description: str, ok: bool) -> int:
    print(f"target ({description}): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1
