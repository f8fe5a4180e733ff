"""Places and groups: a place after a travel or origin cue ("originally from ESPOO"), listed countries, and
nationalities and groups (not languages: "studying English") from the name lists (gazetteer.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from pp_graph.anonymize.recognizers.base import Family
from pp_graph.anonymize.recognizers.shapes import UC

FAMILY = Family("places")

# A place named by a travel or origin cue: "originally from ESPOO", "arrived at Khandallah this morning".
_PLACE_NAME = rf"[{UC}][\w'’-]*(?:[ \t]+(?:[{UC}][\w'’-]*|de|del|la|le|nad|am|an|upon|on)){{0,3}}"
FAMILY.regex(
    "place_cue",
    "GPE",
    48,
    rf"\b(?i:originally from|born in|grew up in|moved to|returned to|flew to|arrived (?:at|in)|travell?ed to|"
    rf"university of|lives in|living in)[ \t]+({_PLACE_NAME})(?![ \t]*\d)",
    group=1,
)


def _countries(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    for m in _COUNTRY_CAND.finditer(text):
        words = list(re.finditer(r"\S+", m.group(0)))
        i = 0
        while i < len(words):  # every start in the run ("Visit Germany"), the longest listed name first
            for n in range(len(words), i, -1):  # "United Kingdom", not "United"
                s, e = m.start() + words[i].start(), m.start() + words[n - 1].end()
                if gazetteer.is_country(text[s:e]):
                    yield s, e
                    i = n
                    break
            else:
                i += 1


# a run of up to 8 capitalised words ("Transfers To The United States"); every start in it is tried
_COUNTRY_CAND = re.compile(rf"(?<![\w-])[{UC}][\w.'’]*(?:[ \t]+[{UC}][\w.'’]*){{0,7}}")
FAMILY.add("country", "GPE", 48, _countries)

# "a French film", "We are proud Saudis": nationalities and groups; a language ("studying English", "in Spanish")
# is not one. Lower case counts for nationalities ("i am cambodian"), except the verb "polish".
_LANGUAGE_CUE = re.compile(
    r"(?i)\b(?:speaks?|spoke|spoken|study|studying|studied|learn\w*|in|into|fluent|teach\w*)\s+$"
)
_LOWER_NOT_NRP = frozenset({"polish", "pole"})
_LANGUAGE_LIST_CUE = re.compile(r"(?i)\b(?:languages?|translations?|subtitles?|available in)\s*:?\s*$")
# "English language version", "European Union/Economic Area", "American Express": a language or an institution
_NOT_NRP_AFTER = re.compile(
    r"[ \t]*(?:/[ \t]*)?(?:language|version|translation|edition|subtitles|Union|Economic|Commission|Parliament|"
    r"Council|Court|Central Bank|Express|Airlines)\b"
)
_LIST_GLUE = re.compile(r"[ \t]*(?:,|/|,? and|,? or)[ \t]*")


@cache
def _group_rx() -> re.Pattern[str]:
    """One alternation of every listed nationality and group (longest first), with an optional plural."""
    from pp_graph.anonymize import gazetteer

    demonyms, groups = gazetteer.nationalities()
    alts = "|".join(re.escape(a).replace("\\ ", "[ \t]") for a in sorted(demonyms | groups, key=len, reverse=True))
    return re.compile(rf"(?i)(?<![\w-])({alts})(?:e?s)?(?![\w-])")


def _nationalities(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    groups = gazetteer.nationalities()[1]
    language_end = -1  # the end of the last word read as a language: a list of them goes on ("English and French")
    for m in _group_rx().finditer(text):
        key = re.sub(r"[ \t]", " ", m.group(1).lower())
        if m.group(0)[0].islower() and (key in groups or key in _LOWER_NOT_NRP):
            continue
        before = text[max(0, m.start() - 20) : m.start()]
        listed = language_end >= 0 and _LIST_GLUE.fullmatch(text, language_end, m.start()) is not None
        if listed or _LANGUAGE_CUE.search(before) or _LANGUAGE_LIST_CUE.search(before):
            language_end = m.end()
            continue
        if _NOT_NRP_AFTER.match(text, m.end()):
            continue
        yield m.start(), m.end()


FAMILY.add("nationality", "NRP", 48, _nationalities)
