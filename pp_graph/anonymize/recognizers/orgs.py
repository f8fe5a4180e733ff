"""Organisations: a legal-form or sector suffix ("Northwind Traders Ltd"), an employment cue ("works for …"),
firms named after partners' surnames, the employer line of a signature, and what a sentence says of a name
("Persint is a German investment bank")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pp_graph.anonymize.recognizers.base import Family
from pp_graph.anonymize.recognizers.shapes import LC, SIG_MARKS, SIG_NAME, UC, is_name_line, is_stop, is_title_line

FAMILY = Family("orgs")

_ORG_SUFFIX = (
    r"(?:Inc|LLC|Ltd|Corp|Corporation|GmbH|AG|PLC|plc|Co|Group|Partners|Holdings|Bank|Insurance|Capital|Sons|"
    r"Solutions|Systems|Technologies|Software|Labs|Ventures|Associates|Foundation|Institute|University|Agency)"
)
_CAP = r"(?!(?:The|A|An|This|That|Our|My|Your|His|Her|Their|Its)\b)[A-Z][\w&'-]*"
FAMILY.regex(
    "org_suffix",
    "ORGANIZATION",
    27,
    # a name may open with a number ("3 Round Stones Inc")
    rf"\b(?:(?:\d{{1,4}}\s+)?{_CAP}\s+(?:(?:{_CAP}|and|&)\s+){{0,3}}{_ORG_SUFFIX}\b\.?"
    r"|(?:[a-z][\w&'-]*\s+){1,3}(?:inc|llc|ltd|gmbh)\b\.?)",
)
FAMILY.regex(
    "org_cue",
    "ORGANIZATION",
    28,
    r"(?i:\b(?:work(?:s|ed|ing)? (?:for|at)|employed (?:by|at)|(?:ceo|cto|cfo|founder|employee|president) of)\s+)"
    rf"(?:the\s+)?({_CAP}(?:\s+(?:{_CAP}|of|&))*(?<!\sof))"
    rf"|\b[Tt]he\s+({_CAP}(?:\s+{_CAP}){{0,4}})\s+(?:office|headquarters|HQ|branch)\b",
    group=-1,
)

# "Hawkins, Richardson and Santana", "Fritz-Armstrong": firms named after their partners' surnames
_FIRM_LIST = re.compile(
    r"(?<!, )(?<![\w-])([A-Z][a-z'’]+|[a-z][a-z'’]+), ([A-Z][a-z'’]+|[a-z][a-z'’]+),? (?:and|&) "
    r"([A-Z][a-z'’]+|[a-z][a-z'’]+)\b(?!,| and)"
)
_FIRM_PAIR = re.compile(rf"(?<![\w-])([{UC}][{LC}]+)-([{UC}][{LC}]+)\b(?![ \t]+[{UC}])")
_NAME_BEFORE = re.compile(rf"[{UC}][{LC}]+[ \t]+$")  # "Mary Smith-Jones": a double surname, not a firm


def _firms(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    for m in _FIRM_LIST.finditer(text):
        words = m.groups()
        same_case = len({w[0].isupper() for w in words}) == 1
        if same_case and all(gazetteer.is_last_name(w) for w in words) and not all(map(gazetteer.is_first_name, words)):
            yield m.start(), m.end()
    for m in _FIRM_PAIR.finditer(text):
        a, b = m.group(1), m.group(2)
        if _NAME_BEFORE.search(text, max(0, m.start() - 30), m.start()):
            continue
        if gazetteer.is_last_name(a) and gazetteer.is_last_name(b) and not gazetteer.is_first_name(b):
            yield m.start(), m.end()


FAMILY.add("org_firm", "ORGANIZATION", 48, _firms)

# A signature: the short line under the name (or under the job title below it) and above more lines is the
# employer: "Julcsa Kárpáthy / Mhealthcoach / 50668 Kiannonkatu 98", "Karin Beike / Leasing consultant / Acme".
_SIG_LINE = re.compile(r"[^\n]*")
_SIG_ORG = re.compile(r"[^\W\d_][\w&'’.,-]*(?:[ \t]+[\w&'’.,-]+){0,3}")


def _signature_orgs(text: str) -> Iterator[tuple[int, int]]:
    lines = []
    for m in _SIG_LINE.finditer(text):
        s, e = m.start(), m.end()
        while s < e and text[s] in SIG_MARKS:
            s += 1
        while e > s and text[e - 1] in SIG_MARKS:
            e -= 1
        if e > s:
            lines.append((s, e))
    if len(lines) < 3 or not SIG_NAME.fullmatch(text[slice(*lines[0])]):
        return  # a signature opens with the name
    if not is_name_line(text[slice(*lines[0])]):
        return  # "Privacy Policy\nCookie Settings\n…": a heading, not a name, opens it
    i = 2 if is_title_line(text[slice(*lines[1])]) else 1
    s, e = lines[i]
    line = text[s:e]
    if i + 1 >= len(lines) or not _SIG_ORG.fullmatch(line) or is_title_line(line):
        return  # nothing below it (not a block), not a short line, or the job title itself
    if not any(is_stop(w) for w in line.split()):
        yield s, e


FAMILY.add("org_signature", "ORGANIZATION", 48, _signature_orgs)

# An organisation named by what the sentence says of it: "Persint is a German investment bank", "we'll meet at
# Recargo, 73111 …", "according to the Roadify Transit website".
_ORG_NAME = (
    rf"(?!(?:The|A|An|This|That|It|He|She|We|They|I)\b)[{UC}][\w&'’.-]*(?:[ \t]+(?:[{UC}][\w&'’.-]*|of|and|&)){{0,3}}"
)
FAMILY.regex(
    "org_said",
    "ORGANIZATION",
    48,
    rf"(?m:^|(?<=[.!?] ))({_ORG_NAME})(?= is an? (?:[\w-]+ ){{0,5}}(?:company|bank|firm|corporation|startup|"
    r"business|manufacturer|retailer|insurer|provider|agency|organi[sz]ation)\b)"
    rf"|\b(?i:according to|on|visit) the ({_ORG_NAME}) (?=website|web site|app\b|homepage)"
    rf"|(?<=\bmeet )(?:\w+ )?at ({_ORG_NAME}), (?=\d)"
    rf"|\b(?i:the address of) ({_ORG_NAME}) (?=is\b)",
    group=-1,
    check=lambda m: not is_stop(next(g for g in m.groups() if g).split()[0]),  # "Our Company", "Everyone"
)
