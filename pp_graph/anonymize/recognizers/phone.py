"""Phone numbers: digit groups with 7–15 digits that nothing of higher priority claimed (priority 40)."""

from __future__ import annotations

import re

from pp_graph.anonymize.recognizers.base import Family

FAMILY = Family("phone")


def _phone_ok(m: re.Match[str]) -> bool:
    s = m.group(0)
    digits = sum(c.isdigit() for c in s)
    groups = len(re.findall(r"\d+", s))
    return 7 <= digits <= 15 and (groups >= 2 or s.startswith("+") or digits == 10)


FAMILY.regex(
    "phone",
    "PHONE_NUMBER",
    40,
    # a bare run of 10 digits, or groups; "-Office" / "-Fax" may follow a number in a signature
    r"(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(0?\d{1,4}\)[ .-]?)?(?:\d{10}|\d{2,5}(?:[ .-]\d{2,5}){0,4})(?:\s?x\d{1,5})?"
    r"(?![\w]|-\d)",
    check=_phone_ok,
)
