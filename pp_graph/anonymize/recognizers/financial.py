"""Financial identifiers: IBANs (checksum) and payment cards (Luhn checksum, or a card cue before the digits)."""

from __future__ import annotations

import re

from pp_graph.anonymize.recognizers.base import Family
from pp_graph.checksums import iban_ok, luhn_ok

FAMILY = Family("financial")
_CARD_CUE = re.compile(r"(?i)\b(?:card|visa|mastercard|amex|credit|debit|cc)\b[^.?!\n]{0,30}$")


def _card_ok(m: re.Match[str]) -> bool:
    digits = re.sub(r"[ -]", "", m.group(0))
    return luhn_ok(digits) or bool(_CARD_CUE.search(m.string[max(0, m.start() - 40) : m.start()]))


FAMILY.regex("iban", "IBAN_CODE", 11, r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b", check=lambda m: iban_ok(m.group(0)))
FAMILY.regex("card", "CREDIT_CARD", 16, r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])", check=_card_ok)
