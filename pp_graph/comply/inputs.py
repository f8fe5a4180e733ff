"""Where a checklist's facts come from: policy texts (converted on the fly) or converted graph files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pp_graph.comply.facts import PolicyFacts, built_triples, graph_file_facts, policy_facts
from pp_graph.errors import InputError
from pp_graph.graph.files import GRAPH_SUFFIXES


def graphs_and_texts(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    from pp_graph.load.sources import policy_files

    graphs: list[Path] = []
    texts: list[Path] = []
    for p in paths:
        if not p.exists():
            raise InputError(str(p), "no such file or folder")
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in GRAPH_SUFFIXES)
            if found:  # a folder of converted graphs: read them, never convert again
                graphs += [f for f in found if not f.name.startswith(".")]
                continue
            texts += policy_files([p])[0]
        elif p.suffix.lower() in GRAPH_SUFFIXES:
            graphs.append(p)
        else:
            texts.append(p)
    return graphs, texts


def text_facts(path: Path, backend: str = "offline", model: Any = None) -> PolicyFacts:
    """``model``: a TransparencyModel adding its statements to the rules' (None: the rules only)."""
    from pp_graph.api import convert

    conv = convert(path, backend=backend, transparency=model)
    return policy_facts(built_triples(conv.triples), str(path))


def gather(paths: Iterable[Path], backend: str = "offline", model: Any = None) -> list[PolicyFacts]:
    """Facts of every policy: graph files (and folders holding them) are read, text files converted (with the
    learned transparency ``model`` when given)."""
    graphs, texts = graphs_and_texts(paths)
    if not graphs and not texts:
        raise InputError(", ".join(map(str, paths)), "no policy texts or graph files found")
    out: list[PolicyFacts] = []
    for g in graphs:
        out += graph_file_facts(g)
    for t in texts:
        out.append(text_facts(t, backend, model))
    return out
