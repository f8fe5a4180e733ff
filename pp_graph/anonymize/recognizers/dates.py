"""Dates and times (calendar dates, weekdays, years after a cue, clock times) and ages."""

from __future__ import annotations

import re

from pp_graph.anonymize.recognizers.base import Family

FAMILY = Family("dates")

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)


def _date_ok(m: re.Match[str]) -> bool:
    """A numeric d/m/y or m/d/y date has a day and a month in range ("03.93.92" is a phone number's digits)."""
    parts = re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.]\d{2,4}", m.group(0))
    if parts is None:
        return True
    a, b = int(parts.group(1)), int(parts.group(2))
    return 1 <= a <= 31 and 1 <= b <= 31 and min(a, b) <= 12


FAMILY.regex(
    "date",
    "DATE_TIME",
    20,
    r"\b(?:\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?,?\s+\d{{4}}|"
    rf"{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|{_MONTH}\s+\d{{4}})\b",
    check=_date_ok,
)
FAMILY.regex(
    "weekday",
    "DATE_TIME",
    21,
    r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b(?:\s+(?:morning|afternoon|evening|night))?",
)
FAMILY.regex(
    "year",
    "DATE_TIME",
    22,
    r"(?i:\b(?:in|since|of|until|from|by|year|circa|founded|a|the)\s+)((?:1[5-9]|20)\d{2})\b"
    r"|\b((?:1[5-9]|20)\d{2})(?= (?:[A-Z][a-z]+ )?(?:film|movie|action|drama|comedy|book|novel|album|song))",
    group=-1,
)
FAMILY.regex(
    "time", "DATE_TIME", 23, r"(?i)\b\d{1,2}(?::\d{2})?\s?(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b\d{1,2}:\d{2}(?::\d{2})?\b"
)
FAMILY.regex(
    "age",
    "AGE",
    24,
    r"(?i)\b(\d{1,3})(?=[- ]?(?:years?|yrs?)[- ]old\b)"
    r"|(?i:\b(?:turn(?:ed|ing|s)?|age(?:d| of|:)?|when (?:he|she|i|they|we) (?:was|were)|i am|i'm)\s+)(\d{1,3})"
    r"(?![\d,.:/-]\d)\b",
    group=-1,
)
