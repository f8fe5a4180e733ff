"""Personal data in outgoing text → DPV categories with offsets (never the matched text itself).

Offline recognizers: checksummed numbers (payment cards by Luhn, IBANs by mod-97), structured
identifiers (e-mail, SSN, IPv4/IPv6, MAC, GPS), credentials (AWS keys, bearer/JWT/vendor tokens,
private keys, "password: …"), phone numbers (the ``phonenumbers`` library), dates of birth with a cue,
street addresses, and health keywords from ``data/risk/detect_terms.tsv``. When spans overlap, the
recognizer listed first wins (a card number is not also a phone number).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from pp_graph.anonymize.credentials import PASSWORD, PIN
from pp_graph.anonymize.emails import EMAIL, OBFUSCATED_EMAIL
from pp_graph.anonymize.normalize import normalized
from pp_graph.checksums import iban_ok, luhn_ok
from pp_graph.resources import DATA
from pp_graph.risk.tables import longest_first, term_table
from pp_graph.vocab.dpv import PD

if TYPE_CHECKING:  # (the anonymizer is imported where it runs: it loads models)
    from pp_graph.anonymize.recognizers import Detected, Entity


@dataclass(frozen=True, slots=True)
class Detection:
    category: str  # pd: IRI
    start: int
    end: int
    recognizer: str


Finder = Callable[[str], Iterator[tuple[int, int]]]


def _regex(
    pattern: str, flags: int = 0, group: int = 0, check: Callable[[re.Match[str]], bool] | None = None
) -> Finder:
    rx = re.compile(pattern, flags)

    def find(text: str) -> Iterator[tuple[int, int]]:
        for m in rx.finditer(text):
            if check is None or check(m):
                yield m.start(group), m.end(group)

    return find


def _card(m: re.Match[str]) -> bool:
    return luhn_ok(re.sub(r"[ -]", "", m.group(0)))


def _iban(m: re.Match[str]) -> bool:
    return iban_ok(m.group(0))


def _ip(m: re.Match[str]) -> bool:
    try:
        ipaddress.ip_address(m.group(0))
    except ValueError:
        return False
    return True


def _ipv6(m: re.Match[str]) -> bool:
    s = m.group(0)
    return s.count(":") >= 2 and any(c.isalnum() for c in s) and _ip(m)


def _gps(m: re.Match[str]) -> bool:
    return abs(float(m.group(1))) <= 90 and abs(float(m.group(2))) <= 180


def _phones(text: str) -> Iterator[tuple[int, int]]:
    import phonenumbers

    for m in phonenumbers.PhoneNumberMatcher(text, "US"):
        yield m.start, m.end


_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_DATE = (
    r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}\.?,?\s+\d{{4}}|"
    rf"{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}})"
)
_STREET = (
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|"
    r"Square|Sq|Parkway|Pkwy|Highway|Hwy|Crescent|Close|Strasse|Straße)"
)

# (name, pd: local name, finder) in priority order.
_RECOGNIZERS: tuple[tuple[str, str, Finder], ...] = (
    (
        "private_key",
        "Authenticating",
        _regex(
            r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z]+ )?"
            r"PRIVATE KEY-----"
        ),
    ),
    ("aws_access_key", "Authenticating", _regex(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("aws_secret_key", "Authenticating", _regex(r"(?i)\baws_secret_access_key\s*[:=]\s*[\"']?[A-Za-z0-9/+=]{40}")),
    ("jwt", "Authenticating", _regex(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("bearer_token", "Authenticating", _regex(r"\bBearer\s+[A-Za-z0-9\-._~+/]{16,}=*")),
    (
        "vendor_token",
        "Authenticating",
        _regex(
            r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|"
            r"xox[abposr]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|"
            r"AIza[0-9A-Za-z_-]{35})"
        ),
    ),
    ("password", "Password", _regex(PASSWORD)),  # with or without a colon (credentials.py)
    ("pin", "PINCode", _regex(PIN)),
    (
        "api_key",
        "Authenticating",
        _regex(
            r"(?i)\b(?:api[_ -]?key|secret(?:[_ -]?key)?|access[_ -]?token|"
            r"auth[_ -]?token|client[_ -]?secret)\s*(?:is|[:=])\s*[\"']?"
            r"[A-Za-z0-9\-_.~+/]{12,}"
        ),
    ),
    ("payment_card", "PaymentCardNumber", _regex(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])", check=_card)),
    ("iban", "BankAccount", _regex(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b", check=_iban)),
    ("ssn", "OfficialID", _regex(r"\b(?!000|666|9\d\d)\d{3}[- ](?!00)\d{2}[- ](?!0000)\d{4}\b")),
    ("email", "EmailAddress", _regex(EMAIL)),  # Unicode, IDN and quoted forms (the anonymizer's pattern)
    ("email_obfuscated", "EmailAddress", _regex(OBFUSCATED_EMAIL)),  # john [at] example [dot] com
    ("mac_address", "MACAddress", _regex(r"\b[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2})(?:\1[0-9A-Fa-f]{2}){4}\b")),
    ("ipv4", "IPAddress", _regex(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])", check=_ip)),
    ("ipv6", "IPAddress", _regex(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])", check=_ipv6)),
    ("gps", "GPSCoordinate", _regex(r"(?<![\d.])(-?\d{1,2}\.\d{4,}),\s*(-?\d{1,3}\.\d{4,})(?![\d.])", check=_gps)),
    (
        "birth_date",
        "BirthDate",
        _regex(
            r"(?i)\b(?:date of birth|d\.?o\.?b\.?|born(?: on)?|birthday(?: is)?)"
            rf"\s*[:\-]?\s*({_DATE})",
            group=1,
        ),
    ),
    ("phone", "TelephoneNumber", _phones),
    (
        "street_address",
        "PhysicalAddress",
        _regex(
            rf"\b\d{{1,5}}[A-Za-z]?\s+(?:[A-Z][A-Za-z'-]+\.?\s+){{1,4}}{_STREET}\b"
            r"|\bP\.?\s?O\.?\s+Box\s+\d+\b"
        ),
    ),
)


@cache
def _terms() -> tuple[re.Pattern[str], dict[str, str]]:
    path = DATA / "risk" / "detect_terms.tsv"
    table = term_table(path)
    return re.compile(rf"(?i)(?<!\w)(?:{longest_first(table)})(?!\w)"), table


# Entity types from the anonymizer's recognisers that are personal data by themselves (names, passports):
# the NER also finds places and organisations, which alone identify nobody and are left to the anonymizer.
_ENTITY_CATEGORIES = {"PERSON": "Name", "PASSPORT": "Passport", "US_DRIVER_LICENSE": "OfficialID"}


# NER reads long texts in chunks at about 10,000 characters a second on one loaded core (1 MB: ~100 s), so it
# reads the first NER_MAX_CHARS (chunk-aligned); the rest gets the pattern recognisers, and ``coverage`` says so.
NER_MAX_CHARS = 100_000


# The cache keeps its texts as keys: 1,024 multi-MB texts would hold gigabytes, so only short ones are cached
# (agent messages; a long document is rarely resent and its detection cost dwarfs a look-up anyway).
CACHE_MAX_CHARS = 20_000


def detect(
    text: str, *, ner: bool = True, entities: Sequence[Entity] | None = None, mode: str | None = None
) -> list[Detection]:
    """Personal-data categories in ``text`` with character offsets, sorted by position.

    ``entities``: the anonymizer's ``recognize_long(text, ner_chars=NER_MAX_CHARS)`` for this text, when the
    caller has it already (the data plane): NER, the costly part, is then not run a second time. ``mode``: the
    anonymizer's NER mode (None: its default); an unknown one raises ConfigError."""
    if entities is not None:
        ents = tuple(e for e in entities if e.type in _ENTITY_CATEGORIES)
        return list((_assemble_cached if len(text) <= CACHE_MAX_CHARS else _assemble)(text, ents))
    find = _detect_cached if len(text) <= CACHE_MAX_CHARS else _detect
    # The digest keys the cache too: a mode registered again over other models does not get stale answers.
    return list(find(text, ner, NER_MAX_CHARS, _mode_name(mode), detector_digest(mode) if ner else None))


