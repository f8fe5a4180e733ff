"""XSD lexical spaces and value order for the SHACL engine (sh:datatype, sh:minInclusive …, sh:lessThan).

rdflib is too lenient for validation: it reads literals with Python's ``int``/``float``, which accept
``"1_000"``, ``" 5"``, ``"inf"`` and ``"nan"``, and it orders values that XSD leaves incomparable
(``"12:00:00Z"`` vs ``"12:00:00"``, ``"P1M"`` vs ``"P30D"``) or that SPARQL does not order at all
(``xsd:anyURI``, ``xsd:hexBinary``). Here the lexical spaces are checked by pattern and range, and values are
compared as XSD 1.1 does: numbers of any numeric type by value (NaN incomparable); dates and times with
and without a timezone only when they differ by more than 14 hours; durations only when they order the
same way from all four reference dates of XSD 1.1 (appendix E.3.3). ``None`` means incomparable,
which SHACL reports as a violation.
"""

from __future__ import annotations

import re
import warnings
from datetime import datetime, timedelta
from decimal import Decimal
from functools import lru_cache

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, XSD

XSD_STRING = str(XSD.string)
LANG_STRING = str(RDF.langString)
_BOOLEAN = str(XSD.boolean)

_INT_RANGES: dict[str, tuple[int | None, int | None]] = {
    str(XSD.integer): (None, None),
    str(XSD.long): (-(2**63), 2**63 - 1),
    str(XSD.int): (-(2**31), 2**31 - 1),
    str(XSD.short): (-(2**15), 2**15 - 1),
    str(XSD.byte): (-128, 127),
    str(XSD.nonNegativeInteger): (0, None),
    str(XSD.positiveInteger): (1, None),
    str(XSD.nonPositiveInteger): (None, 0),
    str(XSD.negativeInteger): (None, -1),
    str(XSD.unsignedLong): (0, 2**64 - 1),
    str(XSD.unsignedInt): (0, 2**32 - 1),
    str(XSD.unsignedShort): (0, 2**16 - 1),
    str(XSD.unsignedByte): (0, 255),
}
_FLOATS = {str(XSD.float), str(XSD.double)}
_DECIMAL = str(XSD.decimal)
NUMERIC = frozenset(_INT_RANGES) | _FLOATS | {_DECIMAL}

_INT_RX = re.compile(r"[+-]?\d+")
_DECIMAL_RX = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_FLOAT_RX = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?INF|NaN")
_TZ = r"(Z|[+-](?:(?:0\d|1[0-3]):[0-5]\d|14:00))?"
_DATE = r"(-?(?:[1-9]\d{3,}|0\d{3}))-(\d\d)-(\d\d)"
_TIME = r"(\d\d):(\d\d):(\d\d(?:\.\d+)?)"
_DATETIME_RX = re.compile(_DATE + "T" + _TIME + _TZ)
_DATE_RX = re.compile(_DATE + _TZ)
_TIME_RX = re.compile(_TIME + _TZ)
_GYEAR_RX = re.compile(r"(-?(?:[1-9]\d{3,}|0\d{3}))" + _TZ)
_GYEARMONTH_RX = re.compile(r"(-?(?:[1-9]\d{3,}|0\d{3}))-(\d\d)" + _TZ)
_DURATION_RX = re.compile(
    r"(-)?P(?=\d|T\d)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?"
)
_DURATIONS = {str(XSD.duration), str(XSD.dayTimeDuration), str(XSD.yearMonthDuration)}
_B64 = r"[A-Za-z0-9+/] ?"
_NORMALIZED = re.compile(r"[^\r\n\t]*")
_PATTERNS = {
    _BOOLEAN: re.compile(r"true|false|1|0"),
    str(XSD.dayTimeDuration): re.compile(r"-?P(?=\d|T\d)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?"),
    str(XSD.yearMonthDuration): re.compile(r"-?P(?=\d)(\d+Y)?(\d+M)?"),
    str(XSD.gDay): re.compile(r"---(0[1-9]|[12]\d|3[01])" + _TZ),
    str(XSD.gMonth): re.compile(r"--(0[1-9]|1[0-2])" + _TZ),
    str(XSD.gMonthDay): re.compile(r"--(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])" + _TZ),
    str(XSD.hexBinary): re.compile(r"([0-9a-fA-F]{2})*"),
    str(XSD.base64Binary): re.compile(
        rf"(({_B64}){{4}})*(({_B64}){{3}}[A-Za-z0-9+/]|({_B64}){{2}}[AEIMQUYcgkosw048] ?=|{_B64}[AQgw] ?= ?=)?"
    ),
    str(XSD.language): re.compile(r"[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*"),
    str(XSD.normalizedString): _NORMALIZED,
    str(XSD.token): re.compile(r"([^\s]+( [^\s]+)*)?"),
    _DECIMAL: _DECIMAL_RX,
    str(XSD.duration): _DURATION_RX,
    str(XSD.dateTime): _DATETIME_RX,
    str(XSD.date): _DATE_RX,
    str(XSD.time): _TIME_RX,
    str(XSD.gYear): _GYEAR_RX,
    str(XSD.gYearMonth): _GYEARMONTH_RX,
} | dict.fromkeys(_FLOATS, _FLOAT_RX)
_DATE_TYPES = {str(XSD.dateTime), str(XSD.dateTimeStamp), str(XSD.date), str(XSD.time)}
_DATE_TYPES |= {str(XSD.gYear), str(XSD.gYearMonth)}


