"""The text formats the findings reports share (pp_graph.report.formats)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from pp_graph.report.formats import FORMATS, Report, aligned, csv_text


def test_aligned_pads_and_underlines_the_header() -> None:
    rows = [("site", "n"), ("a.example", "12"), ("b", "3")]
    assert aligned(rows) == ["site       n ", "---------  --", "a.example  12", "b          3 "]
    assert aligned(rows, trim=True) == ["site       n", "---------  --", "a.example  12", "b          3"]


def test_csv_text_quotes_and_leaves_none_empty() -> None:
    assert csv_text(("a", "b"), [("x,y", None), (1, 'say "hi"')]) == 'a,b\n"x,y",\n1,"say ""hi"""\n'


def test_csv_cells_are_safe_for_terminals_and_spreadsheets() -> None:
    rows = [
        ("=1+2", "-0.5"),
        ("+1 415 555 0100", -3),
        ("@SUM(A1)", "a\x1b[2Jb\u202e"),
        ("\tx", "line\nbreak"),
        ("a-b", ""),
    ]
    assert csv_text(("h", "=h"), rows).splitlines() == [
        "h,'=h",
        "'=1+2,-0.5",  # a number stays a number
        "'+1 415 555 0100,-3",
        "'@SUM(A1),a\\x1b[2Jb\\u202e",
        "'\tx,\"line",  # a line break inside a cell is CSV's to quote, not a control to escape
        'break"',
        "a-b,",
    ]


def _report() -> Report[str]:
    def json_of(rs: Sequence[str]) -> dict[str, Any]:
        return {"n": list(rs)}

    return Report(json_of, lambda rs: "T:" + ",".join(rs), lambda rs: "M:" + ",".join(rs), lambda rs: "C\n")


@pytest.mark.parametrize(
    ("fmt", "text"),
    [("json", '{\n "n": [\n  "é"\n ]\n}\n'), ("table", "T:é\n"), ("markdown", "M:é\n"), ("csv", "C\n")],
)
def test_render_ends_the_last_line_once(fmt: str, text: str) -> None:
    assert fmt in FORMATS and _report().render(fmt, ["é"]) == text


def test_render_refuses_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format 'yaml'"):
        _report().render("yaml", [])
