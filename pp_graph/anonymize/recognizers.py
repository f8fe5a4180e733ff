"""The recogniser registry: PII entities in text with typed character offsets.

Entity types follow the public synthetic PII benchmark (PERSON, STREET_ADDRESS, GPE, ORGANIZATION, CREDIT_CARD,
DATE_TIME, TITLE, PHONE_NUMBER, AGE, NRP, EMAIL_ADDRESS, ZIP_CODE, DOMAIN_NAME, IBAN_CODE, US_SSN, IP_ADDRESS,
US_DRIVER_LICENSE) plus PASSPORT and SECRET (a password or PIN after its cue). Pattern recognisers (checksums,
context cues) run first; names, places, organisations and nationalities come from a spaCy pipeline shipped as a
PyPI package (en_core_web_sm 3.8, MIT, loaded from site-packages: nothing is downloaded at run time). When spans
overlap, the higher-priority recogniser wins, so a card number is never also a phone number. Patterns read the
text normalised (``normalize``: NFKC, no zero-width characters), with spans mapped back to the original.

Add a recogniser with ``@recognizer(name, type, priority)`` over a function ``text -> iterable of (start, end)``.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from pp_graph.anonymize.credentials import PASSWORD, PIN, value_span
from pp_graph.anonymize.emails import EMAIL, OBFUSCATED_EMAIL
from pp_graph.anonymize.ner import NER_PACKAGE as NER_PACKAGE
from pp_graph.anonymize.ner import NERUnavailable as NERUnavailable
from pp_graph.anonymize.ner import freeze_heap as freeze_process_heap
from pp_graph.anonymize.ner import spacy_doc
from pp_graph.anonymize.normalize import normalized
from pp_graph.checksums import iban_ok, luhn_ok
from pp_graph.errors import ConfigError

TYPES = (
    "PERSON",
    "STREET_ADDRESS",
    "GPE",
    "ORGANIZATION",
    "CREDIT_CARD",
    "DATE_TIME",
    "TITLE",
    "PHONE_NUMBER",
    "AGE",
    "NRP",
    "EMAIL_ADDRESS",
    "ZIP_CODE",
    "DOMAIN_NAME",
    "IBAN_CODE",
    "US_SSN",
    "IP_ADDRESS",
    "US_DRIVER_LICENSE",
    "PASSPORT",
    "SECRET",
)


@dataclass(frozen=True, slots=True)
class Entity:
    type: str
    start: int
    end: int
    recognizer: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "start": self.start, "end": self.end, "recognizer": self.recognizer}


@dataclass(frozen=True, slots=True)
class Detected:
    """The entities one detection found, with its provenance: the NER mode's name and the digest of the models it
    ran. A rewrite of them records these (``guard_text``), so a record names the detector that judged the text."""

    entities: tuple[Entity, ...]
    mode: str
    detector: str | None


Finder = Callable[[str], Iterable[tuple[int, int]]]


@dataclass(frozen=True)
class Recognizer:
    name: str
    type: str
    priority: int  # lower runs first and wins overlaps
    find: Finder


REGISTRY: dict[str, Recognizer] = {}


def recognizer(name: str, type_: str, priority: int) -> Callable[[Finder], Finder]:
    if type_ not in TYPES:
        raise ConfigError(f"unknown entity type {type_!r}")

    def register(fn: Finder) -> Finder:
        REGISTRY[name] = Recognizer(name, type_, priority, fn)
        return fn

    return register


def regex(name: str, type_: str, priority: int, pattern: str, group: int = 0, check: Any = None) -> None:
    rx = re.compile(pattern)

    def find(text: str) -> Iterator[tuple[int, int]]:
        for m in rx.finditer(text):
            # group -1: the first alternative's group that took part in the match
            g = group if group >= 0 else next((i for i in range(1, len(m.groups()) + 1) if m.group(i)), 0)
            if m.group(g) and (check is None or check(m)):
                yield m.start(g), m.end(g)

    REGISTRY[name] = Recognizer(name, type_, priority, find)


# ---- checksums ----


def _ip_ok(m: re.Match[str]) -> bool:
    try:
        ipaddress.ip_address(m.group(0))
    except ValueError:
        return False
    return ":" not in m.group(0) or m.group(0).count(":") >= 2


_CARD_CUE = re.compile(r"(?i)\b(?:card|visa|mastercard|amex|credit|debit|cc)\b[^.?!\n]{0,30}$")


def _card_ok(m: re.Match[str]) -> bool:
    digits = re.sub(r"[ -]", "", m.group(0))
    return luhn_ok(digits) or bool(_CARD_CUE.search(m.string[max(0, m.start() - 40) : m.start()]))


# ---- structured identifiers (priority 10–40) ----


def _secret_values(pattern: str) -> Finder:
    """The secret after its cue ("password hunter2" → hunter2), not the cue (credentials.py)."""
    rx = re.compile(pattern)

    def find(text: str) -> Iterator[tuple[int, int]]:
        return (value_span(m) for m in rx.finditer(text))

    return find


recognizer("password", "SECRET", 9)(_secret_values(PASSWORD))
recognizer("pin", "SECRET", 9)(_secret_values(PIN))
regex("email", "EMAIL_ADDRESS", 10, EMAIL)  # Unicode, IDN and quoted forms (emails.py)
regex("email_obfuscated", "EMAIL_ADDRESS", 10, OBFUSCATED_EMAIL)  # john [at] example [dot] com
regex("iban", "IBAN_CODE", 11, r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b", check=lambda m: iban_ok(m.group(0)))
regex("url", "DOMAIN_NAME", 12, r"\bhttps?://[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]")
regex(
    "domain",
    "DOMAIN_NAME",
    13,
    r"(?<![\w@.-])(?:www\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|org|net|info|biz|io|co|edu|gov|"
    r"[a-z]{2})(?:\.[a-z]{2})?(?:/[^\s]*[^\s.,;:!?])?(?![\w@-])",
    check=lambda m: "." in m.group(0) and not re.fullmatch(r"[\d.]+", m.group(0)) and not m.group(0)[0].isdigit(),
)
regex("ipv4", "IP_ADDRESS", 14, r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])", check=_ip_ok)
regex("ipv6", "IP_ADDRESS", 14, r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])", check=_ip_ok)
regex("ssn", "US_SSN", 15, r"\b(?!000|666)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b")
regex(
    "ssn_cued",
    "US_SSN",
    15,
    r"(?i)\b(?:ssn|social security(?: number)?)\b[^\d\n]{0,20}(\d{3}[ .]?\d{2}[ .]?\d{4})\b",
    group=1,
)
regex("card", "CREDIT_CARD", 16, r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])", check=_card_ok)
regex(
    "driver_license",
    "US_DRIVER_LICENSE",
    17,
    r"(?i)\bdriver'?s?\s+licen[cs]e(?:\s+(?:number|no\.?|#))?(?:\s+is)?\s*[:#]?\s*([A-Z0-9][A-Z0-9-]{4,19})\b",
    group=1,
)
regex(
    "passport",
    "PASSPORT",
    17,
    r"(?i)\bpassport(?:\s+(?:number|no\.?|#))?(?:\s+is)?\s*[:#]?\s*([A-Z0-9]{6,12})\b",
    group=1,
)
regex(
    "zip_cued",
    "ZIP_CODE",
    18,
    r"(?i)\b(?:zip(?: ?code)?|postal code|postcode)(?:\s+is)?\s*:?\s*([A-Z0-9]{2,5}(?:[- ][A-Z0-9]{3,4})?)\b",
    group=1,
)

# ---- dates, ages, titles (priority 20–30) ----

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


regex(
    "date",
    "DATE_TIME",
    20,
    r"\b(?:\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\.?,?\s+\d{{4}}|"
    rf"{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|{_MONTH}\s+\d{{4}})\b",
    check=_date_ok,
)
regex(
    "weekday",
    "DATE_TIME",
    21,
    r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b(?:\s+(?:morning|afternoon|evening|night))?",
)
regex(
    "year",
    "DATE_TIME",
    22,
    r"(?i:\b(?:in|since|of|until|from|by|year|circa|founded|a|the)\s+)((?:1[5-9]|20)\d{2})\b"
    r"|\b((?:1[5-9]|20)\d{2})(?= (?:[A-Z][a-z]+ )?(?:film|movie|action|drama|comedy|book|novel|album|song))",
    group=-1,
)
regex("time", "DATE_TIME", 23, r"(?i)\b\d{1,2}(?::\d{2})?\s?(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b\d{1,2}:\d{2}(?::\d{2})?\b")
regex(
    "age",
    "AGE",
    24,
    r"(?i)\b(\d{1,3})(?=[- ]?(?:years?|yrs?)[- ]old\b)"
    r"|(?i:\b(?:turn(?:ed|ing|s)?|age(?:d| of|:)?|when (?:he|she|i|they|we) (?:was|were)|i am|i'm)\s+)(\d{1,3})"
    r"(?![\d,.:/-]\d)\b",
    group=-1,
)
regex(
    "honorific",
    "TITLE",
    25,
    r"(?i)\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame|Rev|Fr|Sr|Lord|Lady)\b\.?(?=\s+[A-Za-zÀ-ÿ])",
)

# A job title in apposition or after "as": "Marie Langrová, the Packager, said" / "works for X as Midwife, but".
regex(
    "job_title",
    "TITLE",
    26,
    r"(?:,\s+the\s+|\bas\s+(?:an?\s+)?)([A-Z][\w-]*(?:\s+[a-z][\w-]*){0,2})(?=,|\s+but\b|\s+said\b)",
    group=1,
)

# A job title on a line of its own, as in a signature under the name: "Leasing consultant", "Echocardiographer".
_JOB_HEAD = (
    r"(?:manager|director|consultant|engineer|developer|designer|analyst|assistant|officer|specialist|technician|"
    r"installer|cleaner|writer|editor|nurse|teacher|clerk|coordinator|administrator|accountant|architect|"
    r"secretary|supervisor|operator|inspector|advis[oe]r|agent|representative|scientist|therapist|surgeon|"
    r"physician|lawyer|attorney|paralegal|librarian|pharmacist|mechanic|electrician|plumber|carpenter|driver|"
    r"pilot|chef|cook|baker|cashier|receptionist|producer|president|executive|intern|worker|labou?rer|planner|"
    r"buyer|auditor|controller|strategist|programmer|surveyor|dentist|midwife|packager|porter|caretaker|"
    r"gardener|farmer|fitter|welder|machinist|tester|trainer|instructor|lecturer|professor|tutor|counsell?or|"
    r"broker|dispatcher|courier|steward|waiter|waitress|bartender|barista|[a-z]+grapher|[a-z]+ologist|"
    r"[a-z]+ician|(?:art|journal|econom|chem|dent|pharmac|physic|novel|pian|guitar|violin|flor|typ|styl|hygien|"
    r"column|lobby|special|therap|psychiatr|orthodont|anaesthet|anesthet|machin|cartoon|copy)ist)"
)
_TITLE_LINE = re.compile(
    rf"(?m)(?<=\n)[ \t>|]*((?:[A-Za-z][a-z-]*[ \t]+){{0,3}}(?i:{_JOB_HEAD})(?:[ \t]+of[ \t]+[A-Za-z][a-z]+)?)[ \t]*$"
)
_TITLE_GLUE = frozenset({"of", "and"})


def _title_lines(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    stop = gazetteer.stop_words()
    for m in _TITLE_LINE.finditer(text):
        words = m.group(1).lower().split()
        if any(w in stop and w not in _TITLE_GLUE for w in words):  # "Call the manager" is not a title
            continue
        line_start = text.rfind("\n", 0, m.start(1))
        above = text[text.rfind("\n", 0, line_start) + 1 : line_start]
        if _is_name_line(
            above.strip(_SIG_MARKS), listed=False
        ):  # "Overview\nData Controller" is a heading, not a title
            yield m.start(1), m.end(1)


def _is_name_line(line: str, listed: bool = True) -> bool:
    """A signature's name line: two or three words in one case, none a function word, and (``listed``) opening
    with a listed first name or closing with a listed surname, neither a common word ("Jane Roe", "Cormac Allan";
    not "Privacy Notice"). A job title's line asks only the shape (dev half: TITLE F1 0.885 listed, 0.910 not)."""
    from pp_graph.anonymize import gazetteer

    words = line.split()
    same_case = all(w[0].isupper() for w in words) or all(w.islower() for w in words)
    if not (_SIG_NAME.fullmatch(line) and same_case) or any(_stop(w) for w in words):
        return False
    if not listed:
        return True
    first = gazetteer.is_first_name(words[0]) and not gazetteer.is_common_word_name(words[0])
    return first or (gazetteer.is_last_name(words[-1]) and not gazetteer.is_common_word_name(words[-1]))


