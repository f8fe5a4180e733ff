"""Scope and audience: sentences that state no data practice (about the policy itself, children, transfers)."""

from __future__ import annotations

import re

# Sentences about audiences (children, California residents, EU transfers / Safe Harbor): OPP-115 files
# them under "International and Specific Audiences", not as data practices.
AUDIENCE = re.compile(
    r"\b(?:child(?:ren)?(?:'s|’s|s)?|kids|minors?|teens?|under (?:the )?(?:age|ages) of|under (?:13|thirteen|16|18)\b|"
    r"parents? or (?:legal )?guardians?|parental consent|COPPA|Children's Online Privacy Protection|"
    r"California (?:residents?|Civil Code|law|privacy)|Shine the Light|Nevada|Safe Harbou?r|Privacy Shield)",
    re.I,
)
ABROAD = re.compile(
    r"\b(?:outside (?:of )?(?:the )?(?:United States|U\.S\.|US|EEA|European)|"
    r"(?:transferred|transfer(?:ring)?)\b[\w, ]{0,60}?\b(?:to|in|into) (?:the )?(?:United States|U\.S\.|US\b|"
    r"other countries|countries|another country|jurisdictions))",
    re.I,
)
# Sentences about the policy itself, other sites' practices, or the reader's choices/rights: not a practice.
SCOPE = re.compile(
    r"\b(?:(?:this|our|the) (?:online )?(?:privacy )?(?:policy|statement|notice)|"
    r"privacy (?:policy|statement|notice))\s+"
    r"(?:\w+\s+){0,2}(?:describes?|explains?|applies|covers?|outlines?|tells?|sets? (?:out|forth)|informs?|"
    r"discloses?|addresses|governs?|summari[sz]es|details|is intended|does not (?:apply|cover))\b"
    r"|\b(?:links? to|linked|hyperlinks? to) (?:\w+ ){0,3}(?:other|third[- ]party|external) (?:web ?)?sites\b"
    r"|\bprivacy (?:policies|practices|statements) of (?:these|those|such|other|any|the)\b"
    r"|\bwe (?:are|is) not responsible for\b(?!\s+(?:the\s+)?(?:security|confidentiality|integrity)\b)"
    r"|\b(?:we have|has) no control over\b"
    r"|\b(?:means|refers to|is defined as)\b (?:\w+ ){0,3}(?:information|data)\b"
    r"|\b(?:can|could|may) (?:not )?(?:reasonably )?be used to (?:identify|contact|locate)\b"
    r"|\bchanges? (?:to|in) (?:this|our|the) (?:privacy )?(?:policy|statement|notice)\b",
    re.I,
)

# What data can do, not what the site does with it: "information that can be used to identify you" defines
# personal data inside a sentence that may state a practice ("we collect information that can be used to
# identify you, such as…"); only its own "used" is no practice.
IDENTIFIES = re.compile(
    r"\b(?:can|could|may|might)(?:\s*not|n[’']t)?\s+(?:\w+ly\s+)?be\s+used\s+to\s+(?:\w+ly\s+)?"
    r"(?:identify|contact|locate)\b",
    re.I,
)
