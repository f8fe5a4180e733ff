"""RDF literals → plain Python values, by datatype and lexical space, the same for every store.

Servers spell the same value differently: Virtuoso returns ``xsd:boolean`` as ``"1"``/``"0"`` and
stores an ``xsd:duration`` as a number (months for year-month durations, seconds for day-time ones)
while keeping its datatype. Reading by the lexical space of the datatype, and writing durations in
their XSD canonical form (as Oxigraph does), gives identical values whichever store answered.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

XSD_NS = "http://www.w3.org/2001/XMLSchema#"
_INTEGERS = {
    XSD_NS + t
    for t in (
        "integer",
        "int",
        "long",
        "short",
        "byte",
        "nonNegativeInteger",
        "positiveInteger",
        "nonPositiveInteger",
        "negativeInteger",
        "unsignedInt",
        "unsignedLong",
        "unsignedShort",
        "unsignedByte",
    )
}
_FLOATS = {XSD_NS + t for t in ("decimal", "double", "float")}
_BOOLEAN = XSD_NS + "boolean"
_DURATION = XSD_NS + "duration"
_BOOLEANS = {"true": True, "1": True, "false": False, "0": False}  # the whole xsd:boolean lexical space
_DURATION_RE = re.compile(
    r"(?P<sign>-)?P(?:(?P<Y>\d+)Y)?(?:(?P<M>\d+)M)?(?:(?P<D>\d+)D)?"
    r"(?:T(?:(?P<h>\d+)H)?(?:(?P<m>\d+)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?)?"
)
_NUMBER_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def literal_value(lexical: str, datatype: str | None) -> Any:
    """A literal → a plain value: numbers and booleans as such, durations canonical, the rest lexical."""
    dt = datatype or ""
    if dt in _INTEGERS:
        try:
            return int(lexical.strip())
        except ValueError:
            return lexical  # ill-typed literal: keep what the data says rather than guess
    if dt in _FLOATS:
        try:
            return float(lexical.strip())
        except ValueError:
            return lexical
    if dt == _BOOLEAN:
        v = _BOOLEANS.get(lexical.strip())
        return lexical if v is None else v
    if dt == _DURATION:
        return canonical_duration(lexical)
    return lexical


def canonical_duration(lexical: str) -> str:
    """An xsd:duration in canonical form (``P18M`` → ``P1Y6M``, ``PT36H`` → ``P1DT12H``).

    A bare number is how Virtuoso returns a stored duration: an integer counts months, a decimal or
    double counts seconds. A lexical form outside the XSD space (``P2W``) is returned unchanged.
    """
    s = lexical.strip()
    m = _DURATION_RE.fullmatch(s)
    if m and s not in {"P", "-P"} and not s.endswith("T"):
        months = int(m["Y"] or 0) * 12 + int(m["M"] or 0)
        seconds = Decimal(m["D"] or 0) * 86400 + Decimal(m["h"] or 0) * 3600 + Decimal(m["m"] or 0) * 60
        seconds += Decimal(m["s"] or 0)
        return _format_duration(bool(m["sign"]), months, seconds)
    if _NUMBER_RE.fullmatch(s):
        try:
            n = Decimal(s)
        except InvalidOperation:
            return lexical
        if re.fullmatch(r"[+-]?\d+", s):
            return _format_duration(n < 0, abs(int(n)), Decimal(0))
        return _format_duration(n < 0, 0, abs(n))
    return lexical


def _format_duration(negative: bool, months: int, seconds: Decimal) -> str:
    years, months = divmod(months, 12)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    date = "".join(f"{int(v)}{u}" for v, u in ((years, "Y"), (months, "M"), (days, "D")) if v)
    time = "".join(f"{int(v)}{u}" for v, u in ((hours, "H"), (minutes, "M")) if v)
    if secs:
        text = format(secs.normalize(), "f")
        time += f"{text}S"
    if not date and not time:
        return "PT0S"
    return ("-" if negative else "") + "P" + date + (f"T{time}" if time else "")