REGISTRY["title_line"] = Recognizer("title_line", "TITLE", 26, _title_lines)

# ---- organisations (priority 27–28): a legal-form or sector suffix, or an employment cue ----

_ORG_SUFFIX = (
    r"(?:Inc|LLC|Ltd|Corp|Corporation|GmbH|AG|PLC|plc|Co|Group|Partners|Holdings|Bank|Insurance|Capital|Sons|"
    r"Solutions|Systems|Technologies|Software|Labs|Ventures|Associates|Foundation|Institute|University|Agency)"
)
_CAP = r"(?!(?:The|A|An|This|That|Our|My|Your|His|Her|Their|Its)\b)[A-Z][\w&'-]*"
regex(
    "org_suffix",
    "ORGANIZATION",
    27,
    # a name may open with a number ("3 Round Stones Inc")
    rf"\b(?:(?:\d{{1,4}}\s+)?{_CAP}\s+(?:(?:{_CAP}|and|&)\s+){{0,3}}{_ORG_SUFFIX}\b\.?"
    r"|(?:[a-z][\w&'-]*\s+){1,3}(?:inc|llc|ltd|gmbh)\b\.?)",
)
regex(
    "org_cue",
    "ORGANIZATION",
    28,
    r"(?i:\b(?:work(?:s|ed|ing)? (?:for|at)|employed (?:by|at)|(?:ceo|cto|cfo|founder|employee|president) of)\s+)"
    rf"(?:the\s+)?({_CAP}(?:\s+(?:{_CAP}|of|&))*(?<!\sof))"
    rf"|\b[Tt]he\s+({_CAP}(?:\s+{_CAP}){{0,4}})\s+(?:office|headquarters|HQ|branch)\b",
    group=-1,
)

