"""Collection: the wording that makes or unmakes the site's own collection and use."""

from __future__ import annotations

import re

# Objects after "use" that are tools, not data ("use encryption", "use reasonable safeguards").
TOOL_OBJECT = re.compile(
    r"\s+(?:\w+\s+){0,4}?(?:encryption|SSL|TLS|firewalls?|safeguards?|measures|procedures|precautions|"
    r"technolog(?:y|ies)|software|security|passwords?|efforts|steps|servers?|controls?|methods|techniques)\b",
    re.I,
)
# The agent of a passive collection verb ("collected and used by others", "used by the advertiser").
BY_AGENT = re.compile(
    r"\s+(?:(?:and|or|and/or)\s+\w+\s+)?(?:(?:directly|only|solely|also)\s+)?by\s+"
    r"(?:(anyone|others|other (?:users|members|visitors|people)|the public|third[- ]part(?:y|ies))\b"
    r"|(?:the|an?|such|these|those|other|our|its|their)\s+)?",
    re.I,
)
# Up to three modifiers between the agent's determiner and the party ("by a secure third-party processor"); a
# coordination ("by us or third parties") or a pronoun leaves the site among the agents.
AGENT_MODIFIERS = re.compile(r"(?:(?!(?:and|or|nor|us|we|you|them|it)\b)[\w-]+\s+){0,3}", re.I)
# How long or how safely data is kept: a retention or security statement, not the site's holding of named data;
# nor a short wait before it is handled ("comments are held for moderation", "kept for 30 minutes").
KEPT_HOW = re.compile(
    r"\b(?:until|as\s+long\s+as|indefinitely|permanently|separately|securely|safe|confidential|longer|after|duration|life|temporar\w*)\b"
    r"|\b(?:held|kept|stored)\s+for\s+(?:\w+\s+)?(?:moderation|review|approval|hours?|minutes?)\b",
    re.I,
)
# A passive verb's agent other than the site ("records held by airlines"), unless acting for it.
BY_OTHER = re.compile(r"\s+(?:[\w-]+\s+){0,2}?by\s+(?!us\b|the\s+site\b)(?![^.;]*\bon\s+(?:our|my)\s+behalf\b)", re.I)
# "(the information we store) is limited to / includes / consists of …": a definition of what is kept.
DEFINED_AS = re.compile(r"\s+(?:(?:is|are)\b(?!\s+(?:not\b|(?!limited)\w+ed\b))|includes?\b|consists?\s+of\b)", re.I)
# The object of a keeping verb that is itself a record of the reader's dealings ("keep a record of…").
RECORD_OF = re.compile(
    r"\s+(?:(?:a|an)\s+)?(?:(?:written|permanent|complete)\s+)?(?:records?|cop(?:y|ies))\s+of\b", re.I
)
# Breaks between the clauses of a sentence: semicolons, colons, brackets, a comma before a conjunction or a
# relative pronoun, and "and" or "but" before a new clause of the site's ("…, and we encrypt it"). The look-behind
# keeps a long run of spaces from being retried at every position.
CLAUSE_SPLIT = re.compile(r"[;:()]|,\s+(?:and|but|which|while|so)\b|(?<!\s)\s+(?:and|but)\s+(?=we\b)", re.I)
# A security measure named in a clause of its own (see _without_security_asides).
SECURITY_ASIDE = re.compile(r"\b(?:encrypt\w*|SSL|TLS|secur\w*|protect\w*|safeguard\w*|firewalls?|hash\w*)\b", re.I)
HOLD = ("stor", "kept", "keep", "held", "hold", "maintain", "sav", "archiv")
# Data kept by or with a named third party ("we store it with a cloud provider", "kept on servers operated by our
# hosting provider"): the site hands the data to that party (a disclosure; the site's own retention is apart).
HELD_BY = re.compile(
    r"\s+(?:(?!(?:and|or|but|then|we|us|to|for|from|about)\b)[\w'’-]+\s+){0,6}?"
    r"(?:(?:on|in)\s+(?:(?:the|their|its|secure|remote)\s+)?(?:[\w-]+\s+)?(?:servers?|systems?|databases?|"
    r"data\s+cent(?:er|re)s?|cloud|infrastructure)\s+(?:(?:operated|owned|run|provided|managed|hosted|"
    r"maintained|controlled)\s+)?)?(?:by|with)\s+(?:(?:a|an|the|our|its|their|such|one\s+of\s+our)\s+)?",
    re.I,
)
ON_OUR_BEHALF = re.compile(r"[^.;]{0,80}?\b(?:on (?:our|its) behalf|on behalf of (?:us|the company)|for us)\b", re.I)
# A condition on the reader's own act whose main clause discloses the data ("If you provide…, we may share…").
IF_CLAUSE = re.compile(r"\b(?:if|when|whenever|once|each time)\s+(?:\w+\s+){0,2}$", re.I)
THEN_SHARE = re.compile(
    r"[^,;.]*,\s*(?:[\w'’]+\s+){0,5}?(?:share|shared|disclose|disclosed|sell|sold|transfer|transferred|post|posted|publish|"
    r"published|forward|forwarded|(?:provide|pass|give|send) (?:it|that|this|such|the|your)|"
    r"(?:be|become|becomes) (?:publicly )?(?:public|available|visible))\b",
    re.I,
)
CONSENT_OBJECT = re.compile(
    r"\s+(?:(?:your|the|a|an|their|such|prior|express|explicit|written|affirmative|verifiable|parental|opt-in)\s+){0,4}"
    r"(?:consent|authori[sz]ation|permission|agreement)\b",
    re.I,
)
CHOICE_BEFORE = re.compile(
    r"(?:\bopt[- ]?(?:out|in)\b|\bprefer not\b|\bchoices?\b|\bpreferences?\b|\bunsubscribe\b)[^.;]{0,40}$", re.I
)
# The site acting together with its agents ("we and our service providers collect…"): the site's own collection.
WE_AND_AGENTS = re.compile(
    r"\b(?:we|[A-Z][\w.&-]*)\s+(?:\((?:which|that)\s+includes\s+|and\s+)(?:our|its)\s+"
    r"(?:(?:third[- ]party|outside)\s+)?(?:service\s+providers|agents)$"
)

