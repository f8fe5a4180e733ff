"""Street addresses (house number and street in many languages, a cued address running to the end of its clause,
units, military addresses) and postal codes after their cue. The address-block structure around them is
``structure.address_blocks``, run by the pipeline after these."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pp_graph.anonymize.recognizers.base import Family
from pp_graph.anonymize.recognizers.shapes import STREET_SUFFIX

FAMILY = Family("addresses")

FAMILY.regex(
    "zip_cued",
    "ZIP_CODE",
    18,
    r"(?i)\b(?:zip(?: ?code)?|postal code|postcode)(?:\s+is)?\s*:?\s*([A-Z0-9]{2,5}(?:[- ][A-Z0-9]{3,4})?)\b",
    group=1,
)

_INWORD = (
    r"(?i:stra(?:ss|ß)e|gasse|weg|laan|straat|gate|gata|gatan|vej|veien|vägen|väg|katu|tie|kuja|polku|utca|ulica|rinne)"
)
_LEAD = (
    r"(?:ul\.|al\.|Rue|Via|Viale|Calle|Avenida|Av\.|Rua|Travessa|Carrer|Strada|Piazza|Plaza|Paseo|Chemin|Allée|"
    r"Boulevard)"
)
_W = r"[A-Za-zÀ-ÿĀ-žΑ-ωά-ώ'.-]+"
_CW = r"[A-ZÀ-ÖØ-ÞĀ-ŽΑ-Ω][\w'.-]*"  # a capitalised word: street names before an in-word suffix
_STREET_NUMBER_FIRST = (  # a house number, or a leading street word ("Rue", "ul.") before the number
    rf"\b\d{{1,6}}[A-Za-z]?(?:\s+\d{{1,5}})?\s+(?:{_W}\s+){{0,4}}{STREET_SUFFIX}\b\.?(?:\s+\d{{1,5}}\b)?"
    rf"|(?:\b\d{{1,6}}\s+)?(?i:\b{_LEAD})\s+(?:{_W}\s+){{0,4}}\d{{1,5}}[A-Za-z]?\b"
)
_STREET_SUFFIX_FIRST = (  # a street word or suffix, then the number ("Harjukuja 54", "Main Street 5")
    rf"|(?:\b\d{{1,6}}\s+)?\b(?:{_CW}\s+){{0,3}}[A-Za-zÀ-ÿĀ-ž-]*{_INWORD}\s+\d{{1,5}}[A-Za-z]?\b"
    rf"|(?:\b\d{{1,6}}\s+)?\b(?:{_CW}\s+){{0,3}}[A-Za-zÀ-ÿĀ-ž-]*(?i:{STREET_SUFFIX})\s+\d{{1,5}}[A-Za-z]?\b"
)
STREET = re.compile(_STREET_NUMBER_FIRST + _STREET_SUFFIX_FIRST)
_STREET_NUMBER_ONLY = re.compile(_STREET_NUMBER_FIRST)
# The last two alternatives may start anywhere and backtrack over up to three words (two thirds of this
# recogniser's time). Each match of theirs holds a suffix, blanks and a digit; a text without that can match only
# the first two alternatives, so they alone run on it: the same matches (alternation tries them in order).
_SUFFIX_NUMBER = re.compile(rf"(?i:{STREET_SUFFIX}|{_INWORD})\s+\d")
_DIGIT = re.compile(r"\d")
# "last 10", "first 3": an English word that ends like a street suffix, then a number, is not a street
COMMON_BEFORE_NUMBER = re.compile(r"(?i)(?:last|first|next|most|least|just|past|best|fast|east|west)\s+\d+")


def streets(text: str) -> Iterator[tuple[int, int]]:
    if not _DIGIT.search(text):  # every alternative holds a digit
        return
    rx = STREET if _SUFFIX_NUMBER.search(text) else _STREET_NUMBER_ONLY
    for m in rx.finditer(text):
        if m.end() > m.start() and not COMMON_BEFORE_NUMBER.fullmatch(m.group(0)):
            yield m.span()


FAMILY.add("street", "STREET_ADDRESS", 30, streets)

# An address announced by a cue runs to the end of the clause: "… billing address with <address> for this card".
FAMILY.regex(
    "address_cue",
    "STREET_ADDRESS",
    29,
    r"(?i:\b(?:address(?: of [\w .-]{1,40})? is|address(?: with)?:?|arrived at|sent to\?\s*User:|located at|"
    r"lives (?:at|on)|ship (?:it )?to|deliver (?:it )?to|drops? you off at))\s+"
    r"(\d[^\n.;!?]*?\d\w*(?:[,\s]+[A-Z][\w-]*)*|(?:\d[^.;!?]*?\n[^.;!?]*?\d+))"
    r"(?=\s+(?i:for this card|last night|street|in its|and|on|at)\b|\s*(?:[.;!?]|$))",
    group=1,
)
FAMILY.regex(
    "unit",
    "STREET_ADDRESS",
    31,
    r"(?i)\b(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Flat|Room|PSC|P\.?\s?O\.?\s*Box|Box)\s+\d{1,6}\b"
    r"(?:,?\s+Box\s+\d{1,6})?",
)
# A line of its own "20789 Allika 46" / "233 Erzsébet tér 19." (house number, street, number).
FAMILY.regex(
    "street_line",
    "STREET_ADDRESS",
    31,
    rf"(?m)^[ \t>|]*(\d{{1,6}}\s+(?:{_W}\s+){{1,4}}\d{{1,5}}[A-Za-z]?\.?)[ \t]*$",
    group=1,
)
FAMILY.regex("dpo", "STREET_ADDRESS", 31, r"(?i)\b(?:DPO|APO|FPO)\s+(?:AA|AE|AP)\s+\d{5}\b")
