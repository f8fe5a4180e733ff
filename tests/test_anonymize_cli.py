"""`anonymize` and `guard` output formats: jsonl (default, streamed), json, table and csv — each keeps the input
ids, reports bad lines as error records/rows with exit 1 at the end, and never prints an original value in
table/csv (one row per replaced entity: id, levels, type, offsets, replacement)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main

GRAPHS = Path(__file__).parent / "fixtures" / "graphs"
CANARY = "Mail Zqxwv Plortnik at zqxwv.plortnik@canary-mail.org, card 4111 1111 1111 1111."
CANARY_PARTS = ("Zqxwv", "Plortnik", "zqxwv", "canary-mail", "4111")
TEXTS = [
    json.dumps({"id": "a", "text": CANARY}).encode(),
    b'{"id": "b", "text": ""}',
    b'{"id": "c", "text": "caf\xe9"}',
    json.dumps({"id": "d", "text": "Nothing personal here."}).encode(),
]


@pytest.fixture
def texts(tmp_path: Path) -> Path:
    f = tmp_path / "texts.jsonl"
    f.write_bytes(b"\n".join(TEXTS) + b"\n")
    return f


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, res.stdout


def test_anonymize_jsonl_is_the_default(texts: Path) -> None:
    code, out = run("anonymize", str(texts), "--level", "3")
    recs = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and [r["id"] for r in recs] == ["a", "b", None, "d"]  # an undecodable line has no id
    assert recs[0]["text"].startswith("Mail [PERSON_1] at [EMAIL_ADDRESS_1]") and recs[3]["entities"] == []
    assert "is empty" in recs[1]["error"] and "not UTF-8" in recs[2]["error"]
    assert not any(p in out for p in CANARY_PARTS)


def test_anonymize_json_is_one_array(texts: Path) -> None:
    code, out = run("anonymize", str(texts), "--format", "json")
    recs = json.loads(out)
    assert code == 1 and isinstance(recs, list) and [r["line"] for r in recs] == [1, 2, 3, 4]
    assert [bool(r.get("error")) for r in recs] == [False, True, True, False]


def test_anonymize_csv_one_row_per_entity(texts: Path) -> None:
    code, out = run("anonymize", str(texts), "--format", "csv", "--level", "3")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1
    assert list(rows[0]) == [
        "line",
        "id",
        "start_level",
        "level",
        "type",
        "start",
        "end",
        "kind",
        "replacement",
        "error",
    ]
    a = [r for r in rows if r["id"] == "a"]
    assert [r["type"] for r in a] == ["PERSON", "EMAIL_ADDRESS", "CREDIT_CARD"]
    person = a[0]
    assert (person["start"], person["end"], person["replacement"], person["level"]) == ("5", "19", "[PERSON_1]", "L3")
    assert CANARY[int(person["start"]) : int(person["end"])] == "Zqxwv Plortnik"  # offsets point into the input
    errors = {r["line"]: r["error"] for r in rows if r["error"]}
    assert set(errors) == {"2", "3"} and "is empty" in errors["2"] and "not UTF-8" in errors["3"]
    d = [r for r in rows if r["id"] == "d"]
    assert len(d) == 1 and d[0]["type"] == "" and d[0]["level"] == "L3"  # a text with nothing to replace keeps its row
    assert not any(p in out for p in CANARY_PARTS)


COLS_TAIL = ["start", "end", "kind", "replacement", "error"]


def test_anonymize_table(texts: Path) -> None:
    code, out = run("anonymize", str(texts), "--format", "table")
    lines = out.splitlines()
    assert code == 1 and lines[0].split() == ["line", "id", "start_level", "level", "type", *COLS_TAIL]
    assert any(ln.split()[:5] == ["1", "a", "L3", "L3", "PERSON"] for ln in lines[2:])
    assert any("is empty" in ln for ln in lines) and not any(p in out for p in CANARY_PARTS)


def test_anonymize_single_text_formats() -> None:
    code, out = run("anonymize", "--text", "Mail Jane Roe at jane@roe.org", "--level", "2")
    assert code == 0 and json.loads(out)["text"] == "Mail a person at an e-mail address"
    code, out = run("anonymize", "--text", "Mail Jane Roe at jane@roe.org", "--level", "2", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [(r["type"], r["replacement"]) for r in rows] == [
        ("PERSON", "a person"),
        ("EMAIL_ADDRESS", "an e-mail address"),
    ]
    assert "Jane" not in out


def test_anonymize_all_good_lines_exit_0(tmp_path: Path) -> None:
    f = tmp_path / "ok.jsonl"
    f.write_text(json.dumps({"id": 1, "text": "My name is Jane Roe"}) + "\n", encoding="utf-8")
    for fmt in ("jsonl", "json", "table", "csv"):
        code, out = run("anonymize", str(f), "--format", fmt)
        assert code == 0 and "PERSON" in out, (fmt, out)


GUARD_CANARY = "Mail Zqxwv Plortnik at zqxwv.plortnik@canary-mail.org"  # no card: a card is a hard deny
ACTIONS = [
    json.dumps(
        {"id": "tr", "text": GUARD_CANARY, "recipient": "advertising", "purpose": "dpv:Marketing", "likelihood": 0.5}
    ).encode(),
    json.dumps({"id": "al", "text": "Hello there", "recipient": "first_party", "likelihood": 0.05}).encode(),
    b'{"id": "bad", "recipient": "nobody"}',
    b"\xff",
]


@pytest.fixture
def actions(tmp_path: Path) -> Path:
    f = tmp_path / "actions.jsonl"
    f.write_bytes(b"\n".join(ACTIONS) + b"\n")
    return f


def test_guard_batch_jsonl_default(actions: Path) -> None:
    code, out = run("guard", "--graph", str(GRAPHS), "--batch", str(actions))
    recs = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and [r["id"] for r in recs] == ["tr", "al", "bad", None]
    assert recs[0]["decision"] == "transform" and recs[1]["text"] == "Hello there"
    assert "not a recipient kind" in recs[2]["error"] and "not UTF-8" in recs[3]["error"]


def test_guard_batch_csv_and_table(actions: Path) -> None:
    code, out = run("guard", "--graph", str(GRAPHS), "--batch", str(actions), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 1 and list(rows[0])[:6] == ["line", "id", "decision", "tier", "start_level", "level"]
    tr = [r for r in rows if r["id"] == "tr"]
    assert tr and all(r["decision"] == "transform" and r["type"] for r in tr)
    assert {r["type"] for r in tr} == {"PERSON", "EMAIL_ADDRESS"}
    al = [r for r in rows if r["id"] == "al"]
    assert len(al) == 1 and al[0]["decision"] == "allow" and al[0]["type"] == "" and al[0]["level"] == ""
    assert "not a recipient kind" in next(r["error"] for r in rows if r["id"] == "bad")
    assert sum(bool(r["error"]) for r in rows) == 2
    assert not any(p in out for p in CANARY_PARTS) and "Hello there" not in out  # no text in table/csv
    code, out = run("guard", "--graph", str(GRAPHS), "--batch", str(actions), "--format", "table")
    assert code == 1 and out.splitlines()[0].split()[:4] == ["line", "id", "decision", "tier"]
    assert "transform" in out and not any(p in out for p in CANARY_PARTS)


def test_guard_single_json_and_table() -> None:
    base = [
        "guard",
        "--graph",
        str(GRAPHS),
        "--text",
        GUARD_CANARY,
        "--recipient",
        "advertising",
        "--likelihood",
        "0.5",
    ]
    code, out = run(*base, "--purpose", "dpv:Marketing", "--format", "json")
    recs = json.loads(out)
    assert code == 0 and len(recs) == 1 and recs[0]["decision"] == "transform"
    code, out = run(*base, "--purpose", "dpv:Marketing", "--format", "table")
    assert code == 0 and "EMAIL_ADDRESS" in out and not any(p in out for p in CANARY_PARTS)


def test_anonymize_ner_mode_drives_the_detection() -> None:
    text = "Mail Zqxwv Plortnik at zq@roe.org"  # a name on no list: only the NER finds it
    code, out = run("anonymize", "--text", text, "--ner-mode", "none")
    rec = json.loads(out)
    assert code == 0 and rec["ner_mode"] == "none" and rec["detector"] is None
    # patterns only: no person is detected; from L3 the residual sweep still masks the capitalised run
    assert "PERSON" not in {e["type"] for e in rec["entities"]} and "zq@roe.org" not in rec["text"]
    assert [e["recognizer"] for e in rec["entities"] if e["type"] == "NAME"] == ["sweep:capitalised-run"]
    code, out = run("anonymize", "--text", text, "--ner-mode", "none", "--level", "2")
    assert code == 0 and "Zqxwv Plortnik" in json.loads(out)["text"]  # below L3 no sweep: the name stays
    code, out = run("anonymize", "--text", text)
    rec = json.loads(out)
    assert code == 0 and rec["ner_mode"] == "hybrid" and "Zqxwv" not in rec["text"]
    for bad in ("nonsense", ""):
        res = CliRunner().invoke(main, ["anonymize", "--text", text, "--ner-mode", bad])
        assert res.exit_code == 2 and f"unknown NER mode {bad!r}" in res.output, res.output
        assert "--ner-mode" in res.output and "Traceback" not in res.output


def test_anonymize_ner_mode_reaches_every_batch_line(tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text("".join(json.dumps({"id": i, "text": f"Ask {n} today."}) + "\n" for i, n in enumerate(NAMES)))
    code, out = run("anonymize", str(f), "--ner-mode", "none")
    recs = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["ner_mode"] for r in recs] == ["none"] * len(NAMES)
    assert all(n not in r["text"] for n, r in zip(NAMES, recs, strict=True))  # the residual sweep (L3) masks it
    assert not any(e["type"] == "PERSON" for r in recs for e in r["entities"])  # but no detector found a person


NAMES = ("Zqxwv Plortnik", "Priya Raman")  # on no name list: the rules alone leave them


def test_ner_mode_help_names_a_metavar_what_it_drives_and_the_modes_registered_now() -> None:
    from pp_graph.anonymize import recognizers

    def run_mode(text: str, taken: list[recognizers.Entity]) -> list[recognizers.Entity]:
        return taken

    recognizers.register_mode("testhelpmode", run_mode, lambda: "sha256:" + "c" * 64)
    try:
        for cmd, drives in (("risk", "detection"), ("guard", "rewrite"), ("anonymize", "detection")):
            res = CliRunner().invoke(main, [cmd, "--help"])
            flat = " ".join(res.output.split())
            assert res.exit_code == 0 and "--ner-mode MODE" in flat, flat
            assert drives in flat and "testhelpmode" in flat and "hybrid" in flat, flat
    finally:
        del recognizers.MODES["testhelpmode"]
    res = CliRunner().invoke(main, ["risk", "--help"])
    assert "testhelpmode" not in res.output  # read when help is asked, not at import


def test_a_line_without_text_names_the_file_line_and_field(tmp_path: Path) -> None:
    # Said "text: expected a string, got NoneType" with no file: Python's name for JSON's null, or for no key at all.
    f = tmp_path / "in.jsonl"
    f.write_bytes(b'{"id": "a", "text": "Nothing personal."}\n{"id": "b"}\n{"id": "c", "text": null}\n{"text": 7}\n')
    code, out = run("anonymize", str(f))
    recs = {r["line"]: r for r in map(json.loads, out.splitlines())}
    assert code == 1 and "error" not in recs[1]
    assert recs[2]["error"] == f'{f}:2: the "text" field is missing; each line needs {{"text": "…"}}'
    assert recs[3]["error"] == f"{f}:3: text: is null; expected a string"
    assert recs[4]["error"] == f"{f}:4: text: is a number; expected a string"
    assert "NoneType" not in out and "got int" not in out
    stdin = CliRunner().invoke(main, ["anonymize", "-"], input='{"id": "b"}\n')
    assert stdin.exit_code == 1 and json.loads(stdin.stdout)["error"].startswith('<stdin>:1: the "text" field')
