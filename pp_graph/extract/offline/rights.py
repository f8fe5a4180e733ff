"""Rights named as nouns in a coordinated request: "You can request access to, erasure of, and updates to your
personal data" names the rights of access, erasure and rectification, though no right's own phrase ("right to
erasure", "request deletion") is in it.

The nouns and the rights they name are data (data/lexicon/rights-requested.tsv, checked against DPV at load);
a list of them counts only after a request word and before the data it is about, so "updates to this policy" or
"we ensure the erasure of your data" name no right.
"""

from __future__ import annotations

import re
from functools import cache

from pp_graph.errors import DataFileError
from pp_graph.extract.offline.lexicon import read_tsv
from pp_graph.resources import DATA
from pp_graph.vocab.dpv import RIGHT, expand, vocabulary

FILE = DATA / "lexicon" / "rights-requested.tsv"
_HEAD = r"\b(?:request|requesting|ask\s+(?:us\s+)?for|obtain|right\s+(?:to|of))\s+(?:the\s+)?"
_JOIN = r"\s*(?:,\s*(?:and|or)?|\band\b|\bor\b|\bas\s+well\s+as\b)\s*(?:the\s+)?"
# what the nouns are about: the reader's data, or "it"/"them" standing for it
_OBJECT = re.compile(
    r",?\s+(?:(?:your|any|all|the|such|this|that|these|their)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:data|information|details|records?|account|profile)\b|it\b|them\b)",
    re.I,
)


@cache
def table() -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """noun (lower case) → right IRI, the head pattern and the pattern of one noun."""
    vocab = vocabulary()
    nouns: dict[str, str] = {}
    for word, term in read_tsv(FILE, 2):
        iri = expand(term) if term else ""
        if not vocab.in_scheme(iri, RIGHT):
            raise DataFileError(f"{FILE.name}: {word!r} → {term or '(none)'} is not a right in DPV")
        nouns[word.lower()] = iri
    alternatives = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in sorted(nouns, key=len, reverse=True))
    noun = re.compile(rf"(?:{alternatives})\b", re.I)
    return nouns, re.compile(_HEAD, re.I), noun


def requested_rights(text: str) -> list[tuple[int, int, str]]:
    """(start, end, right IRI) of each right noun of a coordinated request in ``text`` (one reading unit)."""
    nouns, head, noun = table()
    out: list[tuple[int, int, str]] = []
    join = re.compile(_JOIN, re.I)
    for h in head.finditer(text):
        found: list[tuple[int, int, str]] = []
        pos = h.end()
        while (m := noun.match(text, pos)) is not None:
            found.append((m.start(), m.end(), nouns[" ".join(m.group().lower().split())]))
            j = join.match(text, m.end())
            if j is None or j.end() == m.end():
                break
            pos = j.end()
        if found and _OBJECT.match(text, found[-1][1]):
            out.extend(found)
    return out