# ---- addresses (priority 30–35) ----

_SUFFIX = (
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|"
    r"Square|Sq|Parkway|Pkwy|Highway|Hwy|Crescent|Close|Circle|Cir|Trail|Row|Alley|Plaza|Loop|Path|Pike|"
    r"Ridge|Mews|Walk|Hill|Park|Gardens|Grove|Heights|Point|Estate|Rue|Route|Chaussee)"
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
    rf"\b\d{{1,6}}[A-Za-z]?(?:\s+\d{{1,5}})?\s+(?:{_W}\s+){{0,4}}{_SUFFIX}\b\.?(?:\s+\d{{1,5}}\b)?"
    rf"|(?:\b\d{{1,6}}\s+)?(?i:\b{_LEAD})\s+(?:{_W}\s+){{0,4}}\d{{1,5}}[A-Za-z]?\b"
)
_STREET_SUFFIX_FIRST = (  # a street word or suffix, then the number ("Harjukuja 54", "Main Street 5")
    rf"|(?:\b\d{{1,6}}\s+)?\b(?:{_CW}\s+){{0,3}}[A-Za-zÀ-ÿĀ-ž-]*{_INWORD}\s+\d{{1,5}}[A-Za-z]?\b"
    rf"|(?:\b\d{{1,6}}\s+)?\b(?:{_CW}\s+){{0,3}}[A-Za-zÀ-ÿĀ-ž-]*(?i:{_SUFFIX})\s+\d{{1,5}}[A-Za-z]?\b"
)
_STREET = re.compile(_STREET_NUMBER_FIRST + _STREET_SUFFIX_FIRST)
_STREET_NUMBER_ONLY = re.compile(_STREET_NUMBER_FIRST)
# The last two alternatives may start anywhere and backtrack over up to three words (two thirds of this
# recogniser's time). Each match of theirs holds a suffix, blanks and a digit; a text without that can match only
# the first two alternatives, so they alone run on it: the same matches (alternation tries them in order).
_SUFFIX_NUMBER = re.compile(rf"(?i:{_SUFFIX}|{_INWORD})\s+\d")
_DIGIT = re.compile(r"\d")
# "last 10", "first 3": an English word that ends like a street suffix, then a number, is not a street
_COMMON_BEFORE_NUMBER = re.compile(r"(?i)(?:last|first|next|most|least|just|past|best|fast|east|west)\s+\d+")


@recognizer("street", "STREET_ADDRESS", 30)
def _streets(text: str) -> Iterator[tuple[int, int]]:
    if not _DIGIT.search(text):  # every alternative holds a digit
        return
    rx = _STREET if _SUFFIX_NUMBER.search(text) else _STREET_NUMBER_ONLY
    for m in rx.finditer(text):
        if m.end() > m.start() and not _COMMON_BEFORE_NUMBER.fullmatch(m.group(0)):
            yield m.span()


