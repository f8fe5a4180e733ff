"""Self-contradictions: `pp-graph contradictions`, its JSON contract, exit codes, and the cues data file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.contradict import find, find_in_text
from pp_graph.contradict.cues import CUES_FILE, load_cues
from pp_graph.contradict.relation import closest, relation
from pp_graph.errors import DataFileError
from pp_graph.vocab.dpv import PD, PERSONAL_DATA

FIX = Path(__file__).parent / "fixtures" / "contradictions"
SHOP, CLEAN = FIX / "shop.example.md", FIX / "clean.example.md"
CASES = [json.loads(line) for line in (FIX / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def pairs(text: str) -> set[tuple[int | None, int | None]]:
    res = find_in_text(text)
    return {(res.line(c.denial.start), res.line(c.affirmation.start)) for c in res.contradictions}


def test_json_contract_lines_and_offsets() -> None:
    code, out, _ = run("contradictions", str(SHOP), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert list(doc) == ["policies"]
    (policy,) = doc["policies"]
    assert list(policy) == ["file", "site", "contradictions"]
    assert policy["file"] == str(SHOP) and policy["site"] == "shop.example"
    text = SHOP.read_text(encoding="utf-8")
    lines = text.split("\n")
    found = set()
    for c in policy["contradictions"]:
        assert list(c) == ["statements", "practice", "data", "relation", "reason"]
        assert c["relation"] in ("same", "narrower", "broader") and c["reason"]
        assert [s["negated"] for s in c["statements"]].count(True) == 1
        for s in c["statements"]:
            assert list(s) == ["line", "start", "end", "text", "negated"]
            assert text[s["start"] : s["end"]] == s["text"] == lines[s["line"] - 1]  # 1-based, exact offsets
        found.add(tuple(s["line"] for s in c["statements"]))
    # line 16 denies collecting location data (line 6 collects it); line 10 denies selling personal information
    # (line 11 sells an email address); line 17's denial names an exception, line 12 shares with a processor.
    assert found == {(6, 16), (10, 11)}
    by_lines = {tuple(s["line"] for s in c["statements"]): c for c in policy["contradictions"]}
    assert by_lines[(10, 11)]["practice"] == "sell" and by_lines[(10, 11)]["data"] == "pd:EmailAddress"
    assert by_lines[(10, 11)]["relation"] == "narrower" and by_lines[(6, 16)]["relation"] == "same"


def test_exit_zero_when_none_found() -> None:
    code, out, _ = run("contradictions", str(CLEAN), "--format", "json")
    assert code == 0
    assert json.loads(out) == {"policies": [{"file": str(CLEAN), "site": "clean.example", "contradictions": []}]}


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv"])
def test_other_formats_name_both_lines(fmt: str) -> None:
    code, out, _ = run("contradictions", str(SHOP), "--format", fmt)
    assert code == 1
    if fmt == "csv":
        rows = out.strip().split("\n")
        assert rows[0].startswith("file,site,practice,data,relation,reason,line_1") and len(rows) == 3
    else:
        assert "line 10" in out and "line 11" in out and "pd:EmailAddress" in out


@pytest.mark.parametrize("command", ["contradictions", "comply"])
def test_markdown_never_sends_policy_control_characters(tmp_path: Path, command: str) -> None:
    # The markdown quotes policy lines: "\x1b]0;…\x07" retitled the terminal, "\x1b[2J" cleared it.
    src = tmp_path / "shop.example.md"
    line = "We may sell your email address to marketing partners."
    src.write_text(
        SHOP.read_text(encoding="utf-8").replace(line, "We may sell your \x1b]0;PWNED\x07email \x1b[2Jaddress."),
        encoding="utf-8",
    )
    for fmt in ("markdown", "table"):
        code, out, _ = run(command, str(src), "--format", fmt)
        assert code == 1 and "\x1b" not in out and "\x07" not in out
    _, out, _ = run(command, str(src), "--format", "markdown")
    assert "We may sell your \\x1b]0;PWNED\\x07email \\x1b[2Jaddress." in out  # quoted, shown escaped


def test_converted_graphs_give_the_same_pairs_without_lines(tmp_path: Path) -> None:
    shutil.copy(SHOP, tmp_path / SHOP.name)
    code, _, err = run("convert", str(tmp_path / SHOP.name), "-o", str(tmp_path / "out"))
    assert code == 0, err
    (from_text,) = find([SHOP])
    (from_graph,) = find([tmp_path / "out"])
    spans = [[(s.start, s.end) for s in c.statements] for c in from_text.contradictions]
    assert spans == [[(s.start, s.end) for s in c.statements] for c in from_graph.contradictions]
    code, out, _ = run("contradictions", str(tmp_path / "out"), "--format", "json")
    assert code == 1
    statements = json.loads(out)["policies"][0]["contradictions"][0]["statements"]
    assert {s["line"] for s in statements} == {None}  # a graph holds offsets, not the text


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("missing.md", None, "no such file or folder"),
        ("picture.png", b"\x89PNG\r\n", "unsupported file type"),
        ("empty.example.md", b"   \n", "is empty"),
        ("notes.ttl", b"<urn:a> <urn:b> <urn:c> .\n", "holds no policy graph"),
        ("broken.trig", b"<urn:a> <urn:b> {\n", "is not valid"),
    ],
)
def test_bad_input_exits_2_naming_it(tmp_path: Path, name: str, content: bytes | None, problem: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    code, out, err = run("contradictions", str(path))
    assert code == 2 and out == ""
    assert name in err and problem in err and "Traceback" not in err


def test_non_policy_graph_names_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "other.ttl"
    path.write_text(
        "<urn:x> a <https://w3id.org/pr2graph#PrivacyPolicy> .\n<urn:y> a <https://w3id.org/pr2graph#PrivacyPolicy> .\n"
    )
    code, _, err = run("contradictions", str(path))
    assert code == 2 and "expected one pr2g:PrivacyPolicy" in err


@pytest.mark.parametrize(
    "case",
    [c for c in CASES if c["split"] == "dev" and c["id"] in ("c25", "c29", "c33", "c37", "c41", "c46")],
    ids=lambda c: f"{c['id']}-{c['kind']}",
)
def test_must_not_report(case: dict) -> None:
    """One own case of each kind nothing must be reported for (exception, unrelated data, another actor, another
    practice, a condition, de-identified data); each also holds a denial and an affirmation of the practice."""
    assert case["pairs"] == [] and pairs(case["text"]) == set()


@pytest.mark.parametrize("case", [c for c in CASES if c["id"] in ("c01", "c05", "c13", "c16")], ids=lambda c: c["id"])
def test_reports_contradictions(case: dict) -> None:
    assert pairs(case["text"]) == {tuple(p) for p in case["pairs"]}


def test_the_denial_decides_the_reading() -> None:
    # Without the exception the same two lines contradict: the cue, not the data, keeps the pair out.
    shares = "We share your email address with advertising partners.\n"
    assert pairs("We do not share your email address, except with our payment processor.\n" + shares) == set()
    assert pairs("We do not share your email address.\n" + shares) == {(1, 2)}


def test_dpv_relation() -> None:
    assert relation(PERSONAL_DATA, PD + "EmailAddress") == "narrower"
    assert relation(PD + "EmailAddress", PERSONAL_DATA) == "broader"
    assert relation(PD + "EmailAddress", PD + "Location") is None
    assert relation(PD + "Location", PD + "PhysicalAddress") is None  # not_narrower in the cues file
    assert closest({PD + "Location"}, {PERSONAL_DATA}) is None
    assert closest({PD + "Location"}, {PERSONAL_DATA}, broader=True) == (PD + "Location", PERSONAL_DATA, "broader")


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("'\\bexcept\\b',", "'(unclosed',", "not a valid regular expression"),
        (
            '{ text = "We do not sell your personal information.", matches = false }',
            '{ text = "We do not sell your personal information.", matches = true }',
            "should match",
        ),
        (
            'practice_purposes = ["dpv:SellDataToThirdParties"]',
            'practice_purposes = ["pd:EmailAddress"]',
            "not all are DPV purposes",
        ),
        ('exempt_receivers = ["service_provider", "government"]', 'exempt_receivers = ["friends"]', "unknown friends"),
        ('["pd:Location", "pd:Country"]', '["pd:Country", "pd:Location"]', "is not below"),
        (
            '{ text = "You may", denial = false, voiced = false }',
            '{ text = "You may", denial = false, voiced = true }',
            "should be voiced",
        ),
    ],
)
def test_cues_file_is_validated(tmp_path: Path, old: str, new: str, problem: str) -> None:
    text = CUES_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "cues.toml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataFileError, match=problem):
        load_cues(bad)
    assert load_cues(CUES_FILE).cues  # the shipped file loads
