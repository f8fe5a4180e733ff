"""Where a checklist's facts come from: policy texts (converted on the fly) or converted graph files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pp_graph.comply.facts import PolicyFacts, built_triples, graph_file_facts, policy_facts
from pp_graph.load.inputs import gather as gather_policies


def text_facts(path: Path, backend: str = "offline", model: Any = None) -> PolicyFacts:
    """``model``: a TransparencyModel adding its statements to the rules' (None: the rules only)."""
    from pp_graph.api import convert

    conv = convert(path, backend=backend, transparency=model)
    return policy_facts(built_triples(conv.triples), str(path))


def gather(paths: Iterable[Path], backend: str = "offline", model: Any = None) -> list[PolicyFacts]:
    """Facts of every policy: graph files (and folders holding them) are read, text files converted (with the
    learned transparency ``model`` when given)."""
    return gather_policies(paths, graph_file_facts, lambda t: text_facts(t, backend, model))
