"""Dated policy versions: ``<domain>/<YYYYMMDDTHHMMSSZ>.<ext>`` (the layout of an archive of recorded versions).

The version's date is when it came into force as far as the archive knows (when the change was recorded).
Its graph file is named ``<domain>@<YYYYMMDDTHHMMSSZ>.<format>`` so versions of one site sit side by side.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from pp_graph.errors import InputError

_STAMP = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?$")


def stamp_of(path: Path) -> str | None:
    """The file name's version stamp (``20230101T000000Z``), or None when it is not a dated version."""
    stem = path.name.split(".", 1)[0]
    return stem if _STAMP.match(stem) else None


def iso_of_stamp(stamp: str) -> str:
    """``20230101T093000Z`` → ``2023-01-01T09:30:00Z``; InputError when it is no valid date."""
    m = _STAMP.match(stamp)
    if not m:
        raise InputError(stamp, "is not a version stamp YYYYMMDDTHHMMSSZ")
    try:
        y, mo, d, h, mi, sec = map(int, m.groups())
        dt = datetime(y, mo, d, h, mi, sec, tzinfo=UTC)
    except ValueError as e:
        raise InputError(stamp, f"is not a valid date ({e})") from e
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_date(value: str, option: str = "--date") -> str:
    """A user's date (``2023-01-01`` or ``2023-01-01T09:30:00Z``, UTC) → ISO 8601 UTC ``YYYY-MM-DDTHH:MM:SSZ``."""
    v = value.strip()
    if not _DATE.match(v):
        raise InputError(option, f"{value!r} is not a date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ (UTC)")
    try:
        dt = datetime.fromisoformat(v.replace("Z", "").replace(" ", "T"))
    except ValueError as e:
        raise InputError(option, f"{value!r} is not a valid date ({e})") from e
    return dt.replace(tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def stamp_of_iso(iso: str) -> str:
    return iso.replace("-", "").replace(":", "")


def output_stem(site: str, valid_from: str | None) -> str:
    """The name, less its suffix, of a policy's graph and report files."""
    return f"{site}@{stamp_of_iso(valid_from)}" if valid_from else site
