"""Policies given as texts or converted graphs (pp_graph.load.inputs), as comply and contradictions take them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.errors import InputError
from pp_graph.load.inputs import gather, graphs_and_texts


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    graphs, texts = tmp_path / "out", tmp_path / "policies"
    (graphs / "b").mkdir(parents=True)
    texts.mkdir()
    (graphs / "b" / "b.example.trig").write_text("")
    (graphs / "a.example.ttl").write_text("")
    (graphs / ".hidden.trig").write_text("")
    (graphs / "a.example.md").write_text("# not converted again\n")
    (texts / "shop.example.md").write_text("# Privacy\n")
    (texts / "README.md").write_text("# not a policy\n")
    return graphs, texts


def test_graph_folders_are_read_and_text_folders_converted(tmp_path: Path) -> None:
    graphs, texts = _tree(tmp_path)
    one = tmp_path / "one.example.txt"
    one.write_text("We collect email.\n")
    assert graphs_and_texts([graphs, texts, one]) == (
        [graphs / "a.example.ttl", graphs / "b" / "b.example.trig"],
        [texts / "shop.example.md", one],
    )


def test_gather_reads_graphs_then_texts(tmp_path: Path) -> None:
    graphs, texts = _tree(tmp_path)
    got = gather(iter([texts, graphs]), lambda g: [f"g:{g.name}", f"g2:{g.name}"], lambda t: f"t:{t.name}")
    assert got == ["g:a.example.ttl", "g2:a.example.ttl", "g:b.example.trig", "g2:b.example.trig", "t:shop.example.md"]


def test_missing_and_empty_inputs_are_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"gone\.md: no such file or folder"):
        graphs_and_texts([tmp_path / "gone.md"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"empty: no policy texts or graph files found"):
        gather(iter([tmp_path / "empty"]), lambda g: [g], lambda t: t)
