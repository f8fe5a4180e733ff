"""A graph file holding one literal over 16 MiB (pyoxigraph's parser buffer): every command names the file and
exits 2 without a traceback, validate still reports the other files, and risk fails closed with a deny record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.store.embedded import read_graph_file

MINI = Path(__file__).parent / "fixtures" / "graphs" / "mini.trig"
SAYS = "a single literal or IRI over 16 MiB cannot be loaded"


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("big")
    path = folder / "big.trig"
    with open(path, "w", encoding="ascii") as fh:
        fh.write('<urn:x:g> { <urn:x:s> <urn:x:p> "')
        fh.write("a" * (17 << 20))
        fh.write('" . }\n')
    return path


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def test_the_loader_raises_the_typed_error(big: Path) -> None:
    with pytest.raises(InputError, match=SAYS) as info:
        read_graph_file(big)
    assert info.value.source == str(big)


def test_validate_reports_the_other_files(big: Path) -> None:
    r = CliRunner().invoke(main, ["validate", str(big), str(MINI), "--format", "json"])
    assert r.exit_code == 2 and not isinstance(r.exception, MemoryError), r.output
    rows = json.loads(r.stdout)
    assert [Path(row["file"]).name for row in rows] == ["big.trig", "mini.trig"]
    assert SAYS in rows[0]["error"] and rows[1]["conforms"] is True


@pytest.mark.parametrize(
    "command",
    [["query", "top-data-classes"], ["export", "odrl", "-o", "{out}"]],
    ids=["query", "export"],
)
def test_query_and_export_name_the_file(big: Path, tmp_path: Path, command: list[str]) -> None:
    args = [a.replace("{out}", str(tmp_path / "out")) for a in command]
    r = CliRunner().invoke(main, [*args, str(big), str(MINI)])
    assert r.exit_code == 2, r.output
    assert "big.trig" in r.output and SAYS in r.output and "Traceback" not in r.output
    assert not isinstance(r.exception, MemoryError)


def test_risk_fails_closed_with_a_deny_record(big: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["risk", "--graph", str(big), "--site", "shop.example", "--data", "pd:EmailAddress"])
    assert r.exit_code == 2, r.output
    record = json.loads(r.stdout)
    assert record["decision"] == "deny" and "big.trig" in record["error"] and SAYS in record["error"]
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"site": "shop.example"}\n\n{"site": "news.example"}\n')
    r = CliRunner().invoke(main, ["risk", "--graph", str(big), "--batch", str(batch)])
    assert r.exit_code == 2
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["line"], x["decision"]) for x in records] == [(1, "deny"), (3, "deny")]
