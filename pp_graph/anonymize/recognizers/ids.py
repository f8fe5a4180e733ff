"""Government identifiers: US social security numbers (bare or after their cue), driver's licences and passports
after their cue."""

from __future__ import annotations

from pp_graph.anonymize.recognizers.base import Family

FAMILY = Family("ids")

FAMILY.regex("ssn", "US_SSN", 15, r"\b(?!000|666)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b")
FAMILY.regex(
    "ssn_cued",
    "US_SSN",
    15,
    r"(?i)\b(?:ssn|social security(?: number)?)\b[^\d\n]{0,20}(\d{3}[ .]?\d{2}[ .]?\d{4})\b",
    group=1,
)
FAMILY.regex(
    "driver_license",
    "US_DRIVER_LICENSE",
    17,
    r"(?i)\bdriver'?s?\s+licen[cs]e(?:\s+(?:number|no\.?|#))?(?:\s+is)?\s*[:#]?\s*([A-Z0-9][A-Z0-9-]{4,19})\b",
    group=1,
)
FAMILY.regex(
    "passport",
    "PASSPORT",
    17,
    r"(?i)\bpassport(?:\s+(?:number|no\.?|#))?(?:\s+is)?\s*[:#]?\s*([A-Z0-9]{6,12})\b",
    group=1,
)
