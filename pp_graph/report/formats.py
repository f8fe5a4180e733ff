"""The text formats the findings reports share (``pp-graph comply``, ``pp-graph contradictions``): aligned tables,
CSV text (cells safe for terminals and spreadsheets), and one report's four renderings chosen by a --format name."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")

FORMATS = ("table", "json", "markdown", "csv")


def aligned(rows: Sequence[Sequence[str]], *, trim: bool = False) -> list[str]:
    """The rows as left-aligned columns two spaces apart, a line of dashes under the first (the header);
    ``trim``: no trailing spaces (otherwise the last column is padded too, as the reports have always printed)."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in rows]
    lines = [line.rstrip() for line in lines] if trim else lines
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


# C0 and C1 control characters (ESC, CSI, BEL, …) and the bidirectional overrides that reorder what a terminal
# shows. Policy text is untrusted: printed raw, "\x1b]0;…\x07" retitles the terminal and "\x1b[2J" clears it.
# Tab and line feed are text (a table cell turns them into spaces itself).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as the start of a formula
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def escape_controls(text: str) -> str:
    """``text`` with every control character shown escaped (``\\x1b``, ``\\u202e``), never sent."""
    return CONTROL.sub(_escaped, text)


def _escaped(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def csv_cell(value: Any) -> Any:
    """A cell safe where CSV goes: a terminal (``cat``) gets no control character, a spreadsheet no formula — a
    text starting with = + - @ (not a number) gets a leading ' so it is shown as text, never run
    (``=HYPERLINK(…)`` in a policy line would otherwise be a link that sends the sheet's cells away)."""
    if not isinstance(value, str):
        return value
    value = escape_controls(value)
    if value.startswith(_FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A header and the rows as CSV with "\\n" line ends (None is an empty cell), each cell made safe
    (``csv_cell``)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([csv_cell(c) for c in columns])
    w.writerows([csv_cell(c) for c in row] for row in rows)
    return buf.getvalue()


@dataclass(frozen=True, slots=True)
class Report(Generic[T]):
    """One report's renderings of its results; ``render`` picks one by a --format name."""

    to_json: Callable[[Sequence[T]], dict[str, Any]]
    to_table: Callable[[Sequence[T]], str]
    to_markdown: Callable[[Sequence[T]], str]
    to_csv: Callable[[Sequence[T]], str]

    def render(self, fmt: str, results: Sequence[T]) -> str:
        """The whole text to print, its last line ended (CSV already ends its rows)."""
        if fmt == "json":
            return json.dumps(self.to_json(results), indent=1, ensure_ascii=False) + "\n"
        if fmt == "csv":
            return self.to_csv(results)
        if fmt == "markdown":
            return self.to_markdown(results) + "\n"
        if fmt == "table":
            return self.to_table(results) + "\n"
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
