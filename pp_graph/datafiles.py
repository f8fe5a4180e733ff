"""Reading the project's tab-separated data files (lexicons, tables, mappings) with errors that name the line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pp_graph.errors import DataFileError


def tsv_lines(path: Path) -> Iterator[tuple[int, list[str], str]]:
    """(line number, stripped tab-separated fields, raw line) for each row; blank and '#' lines are skipped."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise DataFileError(f"{path.name}: cannot be read ({e.strerror})") from e
    except UnicodeDecodeError as e:
        raise DataFileError(f"{path.name}: not valid UTF-8 (byte {e.start})") from e
    for n, line in enumerate(lines, 1):
        if line.strip() and not line.startswith("#"):
            yield n, [p.strip() for p in line.split("\t")], line