# An address announced by a cue runs to the end of the clause: "… billing address with <address> for this card".
regex(
    "address_cue",
    "STREET_ADDRESS",
    29,
    r"(?i:\b(?:address(?: of [\w .-]{1,40})? is|address(?: with)?:?|arrived at|sent to\?\s*User:|located at|"
    r"lives (?:at|on)|ship (?:it )?to|deliver (?:it )?to|drops? you off at))\s+"
    r"(\d[^\n.;!?]*?\d\w*(?:[,\s]+[A-Z][\w-]*)*|(?:\d[^.;!?]*?\n[^.;!?]*?\d+))"
    r"(?=\s+(?i:for this card|last night|street|in its|and|on|at)\b|\s*(?:[.;!?]|$))",
    group=1,
)
regex(
    "unit",
    "STREET_ADDRESS",
    31,
    r"(?i)\b(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Flat|Room|PSC|P\.?\s?O\.?\s*Box|Box)\s+\d{1,6}\b"
    r"(?:,?\s+Box\s+\d{1,6})?",
)
# A line of its own "20789 Allika 46" / "233 Erzsébet tér 19." (house number, street, number).
regex(
    "street_line",
    "STREET_ADDRESS",
    31,
    rf"(?m)^[ \t>|]*(\d{{1,6}}\s+(?:{_W}\s+){{1,4}}\d{{1,5}}[A-Za-z]?\.?)[ \t]*$",
    group=1,
)
regex("dpo", "STREET_ADDRESS", 31, r"(?i)\b(?:DPO|APO|FPO)\s+(?:AA|AE|AP)\s+\d{5}\b")

# ---- phone numbers (priority 40): digit groups with 7–15 digits that nothing above claimed ----


def _phone_ok(m: re.Match[str]) -> bool:
    s = m.group(0)
    digits = sum(c.isdigit() for c in s)
    groups = len(re.findall(r"\d+", s))
    return 7 <= digits <= 15 and (groups >= 2 or s.startswith("+") or digits == 10)


regex(
    "phone",
    "PHONE_NUMBER",
    40,
    # a bare run of 10 digits, or groups; "-Office" / "-Fax" may follow a number in a signature
    r"(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(0?\d{1,4}\)[ .-]?)?(?:\d{10}|\d{2,5}(?:[ .-]\d{2,5}){0,4})(?:\s?x\d{1,5})?"
    r"(?![\w]|-\d)",
    check=_phone_ok,
)

# ---- NER (priority 50+) ----

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


_NAME_CUE = re.compile(
    r"(?:(?i:my name is|this is|i am|i'm|name:|called|named(?: him| her)?|call me|signed,?|"
    r"(?:directed|written|produced|posted|sent) by:?|"
    r"(?:first|last|full) name(?:\??:|\?| is:?)|name on the account(?: is)?\??:?(?:\s+User:)?|"
    r"under (?:my |the |her |his )?(?:\w+'s )?name)[ \t]+|"
    r"(?i:\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame)\b)\.?[ \t]+)"
    # a name does not run across lines nor into an address unit ("Mrs. Barbara Yudina Apt. 675"); a middle
    # initial may go without its full stop ("Ruth R Montez")
    r"((?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'-]+|[A-Z]\.)"
    r"(?:[ \t]+(?!(?:Apt|Suite|Ste|Unit|Flat|Room|Box)\b)(?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'-]+|[A-Z]\.|[A-Z](?=[ \t]+[A-Z]))){0,3})"
)


def _cued_names(text: str) -> Iterator[tuple[int, int]]:
    for m in _NAME_CUE.finditer(text):
        e = m.end(1) - 2 if m.group(1).endswith(("'s", "’s")) else m.end(1)
        yield m.start(1), e


REGISTRY["name_cue"] = Recognizer("name_cue", "PERSON", 45, _cued_names)


# ---- name, firm and place shapes checked against name lists (gazetteer.py; priority 46–48) ----

_UC = "A-ZÀ-ÖØ-ÞĀ-Ž"
_LC = "a-zß-ÿā-ž"
_NAME_WORD = rf"[{_UC}][{_LC}'’]+(?:-[{_UC}][{_LC}'’]+)?"
# "Shane M Culp", "John F. Kennedy": a middle initial between two name words (not "A"/"I", English words)
_INITIAL_NAME = re.compile(rf"\b({_NAME_WORD})[ \t]+[B-HJ-Z]\.?[ \t]+({_NAME_WORD})\b")
# "James Talbot", "Mary Ann Smith": a listed first name, then one or two capitalised words
_LISTED_NAME = re.compile(rf"\b({_NAME_WORD})((?:[ \t]+{_NAME_WORD}){{1,2}})\b")


def _stop(word: str) -> bool:
    from pp_graph.anonymize import gazetteer

    return gazetteer.is_stop_word(word)


def _weak_first_name(words: list[str]) -> bool:
    """A first name that is a common English word ("Rich Media Ads", "Mark Read") without its last word a listed
    surname that is not one too: too weak to be a person."""
    from pp_graph.anonymize import gazetteer

    last = words[-1]
    strong = gazetteer.is_last_name(last) and not gazetteer.is_common_word_name(last)
    return gazetteer.is_common_word_name(words[0]) and not strong