@lru_cache(maxsize=200_000)
def well_formed(lexical: str, datatype: str) -> bool:
    """Is ``lexical`` in the lexical space of ``datatype`` (and its value in range)?"""
    if datatype in (XSD_STRING, LANG_STRING):
        return True
    rng = _INT_RANGES.get(datatype)
    if rng is not None:
        if not _INT_RX.fullmatch(lexical):
            return False
        n, (lo, hi) = int(lexical), rng
        return (lo is None or n >= lo) and (hi is None or n <= hi)
    if datatype in _DATE_TYPES:
        return _moment(lexical, datatype) is not None
    rx = _PATTERNS.get(datatype)
    if rx is not None:
        if rx.fullmatch(lexical) is None:
            return False
        if datatype == str(XSD.gMonthDay):  # --02-30 matches the pattern but is no day
            return _build_moment(2000, int(lexical[2:4]), int(lexical[5:7]), 0, 0, Decimal(0), None) is not None
        return True
    with warnings.catch_warnings():  # rdflib warns on ill-typed lexical forms, which is what we report
        warnings.simplefilter("ignore")
        return not Literal(lexical, datatype=URIRef(datatype)).ill_typed


def compare(a: tuple[str, str, str | None], b: tuple[str, str, str | None]) -> int | None:
    """-1/0/1 when the two literals are ordered, None when they are incomparable (or ill-formed)."""
    (la, da, ga), (lb, db, gb) = a, b
    if ga or gb:
        return None  # language-tagged strings have no order in SPARQL
    if da in NUMERIC and db in NUMERIC:
        x, y = _number(la, da), _number(lb, db)
        if x is None or y is None or x.is_nan() or y.is_nan():
            return None
        return (x > y) - (x < y)
    if da in _DATE_TYPES and db in _DATE_TYPES:
        same_kind = {da, db} <= {str(XSD.dateTime), str(XSD.dateTimeStamp)} or da == db
        p, q = _moment(la, da), _moment(lb, db)
        return _order_moments(p, q) if same_kind and p is not None and q is not None else None
    if da in _DURATIONS and db in _DURATIONS:  # xsd:dayTimeDuration etc. are durations
        return _order_durations(la, lb) if well_formed(la, da) and well_formed(lb, db) else None
    if da != db:
        return None
    if da == XSD_STRING:
        return (la > lb) - (la < lb)
    if da == _BOOLEAN:
        if not (well_formed(la, da) and well_formed(lb, db)):
            return None
        x2, y2 = la in ("true", "1"), lb in ("true", "1")
        return (x2 > y2) - (x2 < y2)
    return None  # SPARQL orders no other datatype (anyURI, hexBinary, gMonth …)


def _number(lexical: str, datatype: str) -> Decimal | None:
    if not well_formed(lexical, datatype):
        return None
    if lexical.endswith("INF"):
        return Decimal("-Infinity" if lexical.startswith("-") else "Infinity")
    return Decimal(lexical)


# A moment: (naive UTC-normalised datetime, whether it had a timezone).
_Moment = tuple[datetime, bool]


