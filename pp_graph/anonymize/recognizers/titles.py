"""Titles: honorifics ("Dr."), a job title in apposition ("…, the Packager, said") and a job title on a line of
its own under a name, as in a signature."""

from __future__ import annotations

from collections.abc import Iterator

from pp_graph.anonymize.recognizers.base import Family
from pp_graph.anonymize.recognizers.shapes import SIG_MARKS, TITLE_LINE, is_name_line

FAMILY = Family("titles")
_TITLE_GLUE = frozenset({"of", "and"})

FAMILY.regex(
    "honorific",
    "TITLE",
    25,
    r"(?i)\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame|Rev|Fr|Sr|Lord|Lady)\b\.?(?=\s+[A-Za-zÀ-ÿ])",
)

# A job title in apposition or after "as": "Marie Langrová, the Packager, said" / "works for X as Midwife, but".
FAMILY.regex(
    "job_title",
    "TITLE",
    26,
    r"(?:,\s+the\s+|\bas\s+(?:an?\s+)?)([A-Z][\w-]*(?:\s+[a-z][\w-]*){0,2})(?=,|\s+but\b|\s+said\b)",
    group=1,
)


def _title_lines(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    stop = gazetteer.stop_words()
    for m in TITLE_LINE.finditer(text):
        words = m.group(1).lower().split()
        if any(w in stop and w not in _TITLE_GLUE for w in words):  # "Call the manager" is not a title
            continue
        line_start = text.rfind("\n", 0, m.start(1))
        above = text[text.rfind("\n", 0, line_start) + 1 : line_start]
        if is_name_line(above.strip(SIG_MARKS), listed=False):  # "Overview\nData Controller" is a heading, not a title
            yield m.start(1), m.end(1)


FAMILY.add("title_line", "TITLE", 26, _title_lines)