# "When you contact us, we collect your name…": the reader contacting the site is how data reaches it, not a
# choice offered to the reader ("please contact us to opt out"), so it does not void the site's collection.
CONTACT_WHEN = re.compile(
    r"\b(?:when|if|whenever|once|each\s+time|after)\s+you\s+(?:(?:\w+ly|also|ever)\s+)?contact\s+us\b"
    # one of a list of the reader's acts before the site's clause ("when you register, contact us, or…, we…")
    r"|\b(?:when|if|whenever|once|each\s+time|after)\s+you\s+[^.;:]{0,200}?,\s+(?:or\s+)?contact\s+us\b"
    r"(?=[^.;:]{0,150}?,\s*(?:we|our)\b)",
    re.I,
)

# Data the reader must give to use a service ("to create an account, you must provide…"): a requirement of the
# site's collection, not a choice (an instruction for a request to the site, "you must provide the URL", is not).
MUST_GIVE = re.compile(r"\byou\s+must\s+(?:first\s+)?(?:provide|give\s+us|submit|enter|supply)\b", re.I)

MUST_FOR = re.compile(
    r"\b(?:to|when\s+you|if\s+you|before\s+you)\s+(?:\w+\s+)?(?:create|register|open|set\s+up|use|access|"
    r"purchase|buy|order|sign\s+up|subscribe|participate|join|apply|enroll|enrol)\b",
    re.I,
)

# Words after which "request(s)" is a verb ("we may request your address"); after any other word it is a noun
# ("valid requests", "a data subject request", "to make requests"), the reader's request rather than collection.
REQUEST_VERB_AFTER = re.compile(
    r"\b(?:we|they|it|may|might|will|would|shall|can|could|must|also|only|not|never|then|sometimes|\w+ly)\s+$", re.I
)

# What the site receives when it is not data: a request, notice or legal demand ("if we receive a court order",
# "we receive a Global Privacy Control signal"); a purchase order is data ("we receive your order details").
RECEIVE_NOT_DATA = re.compile(
    r"\s+(?:(?:a|an|the|any|such|your|legal|valid|official)\s+)?(?:[\w-]+\s+){0,2}?(?:requests?|notices?|"
    r"(?:court|legal|judicial|government(?:al)?|official|administrative)\s+orders?|"
    r"complaints?|subpoenas?|warrants?|signals?|inquir(?:y|ies)|demands?)\b",
    re.I,
)

# The reader letting the site act ("you authorize us to obtain…", "you give us permission to access…"): the
# site collects, though the reader is the nearest subject (read between the reader and the trigger).
LET_US = re.compile(
    r"\s+(?:(?:\w+ly|also|hereby|may|can|will|thereby)\s+)*"
    r"(?:(?:authori[sz]e|allow|permit|enable|let)s?|(?:give|grant)s?\s+us\s+(?:your\s+)?"
    r"(?:permission|consent|the\s+right|authori[sz]ation))\s+(?:us\s+)?to\s+(?:\w+\s+(?:and|or|and/or)\s+)?$",
    re.I,
)