def entities(text: str, *, mode: str | None = None) -> Detected:
    """Every entity the anonymizer finds in ``text`` as ``detect`` reads it (chunked, NER in the first
    ``NER_MAX_CHARS``), all types, with the mode and detector digest that found them: for a caller that hands one
    detection on to the rewrite as well (the guard). ``detect(text, entities=entities(text, mode=m).entities)`` is
    ``detect(text, mode=m)``; cached as ``detect`` is (the NER bound in the key too)."""
    find = _entities_cached if len(text) <= CACHE_MAX_CHARS else _entities
    return find(text, NER_MAX_CHARS, _mode_name(mode), detector_digest(mode))


def _entities(text: str, ner_chars: int, mode: str, digest: str | None) -> Detected:
    from pp_graph.anonymize.chunks import recognize_long
    from pp_graph.anonymize.recognizers import Detected

    return Detected(tuple(recognize_long(text, ner_chars=ner_chars, mode=mode)), mode, digest)


def warm_up(mode: str | None = None, *, freeze_heap: bool = False) -> None:
    """``pp_graph.anonymize.warm_up`` (the models of NER ``mode`` loaded, the heap frozen only when asked) and the
    term table ``detect`` reads, so the first decision after it is warm. Raises as the anonymizer's does."""
    from pp_graph.anonymize.recognizers import warm_up as load

    _terms()
    load(mode, freeze_heap=freeze_heap)


