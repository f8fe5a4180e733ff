"""L1/L2 replacements built from the value (initials, month and year, decade) never reach a record, a table/csv
row or a guard decision record: those name the replacement's kind only."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

import pytest
from click.testing import CliRunner

from pp_graph.anonymize.guard import guard_text
from pp_graph.cli import main

CANARY = "Mail Zqxwv Plortnik, born 3 May 1980, aged 87."
# The canary's parts and every form derived from it: initials, month-year, year, decade, age decade.
LEAKS = ("Zqxwv", "Plortnik", "Z. P.", "Z.", "P.", "May 1980", "1980", "198", "87", "80s")


def _leaks(out: str) -> list[str]:
    return [p for p in LEAKS if p in out]


@pytest.mark.parametrize("level", ["1", "2"])
@pytest.mark.parametrize("fmt", ["table", "csv"])
def test_table_csv_rows_hold_kinds_not_derived_values(level: str, fmt: str) -> None:
    res = CliRunner().invoke(main, ["anonymize", "--text", CANARY, "--level", level, "--format", fmt])
    assert res.exit_code == 0, res.output
    assert _leaks(res.stdout) == []
    if fmt == "csv":
        kinds = {r["type"]: r["kind"] for r in csv.DictReader(io.StringIO(res.stdout))}
        assert kinds["PERSON"] == ("initials" if level == "1" else "generic")
        assert kinds["DATE_TIME"] == ("month-year" if level == "1" else "decade")


@pytest.mark.parametrize("level", ["1", "2"])
def test_jsonl_entities_hold_kinds_not_derived_values(level: str) -> None:
    res = CliRunner().invoke(main, ["anonymize", "--text", CANARY, "--level", level])
    rec = json.loads(res.stdout)
    assert res.exit_code == 0 and "Zqxwv" not in rec["text"]  # the rewritten text itself is the product
    assert _leaks(json.dumps(rec["entities"])) == []
    date = next(e for e in rec["entities"] if e["type"] == "DATE_TIME")
    assert date["replacement"] is None and date["kind"] in {"month-year", "decade"}


def test_placeholders_and_fixed_phrases_are_kept() -> None:
    res = CliRunner().invoke(main, ["anonymize", "--text", CANARY, "--level", "3"])
    ents = json.loads(res.stdout)["entities"]
    assert [(e["kind"], e["replacement"]) for e in ents if e["type"] == "PERSON"] == [("placeholder", "[PERSON_1]")]


@dataclass
class _Transform:  # the guard reads only decision, level and to_dict() of the risk decision
    level: str
    decision: str = "transform"

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "level": self.level}


@pytest.mark.parametrize("level", ["L1", "L2"])
def test_guard_record_holds_no_derived_value(level: str) -> None:
    g = guard_text(_Transform(level), CANARY, max_level=int(level[1]))
    assert g.text is not None and "Zqxwv" not in g.text
    rec = g.record()
    assert rec["anonymization"]["final_level"] == level
    assert rec["anonymization"].pop("detector").startswith("sha256:")  # hex digits could match "87" by chance
    assert _leaks(json.dumps(rec)) == []
    assert {e["kind"] for e in rec["anonymization"]["entities"]} & {"initials", "month-year", "decade"}
