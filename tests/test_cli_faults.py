"""Faults a user can cause: each is one clear message naming the input, a non-zero exit, no traceback,
and nothing written where it should not be."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pp_graph.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"
POLICY = FIXTURES / "policies" / "tinyshop.example.md"
MINI = FIXTURES / "graphs" / "mini.trig"


def run(*args: str) -> Result:
    res = CliRunner().invoke(main, list(args))
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def test_output_folder_under_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    res = run("convert", str(POLICY), "-o", str(tmp_path / "file" / "out"))
    assert res.exit_code == 2
    assert f"{tmp_path / 'file' / 'out'}: cannot create the output folder (a parent of it is a file" in res.output


def test_output_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x")
    res = run("convert", str(POLICY), "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and "exists and is not a folder" in res.output
    assert (tmp_path / "out").read_text() == "x"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_unwritable_output_folder(tmp_path: Path) -> None:
    out = tmp_path / "ro"
    out.mkdir(mode=0o500)
    res = run("convert", str(POLICY), "-o", str(out))
    assert res.exit_code == 2 and f"{out}: the output folder is not writable" in res.output


def test_export_folder_under_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for name in ("odrl", "psdtou"):
        for out in (tmp_path / "file" / name, tmp_path / "file" / "all.ttl"):
            res = run("export", name, str(MINI), "-o", str(out))
            assert res.exit_code == 2 and "cannot create the output folder" in res.output, res.output
            assert str(tmp_path / "file") in res.output


def test_corrupt_llm_cache_is_named_in_every_command(tmp_path: Path) -> None:
    bad = tmp_path / "llm.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    for args in (["cache", "stats", "--path", str(bad)], ["cache", "clear", "--path", str(bad)]):
        res = run(*args)
        assert res.exit_code == 2 and f"LLM cache {bad}: is not a usable SQLite database" in res.output
    res = run(
        "convert",
        str(POLICY),
        "--backend",
        "llm",
        "--option",
        f"cache_path={bad}",
        "--option",
        "base_url=http://127.0.0.1:9/v1",
        "-o",
        str(tmp_path / "o"),
    )
    assert res.exit_code == 2 and f"LLM cache {bad}" in res.output
    assert bad.read_bytes() == b"this is not a database" * 100


def test_cache_clear_refuses_a_database_that_is_not_ours(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE people (name TEXT)")
        db.execute("INSERT INTO people VALUES ('ada')")
    res = run("cache", "clear", "--path", str(other))
    assert res.exit_code == 2 and "not a pp-graph cache (tables: people)" in res.output
    with sqlite3.connect(other) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert tables == {"people"} and db.execute("SELECT name FROM people").fetchall() == [("ada",)]


def test_risk_batch_with_a_bad_byte_decides_the_other_lines(tmp_path: Path) -> None:
    good = json.dumps({"id": "a", "site": "nowhere.example", "data": ["pd:EmailAddress"]}).encode()
    f = tmp_path / "actions.jsonl"
    f.write_bytes(good + b"\n" + b'{"id": "b", "text": "caf\xe9"}\n' + good.replace(b'"a"', b'"c"') + b"\n")
    res = run("risk", "--graph", str(MINI), "--batch", str(f))
    assert res.exit_code == 1
    recs = [json.loads(x) for x in res.stdout.splitlines() if x.strip()]
    assert [r["line"] for r in recs] == [1, 2, 3]
    assert recs[1] == {"line": 2, "id": None, "decision": "deny", "error": "not valid UTF-8 (byte 24)"}
    assert recs[0]["id"] == "a" and recs[2]["id"] == "c" and "error" not in recs[0] and "error" not in recs[2]


@pytest.mark.parametrize("raw", [b"caf\xe9 au lait, my email is a@b.example", b"\x00\x01\x02\xff binary"])
def test_risk_text_file_that_is_not_text(tmp_path: Path, raw: bytes) -> None:
    f = tmp_path / "out.txt"
    f.write_bytes(raw)
    res = run("risk", "--graph", str(MINI), "--site", "x.example", "--text-file", str(f))
    assert res.exit_code == 2 and f"--text-file {f}:" in res.output
    assert "UTF-8" in res.output or "binary" in res.output


def test_risk_text_file_in_utf16_is_read(tmp_path: Path) -> None:
    f = tmp_path / "out.txt"
    f.write_bytes("mail me at someone@example.com".encode("utf-16"))
    res = run("risk", "--graph", str(MINI), "--site", "x.example", "--text-file", str(f))
    assert res.exit_code == 0, res.output
    assert "EmailAddress" in res.stdout and "someone@example.com" not in res.stdout


def test_config_and_query_files_that_are_not_utf8(tmp_path: Path) -> None:
    toml = tmp_path / "llm.toml"
    toml.write_bytes(b'model = "caf\xe9"\n')
    res = run("convert", str(POLICY), "--backend", "llm", "--config", str(toml), "-o", str(tmp_path / "o"))
    assert res.exit_code == 2 and f"{toml}: the LLM config is not valid UTF-8 (byte 12)" in res.output
    rq = tmp_path / "q.rq"
    rq.write_bytes(b'SELECT * WHERE { ?s ?p "\xe9" }')
    res = run("query", str(rq), str(MINI))
    assert res.exit_code == 2 and f"{rq}: is not valid UTF-8 (byte 24)" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ("comply", "missing.example.md"),
        ("contradictions", "missing.example.md"),
        ("validate", "EMPTY"),
        ("comply", str(POLICY), "--law", "hammurabi"),
    ],
)
def test_an_error_that_stops_a_command_has_clicks_prefix(tmp_path: Path, args: tuple[str, ...]) -> None:
    """One prefix for every command's errors, click's own ("Error: "), on one line of stderr, exit 2."""
    (tmp_path / "EMPTY").mkdir()
    res = run(*(str(tmp_path / a) if a in ("EMPTY", "missing.example.md") else a for a in args))
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith("Error: ") and res.stderr.count("\n") == 1, res.stderr


def test_validate_names_each_unreadable_file_with_the_same_prefix(tmp_path: Path) -> None:
    (tmp_path / "a-broken.ttl").write_text("<urn:a> <urn:b> .\n")
    (tmp_path / "b-good.trig").write_text(MINI.read_text())
    res = run("validate", str(tmp_path))
    assert res.exit_code == 2
    assert res.stderr.startswith(f"Error: {tmp_path / 'a-broken.ttl'}: ") and "not valid turtle" in res.stderr


def test_no_command_writes_a_lowercase_error_prefix() -> None:
    """click writes "Error: "; a command that printed its own "error: " would make two styles for one thing."""
    cli = Path(__file__).resolve().parents[1] / "pp_graph" / "cli"
    found = [f"{p.name}:{n}" for p in sorted(cli.glob("*.py")) for n, line in enumerate(p.read_text().splitlines(), 1)
             if 'err(f"error:' in line or "err(\"error:" in line or '"error: ' in line]  # fmt: skip
    assert found == []
