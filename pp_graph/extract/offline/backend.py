"""The offline extractor: lexicons from DPV labels + curated synonyms, practice triggers, patterns.

Deterministic and network-free. Works sentence by sentence inside each segment: a practice is a
trigger word (collect, share, retain, protect…) in a sentence that also names personal data, a
party or a practice detail; entities in the same sentence are related to it by role. List items
without a trigger inherit the practice of their lead-in line ("We collect the following:") or of
their section heading ("Information we share").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pp_graph.extract.offline.cues import CueTable, load_cues
from pp_graph.extract.offline.lexicon import Entry, Hit, Lexicon, digest_files, entry, plural_variants, read_tsv
from pp_graph.extract.registry import Backend
from pp_graph.model import (
    AttributeKind,
    AttributeMention,
    PartyKind,
    PartyMention,
    Policy,
    PracticeMention,
    PracticeType,
    Provenance,
    RecipientKind,
    Relation,
    Role,
    Segment,
    SegmentExtraction,
    Span,
)
from pp_graph.resources import DATA
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, compact, expand, vocabulary

RULESET_VERSION = "offline-rules-7"
LEXICON_DIR = DATA / "lexicon"

# DPV labels too generic to be taken as mentions on their own ("Social", "External", "Like"…).
_LABEL_STOP = {
    "external",
    "internal",
    "historical",
    "social",
    "financial",
    "tracking",
    "identifying",
    "professional",
    "like",
    "reference",
    "character",
    "family",
    "sale",
    "purchase",
    "job",
    "connection",
    "interaction",
    "association",
    "thought",
    "proclivity",
    "public life",
    "authenticating",
    "behavioural",
    "intention",
    "demeanour",
    "favourite",
    "dislike",
    "acquaintance",
    "ownership",
    "reliability",
    "vulnerability",
    "credit",
    "identifier",
    "transactional",
    "accent",
    "knowledge and beliefs",
    "mood",
    "attitude",
    "personal data",
    "collected personal data",
    "location",
    "sexual",
    "tax",
    "insurance",
    "health",
    "physical trait",
    "criminal",
    "opinion",
    "language",
    "school",
    "profile",
    "preference",
    "interest",
    "communication",
    "name",
    "age",
    "gender",
    "country",
    "city",
    "region",
    "education",
    "income",
    "salary",
    "picture",
    "emotion",
    "street",
    "weight",
    "height",
    "locality",
    "vehicle",
    "marriage",
    "divorce",
    "parent",
    "sibling",
    "friend",
    "offspring",
    "tattoo",
    "piercing",
    "religion",
    "race",
    "purpose",
    "verification",
    "improve",
    "research",
    "security",
}

_PRACTICE_OF = {
    "collect": PracticeType.FIRST_PARTY_COLLECTION_USE,
    "share": PracticeType.THIRD_PARTY_SHARING_DISCLOSURE,
    "retain": PracticeType.DATA_STORAGE_RETENTION_DELETION,
    "secure": PracticeType.DATA_SECURITY_PROTECTION,
}

# The OPP-115-style category a practice type is scored as (data/lexicon/practice-cues.tsv).
_CATEGORY = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: "first-party",
    PracticeType.THIRD_PARTY_COLLECTION_USE: "third-party",
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: "third-party",
    PracticeType.DATA_STORAGE_RETENTION_DELETION: "retention",
    PracticeType.DATA_SECURITY_PROTECTION: "security",
}
_GENERIC_DATA = expand("dpv:PersonalData")
_REQUIRES = {"", "agent", "third", "detail"}  # see data/lexicon/triggers.tsv
_PASSIVE = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got)\s+(?:\w+ly\s+)?$", re.I)
_PASSIVE_NOT = re.compile(r"\b(?:is|are|was|were|be|been|gets?)\s+(?:not|never)\s+(?:\w+ly\s+)?$", re.I)
_AUX_ONLY = re.compile(
    r"\s*(?:(?:will|would|shall|should|may|might|can|could|must|be|is|are|was|were|been|being|get|gets|got|not|never|"
    r"also|then|\w+ly)\s+)*",
    re.I,
)
_CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:and|or|but|which|that|who|if|when|unless|so)\b", re.I)
# Words before a trigger that make it talk about practices ("this policy explains how we collect")
# or refer to data already collected ("the information we collect is stored…").
_META = re.compile(
    r"\b(?:how|what|why|whether|types? of|kinds? of|categories of|explains?|describes?|ways|the way|manner)\s+"
    r"(?:[\w'’\"“”()-]+,?\s+(?:(?:and|or|&)\s+)?){0,5}$",
    re.I,
)
_REFERENCE = re.compile(r"\s+(?:(?:that|which)\s+)?(?:(?:we|you)\s+(?:\w+\s+)?)?", re.I)
_DETAIL_OF = {
    "retain": {AttributeKind.RETENTION_PERIOD, AttributeKind.STORAGE_PLACE},
    "secure": {AttributeKind.SECURITY_METHOD, AttributeKind.PROTECT_AGAINST},
}

# Sentences about audiences (children, California residents, EU transfers / Safe Harbor): OPP-115 files
# them under "International and Specific Audiences", not as data practices.
_AUDIENCE = re.compile(
    r"\b(?:child(?:ren)?(?:'s|’s|s)?|kids|minors?|teens?|under (?:the )?(?:age|ages) of|under (?:13|thirteen|16|18)\b|"
    r"parents? or (?:legal )?guardians?|parental consent|COPPA|Children's Online Privacy Protection|"
    r"California (?:residents?|Civil Code|law|privacy)|Shine the Light|Nevada|Safe Harbou?r|Privacy Shield)",
    re.I,
)
_ABROAD = re.compile(
    r"\b(?:outside (?:of )?(?:the )?(?:United States|U\.S\.|US|EEA|European)|"
    r"(?:transferred|transfer(?:ring)?)\b[\w, ]{0,60}?\b(?:to|in|into) (?:the )?(?:United States|U\.S\.|US\b|"
    r"other countries|countries|another country|jurisdictions))",
    re.I,
)
# Section titles whose sections OPP-115 files elsewhere (audiences, policy changes, contact, other sites).
_OFF_TOPIC = re.compile(
    r"\b(?:child(?:ren)?(?:'s|’s|s)?|kids|minors|COPPA|parents|California|Nevada|"
    r"(?:changes?|updates?|revisions?|amendments?) (?:to|in|of) (?:this|our|the) (?:\w+ )?(?:policy|statement|notice)|"
    r"policy changes|^\W*(?:\d+\W*)?changes\W*$|contact(?:ing)? us|questions|links?|other (?:web ?)?sites|do not track|"
    r"definitions|effective date|governing law|safe harbou?r)\b",
    re.I,
)
_TITLE_START = re.compile(r"^(?:[IVXivx]+[.)]|\d+(?:\.\d+)*[.)]?|[A-Za-z][.)])?\s*[\"“(]?[A-Z0-9]")


_PSEUDO_REACH = 2


def _title_like(line: str) -> bool:
    """A short line that reads as a section title ("3. Information We Share", "Children's Privacy.")."""
    t = line.strip()
    words = t.split()
    question = t[-1] in "?-" and len(words) <= 20 and sum(w[0].isupper() for w in words) >= 0.6 * len(words)
    if not (1 <= len(words) <= 12 or question) or t[0] in "*-+•" or not _TITLE_START.match(t):
        return False
    long = [w for w in words if len(w) > 3 and w[0].isalpha()]
    title_case = bool(long) and sum(w[0].isupper() for w in long) >= 0.6 * len(long)
    if (_LIST_ITEM.match(t) or re.match(r"To\s+[a-z]+\s", t)) and not title_case:
        return False  # a numbered list item or a purpose item ("To process your orders"), not a section title
    end = t[-1]
    if end in "?-–—":
        return True
    if end in ".:;,!)":
        if end == ":" and len(words) >= 3 and words[0].lower() in {"we", "you", "our", "it", "they"}:
            return False  # "We may use Personal Information:": a capitalised lead-in sentence
        return title_case and (end != "." or len(words) <= 6)
    return title_case or words[0].lower() not in {"we", "you", "our", "your", "if", "this", "it", "they"}


# Sentences about the policy itself, other sites' practices, or the reader's choices/rights: not a practice.
_SCOPE = re.compile(
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
# Words before a noun/verb-ambiguous trigger that make it a noun ("the use of", "your request", "a record").
_NOUN_BEFORE = {
    "a",
    "an",
    "the",
    "your",
    "our",
    "their",
    "its",
    "his",
    "her",
    "this",
    "that",
    "these",
    "those",
    "such",
    "any",
    "each",
    "every",
    "no",
    "of",
    "for",
    "in",
    "upon",
    "unauthorized",
    "unauthorised",
    "retail",
    "fair",
    "acceptable",
    "intended",
    "commercial",
    "further",
    "secondary",
    "limited",
    "own",
    "my",
    "personal",
    "illegal",
    "improper",
    "general",
    "normal",
    "business",
    "legal",
    "continued",
    "temporary",
    "public",
}
_AMBIGUOUS = {
    "use",
    "uses",
    "access",
    "request",
    "requests",
    "record",
    "records",
    "log",
    "logs",
    "process",
    "processes",
    "track",
    "transfer",
    "transfers",
    "store",
    "stores",
    "sale",
    "share",
    "shares",
    "hold",
    "monitor",
    "capture",
}
# Objects after "use" that are tools, not data ("use encryption", "use reasonable safeguards").
_TOOL_OBJECT = re.compile(
    r"\s+(?:\w+\s+){0,4}?(?:encryption|SSL|TLS|firewalls?|safeguards?|measures|procedures|precautions|"
    r"technolog(?:y|ies)|software|security|passwords?|efforts|steps|servers?|controls?)\b",
    re.I,
)
# An implicit third-party subject right before the verb ("they may collect", "these features collect").
_THIRD_SUBJECT = re.compile(
    r"\b(?:they|these|those|such|(?:\w+\s+)?(?:companies|advertisers?|networks?|features|widgets|buttons|plug-?ins|"
    r"vendors|partners|providers|sponsors|operators|sites|websites|services|"
    r"platforms?|others|parties|tools|applications|apps)(?:,\s+(?:which|who))?)\s+"
    r"(?:(?:may|might|can|could|will|would|also|then|only|generally|typically|sometimes|automatically|"
    r"independently|directly|themselves|do|does|not|never|be able to|are able to|is able to|to)\s+)*$",
    re.I,
)
_OUR_SUBJECT = re.compile(
    r"\b(?:our|this|the site's)\s+(?:[\w-]+\s+)?\w+,?\s+(?:(?:and|or|&)\s+(?:mobile\s+)?"
    r"(?:sites|websites|web\s+sites|applications|apps|services|products|pages|features|tools)\s+)?"
    r"(?:(?:may|might|can|could|will|would|also|only)\s+)*$",
    re.I,
)
_OUR_THING = re.compile(
    r"\b(?:our|the site's)\s+(?:[\w-]+\s+)?(?:site|website|web site|services?|apps?|applications?|servers?|systems?|"
    r"software|platform)\s+(?:(?:may|might|can|could|will|would|also|only|automatically)\s+)*$",
    re.I,
)
_SHARE_TOOL = re.compile(r"\s+(?:buttons?|tools?|features?|functionality|widgets?|options?|settings?|platform)\b", re.I)
# The agent of a passive collection verb ("collected and used by others", "used by the advertiser").
_BY_AGENT = re.compile(
    r"\s+(?:(?:and|or|and/or)\s+\w+\s+)?(?:(?:directly|only|solely|also)\s+)?by\s+"
    r"(?:(anyone|others|other (?:users|members|visitors|people)|the public|third[- ]part(?:y|ies))\b"
    r"|(?:the|an?|such|these|those|other|our|its|their)\s+)?",
    re.I,
)
# Headings with a collection word that are about the reader's controls or third parties' collection.
_NOT_OWN_USE_HEAD = re.compile(
    r"\b(?:can|may|do|should)\s+(?:I|you)\b"
    r"|\b(?:I|you|your|my)\b.*\b(?:control|chang|delet|correct|updat|access|opt|review|limit|manag|edit|deactivat|remov|modif)"
    r"|\b(?:control|controls|choices?|opt[- ]?(?:out|in))\b|\bwho should\b"
    r"|^\W*(?:[\dIVX]+\W+)?third[- ]part|\bby (?:third[- ]part|other (?:web ?)?sites|advertisers)",
    re.I,
)
_INFINITIVE = re.compile(r"\bto\s+(?:\w+\s+(?:and/or|and|or)\s+)?$", re.I)
_RELATIVE = re.compile(
    r",?\s+(?:which|who|that)\s+(?:(?:may|might|can|could|will|would|also|then|only|be able to|are able to)\s+)*$", re.I
)
# Singular or generic third-party nouns the party lexicon leaves out ("an advertiser", "the ad server").
_THIRD_NOUN = re.compile(
    r"\b(?:third[- ]part(?:y|ies)|advertisers?|ad (?:servers?|networks?|companies)|(?:social|advertising) networks?|"
    r"vendors?|sponsors?)\b(?!\s*(?:'s|’s))",
    re.I,
)
_ON_OUR_BEHALF = re.compile(r"[^.;]{0,80}?\b(?:on (?:our|its) behalf|on behalf of (?:us|the company)|for us)\b", re.I)
# A condition on the reader's own act whose main clause discloses the data ("If you provide…, we may share…").
_IF_CLAUSE = re.compile(r"\b(?:if|when|whenever|once|each time)\s+(?:\w+\s+){0,2}$", re.I)
_THEN_SHARE = re.compile(
    r"[^,;.]*,\s*(?:[\w'’]+\s+){0,5}?(?:share|shared|disclose|disclosed|sell|sold|transfer|transferred|post|posted|publish|"
    r"published|forward|forwarded|(?:provide|pass|give|send) (?:it|that|this|such|the|your)|"
    r"(?:be|become|becomes) (?:publicly )?(?:public|available|visible))\b",
    re.I,
)
_CONSENT_OBJECT = re.compile(
    r"\s+(?:(?:your|the|a|an|their|such|prior|express|explicit|written|affirmative|verifiable|parental|opt-in)\s+){0,4}"
    r"(?:consent|authori[sz]ation|permission|agreement)\b",
    re.I,
)
_CHOICE_BEFORE = re.compile(
    r"(?:\bopt[- ]?(?:out|in)\b|\bprefer not\b|\bchoices?\b|\bpreferences?\b|\bunsubscribe\b)[^.;]{0,40}$", re.I
)
# Retention nouns inside a coordinated list of practices ("collection, use and retention of"): a label, not a statement.
_PRACTICE_LIST = re.compile(
    r"\b(?:collection|use|processing|disclosure|transfer|storage|retention|sharing)(?:,\s*|\s+(?:and|or|&)\s+)"
    r"(?:(?:\w+,\s*)*(?:and|or|&)\s+)?$|^(?:,\s*|\s+(?:and|or|&)\s+)(?:\w+(?:,\s*|\s+(?:and|or|&)\s+))*"
    r"(?:collection|use|processing|disclosure|transfer|storage|retention|sharing)\b",
    re.I,
)
_ON_DEVICE = re.compile(
    r"\s+(?:\w+\s+){0,3}?(?:on|in|to|within)\s+(?:your|the user's|a user's|users'?|their)\s+(?:own\s+)?(?:\w+\s+)?"
    r"(?:computer|device|hard drive|browser|machine|phone|hard disk)",
    re.I,
)
_USER_REQUEST = re.compile(
    r"\b(?:you (?:may|can|could|have the right)|request|ask (?:us|that)|contact us|"
    r"if you (?:would )?(?:like|wish|want|prefer)|"
    r"opt[- ]out|your (?:choice|right))",
    re.I,
)
_USER_CHOICE = re.compile(r"\b(?:opt[- ]out|you (?:may|can|have the right)|your right|have the right)\b", re.I)
# Deletion with a time or trigger ("delete the information after…", "removed once…", "regular destruction").
_DELETE_TIMING = re.compile(
    r"\s+(?:[\w'-]+\s+){0,6}?(?:after|once|as soon as|when (?:it is )?no longer|"
    r"within\s+(?:[\w()-]+\s+){0,3}?(?:hours?|days?|weeks?|months?|years?|time|period)\b|periodically|"
    r"on an ongoing basis|regularly|automatically after|when you (?:close|delete|cancel|terminate|deactivate)|"
    r"upon (?:the )?(?:closure|termination|cancellation|deletion))\b",
    re.I,
)
# Deletion on a schedule named before the verb ("we routinely purge…", "scheduled for regular destruction").
_ROUTINE = re.compile(
    r"\b(?:regular(?:ly)?|periodic(?:ally)?|routine(?:ly)?|automatic(?:ally)?|systematic(?:ally)?|scheduled(?:\s+for)?)"
    r"\s+(?:\w+\s+)?$",
    re.I,
)
_SECURE_AIM = re.compile(
    r"\s+(?:[\w'-]+\s+){0,8}?(?:protect\w*|secur\w*|safeguard\w*|prevent\w*|unauthori[sz]ed|confidential\w*)\b", re.I
)
_NOT_DATA_PROTECTION = re.compile(
    r"\s+(?:and defend\s+)?(?:\w+\s+){0,2}?"
    r"(?:rights?|property|safety|interests|legal|privacy of (?:children|minors))\b",
    re.I,
)
_CHOICE_LINE = re.compile(
    r"\b(?:unsubscribe|opt[- ]?(?:out|in)|contact us|you (?:should|must)|you (?:can|may) (?:also )?(?:choose|change|"
    r"adjust|update|control|disable|turn off|manage|decline|refuse|withdraw|set your))\b",
    re.I,
)
_DISPOSE = ("delet", "eras", "destr", "purg", "dispos")
_VERB_LIST = re.compile(
    r"\b(?:collect|use|process|disclose|share|obtain|access|preserve)\w*\s*(?:,\s*(?:and|or)?|and|or|&)\s*#"
    r"|#\s*(?:,\s*|\s+(?:and|or|&)\s+)(?:\w+,?\s+)?(?:(?:and|or|&|otherwise)\s+)?"
    r"(?:use|process|disclose|share|transfer)\w*\b",
    re.I,
)
# Security measures named without a security trigger word (data access limits, confidentiality duties,
# password protection, breach notice, privacy seals); the "strong" ones count without data in the sentence.
_SECURE_CUE = re.compile(
    r"\b(?:limit|limits|limited|limiting|restrict|restricts|restricted|restricting)\s+(?:the\s+|their\s+|its\s+)?"
    r"(?:number\s+of\s+(?:people|persons|employees)\s+(?:who\s+have\s+|with\s+)?)?"
    r"(?:(?:physical|electronic|employee|internal)\s+)?access\b"
    r"|\baccess\s+(?:to\s+(?:[\w-]+\s+){1,5}?)?(?:is|are|will be)\s+(?:only\s+|strictly\s+)?(?:limited|restricted)\b"
    r"|\bonly\s+(?:be\s+)?accessible\s+(?:to|by)\b"
    r"|\b(?:only|authori[sz]ed)\s+(?:[\w-]+\s+){0,2}?(?:employees|personnel|staff|associates)\s+(?:who|that|with)\s+"
    r"(?:\w+\s+){0,3}?(?:need|require)"
    r"|(?P<strong>\bneed[- ]to[- ]know\b"
    r"|\b(?:data|security)\s+breach\b|\b(?:has|have|may\s+have)\s+been\s+compromised\b|\bintercepted\b|\bSSL\b"
    r"|\b(?:100%|completely|perfectly|totally|fully)\s+secure\b|\bsecure\s+sockets?\s+layer\b"
    r"|\btransmission\s+over\s+the\s+internet\b|\bPCI\b|\bdata\s+security\s+standard\b"
    r"|\bguarantee\w*\s+(?:[\w,'’-]+\s+){0,6}?(?:the\s+)?(?:security|secure)\b"
    r"|\bpasswords?\s+(?:[\w,'’-]+\s+){0,6}?confidential\b"
    r"|\bsecure\s+(?:facility|facilities|servers?|environment|location|network|database)\b"
    r")",
    re.I,
)
# Keeping data's security, confidentiality or integrity ("protect the confidentiality and security of your
# information", "cannot guarantee the security of any data you send"); not when a recipient is bound to it
# (OPP-115 counts "service providers must keep it confidential" as a sharing condition).
_SECURE_OF = re.compile(
    r"\b(?:protect\w*|safeguard\w*|ensur\w*|guarantee\w*|warrant\w*|maintain\w*|preserv\w*|responsib\w+\s+for)\s+"
    r"(?:the\s+)?(?:(?:privacy|confidentiality|security|integrity|safety)(?:,\s*|,?\s+and\s+|\s+or\s+))*"
    r"(?:confidentiality|security|integrity)\s+of\s+(?:[\w'’-]+\s+){0,4}?"
    r"(?:information|data|PII|communications?|transmissions?|e-?mails?|messages)\b",
    re.I,
)
# Security measures of the site's own organisation and systems, stated without data: staff confidentiality
# duties and privacy training, monitoring and testing for attacks, security audits, breach handling.
_SECURE_MORE = re.compile(
    r"\b(?:employees|staff|personnel|associates|team\s+members)\b[^.;]{0,60}?\b(?:confidentiality\s+"
    r"(?:agreements?|obligations?|polic\w+|requirements?|undertakings?)|non-?disclosure\s+agreements?|"
    r"(?:keep|maintain|treat|hold)\w*\s+"
    r"(?:[\w-]+\s+){0,4}?(?:confidential|in\s+confidence))"
    r"|\b(?:train|trains|trained|training)\s+(?:our|all|its|their)?\s*(?:employees|staff|personnel|associates)\b"
    r"|\b(?:employees|staff|personnel|associates)\s+(?:are|is|receive|undergo|complete|must\s+complete)\s+"
    r"(?:\w+\s+){0,3}?(?:trained|training)\b"
    r"|\b(?:monitor\w*|scan\w*|test\w*)\s+(?:[\w-]+\s+){0,4}?(?:for\s+)?(?:intrusions?|vulnerabilit\w+|attacks?|"
    r"malware|viruses)\b|\b(?:intrusion\s+(?:detection|prevention)|penetration\s+test\w*|anti-?virus|"
    r"security\s+(?:audits?|reviews?|assessments?|testing))\b"
    r"|\bbreach\w*\s+of\s+(?:our\s+|its\s+|the\s+)?(?:security|systems?|networks?|databases?|servers?)\b"
    r"|\bsecurity\s+(?:incident|breach)\w*\b|\bhackers?\b|\bHTTPS\b(?!:)"
    r"|\b(?:impenetrable|unbreakable)\b|\b(?:absolutely|entirely)\s+secure\b|\bno\s+longer\s+secure\b"
    r"|\btransmissions?\s+(?:[\w-]+\s+){0,8}?(?:is|are)\s+(?:\w+\s+)?at\s+your\s+own\s+risk\b"
    r"|\bprotected\s+by\s+(?:a|your)\s+(?:[\w-]+\s+)?password\b"
    r"|\b(?:do\s+not|don['’]t|never)\s+(?:share|disclose|give|reveal|tell)\s+(?:your|their)\s+"
    r"(?:[\w-]+\s+)?passwords?\b"
    r"|\b(?:log|sign)\s*(?:out|off)\b[^.;]{0,60}\bclos\w+\s+(?:your\s+|the\s+)?browser\b"
    r"|\bkeep\w*\s+(?:[\w'’-]+\s+){0,3}?(?:information|data|details|records|accounts?)\s+(?:safe|secure|protected)\b"
    r"|\b(?:audit|review|check)\w*\s+(?:[\w-]+\s+){0,4}?for\s+(?:[\w-]+\s+){0,2}?"
    r"(?:vulnerabilit\w+|intrusions?|attacks?)\b"
    r"|\b(?:review|audit|test|evaluat|updat)\w*\s+(?:our\s+|its\s+|the\s+)?security\b"
    r"|\bsecurity\s+(?:practices|policies|procedures|systems|measures)\s+(?:are\s+|is\s+)?(?:\w+\s+)?"
    r"(?:reviewed|audited|updated|tested|evaluated)\b"
    r"|\bfirewalls?\b|\b(?:two|multi)[- ]factor\s+authentication\b|(?<!media\s)\baccess\s+controls?\b"
    r"|\baccessible\s+only\s+(?:to|by)\b"
    r"|\bonly\s+(?:[\w-]+\s+){0,2}?(?:employees|personnel|staff|associates|people|persons|individuals)\s+"
    r"(?:\w+\s+){0,2}?(?:have|has|are\s+(?:given|granted|permitted|allowed))\s+access\b"
    r"|\b(?:security|confidentiality)\s+of\s+(?:[\w'’-]+\s+){0,4}?(?:information|data)\s+(?:is|are)\s+"
    r"(?:\w+\s+){0,3}?(?:important|a\s+(?:top\s+)?priority|paramount)\b",
    re.I,
)
# "… to (help) protect / secure …" after a use or sharing verb: the aim of that practice, unless what is
# protected is the data itself ("we use encryption to protect your information").
_PURPOSE_TO = re.compile(r"\bto\s+(?:help\s+(?:us\s+)?)?(?:\w+\s+(?:and|or)\s+)?$", re.I)
_DATA_OBJECT = re.compile(
    r"\s+(?:it|them|(?:(?:the|all|any|this|that|these|such|your|our\s+users'?)\s+)?(?:[\w'’-]+\s+){0,2}?"
    r"(?:information|data|details|records))\b",
    re.I,
)
_BOUND_TO = re.compile(
    r"\b(?:require[sd]?|requiring|agree[sd]?|agreement|obligat\w+|bound|contracts?|contractually|they|them)\b", re.I
)
_THREAT_LIST = re.compile(
    r"\b(?:unauthori[sz]ed|loss|misuse|theft|access(?:ed)?|alter(?:ed|ation)?|destr\w+|modif\w+|tamper\w*)"
    r"(?:\s*,\s*(?:\w+\s*,\s*)*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)(?:\w+\s+)?#"
    r"|#\s*(?:,\s*(?:\w+\s*,\s*)*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)(?:alter(?:ed|ation)?|destr\w+|modif\w+|loss|"
    r"misuse|tamper\w*)\b",
    re.I,
)
_TO_US = re.compile(
    r"\s+(?:(?:[\w-]+\s+){0,6}?(?:with|to)\s+(?:us|ourselves)\b|(?:automatically\s+)?to\s+(?:the\s+)?(?:Company|Site)\b)"
)
_NOT_NAME = (
    r"(?!(?:They|These|Those|Such|It|Its|This|That|Some|Any|All|Each|Other|Many|Most|Certain|No|Both|Either|"
    r"Neither|If|When|Where|While|Once|After|Before|Because|Since|Although|Unless|In|On|At|For|From|With|By|To|As|"
    r"Upon|Only|Also|Then|Please|Note|There|Here|He|She|One)\b)"
)
_NAME_SUBJECT = re.compile(
    r"\W*" + _NOT_NAME + r"(?:The\s+)?(?:[A-Z][\w.&'’-]*\s+){1,3}(?:(?:also|may|will|can|might|would|only|generally|"
    r"does|do|not|never|then)\s+)*$"
)
# Coordinated subjects with the site among them ("we and our partners may", "Acme, its affiliates and vendors
# use"), read on the sentence start with party mentions replaced by F (the site) and T (third parties).
_CO_SUBJECTS = re.compile(
    r"(?:^|[^\w])(?:F|T)(?:\s*,?\s*(?:(?:and|or|&|and/or|along with|together with|as well as)\s+)?"
    r"(?:(?:our|its|their|the|certain|other|selected|trusted|authori[sz]ed|some|various)\s+)*(?:[\w-]+\s+){0,2}?(?:F|T))+"
    r"\s*,?\s+(?:(?:may|might|can|could|will|would|also|then|only|generally|sometimes|each|both|all|do|does|"
    r"automatically|independently)\s+)*$"
)
_LEAD_NAME = re.compile(
    r"\W*" + _NOT_NAME + r"(?:The\s+)?(?:[A-Z][\w.&'’-]*\s+){0,2}[A-Z][\w.&'’-]*(?=\s*(?:,|and\b|or\b|&))"
)
# The site's own tracking technologies ("we may place cookies", "cookies allow us to", "a cookie is sent to your
# computer"): OPP-115 counts them as first-party collection even when no other data is named.
_TRACKER = r"(?:cookies?|web\s+beacons?|pixel\s+tags?|clear\s+gifs?|tracking\s+technolog(?:y|ies)|local\s+storage)"
_OWN_TRACKING = re.compile(
    r"\b(?:we|us)\s+(?:\w+\s+){0,3}?(?:use|place|set|serve|send|deploy|employ|utili[sz]e|store|access|read|drop)"
    r"\w*\s+(?:[\w\"“”-]+\s+){0,4}?[\"“]?" + _TRACKER + r"\b"
    r"|\b" + _TRACKER + r"[\"”]?\s+(?:(?:\w+\s+){0,3}?(?:is|are|may be|will be|can be)\s+(?:\w+\s+)?"
    r"(?:used|placed|set|sent|served|stored|collected)\b|(?:\w+\s+){0,2}?(?:allow|allows|enable|enables|help|helps|"
    r"let|lets)\s+us\b)",
    re.I,
)
# A third party's own tracking on the site ("advertisers may place cookies", "ad networks use web beacons").
_TRACK_VERB = re.compile(
    r"\b(?:place|serve|set|use|distribute|drop|deliver|recogni[sz]e|read|employ|utili[sz]e|collect)\w*\s+"
    r"(?:(?:and|or|and/or)\s+\w+\s+)?(?:[\w\"“”-]+\s+){0,4}?[\"“]?" + _TRACKER + r"\b",
    re.I,
)
# Handing data to a named recipient with a general verb ("we supply your contact information to marketers"),
# or letting a third party act ("allow third parties to see your profile").
_GIVE = re.compile(
    r"\b(?:provid|suppl|giv|furnish|mak|mad|report|pass|send)\w*\s+(?:[\w'’-]+\s+){0,10}?(?:to|with)\s+$", re.I
)
_LET = re.compile(
    r"\b(?:allow|allows|allowed|permit|permits|authori[sz]e|authori[sz]es|enable|enables|let|lets)\s+$", re.I
)
_LET_ACT = re.compile(
    r"\s+to\s+(?:\w+\s+)?(?:see|view|access|collect|use|place|serve|obtain|receive|track|gather|contact|target)\b", re.I
)
# Copies kept in backups after deletion: a retention statement without a period.
_BACKUP = re.compile(
    r"\bback-?ups?\b|\bbacked[- ]up\b|\bresidual\b|\barchived?\s+copies\b|\bon\s+file\b"
    r"|\bcontinue\s+to\s+(?:store|keep|retain|hold)\b|\b(?:our|its)\s+(?:\w+\s+)?archives\b"
    r"|\b(?:remain|remains|persist|persists)\s+in\s+(?:our|its)\s+(?:\w+\s+)?(?:records|systems?|databases?|files)\b",
    re.I,
)
# Disclosure to the public ("what you post becomes public", "can be seen and used by anyone").
_PUBLIC = re.compile(
    r"\b(?:becomes?|be made|is made|are made|will be|may be)\s+(?:publicly\s+)?"
    r"(?:available\s+to\s+the\s+public|public)\b"
    r"|\b(?:seen|viewed|read|collected|used|accessed|correlated)\s+(?:[\w,]+\s+){0,4}?by\s+"
    r"(?:anyone|others|other (?:users|people|members|visitors)|the (?:general )?public|members of the public|"
    r"(?:such\s+|any\s+)?third[- ]part(?:y|ies))\b"
    r"|\b(?:viewed|seen|read|displayed|shared)\s+publicly\b",
    re.I,
)
# The reader letting the site share ("you are agreeing to share", "you authorize us to share"): the site's disclosure.
_AUTHORIZE = re.compile(r"\b(?:agree\w*|authori[sz]\w*|consent\w*|allow\w*|permit\w*)\s+(?:us\s+)?to\s+$", re.I)
# A warning to the reader, not a choice ("you should be aware that what you post can be read by others").
_AWARE = re.compile(
    r"\byou\s+should\s+(?:also\s+)?(?:be\s+aware|remember|note|know|understand|keep\s+in\s+mind)\b", re.I
)
# The site acting together with its agents ("we and our service providers collect…"): the site's own collection.
_WE_AND_AGENTS = re.compile(
    r"\b(?:we|[A-Z][\w.&-]*)\s+(?:\((?:which|that)\s+includes\s+|and\s+)(?:our|its)\s+"
    r"(?:(?:third[- ]party|outside)\s+)?(?:service\s+providers|agents)$"
)
# Disclosures whose recipient is implied: legal demands (authorities, courts) and business transfers (a buyer).
_IMPLIED_RECIPIENT = re.compile(
    r"\b(?:required|permitted|compelled|authori[sz]ed)\s+(?:to\s+do\s+so\s+)?by\s+(?:applicable\s+)?law\b"
    r"|\bsubpoenas?\b|\bcourt\s+orders?\b|\bsearch\s+warrants?\b|\blegal\s+process\b|\blaw\s+enforcement\b"
    r"|\bcomply\s+with\s+(?:(?:the|any|all|applicable|a)\s+)*(?:laws?|legal|regulations?)\b"
    r"|\bmergers?\b|\bacquisitions?\b|\bbankruptcy\b|\breorgani[sz]ation\b"
    r"|\bsale\s+of\s+(?:all\s+or\s+(?:a\s+)?(?:\w+\s+)?(?:part|portion)\s+of\s+)?(?:\w+\s+){0,3}?assets\b",
    re.I,
)
# The site and third parties as joint subjects of tracking or collection ("We and third-party advertisers may use
# cookies", "We, along with our partners, collect…"); agents and service providers act for the site (see above).
_JOINT_SUBJECT = re.compile(
    r"\bwe\s*,?\s*(?:and|or|along\s+with|together\s+with|as\s+well\s+as)\s+"
    r"(?:(?:our|certain|other|select(?:ed)?|trusted)\s+)?(?:[\w-]+\s+)?"
    r"(?:third[- ]part(?:y|ies)|partners|advertisers|vendors|suppliers|(?:ad|advertising)\s+(?:networks|companies))\b"
    r"(?!\s+(?:service\s+providers|agents|contractors|processors))",
    re.I,
)
_JOINT_ACT = re.compile(r"\b(?:collect|gather|obtain|track|use|place|set|serve|deploy|employ|utili[sz]e)\w*\b", re.I)
_HAVE_ACCESS = re.compile(r"\b(?:have|has|had|given|granted|provided with)\s+access\s+to\b", re.I)
_OFF_LIST = re.compile(
    r"\s+(?:[\w'’-]+\s+){0,4}?from\s+(?:(?:our|the|all|any|these|those|such|future)\s+)*"
    r"(?:(?:e-?mail|mailing|marketing|distribution|contact|subscriber|subscription|newsletter|promotional|postal)\s+)*"
    r"lists?\b",
    re.I,
)
_IN_TRACKER = re.compile(
    r"\s+(?:[\w-]+\s+){0,3}?(?:in|on|by|using|via|within)\s+(?:a|an|the|our|these)?\s*(?:\w+\s+)?" + _TRACKER + r"\b",
    re.I,
)
_HIRE_NOUN = (
    r"(?:compan(?:y|ies)|firms?|vendors?|agents?|agenc(?:y|ies)|contractors?|consultants?|providers?|parties|"
    r"partners?|attorneys?|lawyers?|counsel|auditors?|professionals?|businesses)"
)
_HIRED = re.compile(
    r"^\s+(?:the\s+services\s+of\b|(?:(?:an?|the|other|outside|third[- ]party|independent|trusted|qualified|reputable|"
    r"professional|specialized|external|one\s+or\s+more|various|certain|several)\s+){0,3}" + _HIRE_NOUN + r"\b)",
    re.I,
)
_HIRED_PARTY = re.compile(r"\s+(?:(?:an?|the|other|outside|independent|trusted|certain|several|various)\s+){0,2}", re.I)
_HIRER = re.compile(r"\b" + _HIRE_NOUN + r"\s+(?:(?:that|whom|which)\s+)?(?:we|us)\s+(?:\w+\s+)?$", re.I)
_HIRE = re.compile(r"^\s+(?:to|by)\s+(?:perform|provide|help|assist|act|conduct|process|host|operate|manage)\b", re.I)

_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[\"“(\[]?[A-Z0-9*])")
_NEGATION = {"not", "never", "n't", "no", "neither", "nor", "without"}
_LIST_ITEM = re.compile(r"^\s*(?:[*\-+•]|\d+[.)])\s+")

_HEADING_CUES: tuple[tuple[re.Pattern[str], str], ...] = (
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

_NUM = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|eighteen|twenty|thirty|forty|forty-five|sixty|ninety|a|an)"
)
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "eighteen": 18,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "forty-five": 45,
    "sixty": 60,
    "ninety": 90,
}
_PERIOD = re.compile(
    rf"\b(?:for|up to|within|after|of|at least|at most|no longer than|more than|maximum of|every|each)\s+"
    rf"(?:a (?:period|maximum) of\s+|up to\s+|approximately\s+|about\s+)?({_NUM})\s+(?:\(\d+\)\s+)?"
    r"(day|week|month|year)s?\b"
    r"|\b(?:for|after|within)\s+(?:several|many|a few|a number of)\s+(?:day|week|month|year)s\b"
    r"|\b(?:as|so) long as (?:(?:is |it is |it remains |they remain |we deem (?:it )?|we consider (?:it )?|reasonably |"
    r"strictly |legally |may be |it's |we have a (?:legitimate )?(?:business )?)*"
    r"(?:necessary|needed|need|required|permitted|appropriate|useful|relevant)|"
    r"(?:your|the|an|their) account (?:is|remains) (?:active|open)|"
    r"you (?:keep|maintain|have) (?:your|an) account|"
    r"you (?:are|remain) an? (?:\w+ )?(?:member|user|customer|subscriber))[^.;,]{0,60}"
    r"|\b(?:no longer|not longer) than (?:is )?(?:necessary|needed|required)[^.;,]{0,60}"
    r"|\buntil (?:it is |they are )?no longer (?:necessary|needed|required)[^.;,]{0,40}"
    r"|\buntil you (?:delete|close|remove|deactivate)[^.;,]{0,40}"
    r"|\buntil (?:you|your|such time|the end of|we (?:no longer|receive|are asked))\b[^.;,]{0,40}"
    r"|\bfor the (?:duration|life(?:time)?) of\b[^.;,]{0,40}|\bpermanently\b"
    r"|\bas (?:is |may be )?(?:reasonably )?(?:necessary|needed|required) (?:to|for) (?:comply|compliance|meet|fulfil|"
    r"fulfill|satisfy)\b[^.;,]{0,40}"
    r"|\blonger than (?:is )?(?:necessary|needed|required)\b[^.;,]{0,60}"
    # the usual reasons for keeping data after its use: legal duties, disputes, record keeping
    r"|\b(?:resolve|settle) (?:any )?disputes\b"
    r"|\bfor (?:\w+,? ){0,3}?(?:legal|tax|accounting|audit(?:ing)?|regulatory|record-?keeping|archival|archiving) "
    r"(?:(?:and|or) \w+ )?(?:purposes|reasons|requirements)\b"
    r"|\bwhile (?:your account (?:is|remains) (?:active|open)|you (?:are|remain) an? (?:\w+ )?(?:member|user|customer|"
    r"subscriber))\b"
    r"|\bin accordance with (?:\w+ ){0,3}?(?:records? (?:retention |disposition )?schedules?|"
    r"(?:record |data )?retention (?:polic(?:y|ies)|schedules?|requirements))\b"
    r"|\bindefinitely\b|\bforever\b|\bfor (?:a |an |some )?(?:\w+ ){0,3}(?:time|period)(?: of time)?\b(?! to time)"
    r"|\bon an? (?:rolling|continuous|regular) (?:\d+|[a-z]+)[- ](?:day|week|month|year)s? (?:basis|cycle)\b",
    re.I,
)
_PLACE = re.compile(
    r"\b(?:in|to)\s+(?:the\s+)?(United States(?: of America)?|U\.S\.(?:A\.)?|USA|European Union|"
    r"European Economic Area|EEA|EU|United Kingdom|UK|Ireland|Canada|Singapore|India|Japan|Australia|"
    r"Germany|Netherlands|Switzerland|Brazil|China|your (?:country|region)|other countries|"
    r"countries outside[^.;,]{0,40})",
)
_PLACE_CONTEXT = re.compile(r"\b(stor\w*|server\w*|data cent\w*|host\w*|transfer\w*|located|process\w*)\b", re.I)
_UNIT = {"day": "D", "week": "W", "month": "M", "year": "Y"}


@dataclass(frozen=True)
class Lexicons:
    data: Lexicon
    purposes: Lexicon
    parties: Lexicon
    triggers: Lexicon
    attributes: Lexicon
    version: str
    cues: CueTable


def _with_plurals(rows: Iterable[tuple[str, ...]]) -> Iterable[Entry]:
    for phrase, *rest in rows:
        yield entry(phrase, *rest)
        for p in plural_variants(phrase):
            yield entry(p, *rest)


@cache
def load_lexicons() -> Lexicons:
    """Load and validate every lexicon (once per process)."""
    from pp_graph.errors import DataFileError

    vocab = vocabulary()
    files = sorted(LEXICON_DIR.glob("*.tsv"))

    def concepts(name: str, top: str) -> list[tuple[str, str]]:
        rows = []
        for phrase, term in read_tsv(LEXICON_DIR / name, 2):
            if not term:
                raise DataFileError(f"{name}: {phrase!r} has no concept; expected phrase<TAB>pd:… or dpv:…")
            iri = expand(term)
            if not vocab.in_scheme(iri, top):
                raise DataFileError(f"{name}: {phrase!r} → {term} is not a concept under {compact(top)} in DPV")
            rows.append((phrase, iri))
        return rows

    def dpv_labels(top: str) -> list[tuple[str, str]]:
        out = []
        for iri in sorted(vocab.members(top)):
            label = vocab.labels.get(iri, "")
            if label and label.lower() not in _LABEL_STOP and not label[:1].isdigit() and "(" not in label:
                out.append((label.lower() if not label.isupper() else label, iri))
        return out

    data_rows = concepts("data.tsv", PERSONAL_DATA)
    purpose_rows = concepts("purposes.tsv", PURPOSE)
    # Curated rows first: they win over a DPV label with the same words.
    data = Lexicon("data", _with_plurals([*data_rows, *dpv_labels(PERSONAL_DATA)]))
    data.add(entry("information", expand("dpv:PersonalData")))
    data.add(entry("data", expand("dpv:PersonalData")))
    purposes = Lexicon("purposes", (entry(p, c) for p, c in [*purpose_rows, *dpv_labels(PURPOSE)]))

    party_rows = read_tsv(LEXICON_DIR / "parties.tsv", 3)
    for phrase, party, kind in party_rows:
        if party not in PartyKind.__members__.values() or kind not in RecipientKind.__members__.values():
            raise DataFileError(f"parties.tsv: {phrase!r}: party {party!r} or recipient kind {kind!r} unknown")
    parties = Lexicon("parties", (entry(p, k, r) for p, k, r in party_rows if p != "{site}"))

    trig_rows = read_tsv(LEXICON_DIR / "triggers.tsv", 3)
    for phrase, kind, needs in trig_rows:
        if kind not in _PRACTICE_OF:
            raise DataFileError(f"triggers.tsv: {phrase!r}: practice {kind!r} is not one of {sorted(_PRACTICE_OF)}")
        if needs not in _REQUIRES:
            raise DataFileError(f"triggers.tsv: {phrase!r}: requires {needs!r} is not one of {sorted(_REQUIRES)}")
    triggers = Lexicon("triggers", (entry(p, k, n) for p, k, n in trig_rows))

    attr_rows = read_tsv(LEXICON_DIR / "attributes.tsv", 3)
    attrs = []
    for phrase, kind, term in attr_rows:
        if kind not in AttributeKind.__members__.values():
            raise DataFileError(f"attributes.tsv: {phrase!r}: kind {kind!r} unknown")
        iri = expand(term) if term else ""
        if iri and iri not in vocab.labels:
            raise DataFileError(f"attributes.tsv: {phrase!r}: {term} is not in DPV")
        attrs.append(entry(phrase, kind, iri))
    attributes = Lexicon("attributes", attrs)
    cues = load_cues(LEXICON_DIR / "practice-cues.tsv")
    return Lexicons(data, purposes, parties, triggers, attributes, digest_files(files), cues)


def site_name(site: str) -> str:
    """github.com → GitHub-ish display name: the registrable label, capitalised."""
    labels = site.split(".")
    core = labels[-3] if len(labels) >= 3 and labels[-2] in {"co", "com", "org", "ac"} else labels[0]
    if core == "www" and len(labels) > 1:
        core = labels[1]
    return core.capitalize()


def sentences(seg: Segment) -> list[tuple[int, int]]:
    """Sentence bounds (absolute offsets) inside a segment."""
    out, start = [], 0
    for m in _SENTENCE.finditer(seg.text):
        out.append((seg.start + start, seg.start + m.start()))
        start = m.end()
    out.append((seg.start + start, seg.end))
    return out


@dataclass
class _SegState:
    data: list[Hit]
    purposes: list[Hit]
    parties: list[PartyMention]
    triggers: list[Hit]
    attributes: list[AttributeMention]


class OfflineBackend(Backend):
    name = "offline"

    def __init__(self, **_: object) -> None:
        self.lex = load_lexicons()
        self._cache: dict[int, _SegState] = {}
        self._cache_policy = ""
        # The segment being read states the reader's own sharing ("when you share…"): a statement of its own,
        # not a trigger-less line that takes its heading's practice.
        self._user_act = False

    @property
    def provenance(self) -> Provenance:
        return Provenance("offline", RULESET_VERSION, self.lex.version)

    # -- shared analysis, computed once per segment and reused by the stages --

    def _state(self, policy: Policy, seg: Segment) -> _SegState:
        # The stages of one policy share each segment's analysis; a new policy starts afresh.
        if policy.digest != self._cache_policy:
            self._cache, self._cache_policy = {}, policy.digest
        st = self._cache.get(seg.index)
        if st is None:
            st = self._cache[seg.index] = self._analyse(policy, seg)
        return st

    def _analyse(self, policy: Policy, seg: Segment) -> _SegState:
        text, off = seg.text, seg.start
        data = list(self.lex.data.find(text, off))
        purposes = list(self.lex.purposes.find(text, off))
        parties: list[PartyMention] = []
        own = site_name(policy.site)
        party_hits = list(self.lex.parties.find(text, off))
        for m in re.finditer(rf"\b{re.escape(own)}\b", text):
            if not any(h.start <= m.start() + off < h.end for h in party_hits):
                party_hits.append(Hit(m.start() + off, m.end() + off, entry(own, "first_party", "first_party")))
        for h in sorted(party_hits, key=lambda h: h.start):
            kind, rkind = h.entry.value[0], h.entry.value[1]
            name = h.entry.phrase if kind == PartyKind.THIRD_PARTY else kind
            parties.append(
                PartyMention(Span.at(policy.text, h.start, h.end), PartyKind(kind), RecipientKind(rkind), name.lower())
            )
        triggers = list(self.lex.triggers.find(text, off))
        attrs: list[AttributeMention] = []
        for h in self.lex.attributes.find(text, off):
            kind = AttributeKind(h.entry.value[0])
            attrs.append(AttributeMention(Span.at(policy.text, h.start, h.end), kind, h.entry.value[1] or None))
        for m in _PERIOD.finditer(text):
            attrs.append(
                AttributeMention(
                    Span.at(policy.text, m.start() + off, m.end() + off),
                    AttributeKind.RETENTION_PERIOD,
                    None,
                    _duration(m),
                )
            )
        if _PLACE_CONTEXT.search(text):
            for m in _PLACE.finditer(text):
                attrs.append(
                    AttributeMention(
                        Span.at(policy.text, m.start(1) + off, m.end(1) + off), AttributeKind.STORAGE_PLACE
                    )
                )
        attrs.sort(key=lambda a: (a.span.start, a.span.end))
        return _SegState(data, purposes, parties, triggers, attrs)

    # -- stages --

    def data_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return [[Span.at(policy.text, h.start, h.end) for h in self._state(policy, s).data] for s in segments]

    def data_classes(self, policy: Policy, segments: list[Segment], spans: list[list[Span]]) -> list[list[str | None]]:
        return [[self._concept(self.lex.data, sp.text) for sp in ss] for ss in spans]

    def purpose_spans(self, policy: Policy, segments: list[Segment]) -> list[list[Span]]:
        return [[Span.at(policy.text, h.start, h.end) for h in self._state(policy, s).purposes] for s in segments]

    def purpose_classes(
        self, policy: Policy, segments: list[Segment], spans: list[list[Span]]
    ) -> list[list[str | None]]:
        return [[self._concept(self.lex.purposes, sp.text) for sp in ss] for ss in spans]

    @staticmethod
    def _concept(lex: Lexicon, text: str) -> str | None:
        e = lex.lookup(text)
        return e.value[0] if e else None

    def parties(self, policy: Policy, segments: list[Segment]) -> list[list[PartyMention]]:
        return [self._state(policy, s).parties for s in segments]

    def attributes(self, policy: Policy, segments: list[Segment]) -> list[list[AttributeMention]]:
        return [self._state(policy, s).attributes for s in segments]

    def practices(self, policy: Policy, segments: list[Segment]) -> list[list[PracticeMention]]:
        out: list[list[PracticeMention]] = []
        lead_in: PracticeMention | None = None  # a line ending in ':' that announced a practice
        # Plain text without heading markup (OPP-115's sanitized HTML): short title-like lines act as headings.
        pseudo = not any(s.is_heading for s in segments)
        heads = [s.is_heading or (pseudo and _title_like(s.text)) for s in segments]
        section = ""  # title of the nearest heading above
        blocks = 0  # paragraphs (blank-line separated) since that heading
        for i, seg in enumerate(segments):
            st = self._state(policy, seg)
            found: list[PracticeMention] = []
            if i and "\n\n" in policy.text[segments[i - 1].end : seg.start]:
                blocks += 1
            if heads[i]:
                section, blocks = seg.text, 0
            # A section about children, policy changes, contacting the site or other sites' practices (a
            # title-like line of plain text only reaches its own and the next paragraph).
            elif not (_OFF_TOPIC.search(section) and (not pseudo or blocks <= _PSEUDO_REACH)):
                self._user_act = False
                for s0, s1 in sentences(seg):
                    found.extend(self._sentence_practices(policy, seg, st, s0, s1))
                if (
                    not found
                    and not self._user_act
                    and (st.data or blocks == 0 or (lead_in is not None and _list_like(seg.text)))
                ):
                    inherited = self._inherit(policy, seg, segments, heads, lead_in, bool(st.data), blocks == 0)
                    if inherited and (
                        self.lex.cues.score(
                            _CATEGORY[inherited.type], seg.text, self._features(st, seg.start, seg.end), True
                        )
                        > 0
                    ):
                        found.append(inherited)
            out.append(found)
            if heads[i]:
                lead_in = None
            elif seg.text.rstrip().endswith(":") and found:
                lead_in = found[0]
            elif not _list_like(seg.text):
                lead_in = None
        _list_siblings(segments, heads, out)
        self._paragraph_rules(policy, segments, heads, out)
        return out

    def _paragraph_rules(
        self, policy: Policy, segments: list[Segment], heads: list[bool], out: list[list[PracticeMention]]
    ) -> None:
        """Paragraph-level evidence: a paragraph with a title line is read as a whole, under its title.

        - A paragraph about another topic (its title names sharing but not collection, security, the reader's
          rights or choices…) keeps a practice its title does not cover only when the practice is stated in more
          than one sentence: a single passing mention is not what the paragraph is about.
        - Under a title about one party's collection, the body's collection is that party's ("we and our
          providers collect…" under "Information We Collect", "…is used to serve ads" under "Third-Party Ads").
        - A title naming one practice is confirmed by a weaker trigger in the body (see _weak_support).
        """
        for para in _paragraphs(policy, segments):
            title = _paragraph_title(segments, heads, para)
            if not title:
                continue
            named = {kind for pattern, kind in _PARA_TOPICS if pattern.search(title)}
            if not named:
                continue
            sents: dict[str, set[int]] = {}
            for i in para:
                bounds = sentences(segments[i])
                for p in out[i]:
                    if not p.inherited:
                        k = next((j for j, (a, b) in enumerate(bounds) if a <= p.span.start < b), 0)
                        sents.setdefault(_CATEGORY[p.type], set()).add(bounds[k][0])
            fp, tc = PracticeType.FIRST_PARTY_COLLECTION_USE, PracticeType.THIRD_PARTY_COLLECTION_USE
            convert = {}
            if "first-party" in named and "third-party" not in named and "first-party" not in sents:
                convert[tc] = fp
            if "third-party" in named and "first-party" not in named and "third-party" not in sents:
                convert[fp] = tc
            for i in para:
                kept = [
                    p
                    for p in out[i]
                    if p.type not in _PARA_COVERS
                    or named & _PARA_COVERS[p.type]
                    or len(sents.get(_CATEGORY[p.type], ())) > 1
                ]
                kept.extend(
                    PracticeMention(p.span, convert[p.type], p.negated)
                    for p in out[i]
                    if p.type in convert and not p.inherited
                )
                out[i] = kept
            # A title naming one practice (and no audience or other off-topic matter) is confirmed by a weaker
            # trigger in the body: one that failed only for a missing period, a choice word nearby…
            (cat,) = named if len(named) == 1 else ("",)
            found = {_CATEGORY[p.type] for i in para for p in out[i]}
            if cat in _PARA_SUPPORT and cat not in found and not _OFF_TOPIC.search(title):
                support = self._weak_support(policy, segments, para[1:], cat)
                if support is not None:
                    out[support[0]].append(support[1])

    def _weak_support(
        self, policy: Policy, segments: list[Segment], body: list[int], category: str
    ) -> tuple[int, PracticeMention] | None:
        """The first trigger of a category's kind in the body, as the sentence rules would read it but without
        their demands for a period, a security detail or a clean clause: a verb (not "the use of"), not negated,
        the site's own act (or passive, or data the reader gives), in a sentence naming personal data that is
        not about the policy itself or a special audience."""
        kind = _PARA_SUPPORT[category]
        text = policy.text
        for i in body:
            st = self._state(policy, segments[i])
            for s0, s1 in sentences(segments[i]):
                sentence = text[s0:s1]
                if (
                    not any(s0 <= d.start < s1 for d in st.data)
                    or _SCOPE.search(sentence)
                    or _AUDIENCE.search(sentence)
                ):
                    continue
                for t in st.triggers:
                    if not (s0 <= t.start < s1) or t.entry.value[0] != kind:
                        continue
                    word = text[t.start : t.end].lower()
                    prev = re.findall(r"[\w']+", text[max(s0, t.start - 30) : t.start].lower())[-1:]
                    if word in _AMBIGUOUS and prev and prev[0] in _NOUN_BEFORE:
                        continue
                    if _negated(text, s0, t.start) or sentence.rstrip().endswith(":"):
                        continue  # a negation, or a lead-in line whose list follows
                    if kind == "secure" and _NOT_DATA_PROTECTION.match(text[t.end : s1]):
                        continue  # "protect our rights and property"
                    subject = self._subject(text, st, s0, t)
                    before = text[max(s0, t.start - 40) : t.start]
                    if (
                        _META.search(before)
                        or _THIRD_SUBJECT.search(before)
                        or (
                            subject is not None
                            and subject.kind != PartyKind.FIRST_PARTY
                            and "you" not in t.entry.phrase.lower()
                        )
                        or (word.endswith("ed") and subject is None and not _PASSIVE.search(before))
                        or (
                            t.entry.value[1] == "agent"
                            and (subject is None or subject.kind == PartyKind.USER)
                            and not _PASSIVE.search(before)
                        )
                    ):
                        continue  # another party's or the reader's action; "information collected by…": a reference
                    return i, PracticeMention(Span.at(text, t.start, t.end), _PRACTICE_OF[kind])
        return None

    def _sentence_practices(
        self, policy: Policy, seg: Segment, st: _SegState, s0: int, s1: int
    ) -> list[PracticeMention]:
        in_sent = [t for t in st.triggers if s0 <= t.start < s1]
        text = policy.text
        sentence = text[s0:s1]
        cue = _SECURE_CUE.search(sentence)
        if not cue:
            of = _SECURE_OF.search(sentence)
            if (
                of
                and not _BOUND_TO.search(sentence[: of.start()])
                and not re.search(r"\bcommit\w*\b", sentence[: of.start()], re.I)
                and not re.match(r"\W*(?:to|for)\s", sentence)  # "to … protect the security of …": a purpose item
                and not any(
                    s0 <= p.span.start < s0 + of.start() and p.kind == PartyKind.THIRD_PARTY for p in st.parties
                )
            ):
                cue = of
        if not cue:
            cue = _SECURE_MORE.search(sentence)
        tracking = _OWN_TRACKING.search(sentence)
        if (
            not in_sent
            and not cue
            and not tracking
            and not any(s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY for p in st.parties)
            and not _PUBLIC.search(sentence)
        ):
            return []
        if _SCOPE.search(sentence):
            return []  # about the policy itself, other sites or definitions
        if _AUDIENCE.search(sentence):
            # About children or state residents: only a retention statement with its period is kept.
            if not any(a.kind == AttributeKind.RETENTION_PERIOD and s0 <= a.span.start < s1 for a in st.attributes):
                return []
            in_sent = [t for t in in_sent if t.entry.value[0] == "retain"]
            cue = tracking = None
        abroad = bool(_ABROAD.search(sentence))
        choice = bool(_CHOICE_LINE.search(sentence))
        has_data = any(s0 <= d.start < s1 for d in st.data)
        # Practice details in this sentence, computed once for all its triggers.
        details = {a.kind for a in st.attributes if s0 <= a.span.start < s1}
        has_period_here = AttributeKind.RETENTION_PERIOD in details
        third = [p for p in st.parties if s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY]
        found: list[PracticeMention] = []
        seen: set[PracticeType] = set()
        for t in in_sent:
            kind, needs = t.entry.value[0], t.entry.value[1]
            ptype = _PRACTICE_OF[kind]
            word = text[t.start : t.end].lower()
            before = text[max(s0, t.start - 60) : t.start]
            after = text[t.end : min(s1, t.end + 60)]
            prev = re.findall(r"[\w']+", before.lower())[-1:]
            if word in _AMBIGUOUS and prev and prev[0] in _NOUN_BEFORE:
                continue  # "the use of", "your request", "a record": a noun, not the practice verb
            if word in _AMBIGUOUS and kind == "collect" and re.match(r"\s+of\b", after):
                continue  # "their use of cookies": a noun
            if kind == "share" and (
                re.match(r"\s+(?:you|to you|us|it to us|them to us)\b", after, re.I)
                or _SHARE_TOOL.match(after)
                or _CHOICE_BEFORE.search(before)
                or _ON_DEVICE.match(after)
            ):
                continue  # "send you newsletters", "sharing buttons", "opt out of sharing…", "sent to your computer"
            if kind == "share" and _THREAT_LIST.search(text[max(s0, t.start - 50) : t.start] + "#" + after[:50]):
                continue  # "unauthorized access, use or disclosure", "accessed, disclosed, altered": a threat
            if kind == "share" and _TO_US.match(text[t.end : s1]):
                # "information you share with us", "disclosed to the Company": data coming to the site, which
                # OPP-115 counts as the site's collection when the data is named.
                fp = PracticeType.FIRST_PARTY_COLLECTION_USE
                if has_data and fp not in seen and not choice and word.startswith(("shar", "provid", "disclos", "giv")):
                    seen.add(fp)
                    found.append(PracticeMention(Span.at(text, t.start, t.end), fp, _negated(text, s0, t.start)))
                continue
            if word.startswith("access") and re.match(
                r"\s+(?:to|control|controls|logs?|rights?|(?:or|and)\s+control)\b", after, re.I
            ):
                continue  # "access to", "access controls", "no access or control over"
            if word in ("request", "requests") and re.match(r"\s+(?:that|for|from|related|regarding)\b", after, re.I):
                continue  # "requests for removal", "we request that you link to…": a request to the site or reader
            if word.startswith("process") and (
                re.match(
                    r"\s+(?:(?:your|such|these|all|any|the)\s+)?(?:\w+\s+)?(?:requests?|preferences)\b", after, re.I
                )
                or re.search(r"\b(?:requests?|preferences)\s+(?:\w+\s+){0,3}$", before, re.I)
            ):
                continue  # "allow time for your preferences to be processed", "process your requests"
            if word in ("get", "gets") and re.match(
                r"\s+(?:back|in touch|started|rid|to know|involved|help)\b", after, re.I
            ):
                continue  # "we will get back to you": not obtaining data
            if word.startswith("log") and re.match(r"\s+(?:in|into|on|onto|out|off)\b", after, re.I):
                continue  # "log into your account": the reader signing in
            if kind == "collect" and _CONSENT_OBJECT.match(after):
                continue  # "obtain your written authorization", "ask for your consent": consent, not data
            if word.endswith(("ion", "age")) and (_PRACTICE_LIST.search(before) or _PRACTICE_LIST.match(after)):
                continue  # "the collection, use and retention of…": a list of practice names
            if (
                kind == "collect"
                and "you" in t.entry.phrase.lower()
                and _IF_CLAUSE.search(before)
                and _THEN_SHARE.match(text[t.end : s1])
            ):
                continue  # "when you provide personal information to…, we may share it with…": a disclosure statement
            if choice and kind == "collect":
                continue  # "you can opt out of…", "to unsubscribe…": the reader's choices
            if abroad and kind in ("collect", "retain"):
                continue  # "may be transferred to and stored in the United States": an international transfer
            subject = self._subject(text, st, s0, t)
            if (
                subject is None
                and kind in ("collect", "share")
                and _NAME_SUBJECT.match(text[s0 : t.start])
                and not any(s0 <= p.span.start < t.start for p in st.parties)
                and not _THIRD_SUBJECT.search(before)
            ):
                # "Acme Health may use…": the operator named at the start of the sentence.
                subject = PartyMention(
                    Span.at(text, s0, s0), PartyKind.FIRST_PARTY, RecipientKind.FIRST_PARTY, "first_party"
                )
            implicit_third = (
                subject is None
                and word != "using"  # "users who access services using several devices": a participle, not a verb
                and bool(_THIRD_SUBJECT.search(before))
                and not _OUR_SUBJECT.search(before)
            )
            if subject is None and kind == "collect" and _OUR_THING.search(before):
                # "Some of our mobile services use your location", "our servers automatically record…"
                subject = PartyMention(
                    Span.at(text, s0, s0), PartyKind.FIRST_PARTY, RecipientKind.FIRST_PARTY, "first_party"
                )
            if (
                kind == "collect"
                and subject is None
                and (
                    implicit_third
                    or (
                        any(p.span.start < t.start for p in third)
                        and not any(
                            p.kind == PartyKind.FIRST_PARTY and s0 <= p.span.start < t.start for p in st.parties
                        )
                    )
                )
            ):
                ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            if (
                kind == "share"
                and subject is not None
                and subject.kind == PartyKind.USER
                and not _PASSIVE.search(text[s0 : t.start])
                and not _AUTHORIZE.search(text[subject.span.end : t.start])
            ):
                self._user_act = True
                continue  # "when you share content on a social network": the reader's own act
            if kind == "collect" and subject is None and (_INFINITIVE.search(before) or _RELATIVE.search(before)):
                # "we work with ad networks to collect…", "an advertiser may place a cookie in order to collect…",
                # "ad companies, which may collect…": the nearest party before the verb does the collecting.
                near = [
                    (p.span.start, p.kind == PartyKind.THIRD_PARTY)
                    for p in st.parties
                    if s0 <= p.span.start < t.start and p.span.text.lower() not in ("your", "our", "their", "its")
                ]
                near += [(s0 + m.start(), True) for m in _THIRD_NOUN.finditer(text, s0, t.start)]
                if near:
                    at, is_third = max(near)
                    if (
                        is_third
                        and (_RELATIVE.search(before) or not re.search(r"\bby\s+(?:\w+\s+){0,3}$", text[s0:at]))
                        and not _ON_OUR_BEHALF.match(text[t.end : s1])
                    ):
                        ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            if kind == "share" and re.match(r"\W*(?:please\s+)?(?:do not|don't|never)\s*$", text[s0 : t.start], re.I):
                continue  # "do not share your password": advice to the reader
            if kind == "collect" and subject is not None:
                phrase = t.entry.phrase.lower()
                if (
                    subject.kind == PartyKind.USER
                    and "you" not in phrase
                    and not phrase.startswith(("asked", "required"))
                ):
                    continue  # "you can access / request / use…" is the user's action ("you are asked to" is not)
                if subject.kind == PartyKind.THIRD_PARTY and not _WE_AND_AGENTS.search(text[s0 : subject.span.end]):
                    ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
            passive = bool(_PASSIVE.search(text[s0 : t.start]))
            if kind == "retain" and not passive and (_DELETE_TIMING.match(after) or _PERIOD.search(text[t.end : s1])):
                # "is not retained after the order is shipped", "will not be kept longer than necessary"
                passive = bool(_PASSIVE_NOT.search(text[s0 : t.start]))
            by = _BY_AGENT.match(after) if kind == "collect" and word.endswith("ed") and word != "accessed" else None
            if by and (
                by.group(1)
                or any(p.kind == PartyKind.THIRD_PARTY and p.span.start == t.end + by.end() for p in st.parties)
            ):
                ptype = (
                    PracticeType.THIRD_PARTY_COLLECTION_USE
                )  # "may be collected and used by others / by advertisers"
            if (
                needs == "agent"
                and (subject is None or subject.kind == PartyKind.USER)
                and not passive
                and not (implicit_third)
            ):
                continue
            if (
                kind == "collect"
                and word.endswith("ed")
                and not passive
                and any(0 < t.start - d.end <= 2 and not text[d.end : t.start].strip() for d in st.data)
            ):
                continue  # "we may disclose information collected through…": a reduced relative clause, a reference
            if (
                kind == "collect"
                and word.endswith("ed")
                and subject is None
                and not passive
                and not implicit_third
                and not seg.text.rstrip().endswith(":")
            ):
                continue  # "information collected through the site…": a reference, not a statement
            if kind == "collect" and word.startswith("us"):
                nxt = [d.start for d in st.data if t.end <= d.start < s1]
                window = text[t.end : nxt[0]] if nxt else after
                if _TOOL_OBJECT.match(window):
                    continue  # "we use encryption to protect…": a tool, not data use
                obj = [p for p in st.parties if t.end <= p.span.start < t.end + 40 and p.span.start < s1]
                if obj and obj[0].kind == PartyKind.THIRD_PARTY and len(text[t.end : obj[0].span.start].split()) <= 3:
                    ptype = PracticeType.THIRD_PARTY_COLLECTION_USE  # "we use Google Analytics / ad networks"
            if kind in ("collect", "share") and (
                _META.search(before)
                or (
                    any(0 < t.start - d.end <= 24 and _REFERENCE.fullmatch(text[d.end : t.start]) for d in st.data)
                    and not seg.text.rstrip().endswith(":")
                )
            ):
                continue  # "how we collect…", "the information we collect is…": a reference, not a statement
            if (
                kind == "retain"
                and passive
                and subject is not None
                and subject.kind == PartyKind.USER
                and not _AUX_ONLY.fullmatch(text[subject.span.end : t.start])
            ):
                subject = None  # "information that you submit is discarded once…": the user is in a relative clause
            if kind == "retain" and (
                implicit_third
                or (
                    subject is not None
                    and subject.kind != PartyKind.FIRST_PARTY
                    and not any(
                        p.kind == PartyKind.FIRST_PARTY
                        and s0 <= p.span.start < t.start
                        and p.span.text.lower() not in ("our", "its")  # "our ad servers": an owner, not an actor
                        for p in st.parties
                    )
                )
            ):
                continue  # a third party's or the user's keeping/deleting is not the site's retention
            timed = kind == "retain" and bool(
                _DELETE_TIMING.match(after)
                or _BACKUP.search(sentence)
                or (word.startswith(_DISPOSE) and _ROUTINE.search(before))
            )
            period_here = kind == "retain" and any(
                a.kind == AttributeKind.RETENTION_PERIOD and t.end <= a.span.start < s1 for a in st.attributes
            )
            if (
                kind == "retain"
                and not period_here
                and _VERB_LIST.search(text[max(s0, t.start - 40) : t.start] + "#" + text[t.end : min(s1, t.end + 40)])
            ):
                continue  # "we collect, retain and use…": retention named in a list of verbs, not a statement
            if kind == "retain" and (
                (_USER_CHOICE.search(sentence) and not (period_here and not _USER_CHOICE.search(text[s0 : t.start])))
                or (word.startswith(("delet", "eras", "remov")) and _USER_REQUEST.search(sentence) and not timed)
            ):
                continue  # "you may ask us to delete…", "you may opt out of…": a user right or choice
            if kind == "retain" and word.endswith("ed") and subject is None and not passive:
                continue  # "information retained by…": a reference
            if word == "keep" and re.match(r"\s+in mind\b", after, re.I):
                continue
            sec_detail = bool(details & _DETAIL_OF["secure"])
            if (
                kind == "secure"
                and not needs
                and " " in word
                and word.startswith("reasonable")
                and not sec_detail
                and not _SECURE_AIM.match(after)
            ):
                continue  # "reasonable steps to verify your identity / keep it accurate": not security
            if kind == "secure" and _NOT_DATA_PROTECTION.match(after):
                continue  # "protect our rights, property or safety"
            if (
                kind == "secure"
                and _PURPOSE_TO.search(before)
                and AttributeKind.SECURITY_METHOD not in details
                and not _DATA_OBJECT.match(after)
                and any(
                    s0 <= u.start < t.start
                    and u.entry.value[0] in ("collect", "share")
                    and not _TOOL_OBJECT.match(text[u.end : t.start])
                    for u in st.triggers
                )
            ):
                continue  # "we use your IP address to protect our site from abuse": security as a purpose of use
            if (
                kind == "secure"
                and needs == "detail"
                and not sec_detail
                and word.startswith(("protect", "safeguard"))
                and re.match(
                    r"\s+(?:(?:the|all|any)\s+)?(?:your|this|such|that|the|our users'?|customers'?|visitors'?)\s+"
                    r"(?:\w+\s+)?"
                    r"(?:personal\s+|personally\s+identifiable\s+|financial\s+)?(?:information|data)\b",
                    after,
                    re.I,
                )
                and "privacy" not in after[:30].lower()
            ):
                needs = ""  # "we work hard to protect your personal information"
            if kind == "retain" and (_HIRE.match(after) or _ON_DEVICE.match(after)):
                continue  # "service providers we have retained to perform…", "cookies stored on your computer"
            if (
                kind == "retain"
                and word.startswith("retain")
                and (
                    _HIRED.match(after)
                    or _HIRER.search(before)
                    or any(_HIRED_PARTY.fullmatch(text[t.end : p.span.start]) for p in third)
                )
            ):
                continue  # "we retain an outside company", "a retained agent", "vendors we retain": hiring
            if kind == "retain" and _OFF_LIST.match(after):
                continue  # "we will remove your name from our mailing list": an opt-out, not retention
            if (
                kind == "retain"
                and (subject is None or subject.kind != PartyKind.FIRST_PARTY)
                and (
                    re.search(_TRACKER + r"[\"”]?\s+(?:[\w-]+\s+){0,6}?$", before, re.I)
                    or re.match(r"\s+(?:[\w-]+\s+){0,2}?" + _TRACKER + r"\b", after, re.I)
                )
            ) or (kind == "retain" and _IN_TRACKER.match(after)):
                continue  # "session cookies are deleted when you close…", "stored in a cookie": a cookie's lifetime
            if needs == "third" and not third and not (kind == "share" and _IMPLIED_RECIPIENT.search(sentence)):
                continue  # (a legal demand or a sale of the business names its recipient implicitly)
            # The site itself keeping/deleting named data ("we do not store card numbers", "we delete…"):
            # retention without a period.
            own = (
                kind == "retain"
                and has_data
                and (
                    (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
                    # passive: "log files are deleted"; a cookie's own expiry is not the site's retention
                    or (subject is None and passive and not implicit_third and not re.search(_TRACKER, sentence, re.I))
                )
                and (word.startswith(_DISPOSE) or _negated(text, s0, t.start))
            )
            if own:
                timed = True
            if needs == "detail" and not timed and not details & _DETAIL_OF.get(kind, set()):
                continue
            if needs == "detail" and kind == "retain" and not timed and not has_period_here:
                continue  # store/keep/delete count with a period, not a place alone (a place is a transfer topic)
            # A practice needs something to act on: personal data, or for sharing a recipient.
            has_period = kind == "retain" and has_period_here
            if not has_data and not (kind == "share" and third) and kind != "secure" and not has_period:
                continue
            if kind == "secure" and not (has_data or AttributeKind.SECURITY_METHOD in details):
                continue
            fp = PracticeType.FIRST_PARTY_COLLECTION_USE
            if ptype == PracticeType.THIRD_PARTY_COLLECTION_USE and fp not in seen and _joint_subject(text, st, s0, t):
                seen.add(fp)  # "we and our service providers may collect…": the site collects too
                found.append(PracticeMention(Span.at(text, t.start, t.end), fp, _negated(text, s0, t.start)))
            if ptype in seen:
                continue
            seen.add(ptype)
            negated = _negated(text, s0, t.start)
            found.append(PracticeMention(Span.at(text, t.start, t.end), ptype, negated))
        self._third_party_paths(text, st, s0, s1, has_data, choice, seen, found)
        fp = PracticeType.FIRST_PARTY_COLLECTION_USE
        if (
            tracking
            and fp not in seen
            and PracticeType.THIRD_PARTY_COLLECTION_USE not in seen
            and not choice
            and not _THIRD_SUBJECT.search(sentence[: tracking.start()])
            and not any(s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY for p in st.parties)
        ):
            seen.add(fp)
            span = Span.at(text, s0 + tracking.start(), s0 + tracking.end())
            found.append(PracticeMention(span, fp, _negated(text, s0, s0 + tracking.start())))
        sec = PracticeType.DATA_SECURITY_PROTECTION
        if cue and sec not in seen and (has_data or cue.re is not _SECURE_CUE or cue.group("strong")):
            # OPP-115's security measures beyond encryption: access limits, confidentiality duties, seals, breaches.
            found.append(
                PracticeMention(
                    Span.at(text, s0 + cue.start(), s0 + cue.end()), sec, _negated(text, s0, s0 + cue.start())
                )
            )
        if found:
            feats = self._features(st, s0, s1)
            found = [p for p in found if self.lex.cues.score(_CATEGORY[p.type], sentence, feats) > 0]
        return found

    @staticmethod
    def _third_party_paths(
        text: str,
        st: _SegState,
        s0: int,
        s1: int,
        has_data: bool,
        choice: bool,
        seen: set[PracticeType],
        found: list[PracticeMention],
    ) -> None:
        """Third-party practices phrased without a sharing trigger: tracking by a named third party, data handed
        to a named recipient with a general verb, and a third party let to see or collect data."""
        sentence = text[s0:s1]
        sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
        pub = _PUBLIC.search(sentence)
        if pub and sh not in seen and (not choice or _AWARE.search(sentence)):
            seen.add(sh)
            span = Span.at(text, s0 + pub.start(), s0 + pub.end())
            found.append(PracticeMention(span, sh, _negated(text, s0, s0 + pub.start())))
        third = [p for p in st.parties if s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY]
        if choice or not third:
            return
        acc = _HAVE_ACCESS.search(sentence)
        if acc and sh not in seen and any(p.span.start < s0 + acc.start() for p in third):
            seen.add(sh)  # "our service providers have access to your personal information"
            span = Span.at(text, s0 + acc.start(), s0 + acc.end())
            found.append(PracticeMention(span, sh, _negated(text, s0, s0 + acc.start())))
        tc = PracticeType.THIRD_PARTY_COLLECTION_USE
        if tc not in seen:
            for m in _TRACK_VERB.finditer(sentence):
                verb = s0 + m.start()
                before = text[s0:verb]
                if any(p.span.end <= verb and len(text[p.span.end : verb].split()) <= 4 for p in third) or (
                    _THIRD_SUBJECT.search(before) and not _OUR_SUBJECT.search(before)
                ):
                    seen.add(tc)
                    span = Span.at(text, verb, s0 + m.end())
                    found.append(PracticeMention(span, tc, _negated(text, s0, verb)))
                    break
        joint = _JOINT_SUBJECT.search(sentence)
        if tc not in seen and joint and _JOINT_ACT.search(sentence, joint.end()):
            seen.add(tc)  # "we and our advertising partners may use cookies…": the partners collect too
            span = Span.at(text, s0 + joint.start(), s0 + joint.end())
            found.append(PracticeMention(span, tc, _negated(text, s0, s0 + joint.start())))
        if sh in seen or not has_data:
            return
        for p in third:
            before = text[max(s0, p.span.start - 80) : p.span.start]
            lead = re.sub(
                r"(?:(?:the|our|other|any|such|certain|selected|trusted|these|those|some|its)\s+)+$", "", before
            )
            give = _GIVE.search(lead) or (_LET.search(lead) if _LET_ACT.match(text[p.span.end : s1]) else None)
            if give is None:
                continue
            start = p.span.start - len(before) + give.start()
            seen.add(sh)
            span = Span.at(text, start, start + len(give.group(0).rstrip()))
            found.append(PracticeMention(span, sh, _negated(text, s0, start)))
            return

    @staticmethod
    def _features(st: _SegState, s0: int, s1: int) -> frozenset[str]:
        """Entity features of a text range for the cue scores (see data/lexicon/practice-cues.tsv)."""
        feats = set()
        if any(s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY for p in st.parties):
            feats.add("@third_party")
        if any(s0 <= d.start < s1 and d.entry.value[0] != _GENERIC_DATA for d in st.data):
            feats.add("@concrete_data")
        return frozenset(feats)

    @staticmethod
    def _subject(text: str, st: _SegState, s0: int, t: Hit) -> PartyMention | None:
        """The party acting at a trigger: the nearest party mention before it in its clause.

        A possessive ("your", "our") names an owner, not an actor, and "us" an object: both are skipped.
        """
        for p in reversed(st.parties):
            if not (s0 <= p.span.start < t.start):
                continue
            if p.span.text.lower() in ("your", "our", "their", "its", "us"):
                continue
            between = text[p.span.end : t.start]
            if _CLAUSE_BREAK.search(between) or len(between.split()) > 6:
                return None
            return p
        return None

    def _inherit(
        self,
        policy: Policy,
        seg: Segment,
        segments: list[Segment],
        heads: list[bool],
        lead_in: PracticeMention | None,
        has_data: bool = True,
        near: bool = False,
    ) -> PracticeMention | None:
        """The practice a line without a trigger of its own takes from its lead-in line or its heading.

        Lines need personal data to inherit, except under a security heading in the same paragraph
        ("Site Security" directly above a line about monitoring network traffic); a title-like line of
        plain text passes on only collection and sharing, or security to its own paragraph.
        """
        if _USER_CHOICE.search(seg.text) or _CHOICE_LINE.search(seg.text):
            return None  # the reader's choices ("you can opt out…", "to unsubscribe…"): not a practice
        if lead_in is not None and (
            (_LIST_ITEM.match(seg.text) and has_data) or (_list_like(seg.text) and lead_in.type in _LIST_TYPES)
        ):
            return PracticeMention(lead_in.span, lead_in.type, lead_in.negated, inherited=True)
        # Nearest heading above this segment whose words cue a practice.
        for prev in reversed(segments[: seg.index]):
            if not heads[prev.index]:
                continue
            for pattern, kind in _HEADING_CUES:
                m = pattern.search(prev.text)
                if m and kind == "collect" and _NOT_OWN_USE_HEAD.search(prev.text):
                    continue  # "How can I control your use of my information?", "Collection by Third-Party Sites"
                if m and (
                    (kind == "secure" and near) or (has_data and (prev.is_heading or kind in ("collect", "share")))
                ):
                    return PracticeMention(
                        Span.at(policy.text, prev.start + m.start(), prev.start + m.end()),
                        _PRACTICE_OF[kind],
                        inherited=True,
                    )
            if not prev.is_heading or (prev.heading_path and len(prev.heading_path) <= 1):
                break
        return None

    def relations(self, policy: Policy, results: list[SegmentExtraction]) -> list[list[Relation]]:
        return [self._relate(policy, r) for r in results]

    def _relate(self, policy: Policy, res: SegmentExtraction) -> list[Relation]:
        rels: list[Relation] = []
        bounds = sentences(res.segment)

        def sent_of(pos: int) -> int:
            for i, (a, b) in enumerate(bounds):
                if a <= pos < b:
                    return i
            return -1

        for pi, pr in enumerate(res.practices):
            # Inherited practices relate to everything in their (list-item) segment.
            s = -2 if pr.inherited else sent_of(pr.span.start)

            def here(span: Span, s: int = s) -> bool:
                return s == -2 or sent_of(span.start) == s

            data = [f"data:{i}" for i, d in enumerate(res.data) if here(d.span)]
            purposes = [f"purpose:{i}" for i, p in enumerate(res.purposes) if here(p.span)]
            parties = [(i, p) for i, p in enumerate(res.parties) if here(p.span)]
            attrs = [(i, a) for i, a in enumerate(res.attributes) if here(a.span)]
            third = [i for i, p in parties if p.kind == PartyKind.THIRD_PARTY]
            users = [i for i, p in parties if p.kind == PartyKind.USER]
            t = pr.type
            data_role = {
                PracticeType.FIRST_PARTY_COLLECTION_USE: Role.DATA_COLLECTED,
                PracticeType.THIRD_PARTY_COLLECTION_USE: Role.DATA_COLLECTED,
                PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: Role.DATA_SHARED,
                PracticeType.DATA_STORAGE_RETENTION_DELETION: Role.DATA_RETAINED,
                PracticeType.DATA_SECURITY_PROTECTION: Role.DATA_PROTECTED,
            }[t]
            rels.extend(Relation(pi, data_role, d) for d in data)
            rels.extend(Relation(pi, Role.PURPOSE_ARGUMENT, p) for p in purposes)
            if t == PracticeType.FIRST_PARTY_COLLECTION_USE:
                rels.append(Relation(pi, Role.DATA_COLLECTOR, "party:first"))
                rels.extend(Relation(pi, Role.DATA_PROVIDER, f"party:{i}") for i in users)
                rels.extend(
                    Relation(pi, Role.DATA_PROVIDER, f"party:{i}")
                    for i in third
                    if res.parties[i].span.start > pr.span.start
                )
            elif t == PracticeType.THIRD_PARTY_COLLECTION_USE:
                rels.extend(
                    Relation(pi, Role.DATA_COLLECTOR, f"party:{i}")
                    for i in third
                    if res.parties[i].span.start < pr.span.start
                )
                rels.extend(Relation(pi, Role.DATA_PROVIDER, f"party:{i}") for i in users)
            elif t == PracticeType.THIRD_PARTY_SHARING_DISCLOSURE:
                rels.append(Relation(pi, Role.DATA_SHARER, "party:first"))
                after = [i for i in third if res.parties[i].span.start > pr.span.start]
                rels.extend(Relation(pi, Role.DATA_RECEIVER, f"party:{i}") for i in (after or third))
            elif t == PracticeType.DATA_STORAGE_RETENTION_DELETION:
                rels.append(Relation(pi, Role.DATA_HOLDER, "party:first"))
            else:
                rels.append(Relation(pi, Role.DATA_PROTECTOR, "party:first"))
            for i, a in attrs:
                role = _ATTR_ROLE.get((t, a.kind)) or _ATTR_ROLE.get((None, a.kind))
                if role:
                    rels.append(Relation(pi, role, f"attr:{i}"))
        return rels


_ATTR_ROLE: dict[tuple[PracticeType | None, AttributeKind], Role] = {
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.RETENTION_PERIOD): Role.RETENTION_PERIOD,
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.STORAGE_PLACE): Role.STORAGE_PLACE,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.SECURITY_METHOD): Role.METHOD,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.PROTECT_AGAINST): Role.PROTECT_AGAINST,
    (None, AttributeKind.LEGAL_BASIS): Role.LEGAL_BASIS,
}


# Paragraph topics a title can name (see OfflineBackend._paragraph_rules): the practice categories, and
# topics that are no data practice (the reader's rights and choices).
_PARA_TOPICS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:shar(?:e|es|ed|ing)|disclos\w*|sell|sold|sale|transfer\w*|recipients?|third[- ]part\w*|"
            r"partners?|(?:service )?providers?|with whom|affiliates)\b",
            re.I,
        ),
        "third-party",
    ),
    (
        re.compile(
            r"\b(?:collect\w*|gather\w*|obtain\w*|receive|use|uses|using|process\w*|information we|data we)\b",
            re.I,
        ),
        "first-party",
    ),
    (
        re.compile(
            r"\b(?:secur\w*|safeguard\w*|protect(?:s|ing|ion)?\b(?!\s+(?:of\s+)?(?:our|the)\s+(?:company|rights)))",
            re.I,
        ),
        "security",
    ),
    (re.compile(r"\b(?:retain\w*|retention|(?<!local )stor(?:e|age)|keep|delet\w*|how long)\b", re.I), "retention"),
    (
        re.compile(
            r"\b(?:access(?:ing)?|correct\w*|updat\w*|review\w*|edit\w*|choices?|opt[- ]?(?:out|in)\w*|"
            r"preferences?|control\w*|rights?|unsubscrib\w*|contact(?:ing)?\s+us|questions?)\b",
            re.I,
        ),
        "user",
    ),
)


# The title topics under which a single mention of a practice type is kept.
_PARA_COVERS = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: {"first-party"},
    PracticeType.THIRD_PARTY_COLLECTION_USE: {"third-party", "first-party"},
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: {"third-party", "first-party"},
}


def _list_siblings(segments: list[Segment], heads: list[bool], out: list[list[PracticeMention]]) -> None:
    """Items of one list share their lead-in's practice: when most items of a run of list items inherit a
    practice, the items that found none of it (no personal data named, "conduct market research;") take it too.
    """
    i = 0
    while i < len(segments):
        j = i
        while j < len(segments) and not heads[j] and _list_like(segments[j].text):
            j += 1
        run = range(i, j)
        if len(run) >= 3:
            for ptype in {p.type for k in run for p in out[k] if p.inherited}:
                having = [k for k in run if any(p.type == ptype for p in out[k])]
                model = next(p for k in run for p in out[k] if p.inherited and p.type == ptype)
                if len(having) >= 2 and 2 * len(having) >= len(run):
                    for k in run:
                        if k not in having:
                            out[k].append(model)
        i = max(j, i + 1)


def _paragraphs(policy: Policy, segments: list[Segment]) -> list[list[int]]:
    """Segment indices grouped into paragraphs (blocks separated by a blank line)."""
    paras: list[list[int]] = []
    for i, seg in enumerate(segments):
        if i and "\n\n" not in policy.text[segments[i - 1].end : seg.start]:
            paras[-1].append(i)
        else:
            paras.append([i])
    return paras


def _paragraph_title(segments: list[Segment], heads: list[bool], para: list[int]) -> str:
    """A paragraph's title: its own first line when that is a heading (or title-like in plain text) and a body
    follows."""
    if len(para) > 1 and heads[para[0]]:
        return segments[para[0]].text
    return ""


# Title topics that a weak trigger in the paragraph's body can confirm (see OfflineBackend._weak_support).
_PARA_SUPPORT = {"first-party": "collect", "retention": "retain", "security": "secure"}

_LIST_TYPES = {PracticeType.FIRST_PARTY_COLLECTION_USE, PracticeType.THIRD_PARTY_SHARING_DISCLOSURE}


def _list_like(line: str) -> bool:
    """A bulleted line, or an unbulleted list item: starting in lower case or ending in ';' / ', and'."""
    t = line.strip()
    return bool(_LIST_ITEM.match(t)) or (
        bool(t)
        and (
            t[0].islower()
            or bool(re.search(r"(?:;|;\s*(?:and|or)|,\s*(?:and|or))$", t))
            # an unpunctuated purpose item: "To process your orders"
            or bool(re.match(r"(?:To|For|In)\s+\w+[^.!?:]*$", t) and len(t.split()) <= 40)
        )
    )


def _joint_subject(text: str, st: _SegState, s0: int, t: Hit) -> bool:
    """The site among the coordinated subjects of a verb ("We and our partners may collect…")."""
    out, pos = [], s0
    lead = _LEAD_NAME.match(text, s0, t.start)
    if lead and not any(s0 <= p.span.start < lead.end() for p in st.parties):
        out, pos = ["F"], lead.end()
    for p in st.parties:
        if not (pos <= p.span.start and p.span.end <= t.start) or p.span.text.lower() in (
            "our",
            "your",
            "their",
            "its",
        ):
            continue
        if p.kind == PartyKind.USER:
            continue
        out += [text[pos : p.span.start], "F" if p.kind == PartyKind.FIRST_PARTY else "T"]
        pos = p.span.end
    out.append(text[pos : t.start])
    m = _CO_SUBJECTS.search("".join(out))
    return bool(m and "F" in m.group(0) and "T" in m.group(0))


def _negated(text: str, sentence_start: int, trigger_start: int) -> bool:
    """A negation word among the four words before the trigger, in the same clause."""
    before = text[sentence_start:trigger_start]
    clause = re.split(r"[,;:]|\b(?:but|however|unless|except)\b", before)[-1]
    clause = clause.lower().replace("’", "'").replace("n't", " not")  # don't → do not
    words = re.findall(r"\w+", clause)[-4:]
    return any(w in _NEGATION for w in words)


def _duration(m: re.Match[str]) -> str | None:
    if m.group(1) and m.group(2):
        n = m.group(1).lower()
        count = int(n) if n.isdigit() else _NUMBERS.get(n)
        if count:
            return f"P{count}{_UNIT[m.group(2).lower()]}"
    return None
