"""risk --format table: a one-line summary a person reads first, then the reasons; JSON stays the default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.batch import convert_batch
from pp_graph.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("graphs")
    assert convert_batch([ROOT / "examples" / "github.com.md"], out).ok
    return out


def _risk(graphs: Path, *extra: str) -> tuple[int, str]:
    args = ["risk", "--graph", str(graphs), "--site", "github.com", "--data", "pd:EmailAddress"]
    r = CliRunner().invoke(main, [*args, "--purpose", "dpv:Marketing", "--recipient", "advertising", *extra])
    return r.exit_code, r.output


def test_table_gives_a_summary_line_then_reasons(graphs: Path) -> None:
    code, out = _risk(graphs, "--format", "table")
    assert code == 0
    first, *rest = out.splitlines()
    decision = json.loads(_risk(graphs)[1])["decision"]
    assert first.startswith(decision.upper() + "  risk ")
    assert "site github.com" in first and "data pd:EmailAddress" in first and "purpose dpv:Marketing" in first
    assert rest and all(line.startswith("  - ") for line in rest)


def test_json_is_the_default_and_batch_refuses_table(graphs: Path, tmp_path: Path) -> None:
    assert "decision" in json.loads(_risk(graphs)[1])
    batch = tmp_path / "a.jsonl"
    batch.write_text('{"site": "github.com", "data": ["pd:EmailAddress"]}\n')
    r = CliRunner().invoke(main, ["risk", "--graph", str(graphs), "--batch", str(batch), "--format", "table"])
    assert r.exit_code == 2 and "--format table is for one action" in r.output
