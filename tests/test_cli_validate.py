"""pp-graph validate as a user runs it: every file reported, exit codes, JSON, non-policy RDF."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.resources import ONTOLOGIES

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "graphs" / "mini.trig"
PD = ONTOLOGIES / "vendor" / "dpv" / "pd.ttl"


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, ["validate", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res.exit_code, res.stdout, res.stderr


def folder(tmp_path: Path) -> Path:
    """a-broken.ttl sorts first; c-bad.trig has violations; b-good.trig conforms."""
    d = tmp_path / "graphs"
    (d / "sub").mkdir(parents=True)
    (d / "a-broken.ttl").write_text("<urn:a> <urn:b> .\n")
    (d / "b-good.trig").write_text(MINI.read_text())
    text = MINI.read_text().replace('ppg:characterCount "400"^^xsd:integer', 'ppg:characterCount "NaN"^^xsd:double', 1)
    (d / "sub" / "c-bad.trig").write_text(text)
    return d


def test_folder_goes_on_after_an_unreadable_file(tmp_path: Path) -> None:
    d = folder(tmp_path)
    code, out, err = run(str(d))
    assert code == 2  # a file could not be read
    assert f"{d / 'sub' / 'c-bad.trig'}: 2 violations" in out
    assert "MinInclusiveConstraintComponent" in out and "DatatypeConstraintComponent" in out
    assert "1/3 files conform; 1 could not be read" in out
    assert str(d / "a-broken.ttl") in err and "not valid turtle" in err
    assert "Traceback" not in out + err


def test_folder_json_has_every_file_and_its_error(tmp_path: Path) -> None:
    d = folder(tmp_path)
    code, out, _ = run(str(d), "--format", "json")
    assert code == 2
    rows = {Path(r["file"]).name: r for r in json.loads(out)}
    assert set(rows) == {"a-broken.ttl", "b-good.trig", "c-bad.trig"}
    assert rows["a-broken.ttl"]["conforms"] is None and "not valid turtle" in rows["a-broken.ttl"]["error"]
    assert rows["b-good.trig"]["conforms"] is True and rows["b-good.trig"]["error"] is None
    assert rows["c-bad.trig"]["conforms"] is False
    assert len(rows["c-bad.trig"]["results"]) == 2


def test_violations_without_unreadable_files_exit_1(tmp_path: Path) -> None:
    d = folder(tmp_path)
    (d / "a-broken.ttl").unlink()
    code, out, err = run(str(d))
    assert code == 1 and "1/2 files conform" in out and err == ""
    assert run(str(d / "b-good.trig"))[0] == 0


def test_rdf_that_is_not_a_policy_graph_does_not_conform() -> None:
    code, out, _ = run(str(PD))
    assert code == 1
    assert "Not a policy graph" in out and "PolicyGraphShape" in out


def test_a_named_graph_without_a_policy_is_reported(tmp_path: Path) -> None:
    extra = tmp_path / "two.trig"
    extra.write_text(MINI.read_text() + "\n<urn:x:stray> { <urn:x:a> <urn:x:b> <urn:x:c> . }\n")
    code, out, _ = run(str(extra), "--format", "json")
    assert code == 1
    [rep] = json.loads(out)
    assert {r["graph"] for r in rep["results"]} == {"urn:x:stray"}


def test_folder_csv_one_row_per_result_and_file(tmp_path: Path) -> None:
    d = folder(tmp_path)
    code, out, _ = run(str(d), "--format", "csv")
    assert code == 2
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[:4] == ["file", "conforms", "error", "graph"]
    by_file: dict[str, list[dict[str, str]]] = {}
    for r in rows:
        by_file.setdefault(Path(r["file"]).name, []).append(r)
    assert "not valid turtle" in by_file["a-broken.ttl"][0]["error"] and by_file["a-broken.ttl"][0]["conforms"] == ""
    assert [r["conforms"] for r in by_file["b-good.trig"]] == ["True"]
    bad = by_file["c-bad.trig"]
    assert len(bad) == 2 and all(r["severity"] == "Violation" and r["component"] for r in bad)


def test_json_flag_is_a_deprecated_alias(tmp_path: Path) -> None:
    d = folder(tmp_path)
    code, out, err = run(str(d), "--json")
    assert code == 2 and "--json is deprecated; use --format json" in err
    assert out == run(str(d), "--format", "json")[1]
