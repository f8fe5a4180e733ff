"""From model text to grounded items: JSON repair, shape checks, span location. Never invents.

A span the segment does not contain is rejected; when the model names the same text several times
its mentions map to successive occurrences, and an explicit occurrence hint wins.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pp_graph.extras import import_optional

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def parse_json(content: str) -> Any | None:
    """The JSON value in a model answer (fenced, wrapped in prose, or ill-formed); None if there is none."""
    text = (content or "").strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    m = _FENCE.search(text)
    if m:
        text = m.group(1).strip()
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if not starts:
        return None
    start = min(starts)
    end = max(text.rfind("}"), text.rfind("]"))
    body = text[start : end + 1] if end > start else text[start:]
    try:
        return json.loads(body)
    except ValueError:
        pass
    try:
        value = import_optional("json_repair", "llm", "LLM extraction").loads(body)
    except Exception:  # json_repair raises assorted errors on hopeless input
        return None
    return value if isinstance(value, dict | list) and value else None


def segment_entries(value: Any) -> list[dict[str, Any]] | None:
    """The per-segment entries of an answer ({"segments": [...]}, or a bare list); None if neither."""
    if isinstance(value, dict):
        if isinstance(value.get("segments"), list):
            value = value["segments"]
        elif "n" in value:
            value = [value]
        else:
            return None
    if not isinstance(value, list):
        return None
    return [e for e in value if isinstance(e, dict)]


def entry_number(entry: dict[str, Any]) -> int | None:
    n = entry.get("n", entry.get("segment"))
    if isinstance(n, bool):
        return None
    if isinstance(n, int):
        return n
    if isinstance(n, str) and n.strip().isdigit():
        return int(n.strip())
    return None


_QUOTES = "\"'“”‘’`"


class Locator:
    """Finds model-given span texts in one text (a segment), each occurrence used at most once per list."""

    def __init__(self, text: str, offset: int) -> None:
        self.text = text
        self.offset = offset
        self._used: dict[str, set[int]] = {}
        self._folded = text.lower() if len(text.lower()) == len(text) else None

    def occurrences(self, needle: str) -> list[int]:
        out = _find_all(self.text, needle)
        if not out and self._folded is not None and len(needle.lower()) == len(needle):
            # Same characters up to case: the offsets still point at the policy's own text.
            out = _find_all(self._folded, needle.lower())
        return out

    def locate(self, raw: str, occurrence: int | None = None) -> tuple[int, int] | None:
        """Absolute (start, end) of the span, or None if the text does not contain it."""
        needle = raw.strip().strip(_QUOTES).strip()
        if not needle:
            return None
        found = self.occurrences(needle)
        if not found:
            return None
        used = self._used.setdefault(needle.lower(), set())
        if occurrence is not None and occurrence >= 1:
            if occurrence > len(found):
                return None  # the model points at an occurrence that does not exist
            start = found[occurrence - 1]
        else:
            free = [s for s in found if s not in used]
            if not free:
                return None  # named more often than the text contains it
            start = free[0]
        used.add(start)
        return self.offset + start, self.offset + start + len(needle)


def _find_all(hay: str, needle: str) -> list[int]:
    out, i = [], hay.find(needle)
    while i >= 0:
        out.append(i)
        i = hay.find(needle, i + 1)
    return out


_DURATION = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(?:(\d+)W)?(?:(\d+)D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$")


def valid_duration(value: str | None) -> str | None:
    """An xsd:duration lexical form, or None. A model's ISO 8601 weeks (P2W) become days (P14D): xsd:duration
    has no week designator in XML Schema 1.0 or 1.1."""
    m = _DURATION.match(value.strip()) if value else None
    if m is None:
        return None
    weeks, days = m.group(3), m.group(4)
    if weeks is None:
        return m.group(0)
    total = 7 * int(weeks) + int(days or 0)
    return f"P{m.group(1) or ''}{m.group(2) or ''}{total}D{m.group(5) or ''}"
