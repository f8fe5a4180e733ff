"""NER-backed persons, places, organisations and nationalities: the spaCy pipeline's entities (loaded by
``anonymize/ner.py``), mapped to the benchmark types and trimmed, and the filter the hybrid mode applies to them.
These run in an NER mode (``anonymize/modes.py``) after the registry's pattern recognisers, not in the registry:
their spans are one input of the sequence model, not an answer on their own."""

from __future__ import annotations

import re

from pp_graph.anonymize.ner import spacy_doc
from pp_graph.anonymize.recognizers.base import Entity

_NER_LABELS = {"PERSON": "PERSON", "GPE": "GPE", "LOC": "GPE", "ORG": "ORGANIZATION", "NORP": "NRP"}


_ORG_WORDS = re.compile(
    r"(?i)\b(?:inc|llc|ltd|plc|gmbh|ag|sa|co|corp|corporation|company|group|partners|associates|holdings|bank|"
    r"university|college|institute|school|hospital|foundation|agency|council|ministry|department|office|club|"
    r"society|association|network|systems|solutions|technologies|services|media|labs?|studios?|and|&)\b"
)
_NOT_ENTITIES = frozenset({"ATM", "ASAP", "SSN", "PIN", "ID", "OK", "FAQ", "USB", "SMS", "DOB", "CVV", "IBAN", "URL"})
_NAMEISH = re.compile(r"[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-ÿā-ž'’-]+(?:\s+[A-ZÀ-ÖØ-ÞĀ-Ž][a-zß-ÿā-ž'’-]+){1,2}")


def _ner_type(label: str, value: str) -> str | None:
    """The benchmark type of a spaCy entity; a two- or three-word "organisation" that reads like a personal
    name (capitalised words, no company word) is a person — the small pipeline mislabels foreign names."""
    t = _NER_LABELS.get(label)
    if t is None or value in _NOT_ENTITIES:
        return None
    if t == "ORGANIZATION" and _NAMEISH.fullmatch(value) and not _ORG_WORDS.search(value):
        return "PERSON"
    return t


def ner_entities(text: str) -> list[Entity]:
    doc = spacy_doc(text)
    out = []
    for e in doc.ents:
        s, end = e.start_char, e.end_char
        while s < end and not text[s].isalnum():  # nor starts with a quote mark
            s += 1
        cut = re.search(r'[\n|:"“”]', text[s:end])
        if cut:  # an entity does not run across lines, table cells or into quoted speech
            end = s + cut.start()
        while end > s and text[end - 1] in ".,;:'\" \t":  # trailing punctuation is not the name
            end -= 1
        if end > s and text[end - 2 : end] in ("'s", "’s"):
            end -= 2
        if text[s : s + 4].lower() == "the ":
            s += 4
        t = _ner_type(e.label_, text[s:end]) if end > s else None
        if t is not None and not (t == "PERSON" and any(c.isdigit() for c in text[s:end])):
            out.append(Entity(t, s, end, f"ner:{e.label_}"))
    return out


_COMPANY_WORD = re.compile(
    r"(?i:\b(?:inc|llc|ltd|plc|gmbh|ag|sa|co|corp|corporation|company|group|partners|associates|holdings|bank|"
    r"university|college|institute|school|hospital|foundation|agency|council|ministry|department|club|"
    r"society|association|network|systems|solutions|technologies|services|media|labs?|studios?|bureau|"
    r"commission|committee|party|union|airlines?|motors|pharma\w*|energy|telecom\w*|news|times|post)\b)|"
    r"\b[A-Z]{2,5}\b"
)


def kept_spacy(ents: list[Entity], text: str) -> list[Entity]:
    """spaCy's entities as the hybrid mode keeps them. The small pipeline calls most unfamiliar capitalised
    words organisations (names, villages, film genres: dev half, 9 of 123 such tokens right), so one of several
    words needs a company word or an acronym and a one-word one must not be a listed surname ("Microsoft"
    stays); a lone listed first name it called an organisation is a person (not one it called a place:
    "Paris"). A place that is a listed first name or surname (and not a listed country, state or city of 15,000
    people, nor written in capitals) is dropped: it calls unfamiliar personal names places. Any other place stays,
    as a dropped span is a leak ("Silicon Valley")."""
    from pp_graph.anonymize import gazetteer

    out = []
    for x in ents:
        value = text[x.start : x.end]
        if x.type == "ORGANIZATION" and " " not in value and gazetteer.is_first_name(value):
            # "Jordan", "Chad": a first name that is also a country is kept as the place, never dropped
            t = "GPE" if gazetteer.is_country(value) else "PERSON"
            out.append(Entity(t, x.start, x.end, x.recognizer))
            continue
        listed = gazetteer.is_country(value) or value.lower() in gazetteer.cities() or value.isupper()
        if x.recognizer in ("ner:GPE", "ner:LOC") and not listed and _listed_name(value):
            continue  # a listed personal name it called a place; any other place stays (a dropped span leaks)
        spacy_org = x.type == "ORGANIZATION" and x.recognizer == "ner:ORG"
        if spacy_org and not _COMPANY_WORD.search(value) and (" " in value or gazetteer.is_last_name(value)):
            continue
        out.append(x)
    return out


def _listed_name(value: str) -> bool:
    from pp_graph.anonymize import gazetteer

    words = value.split()
    return len(words) == 1 and (gazetteer.is_first_name(value) or gazetteer.is_last_name(value))