def _moment(lexical: str, datatype: str) -> _Moment | None:
    if datatype in (str(XSD.dateTime), str(XSD.dateTimeStamp)):
        m = _DATETIME_RX.fullmatch(lexical)
        if m is None or (datatype == str(XSD.dateTimeStamp) and not m.group(7)):
            return None
        y, mo, d, hh, mi, ss, tz = m.groups()
    elif datatype == str(XSD.date):
        m = _DATE_RX.fullmatch(lexical)
        if m is None:
            return None
        (y, mo, d, tz), hh, mi, ss = m.groups(), "00", "00", "0"
    elif datatype == str(XSD.time):
        m = _TIME_RX.fullmatch(lexical)
        if m is None:
            return None
        (hh, mi, ss, tz), y, mo, d = m.groups(), "1972", "12", "31"  # XSD's reference date for times
    else:
        m = (_GYEAR_RX if datatype == str(XSD.gYear) else _GYEARMONTH_RX).fullmatch(lexical)
        if m is None:
            return None
        groups = m.groups()
        y, mo, tz = (groups[0], "01", groups[1]) if len(groups) == 2 else groups
        d, hh, mi, ss = "01", "00", "00", "0"
    return _build_moment(int(y), int(mo), int(d), int(hh), int(mi), Decimal(ss), tz)


def _build_moment(y: int, mo: int, d: int, hh: int, mi: int, ss: Decimal, tz: str | None) -> _Moment | None:
    end_of_day = hh == 24
    if end_of_day and (mi or ss):
        return None
    try:
        # Years outside 1–9999 are valid XSD but beyond Python's datetime: reported as incomparable.
        when = datetime(y, mo, d, 0 if end_of_day else hh, mi, int(ss), int((ss % 1) * 1_000_000))
    except ValueError:
        return None
    if ss >= 60:
        return None
    if end_of_day:
        when += timedelta(days=1)
    if tz:
        offset = timedelta(0) if tz == "Z" else timedelta(hours=int(tz[1:3]), minutes=int(tz[4:6]))
        when = when - offset if tz[0] != "-" else when + offset
    return when, bool(tz)


def _order_moments(p: _Moment, q: _Moment) -> int | None:
    (x, xz), (y, yz) = p, q
    if xz == yz:
        return (x > y) - (x < y)
    # One has no timezone: it could be anywhere from -14:00 to +14:00 (XSD 1.1, 3.3.7.3).
    slack = timedelta(hours=14)
    if x + (slack if not xz else timedelta(0)) < y - (slack if not yz else timedelta(0)):
        return -1
    if x - (slack if not xz else timedelta(0)) > y + (slack if not yz else timedelta(0)):
        return 1
    return None


_REFERENCE_DATES = [datetime(1696, 9, 1), datetime(1697, 2, 1), datetime(1903, 3, 1), datetime(1903, 7, 1)]


def _duration(lexical: str) -> tuple[int, Decimal] | None:
    """(months, seconds), both signed."""
    m = _DURATION_RX.fullmatch(lexical)
    if m is None:
        return None
    neg, y, mo, d, h, mi, s = m.groups()
    months = int(y or 0) * 12 + int(mo or 0)
    secs = ((int(d or 0) * 24 + int(h or 0)) * 60 + int(mi or 0)) * 60 + Decimal(s or 0)
    return (-months, -secs) if neg else (months, secs)


def _add(when: datetime, dur: tuple[int, Decimal]) -> datetime:
    months, secs = dur
    total = when.year * 12 + when.month - 1 + months
    y, mo = divmod(total, 12)
    # XSD E.3.3: the day is pinned to the end of a shorter month before the seconds are added.
    day = when.day
    while True:
        try:
            base = when.replace(year=y, month=mo + 1, day=day)
            break
        except ValueError:
            day -= 1
    return base + timedelta(seconds=float(secs))


def _order_durations(a: str, b: str) -> int | None:
    x, y = _duration(a), _duration(b)
    if x is None or y is None:
        return None
    orders = set()
    for ref in _REFERENCE_DATES:
        p, q = _add(ref, x), _add(ref, y)
        orders.add((p > q) - (p < q))
    return orders.pop() if len(orders) == 1 else None


__all__ = ["LANG_STRING", "NUMERIC", "XSD_STRING", "compare", "well_formed"]