def _initial_names(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    for m in _INITIAL_NAME.finditer(text):
        first, last = m.group(1), m.group(2)
        if _stop(first) or _stop(last):
            continue
        if gazetteer.is_first_name(first) or gazetteer.is_last_name(last):
            yield m.start(), m.end() - 2 if m.group(0).endswith(("'s", "’s")) else m.end()


def _possessive_cut(text: str, start: int, end: int) -> int:
    """The end of a name that stops at its first possessive word: "Terence Vassiliev's Cautionary" ends before
    the 's, not after the next word."""
    for w in re.finditer(r"\S+", text[start:end]):
        if w.group(0).endswith(("'s", "’s")):
            return start + w.end() - 2
    return end


def _listed_name_at(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    from pp_graph.anonymize import gazetteer

    end = _possessive_cut(text, m.start(), m.end())
    first, rest = m.group(1), text[m.end(1) : end].split()
    if not rest or not gazetteer.is_first_name(first) or gazetteer.is_country(first) or any(_stop(w) for w in rest):
        return None
    if _weak_first_name([first, *rest]):
        return None
    if any(gazetteer.is_country(w) or (re.fullmatch(_SUFFIX, w) and not gazetteer.is_last_name(w)) for w in rest):
        return None  # "Georgia Avenue", "Mary Road": a place ("Linda Park": a listed surname, a person)
    return m.start(), end


def _listed_names(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    while (m := _LISTED_NAME.search(text, pos)) is not None:
        span = _listed_name_at(text, m)
        if span is not None:
            yield span
            pos = span[1]
        else:  # retry from the next word: "Contact James Talbot", "Sales Rep Linda Park"
            pos = m.end(1)


REGISTRY["name_initial"] = Recognizer("name_initial", "PERSON", 46, _initial_names)

# "they had 6: silvana, adam, christopher, kristina, chad and caleb": an enumeration of single words, most of them
# listed first names, is a list of people (in any case; name propagation covers capitalised lists with a person).
_WORD_LIST = re.compile(r"(?<![\w,] )(?<![\w-])[^\W\d_]+(?:, [^\W\d_]+)+,? and [^\W\d_]+(?![\w-])")
_LIST_MEMBER = re.compile(r"[^\W\d_]+")


def _name_lists(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    for m in _WORD_LIST.finditer(text):
        members = [x for x in _LIST_MEMBER.finditer(m.group(0)) if x.group(0) != "and"]
        listed = sum(gazetteer.is_first_name(x.group(0)) for x in members)
        if len(members) >= 3 and 3 * listed >= 2 * len(members) and not any(_stop(x.group(0)) for x in members):
            yield from ((m.start() + x.start(), m.start() + x.end()) for x in members)


# A signature's first line: "Cormac Allan" / "aksel kristensen" above a title, firm or address line.
_SIGNATURE_NAME = re.compile(r"\A[ \t>|\n]*([^\W\d_][\w'’-]+(?:[ \t]+[^\W\d_][\w'’.-]*){1,2})[ \t]*\n[ \t>|]*\S")


def _signature_names(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    m = _SIGNATURE_NAME.match(text)
    if m is None:
        return
    words = m.group(1).split()
    same_case = all(w[0].isupper() for w in words) or all(w.islower() for w in words)
    # a listed first name opens it: a listed surname alone is too weak ("Hello World")
    if (
        same_case
        and not any(_stop(w) for w in words)
        and gazetteer.is_first_name(words[0])
        and not _weak_first_name(words)
    ):
        yield m.start(1), m.end(1)


REGISTRY["name_list"] = Recognizer("name_list", "PERSON", 46, _name_lists)
REGISTRY["name_signature"] = Recognizer("name_signature", "PERSON", 46, _signature_names)
REGISTRY["name_listed"] = Recognizer("name_listed", "PERSON", 47, _listed_names)

# "Hawkins, Richardson and Santana", "Fritz-Armstrong": firms named after their partners' surnames
_FIRM_LIST = re.compile(
    r"(?<!, )(?<![\w-])([A-Z][a-z'’]+|[a-z][a-z'’]+), ([A-Z][a-z'’]+|[a-z][a-z'’]+),? (?:and|&) "
    r"([A-Z][a-z'’]+|[a-z][a-z'’]+)\b(?!,| and)"
)
_FIRM_PAIR = re.compile(rf"(?<![\w-])([{_UC}][{_LC}]+)-([{_UC}][{_LC}]+)\b(?![ \t]+[{_UC}])")
_NAME_BEFORE = re.compile(rf"[{_UC}][{_LC}]+[ \t]+$")  # "Mary Smith-Jones": a double surname, not a firm


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


REGISTRY["org_firm"] = Recognizer("org_firm", "ORGANIZATION", 48, _firms)

# A signature: the short line under the name (or under the job title below it) and above more lines is the
# employer: "Julcsa Kárpáthy / Mhealthcoach / 50668 Kiannonkatu 98", "Karin Beike / Leasing consultant / Acme".
_SIG_LINE = re.compile(r"[^\n]*")
_SIG_NAME = re.compile(r"[^\W\d_][\w'’.-]*(?:[ \t]+[^\W\d_][\w'’.-]*){1,2}")
_SIG_ORG = re.compile(r"[^\W\d_][\w&'’.,-]*(?:[ \t]+[\w&'’.,-]+){0,3}")
_SIG_MARKS = " \t>|"


def _is_title_line(line: str) -> bool:
    return _TITLE_LINE.search("\n" + line) is not None


def _signature_orgs(text: str) -> Iterator[tuple[int, int]]:
    lines = []
    for m in _SIG_LINE.finditer(text):
        s, e = m.start(), m.end()
        while s < e and text[s] in _SIG_MARKS:
            s += 1
        while e > s and text[e - 1] in _SIG_MARKS:
            e -= 1
        if e > s:
            lines.append((s, e))
    if len(lines) < 3 or not _SIG_NAME.fullmatch(text[slice(*lines[0])]):
        return  # a signature opens with the name
    if not _is_name_line(text[slice(*lines[0])]):
        return  # "Privacy Policy\nCookie Settings\n…": a heading, not a name, opens it
    i = 2 if _is_title_line(text[slice(*lines[1])]) else 1
    s, e = lines[i]
    line = text[s:e]
    if i + 1 >= len(lines) or not _SIG_ORG.fullmatch(line) or _is_title_line(line):
        return  # nothing below it (not a block), not a short line, or the job title itself
    if not any(_stop(w) for w in line.split()):
        yield s, e


REGISTRY["org_signature"] = Recognizer("org_signature", "ORGANIZATION", 48, _signature_orgs)

# An organisation named by what the sentence says of it: "Persint is a German investment bank", "we'll meet at
# Recargo, 73111 …", "according to the Roadify Transit website".
_ORG_NAME = (
    rf"(?!(?:The|A|An|This|That|It|He|She|We|They|I)\b)[{_UC}][\w&'’.-]*(?:[ \t]+(?:[{_UC}][\w&'’.-]*|of|and|&)){{0,3}}"
)
regex(
    "org_said",
    "ORGANIZATION",
    48,
    rf"(?m:^|(?<=[.!?] ))({_ORG_NAME})(?= is an? (?:[\w-]+ ){{0,5}}(?:company|bank|firm|corporation|startup|"
    r"business|manufacturer|retailer|insurer|provider|agency|organi[sz]ation)\b)"
    rf"|\b(?i:according to|on|visit) the ({_ORG_NAME}) (?=website|web site|app\b|homepage)"
    rf"|(?<=\bmeet )(?:\w+ )?at ({_ORG_NAME}), (?=\d)"
    rf"|\b(?i:the address of) ({_ORG_NAME}) (?=is\b)",
    group=-1,
    check=lambda m: not _stop(next(g for g in m.groups() if g).split()[0]),  # "Our Company", "Everyone"
)

# A place named by a travel or origin cue: "originally from ESPOO", "arrived at Khandallah this morning".
_PLACE_NAME = rf"[{_UC}][\w'’-]*(?:[ \t]+(?:[{_UC}][\w'’-]*|de|del|la|le|nad|am|an|upon|on)){{0,3}}"
regex(
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
_COUNTRY_CAND = re.compile(rf"(?<![\w-])[{_UC}][\w.'’]*(?:[ \t]+[{_UC}][\w.'’]*){{0,7}}")
REGISTRY["country"] = Recognizer("country", "GPE", 48, _countries)

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


REGISTRY["nationality"] = Recognizer("nationality", "NRP", 48, _nationalities)


class Occupied:
    """Non-overlapping taken spans with O(log n) look-ups (texts can hold tens of thousands of entities)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, s: int, e: int) -> bool:
        i = bisect.bisect_right(self.starts, s)
        if i and self.ends[i - 1] > s:  # the span starting at or before s reaches into [s, e)
            return False
        return i == len(self.starts) or self.starts[i] >= e

    def take(self, s: int, e: int) -> None:
        i = bisect.bisect_right(self.starts, s)
        self.starts.insert(i, s)
        self.ends.insert(i, e)


# Public: the building blocks of an NER mode registered from outside (``register_mode``).
def resolve(cands: list[tuple[int, int, Entity]], taken: list[Entity]) -> list[Entity]:
    occ = Occupied()
    for o in sorted(taken, key=lambda x: x.start):
        occ.take(o.start, o.end)
    for _, _, ent in sorted(cands, key=lambda c: (c[0], c[1], c[2].start)):
        if occ.free(ent.start, ent.end):
            occ.take(ent.start, ent.end)
            taken.append(ent)
    return taken


# The types the sequence model owns: pattern spans of these types are its features, not the answer.
SOFT_TYPES = frozenset({"PERSON", "ORGANIZATION", "GPE", "STREET_ADDRESS", "TITLE", "NRP", "ZIP_CODE"})
# In the hybrid mode the sequence model decides these types only (chosen by cross-validation on the dev half).
CRF_OWN = frozenset({"STREET_ADDRESS"})
CRF_FILL = frozenset({"PERSON"})  # the model adds persons where nothing else found one (dev CV: +0.2 pt)


def clip(spans: list[tuple[str, int, int]], hard: list[Entity], text: str) -> list[tuple[str, int, int]]:
    """Model spans minus the structured entities inside them ("… 97403 before Friday" keeps the address part)."""
    out = []
    for t, s, e in spans:
        cuts = [(x.start, x.end) for x in hard if x.start < e and s < x.end]
        cuts += [(s + m.start(), s + m.end()) for m in _QUOTE_MARK.finditer(text[s:e])]  # "\n> " of a quoted reply
        clause = _CLAUSE.search(text, s, e)  # "… Springfield and works for …": the address ended before the verb
        if clause:
            cuts.append((clause.start(), e))
        cuts.sort()
        for a, b in cuts:
            if a > s:
                out.append((t, s, a))
            s = max(s, b)
        out.append((t, s, e))
    trimmed = []
    for t, s, e in out:
        while True:  # leading "is"/"at" ("… is 12 Main St") is not the address
            first = _FIRST_WORD.match(text, s, e)
            if not first or first.group(1).lower() not in _HEAD_WORDS:
                break
            s = first.end()
        while True:  # trailing blanks and function words ("… 97403 before") are not the address
            while e > s and text[e - 1].isspace():
                e -= 1
            last = _LAST_WORD.search(text, s, e)
            if not last or last.group(0).lower() not in _TAIL_WORDS:
                break
            e = last.start()
        if e - s > 4 and text[e - 1] == "." and re.search(r"[^\W\d_]{4}$", text[s : e - 1]):
            e -= 1  # the full stop after "… Springfield." ends the sentence, not an abbreviation
        if any(c.isalnum() for c in text[s:e]):
            trimmed.append((t, s, e))
    return trimmed


_CLAUSE = re.compile(r"\s+(?:and|but|who|which|where)\s+[a-z]{3,}\b(?!\.)")
_FIRST_WORD = re.compile(r"(\w+)\s+")
_LAST_WORD = re.compile(r"\w+$")
_HEAD_WORDS = frozenset({"is", "at", "to", "in", "on", "from"})
_TAIL_WORDS = frozenset({"before", "after", "for", "in", "on", "at", "last", "and", "the", "to", "by", "please", "or"})
_QUOTE_MARK = re.compile(r"\n[ \t]*[>|][>| \t]*")
_NUMBER_WORD = re.compile(r"\d+[ \t]+[^\W\d_]")
_LETTERS = re.compile(r"[^\W\d_]{3,}")


def _plausible(span: tuple[str, int, int], streets: list[tuple[int, int]], text: str) -> bool:
    """A model address either extends a pattern street match or reads like one on its own (a number followed by
    a word, and at least two words): "3... 2... 1... liftoff" or "They had 6: Anna, …" are not addresses."""
    t, s, e = span
    if t != "STREET_ADDRESS" or any(a < e and s < b for a, b in streets):
        return True
    value = text[s:e]
    return bool(_NUMBER_WORD.search(value)) and len(_LETTERS.findall(value)) >= 2


def rule_entities(text: str) -> list[Entity]:
    """The pattern recognisers and the address-block structure, overlaps resolved (no statistical model)."""
    from pp_graph.anonymize.structure import address_blocks

    # Patterns read the normalised text (full-width forms, zero-width characters, combining accents); spans map
    # back to the original, where overlaps are resolved.
    norm = normalized(text)
    cands: list[tuple[int, int, Entity]] = []
    for r in sorted(REGISTRY.values(), key=lambda r: (r.priority, r.name)):
        for s, e in r.find(norm.text):
            if e > s:
                s, e = norm.span(s, e)
                cands.append((r.priority, -(e - s), Entity(r.type, s, e, r.name)))
    taken = resolve(cands, [])
    streets = [(x.start, x.end) for x in taken if x.type == "STREET_ADDRESS"]
    block = [(29, -(e - s), Entity(t, s, e, "address_block")) for t, s, e in address_blocks(text, streets)]
    return resolve(block, taken)


def hybrid(text: str, taken: list[Entity], model_decides_all: bool = False) -> list[Entity]:
    """The sequence model (pattern and spaCy labels as features) decides street-address runs and adds persons
    nothing else found; the soft pattern spans and spaCy fill the rest. ``model_decides_all``: the model alone
    decides every soft type (the ablation the choice was measured against)."""
    from pp_graph.anonymize import crf

    spacy_ents = ner_entities(text)
    model = crf.predict(text, [(x.type, x.start, x.end) for x in taken], [(x.type, x.start, x.end) for x in spacy_ents])
    hard = [x for x in taken if x.type not in SOFT_TYPES]
    if model_decides_all:
        return resolve([(50, -(e - s), Entity(t, s, e, "crf")) for t, s, e in model], hard)
    soft = [(51, -(x.end - x.start), x) for x in taken if x.type in SOFT_TYPES]
    streets = [(x.start, x.end) for x in taken if x.type == "STREET_ADDRESS"]
    own = [x for x in clip([m for m in model if m[0] in CRF_OWN], hard, text) if _plausible(x, streets, text)]
    out = resolve([(50, -(e - s), Entity(t, s, e, "crf")) for t, s, e in own], hard)
    out = resolve(soft, out)
    out = resolve([(55, -(x.end - x.start), x) for x in _kept_spacy(spacy_ents, text)], out)
    return resolve([(56, -(e - s), Entity(t, s, e, "crf")) for t, s, e in model if t in CRF_FILL], out)


_COMPANY_WORD = re.compile(
    r"(?i:\b(?:inc|llc|ltd|plc|gmbh|ag|sa|co|corp|corporation|company|group|partners|associates|holdings|bank|"
    r"university|college|institute|school|hospital|foundation|agency|council|ministry|department|club|"
    r"society|association|network|systems|solutions|technologies|services|media|labs?|studios?|bureau|"
    r"commission|committee|party|union|airlines?|motors|pharma\w*|energy|telecom\w*|news|times|post)\b)|"
    r"\b[A-Z]{2,5}\b"
)


def _kept_spacy(ents: list[Entity], text: str) -> list[Entity]:
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


def _spacy(text: str, taken: list[Entity]) -> list[Entity]:
    return resolve([(55, -(x.end - x.start), x) for x in ner_entities(text)], taken)


def _spacy_digest() -> str:
    import hashlib
    import json

    from pp_graph.anonymize import crf

    # the rule recognisers run before spaCy read the name lists: their digest is part of the answer's
    parts = {**crf.ner_pipeline(), "rules": _rules_digest()}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _rules_digest() -> str:
    """The digest of the name lists the rule recognisers read (the packages' versions and this project's word
    lists)."""
    import hashlib
    import json

    from pp_graph.anonymize import crf

    parts = {"lexicons": crf.lexicons(), "word_lists": crf.word_lists_digest()}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def mode_digest(mode: str, models: Callable[[], str]) -> Callable[[], str]:
    """A digest of ``{"mode", "models"}``: two modes over the same models give different entities, so different
    digests."""

    def digest() -> str:
        import hashlib
        import json

        parts = {"mode": mode, "models": models()}
        return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()

    return digest


def _crf_digest() -> str:
    from pp_graph.anonymize import crf

    return crf.detector_digest()


@dataclass(frozen=True)
class NerMode:
    """One NER mode: what runs after the pattern recognisers, and the digest of the models it runs (None: no
    model ran). The digest is computed once per registration: ``detect`` asks for it on every call, and a mode
    registered again is a new ``NerMode`` with its own."""

    run: Callable[[str, list[Entity]], list[Entity]]
    digest: Callable[[], str | None]

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", cache(self.digest))  # a failing digest raises again: not cached


# The NER modes (``recognize``'s ``mode``). The default keeps the plain CRF digest (the one records carry already).
MODES: dict[str, NerMode] = {
    "hybrid": NerMode(hybrid, _crf_digest),
    "crf": NerMode(lambda text, taken: hybrid(text, taken, model_decides_all=True), mode_digest("crf", _crf_digest)),
    "spacy": NerMode(_spacy, _spacy_digest),
    "none": NerMode(lambda text, taken: taken, lambda: None),
}
BUILT_IN_MODES = frozenset(MODES)  # register_mode cannot replace these
DEFAULT_MODE = "hybrid"
# The shapes of a mode's name and of its digest, checked at registration and again by the plane ledger (which
# imports them): ASCII and hex only, so neither has room for a personal value.
MODE_NAME = re.compile(r"[a-z0-9][a-z0-9+._-]{0,63}")
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")


def ner_modes() -> tuple[str, ...]:
    """The NER modes registered now (built-in ones and any added with ``register_mode`` since import)."""
    return tuple(MODES)


def register_mode(
    name: str, run: Callable[[str, list[Entity]], list[Entity]], digest: Callable[[], str | None]
) -> None:
    """Add an NER mode. ``digest`` names the models it runs (records carry it); a mode without one is refused, so
    no record says "no model ran" of a mode that ran one. A built-in mode cannot be replaced (its records would
    carry its name over other models)."""
    if name in BUILT_IN_MODES:
        raise ConfigError(f"NER mode {name!r} is built-in and cannot be replaced; register it under another name")
    if not isinstance(name, str) or not MODE_NAME.fullmatch(name):
        raise ConfigError(
            f"NER mode name {str(name)[:70]!r}: records carry it, so it must be 1-64 of a-z 0-9 + . _ - "
            "(starting with a letter or digit)"
        )
    if not callable(run) or not callable(digest):
        raise ConfigError(f"NER mode {name!r}: needs a run function and a digest function of its models")
    MODES[name] = NerMode(run, _checked_digest(name, digest))


def _checked_digest(name: str, digest: Callable[[], str | None]) -> Callable[[], str]:
    """``digest``, refusing a value that is not "sha256:" and 64 lowercase hex digits (None would record that no
    model ran; any other string could carry a value into the records)."""

    def checked() -> str:
        value = digest()
        if not isinstance(value, str) or not DIGEST.fullmatch(value):
            raise ConfigError(
                f"NER mode {name!r}: its digest function gave {type(value).__name__} {str(value)[:20]!r}, "
                "not a 'sha256:<64 hex digits>' digest of its models"
            )
        return value

    return checked


def _mode(mode: str | None) -> NerMode:
    mode = DEFAULT_MODE if mode is None else mode  # "" is an unknown mode, not the default
    entry = MODES.get(mode)
    if entry is None:
        raise ConfigError(f"unknown NER mode {mode!r} (one of {', '.join(ner_modes())})")
    if not isinstance(entry, NerMode):
        raise ConfigError(f"NER mode {mode!r} was not added with register_mode (no digest of its models)")
    return entry


def mode_name(mode: str | None) -> str:
    """The registered name of ``mode`` (None: ``DEFAULT_MODE``), looked up in ``MODES`` now, so a mode added
    later with ``register_mode`` is accepted. Raises ConfigError naming an unknown mode and the known ones."""
    _mode(mode)
    return DEFAULT_MODE if mode is None else mode


def detector_digest(mode: str | None = None) -> str | None:
    """The digest of the models ``mode`` runs (None for mode "none"). Records carry it.
    Raises ConfigError for an unknown mode or one not added with ``register_mode``."""
    return _mode(mode).digest()


def warm_up(mode: str | None = None, *, freeze_heap: bool = False) -> None:
    """Load the models NER ``mode`` runs (None: ``DEFAULT_MODE``) now, not at the first detection.

    ``freeze_heap``: then collect garbage and ``gc.freeze()`` every object alive, so later full collections skip
    the models' objects (they made the worst detection latency). It acts on the whole process and is never done
    implicitly: a program that owns its process and wants the tail latency low opts in (pp-graph's CLI does).
    Raises ConfigError for an unknown mode, NERUnavailable / ModelUnavailable when its models are missing."""
    recognize("Jane Roe, 12 Main St", mode=mode)  # a name and an address: every stage of the mode runs once
    detector_digest(mode)  # records name it: hashed now, not in the first decision
    if freeze_heap:
        freeze_process_heap()


def recognize(
    text: str, *, ner: bool = True, types: Iterable[str] | None = None, mode: str | None = None
) -> list[Entity]:
    """Entities in ``text``, sorted by offset, without overlaps (higher-priority recognisers win).

    Order: pattern recognisers and address-block structure; then the NER ``mode`` (``MODES``; None is
    ``DEFAULT_MODE``): "hybrid" (the sequence model and spaCy, see ``hybrid``), "crf" (the sequence model decides
    all soft types), "spacy" (the spaCy pipeline after the patterns) or "none"; then name propagation (other
    mentions and enumeration members of a detected person). ``ner=False`` is mode "none"."""
    from pp_graph.anonymize.structure import name_propagation

    entry = _mode(mode)
    want = set(types) if types is not None else None
    taken = rule_entities(text)
    if ner:
        taken = entry.run(text, taken)
    persons = [(x.start, x.end) for x in taken if x.type == "PERSON"]
    taken = resolve(
        [(60, -(e - s), Entity(t, s, e, "name_propagation")) for t, s, e in name_propagation(text, persons)], taken
    )
    out = [x for x in taken if want is None or x.type in want]
    out.sort(key=lambda x: (x.start, x.end))
    return out
