"""Headings, lists and paragraphs: section titles, list items and the cues a heading gives its lines."""

from __future__ import annotations

import re

from pp_graph.model import PracticeType

# Section titles whose sections OPP-115 files elsewhere (audiences, policy changes, contact, other sites).
OFF_TOPIC = re.compile(
    r"\b(?:child(?:ren)?(?:'s|’s|s)?|kids|minors|COPPA|parents|California|Nevada|"
    r"(?:changes?|updates?|revisions?|amendments?) (?:to|in|of) (?:this|our|the) (?:\w+ )?(?:policy|statement|notice)|"
    r"policy changes|^\W*(?:\d+\W*)?changes\W*$|contact(?:ing)? us|questions|links?|other (?:web ?)?sites|do not track|"
    r"definitions|effective date|governing law|safe harbou?r)\b",
    re.I,
)
TITLE_START = re.compile(r"^(?:[IVXivx]+[.)]|\d+(?:\.\d+)*[.)]?|[A-Za-z][.)])?\s*[\"“(]?[A-Z0-9]")
PSEUDO_REACH = 2
LIST_ITEM = re.compile(r"^\s*(?:[*\-+•]|\d+[.)])\s+")
HEADING_CUES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(share|sharing|shared|disclos\w*|sell|sale|transfer\w*|recipients?)\b", re.I), "share"),
    (re.compile(r"\b(retain\w*|retention|storage|store|keep|delet\w*|how long)\b", re.I), "retain"),
    (re.compile(r"\b(secur\w*|protect\w*|safeguard\w*)\b", re.I), "secure"),
    (
        re.compile(
            r"\b(collect\w*|gather\w*|obtain\w*|receive|provide|use|using|process\w*|"
            r"information we|data we|automatically)\b",
            re.I,
        ),
        "collect",
    ),
)
# Headings with a collection word that are about the reader's controls or third parties' collection.
NOT_OWN_USE_HEAD = re.compile(
    r"\b(?:can|may|do|should)\s+(?:I|you)\b"
    r"|\b(?:I|you|your|my)\b.*\b(?:control|chang|delet|correct|updat|access|opt|review|limit|manag|edit|deactivat|remov|modif)"
    r"|\b(?:control|controls|choices?|opt[- ]?(?:out|in))\b|\bwho should\b"
    r"|^\W*(?:[\dIVX]+\W+)?third[- ]part|\bby (?:third[- ]part|other (?:web ?)?sites|advertisers)",
    re.I,
)
LIST_TYPES = {PracticeType.FIRST_PARTY_COLLECTION_USE, PracticeType.THIRD_PARTY_SHARING_DISCLOSURE}

# A line marked up as a title that the loader does not take for a heading: a list item holding a Markdown
# heading ("*   ### [Who do we share your information with?](…)", a collapsible section). It ends the section
# above it for the lines below that take their practice from a heading.
MARKED_TITLE = re.compile(r"[*+-]\s+#{1,6}\s+\S.{0,150}")