def detector_digest(mode: str | None = None) -> str | None:
    """The digest of the models ``detect`` runs in NER ``mode`` (None: the default; for it, the CRF file and the
    spaCy pipeline it reads), for records."""
    from pp_graph.anonymize.recognizers import detector_digest as digest

    return digest(mode)


def coverage(text: str, *, ner: bool = True, mode: str | None = None) -> dict[str, object]:
    """What ``detect`` read: {"chars", "ner_chars", "ner": full | partial | off, "mode": the NER mode} (for the
    decision record; the mode ``detector_digest`` names)."""
    from pp_graph.anonymize.chunks import ner_coverage

    name = _mode_name(mode) if ner else "none"
    ran = name != "none"  # mode "none" runs no NER, as ner=False: the record must not say NER read the text
    read = ner_coverage(text, NER_MAX_CHARS) if ran else 0
    state = "off" if not ran else "full" if read >= len(text) else "partial"
    return {"chars": len(text), "ner_chars": read, "ner": state, "mode": name}


def _mode_name(mode: str | None) -> str:
    from pp_graph.anonymize.recognizers import mode_name

    return mode_name(mode)


def _detect(text: str, ner: bool, ner_chars: int, mode: str, digest: str | None) -> tuple[Detection, ...]:
    from pp_graph.anonymize.chunks import recognize_long

    # Long texts are read in bounded chunks (offsets mapped back); NER stops after ner_chars (see coverage).
    ents = recognize_long(text, ner=ner, types=_ENTITY_CATEGORIES, ner_chars=ner_chars, mode=mode)
    return _assemble(text, ents)


def _assemble(text: str, entities: Iterable[Entity]) -> tuple[Detection, ...]:
    """The pattern and term detections, then the entities (names, passports) where nothing was found first."""
    from pp_graph.anonymize.recognizers import Occupied

    occ = Occupied()
    out: list[Detection] = []
    norm = normalized(text)  # patterns read NFKC without zero-width characters; spans map back to ``text``

    for name, local, find in _RECOGNIZERS:
        for s, e in find(norm.text):
            if e > s:
                s, e = norm.span(s, e)
                if occ.free(s, e):
                    occ.take(s, e)
                    out.append(Detection(PD + local, s, e, name))
    rx, table = _terms()
    for m in rx.finditer(norm.text):
        s, e = norm.span(m.start(), m.end())
        if occ.free(s, e):
            occ.take(s, e)
            out.append(Detection(table[m.group(0).lower()], s, e, "term"))
    for ent in entities:
        if occ.free(ent.start, ent.end):
            occ.take(ent.start, ent.end)
            out.append(Detection(PD + _ENTITY_CATEGORIES[ent.type], ent.start, ent.end, ent.recognizer))
    out.sort(key=lambda d: (d.start, d.end))
    return tuple(out)


# Detection is pure and NER costs milliseconds: an agent resending a short text pays once (the digest in the key:
# a mode registered again over other models gets no stale answer). Entities are frozen, so caching them is safe.
_detect_cached = lru_cache(maxsize=1024)(_detect)
_entities_cached = lru_cache(maxsize=1024)(_entities)
_assemble_cached = lru_cache(maxsize=1024)(_assemble)
