"""Policies given as texts or as converted graphs (files, or folders of either): split into the two, and each read
by the reader the caller gives (``pp-graph comply`` and ``pp-graph contradictions`` take their inputs alike)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from pp_graph.errors import InputError
from pp_graph.graph.files import GRAPH_SUFFIXES
from pp_graph.load.sources import policy_files

T = TypeVar("T")


def graphs_and_texts(paths: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """(graph files, policy texts) under ``paths``: a folder holding a graph file is a folder of converted graphs
    (its texts, if any, are not converted again); InputError naming a path that does not exist."""
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


def gather(
    paths: Iterable[Path],
    from_graph: Callable[[Path], Iterable[T]],
    from_text: Callable[[Path], T],
    site: str | None = None,
) -> list[T]:
    """What ``from_graph`` reads from each graph file (one item a policy it holds), then ``from_text`` of each
    policy text; InputError when ``paths`` hold neither, or when ``site`` (the --site the caller's ``from_text``
    converts with) is given for anything but one policy text: a site names one policy."""
    paths = list(paths)
    graphs, texts = graphs_and_texts(paths)
    if not graphs and not texts:
        raise InputError(", ".join(map(str, paths)), "no policy texts or graph files found")
    if site is not None and (graphs or len(texts) != 1):
        got = f"{len(texts)} policy texts" + (f" and {len(graphs)} graph files" if graphs else "")
        raise InputError(", ".join(map(str, paths)), f"--site names the site of one policy text, got {got}")
    out: list[T] = []
    for g in graphs:
        out += from_graph(g)
    return out + [from_text(t) for t in texts]
