"""Where a checklist's facts come from: policy texts (converted on the fly) or converted graph files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pp_graph.comply.facts import PolicyFacts, built_triples, graph_file_facts, policy_facts
from pp_graph.load.inputs import gather as gather_policies


def text_facts(path: Path, backend: str = "offline", model: Any = None, site: str | None = None) -> PolicyFacts:
    """``model``: a TransparencyModel adding its statements to the rules' (None: the rules only); ``site``: the
    policy's site when the file is not named after it."""
    from pp_graph.api import convert

    conv = convert(path, site=site, backend=backend, transparency=model)
    return policy_facts(built_triples(conv.triples), str(path))


def gather(
    paths: Iterable[Path], backend: str = "offline", model: Any = None, site: str | None = None
) -> list[PolicyFacts]:
    """Facts of every policy: graph files (and folders holding them) are read, text files converted (with the
    learned transparency ``model`` when given; ``site`` for a single text not named after its site)."""
    return gather_policies(paths, graph_file_facts, lambda t: text_facts(t, backend, model, site), site)
