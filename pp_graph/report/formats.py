"""The text formats the findings reports share (``pp-graph comply``, ``pp-graph contradictions``): aligned tables,
CSV text, and one report's four renderings chosen by a --format name."""

from __future__ import annotations

import csv
import io
import json
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


def csv_text(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A header and the rows as CSV with "\\n" line ends (None is an empty cell)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    w.writerows(rows)
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
