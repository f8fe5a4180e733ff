"""The offline extractor's patterns: the compiled regular expressions and constant tables its rules use.

They are kept apart from the rules (backend.py for sentences, paragraph.py for paragraphs) so that the rules
read as logic and the wording they look for can be reviewed in one place, grouped by the practice they serve:
collection, sharing, tracking, retention, security, the scope and audience filters, and the heading and
paragraph cues. Each pattern keeps its comment (the wording it is meant to catch) and its name, which the
rules import as is; the lexicons and cue weights themselves are data files (data/lexicon/*.tsv).
"""

from __future__ import annotations

import re

from pp_graph.model import AttributeKind, PracticeType, Role
from pp_graph.vocab.dpv import expand

# ---- Practice kinds, their scoring categories and the details they take ----

PRACTICE_OF = {
    "collect": PracticeType.FIRST_PARTY_COLLECTION_USE,
    "share": PracticeType.THIRD_PARTY_SHARING_DISCLOSURE,
    "retain": PracticeType.DATA_STORAGE_RETENTION_DELETION,
    "secure": PracticeType.DATA_SECURITY_PROTECTION,
}
# The OPP-115-style category a practice type is scored as (data/lexicon/practice-cues.tsv).
CATEGORY = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: "first-party",
    PracticeType.THIRD_PARTY_COLLECTION_USE: "third-party",
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: "third-party",
    PracticeType.DATA_STORAGE_RETENTION_DELETION: "retention",
    PracticeType.DATA_SECURITY_PROTECTION: "security",
}
GENERIC_DATA = expand("dpv:PersonalData")
DETAIL_OF = {
    "retain": {AttributeKind.RETENTION_PERIOD, AttributeKind.STORAGE_PLACE},
    "secure": {AttributeKind.SECURITY_METHOD, AttributeKind.PROTECT_AGAINST},
}
ATTR_ROLE: dict[tuple[PracticeType | None, AttributeKind], Role] = {
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.RETENTION_PERIOD): Role.RETENTION_PERIOD,
    (PracticeType.DATA_STORAGE_RETENTION_DELETION, AttributeKind.STORAGE_PLACE): Role.STORAGE_PLACE,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.SECURITY_METHOD): Role.METHOD,
    (PracticeType.DATA_SECURITY_PROTECTION, AttributeKind.PROTECT_AGAINST): Role.PROTECT_AGAINST,
    (None, AttributeKind.LEGAL_BASIS): Role.LEGAL_BASIS,
}

# ---- Sentences, clauses and subjects (all practices) ----

SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[\"“(\[]?[A-Z0-9*])")
NEGATION = {"not", "never", "n't", "no", "neither", "nor", "without"}
PASSIVE = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got)\s+(?:\w+ly\s+)?$", re.I)
PASSIVE_NOT = re.compile(r"\b(?:is|are|was|were|be|been|gets?)\s+(?:not|never)\s+(?:\w+ly\s+)?$", re.I)
# A first participle joined to the trigger ("are encrypted and retained"); not the reader's access ("can be viewed
# or deleted from your dashboard").
PASSIVE_AND = re.compile(
    r"\b(?:is|are|was|were|be|been)\s+(?:\w+ly\s+)?"
    r"(?!(?:viewed|accessed|edited|changed|updated|corrected|reviewed|modified|managed|downloaded|exported)\b)"
    r"(?:[a-z]+ed|kept|held)\s+(?:and|or|&|and/or)\s+(?:\w+ly\s+)?$",
    re.I,
)
AUX_ONLY = re.compile(
    r"\s*(?:(?:will|would|shall|should|may|might|can|could|must|be|is|are|was|were|been|being|get|gets|got|not|never|"
    r"also|then|\w+ly)\s+)*",
    re.I,
)
CLAUSE_BREAK = re.compile(r"[,;:()]|\b(?:and|or|but|which|that|who|if|when|unless|so)\b", re.I)
# Words before a trigger that make it talk about practices ("this policy explains how we collect")
# or refer to data already collected ("the information we collect is stored…").
META = re.compile(
    r"\b(?:how|what|why|whether|types? of|kinds? of|categories of|explains?|describes?|ways|the way|manner)\s+"
    r"(?:[\w'’\"“”()-]+,?\s+(?:(?:and|or|&)\s+)?){0,5}$",
    re.I,
)
# The purpose a collection served, named in a relative clause ("the purposes for which it was collected", "the
# purposes it was collected for"): a reference in a retention or use statement, not a statement of collection.
PURPOSE_REF = re.compile(
    r"\b(?:purposes?|reasons?)\s+(?:(?:for\s+which|that|which)\s+(?:[\w'’]+\s+){0,4}?"
    r"|(?:it|they|the\s+data|such\s+data|this\s+data|the\s+information|such\s+information)\s+"
    r"(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+(?:originally\s+|initially\s+|first\s+)?)$",
    re.I,
)
REFERENCE = re.compile(r"\s+(?:(?:that|which)\s+)?(?:(?:we|you)\s+(?:\w+\s+)?)?", re.I)
# Words before a noun/verb-ambiguous trigger that make it a noun ("the use of", "your request", "a record").
NOUN_BEFORE = {
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
AMBIGUOUS = {
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
# An implicit third-party subject right before the verb ("they may collect", "these features collect").
THIRD_SUBJECT = re.compile(
    r"\b(?:they|these|those|such|(?:\w+\s+)?(?:companies|advertisers?|networks?|features|widgets|buttons|plug-?ins|"
    r"vendors|partners|providers|sponsors|operators|sites|websites|services|"
    r"platforms?|others|parties|tools|applications|apps)(?:,\s+(?:which|who))?)\s+"
    r"(?:(?:may|might|can|could|will|would|also|then|only|generally|typically|sometimes|automatically|"
    r"independently|directly|themselves|do|does|not|never|be able to|are able to|is able to|to)\s+)*$",
    re.I,
)
OUR_SUBJECT = re.compile(
    r"\b(?:our|this|the site's)\s+(?:[\w-]+\s+)?\w+,?\s+(?:(?:and|or|&)\s+(?:mobile\s+)?"
    r"(?:sites|websites|web\s+sites|applications|apps|services|products|pages|features|tools)\s+)?"
    r"(?:(?:may|might|can|could|will|would|also|only)\s+)*$",
    re.I,
)
OUR_THING = re.compile(
    r"\b(?:(?:our|the site's)\s+(?:[\w-]+\s+)?|(?:the|this)\s+(?:mobile\s+)?)(?:site|website|web site|services?|apps?|"
    r"applications?|servers?|systems?|software|platform)\s+"
    r"(?:(?:may|might|can|could|will|would|also|only|automatically|do|does|not|never)\s+)*$",
    re.I,
)
INFINITIVE = re.compile(r"\bto\s+(?:\w+\s+(?:and/or|and|or)\s+)?$", re.I)
RELATIVE = re.compile(
    r",?\s+(?:which|who|that)\s+(?:(?:may|might|can|could|will|would|also|then|only|be able to|are able to)\s+)*$", re.I
)
# Singular or generic third-party nouns the party lexicon leaves out ("an advertiser", "the ad server").
THIRD_NOUN = re.compile(
    r"\b(?:third[- ]part(?:y|ies)|advertisers?|ad (?:servers?|networks?|companies)|(?:social|advertising) networks?|"
    r"vendors?|sponsors?)\b(?!\s*(?:'s|’s))",
    re.I,
)
NOT_NAME = (
    r"(?!(?:They|These|Those|Such|It|Its|This|That|Some|Any|All|Each|Other|Many|Most|Certain|No|Both|Either|"
    r"Neither|If|When|Where|While|Once|After|Before|Because|Since|Although|Unless|In|On|At|For|From|With|By|To|As|"
    r"Upon|Only|Also|Then|Please|Note|There|Here|He|She|One)\b)"
)
NAME_SUBJECT = re.compile(
    r"\W*" + NOT_NAME + r"(?:The\s+)?(?:[A-Z][\w.&'’-]*\s+){1,3}(?:(?:also|may|will|can|might|would|only|generally|"
    r"does|do|not|never|then)\s+)*$"
)
# Coordinated subjects with the site among them ("we and our partners may", "Acme, its affiliates and vendors
# use"), read on the sentence start with party mentions replaced by SITE_MARK (the site) and THIRD_MARK (third
# parties). The marks are not word characters, so the word skip cannot swallow one, and each link of the chain is
# atomic (it always ends at the next mark; "and" read as a connector or as a skipped word gave a long chain
# exponentially many readings when the pattern failed).
SITE_MARK, THIRD_MARK = "\x01", "\x02"
CO_SUBJECTS = re.compile(
    r"(?:^|[^\w])[\x01\x02](?>\s*,?\s*(?:(?:and|or|&|and/or|along with|together with|as well as)\s+)?"
    r"(?:(?:our|its|their|the|certain|other|selected|trusted|authori[sz]ed|some|various)\s+)*(?:[\w-]+\s+){0,2}?"
    r"[\x01\x02])+"
    r"\s*,?\s+(?:(?:may|might|can|could|will|would|also|then|only|generally|sometimes|each|both|all|do|does|"
    r"automatically|independently)\s+)*$"
)
LEAD_NAME = re.compile(
    r"\W*" + NOT_NAME + r"(?:The\s+)?(?:[A-Z][\w.&'’-]*\s+){0,2}[A-Z][\w.&'’-]*(?=\s*(?:,|and\b|or\b|&))"
)
CHOICE_LINE = re.compile(
    r"\b(?:unsubscribe|opt[- ]?(?:out|in)|contact us|you (?:should|must)|you (?:can|may) (?:also )?(?:choose|change|"
    r"adjust|update|control|disable|turn off|manage|decline|refuse|withdraw|set your))\b",
    re.I,
)
USER_CHOICE = re.compile(r"\b(?:opt[- ]out|you (?:may|can|have the right)|your right|have the right)\b", re.I)

# ---- Scope and audience: sentences that are no data practice ----

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

# ---- Collection ----

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

# ---- Sharing ----

SHARE_TOOL = re.compile(r"\s+(?:buttons?|tools?|features?|functionality|widgets?|options?|settings?|platform)\b", re.I)
THREAT_LIST = re.compile(
    r"\b(?:unauthori[sz]ed|loss|misuse|theft|access(?:ed)?|alter(?:ed|ation)?|destr\w+|modif\w+|tamper\w*)"
    r"(?:\s*,\s*(?:\w+\s*,\s*)*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)(?:\w+\s+)?#"
    r"|#\s*(?:,\s*(?:\w+\s*,\s*)*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)(?:alter(?:ed|ation)?|destr\w+|modif\w+|loss|"
    r"misuse|tamper\w*)\b",
    re.I,
)
# Data handed to the site ("information you share with us"); the skipped words may not hold another recipient
# or a relative clause ("share it with companies affiliated with us" is a disclosure to those companies).
TO_US = re.compile(
    r"\s+(?:(?:(?!(?:with|to|who|that|which)\b)[\w-]+\s+){0,6}?(?:with|to)\s+(?:us|ourselves)\b"
    r"|(?:automatically\s+)?to\s+(?:the\s+)?(?:Company|Site)\b)"
)
# "to" right before a recipient named after a verb ("required to provide it to government authorities").
TO_PARTY = re.compile(r"\bto\s+(?:[\w'’-]+\s+){0,3}$", re.I)
# Handing data to a named recipient with a general verb ("we supply your contact information to marketers"),
# or letting a third party act ("allow third parties to see your profile").
# (The rule also wants personal data named between the verb and the recipient: "we provide our services to
# advertisers" hands nothing over; "make" only as "make … available to".)
GIVE = re.compile(
    r"\b(?:(?:provid|suppl|giv|furnish|report|pass|send)\w*\s+(?:[\w'’-]+\s+){0,10}?"
    r"|(?:make|makes|made|making)\s+(?:[\w'’-]+\s+){0,8}?available\s+)(?:to|with)\s+$",
    re.I,
)
LET = re.compile(
    r"\b(?:allow|allows|allowed|permit|permits|authori[sz]e|authori[sz]es|enable|enables|let|lets)\s+$", re.I
)
LET_ACT = re.compile(
    r"\s+to\s+(?:\w+\s+)?(?:see|view|access|collect|use|place|serve|obtain|receive|track|gather|contact|target)\b", re.I
)
# Disclosure to the public ("what you post becomes public", "can be seen and used by anyone").
PUBLIC = re.compile(
    r"\b(?:becomes?|be made|is made|are made|will be|may be)\s+(?:publicly\s+)?"
    r"(?:available\s+to\s+the\s+public|public)\b"
    r"|\b(?:seen|viewed|read|collected|used|accessed|correlated)\s+(?:[\w,]+\s+){0,4}?by\s+"
    r"(?:anyone|others|other (?:users|people|members|visitors)|the (?:general )?public|members of the public)\b"
    r"|\b(?:viewed|seen|read|displayed|shared)\s+publicly\b",
    re.I,
)
# Content the reader posts in public areas collected "by third parties": a disclosure to the public. Elsewhere
# "collected and used by third-party advertisers" is third-party collection (BY_AGENT), not a disclosure.
POSTED_BY_THIRD = re.compile(
    r"\b(?:post|posts|posted|posting)\b[^.;]{0,100}?\b(?:seen|viewed|read|collected|used|accessed|correlated)\s+"
    r"(?:[\w,]+\s+){0,4}?by\s+(?:such\s+|any\s+)?third[- ]part(?:y|ies)\b",
    re.I,
)
# The reader letting the site share ("you are agreeing to share", "you authorize us to share"): the site's disclosure.
AUTHORIZE = re.compile(r"\b(?:agree\w*|authori[sz]\w*|consent\w*|allow\w*|permit\w*)\s+(?:us\s+)?to\s+$", re.I)
# A warning to the reader, not a choice ("you should be aware that what you post can be read by others").
AWARE = re.compile(
    r"\byou\s+should\s+(?:also\s+)?(?:be\s+aware|remember|note|know|understand|keep\s+in\s+mind)\b", re.I
)
# Disclosures whose recipient is implied: legal demands (authorities, courts) and business transfers (a buyer).
IMPLIED_RECIPIENT = re.compile(
    r"\b(?:required|permitted|compelled|authori[sz]ed)\s+(?:to\s+do\s+so\s+)?by\s+(?:applicable\s+)?law\b"
    r"|\bsubpoenas?\b|\bcourt\s+orders?\b|\bsearch\s+warrants?\b|\blegal\s+process\b|\blaw\s+enforcement\b"
    r"|\bcomply\s+with\s+(?:(?:the|any|all|applicable|a)\s+)*(?:laws?|legal|regulations?)\b"
    r"|\bmergers?\b|\bacquisitions?\b|\bbankruptcy\b|\breorgani[sz]ation\b"
    r"|\bsale\s+of\s+(?:all\s+or\s+(?:a\s+)?(?:\w+\s+)?(?:part|portion)\s+of\s+)?(?:\w+\s+){0,3}?assets\b",
    re.I,
)
HAVE_ACCESS = re.compile(r"\b(?:have|has|had|given|granted|provided with)\s+access\s+to\b", re.I)

# ---- Tracking technologies ----

# The site's own tracking technologies ("we may place cookies", "cookies allow us to", "a cookie is sent to your
# computer"): OPP-115 counts them as first-party collection even when no other data is named.
TRACKER = r"(?:cookies?|web\s+beacons?|pixel\s+tags?|clear\s+gifs?|tracking\s+technolog(?:y|ies)|local\s+storage)"
OWN_TRACKING = re.compile(
    r"\b(?:we|us)\s+(?:\w+\s+){0,3}?(?:use|place|set|serve|send|deploy|employ|utili[sz]e|store|access|read|drop)"
    r"\w*\s+(?:[\w\"“”-]+\s+){0,4}?[\"“]?" + TRACKER + r"\b"
    r"|\b" + TRACKER + r"[\"”]?\s+(?:(?:\w+\s+){0,3}?(?:is|are|may be|will be|can be)\s+(?:\w+\s+)?"
    r"(?:used|placed|set|sent|served|stored|collected)\b|(?:\w+\s+){0,2}?(?:allow|allows|enable|enables|help|helps|"
    r"let|lets)\s+us\b)",
    re.I,
)
# Tracking technologies named as a third party's ("third-party cookies", "3rd party tracking code"): a third
# party collecting on the site, whoever places them; not the reader's browser setting (COOKIE_SETTING before
# it: "your browser accepts / blocks third-party cookies"), nor a topic to read about ("learn more about
# third-party cookies").
THIRD_TRACKER = re.compile(
    r"(?<!\babout\s)(?<!\bregarding\s)(?<!\bmore\son\s)(?<!\binformation\son\s)(?<!\bdetails\son\s)"
    r"\b(?:third|3rd)[- ]party\s+(?:(?:\w+|\(\w+\))\s+){0,2}?(?:" + TRACKER + r"|tracking)\b",
    re.I,
)
COOKIE_SETTING = re.compile(
    r"\b(?:accept|block|reject|refus|delet|disabl|declin|remov|clear|turn\w*\s+off)\w*\s+(?:(?:all|any|the)\s+)?$", re.I
)
# A third party's own tracking on the site ("advertisers may place cookies", "ad networks use web beacons").
TRACK_VERB = re.compile(
    r"\b(?:place|serve|set|use|distribute|drop|deliver|recogni[sz]e|read|employ|utili[sz]e|collect)\w*\s+"
    r"(?:(?:and|or|and/or)\s+\w+\s+)?(?:[\w\"“”-]+\s+){0,4}?[\"“]?" + TRACKER + r"\b",
    re.I,
)
# The site and third parties as joint subjects of tracking or collection ("We and third-party advertisers may use
# cookies", "We, along with our partners, collect…"); agents and service providers act for the site (see above).
JOINT_SUBJECT = re.compile(
    r"\bwe\s*,?\s*(?:and|or|along\s+with|together\s+with|as\s+well\s+as)\s+"
    r"(?:(?:our|certain|other|select(?:ed)?|trusted)\s+)?(?:[\w-]+\s+)?"
    r"(?:third[- ]part(?:y|ies)|partners|advertisers|vendors|suppliers|(?:ad|advertising)\s+(?:networks|companies))\b"
    r"(?!\s+(?:service\s+providers|agents|contractors|processors))",
    re.I,
)
JOINT_ACT = re.compile(r"\b(?:collect|gather|obtain|track|use|place|set|serve|deploy|employ|utili[sz]e)\w*\b", re.I)
IN_TRACKER = re.compile(
    r"\s+(?:[\w-]+\s+){0,3}?(?:in|on|by|using|via|within)\s+(?:a|an|the|our|these)?\s*(?:\w+\s+)?" + TRACKER + r"\b",
    re.I,
)

# ---- Retention ----

# Retention nouns inside a coordinated list of practices ("collection, use and retention of"): a label, not a statement.
PRACTICE_LIST = re.compile(
    r"\b(?:collection|use|processing|disclosure|transfer|storage|retention|sharing)(?:,\s*|\s+(?:and|or|&)\s+)"
    r"(?:(?:\w+,\s*)*(?:and|or|&)\s+)?$|^(?:,\s*|\s+(?:and|or|&)\s+)(?:\w+(?:,\s*|\s+(?:and|or|&)\s+))*"
    r"(?:collection|use|processing|disclosure|transfer|storage|retention|sharing)\b",
    re.I,
)
ON_DEVICE = re.compile(
    r"\s+(?:\w+\s+){0,3}?(?:on|in|to|within)\s+(?:your|the user's|a user's|users'?|their)\s+(?:own\s+)?(?:\w+\s+)?"
    r"(?:computer|device|hard drive|browser|machine|phone|hard disk)",
    re.I,
)
USER_REQUEST = re.compile(
    r"\b(?:you (?:may|can|could|have the right)|request|ask (?:us|that)|contact us|"
    r"if you (?:would )?(?:like|wish|want|prefer)|"
    r"opt[- ]out|your (?:choice|right))",
    re.I,
)
# Deletion with a time or trigger ("delete the information after…", "removed once…", "regular destruction").
DELETE_TIMING = re.compile(
    r"\s+(?:[\w'-]+\s+){0,6}?(?:after|once|as soon as|when (?:it is )?no longer|"
    r"within\s+(?:[\w()-]+\s+){0,3}?(?:hours?|days?|weeks?|months?|years?|time|period)\b|periodically|"
    r"on an ongoing basis|regularly|automatically after|when you (?:close|delete|cancel|terminate|deactivate)|"
    r"upon (?:the )?(?:closure|termination|cancellation|deletion))\b",
    re.I,
)
# The site's own machines or files right after a storage verb ("never stored anywhere on our servers", "not kept
# in our systems"): with a negation, a statement that data is not kept, not a storage place.
OWN_MEDIUM = re.compile(
    r"(?!\s+(?:\w+\s+){0,2}?(?:in\s+(?:plain|clear)\s*text|unencrypted|in\s+(?:an?\s+)?(?:unencrypted|readable)))"
    r"\s+(?:[\w'’-]+\s+){0,3}?(?:on|in|to|at|within)\s+(?:any\s+(?:of\s+)?)?(?:our|its|the\s+company's)\s+"
    r"(?:own\s+)?(?:[\w-]+\s+)?(?:servers?|systems?|databases?|computers?|disks?|hard\s+drives?|files|records|"
    r"network|premises|data\s*bases?)\b"
    r"|\s+(?:[\w'’-]+\s+){0,3}?(?:on|to)\s+disk\b",
    re.I,
)
# A secure place right after a keeping verb ("retained in secure facilities", "stored on restricted servers"):
# without a period, a security measure rather than retention.
SECURE_PLACE = re.compile(
    r"\s+(?:[\w'’-]+\s+){0,2}?(?:in|on|at|within|behind)\s+(?:an?\s+|the\s+|our\s+|its\s+)?(?:[\w-]+,?\s+){0,2}?"
    r"(?:secure[d]?|locked|protected|restricted|encrypted|access-controlled|password-protected|firewalled)\b",
    re.I,
)
# Deletion on a schedule named before the verb ("we routinely purge…", "scheduled for regular destruction").
ROUTINE = re.compile(
    r"\b(?:regular(?:ly)?|periodic(?:ally)?|routine(?:ly)?|automatic(?:ally)?|systematic(?:ally)?|scheduled(?:\s+for)?)"
    r"\s+(?:\w+\s+)?$",
    re.I,
)
DISPOSE = ("delet", "eras", "destr", "purg", "dispos", "shred", "wipe", "overwrit", "throw")
VERB_LIST = re.compile(
    r"\b(?:collect|use|process|disclose|share|obtain|access|preserve)\w*\s*(?:,\s*(?:and|or)?|and|or|&)\s*#"
    r"|#\s*(?:,\s*|\s+(?:and|or|&)\s+)(?:\w+,?\s+)?(?:(?:and|or|&|otherwise)\s+)?"
    r"(?:use|process|disclose|share|transfer)\w*\b",
    re.I,
)
# What a retention period can apply to when the paragraph names no personal data: records and their kin, or a
# pronoun subject for data named earlier ("call recordings are kept for a year", "it is deleted after 30 days"), not
# goods or game items ("reserved items are held for three days", "trophies are stored forever").
KEPT_RECORD = re.compile(
    r"\b(?:records?|recordings?|logs?|log\s+files|back-?ups?|cop(?:y|ies)|files?|documents?|materials|transcripts?|"
    r"messages?|e-?mails?|tickets?|videos?|footage|photos?|pictures|images|content|comments?|posts?|submissions?|"
    r"accounts?|profiles?|history|entries|reports?|applications?|forms?|notes|correspondence|archives?)\b",
    re.I,
)
KEPT_PRONOUN = re.compile(r"\b(?:it|they|this|these|those|such)\b[^,;]*$", re.I)  # the subject of the keeping verb
# Only a truncated card number kept ("we keep only the last four digits of your card"): a retention statement.
TRUNCATED_CARD = re.compile(r"\blast\s+(?:four|4)(?:\s+digits|\s+numbers)?\b", re.I)
# Copies kept in backups after deletion: a retention statement without a period.
BACKUP = re.compile(
    r"\bback-?ups?\b|\bbacked[- ]up\b|\bresidual\b|\barchived?\s+copies\b|\bon\s+file\b"
    r"|\bcontinue\s+to\s+(?:store|keep|retain|hold)\b|\b(?:our|its)\s+(?:\w+\s+)?archives\b"
    r"|\b(?:remain|remains|persist|persists)\s+in\s+(?:our|its)\s+(?:\w+\s+)?(?:records|systems?|databases?|files)\b",
    re.I,
)
OFF_LIST = re.compile(
    r"\s+(?:[\w'’-]+\s+){0,4}?from\s+(?:(?:our|the|all|any|these|those|such|future)\s+)*"
    r"(?:(?:e-?mail|mailing|marketing|distribution|contact|subscriber|subscription|newsletter|promotional|postal)\s+)*"
    r"lists?\b",
    re.I,
)
HIRE_NOUN = (
    r"(?:compan(?:y|ies)|firms?|vendors?|agents?|agenc(?:y|ies)|contractors?|consultants?|providers?|parties|"
    r"partners?|attorneys?|lawyers?|counsel|auditors?|professionals?|businesses)"
)
HIRED = re.compile(
    r"^\s+(?:the\s+services\s+of\b|(?:(?:an?|the|other|outside|third[- ]party|independent|trusted|qualified|reputable|"
    r"professional|specialized|external|one\s+or\s+more|various|certain|several)\s+){0,3}" + HIRE_NOUN + r"\b)",
    re.I,
)
HIRED_PARTY = re.compile(r"\s+(?:(?:an?|the|other|outside|independent|trusted|certain|several|various)\s+){0,2}", re.I)
HIRER = re.compile(r"\b" + HIRE_NOUN + r"\s+(?:(?:that|whom|which)\s+)?(?:we|us)\s+(?:\w+\s+)?$", re.I)
HIRE = re.compile(r"^\s+(?:to|by)\s+(?:perform|provide|help|assist|act|conduct|process|host|operate|manage)\b", re.I)
NUM = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|eighteen|twenty|thirty|forty|forty-five|sixty|ninety|a|an)"
)
NUMBERS = {
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
PERIOD = re.compile(
    rf"(?:\b(?:for|up to|within|after|of|at least|at most|no longer than|more than|maximum of)\s+"
    rf"(?:a (?:period|maximum) of\s+|up to\s+|approximately\s+|about\s+)?"
    # or counted from an event: "seven years after the end of the tax year", "one year from your last order"
    rf"|\b(?=(?:{NUM})\s+(?:\(\d+\)\s+)?(?:day|week|month|year)s?\s+(?:after|from|following)\s))"
    rf"({NUM})\s+(?:\(\d+\)\s+)?"
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
    # "until you…" only with the end of the account or a deletion ("until you ask us to stop" is a condition)
    r"|\buntil (?:you|your) (?:[\w'’-]+ ){0,4}?(?:delet|clos|remov|cancel|deactivat|terminat)\w*[^.;,]{0,40}"
    r"|\buntil (?:such time|the end of|we (?:no longer|receive|are asked))\b[^.;,]{0,40}"
    # "until you unsubscribe / withdraw your consent": kept up to the reader leaving the list
    r"|\buntil (?:you|the user) (?:[\w'’-]+ ){0,2}?(?:unsubscribe|opt[- ]out|withdraw (?:your |their )?consent)\b"
    r"|\bfor the (?:duration|life(?:time)?) of\b[^.;,]{0,40}|\bpermanently\b"
    r"|\bas (?:is |may be )?(?:reasonably )?(?:necessary|needed|required) (?:to|for) (?:comply|compliance|meet|fulfil|"
    r"fulfill|satisfy)\b[^.;,]{0,40}"
    r"|\blonger than (?:is )?(?:necessary|needed|required)\b[^.;,]{0,60}"
    # the usual reasons for keeping data after its use: legal duties, disputes, record keeping (a period only
    # in a sentence with a keeping verb, see KEEP_VERB: "we use it to resolve disputes" is a purpose of use)
    r"|(?P<reason>\b(?:resolve|settle) (?:any )?disputes\b"
    r"|\bfor (?:\w+,? ){0,3}?(?:legal|tax|accounting|audit(?:ing)?|regulatory|record-?keeping|archival|archiving) "
    r"(?:(?:and|or) \w+ )?(?:purposes|reasons|requirements)\b)"
    r"|\bwhile (?:your account (?:is|remains) (?:active|open)|you (?:are|remain) an? (?:\w+ )?(?:member|user|customer|"
    r"subscriber))\b"
    r"|\bin accordance with (?:\w+ ){0,3}?(?:records? (?:retention |disposition )?schedules?|"
    r"(?:record |data )?retention (?:polic(?:y|ies)|schedules?|requirements))\b"
    r"|\bindefinitely\b|\bforever\b|\bfor (?:a |an |some )?(?:\w+ ){0,3}(?:time|period)(?: of time)?\b(?! to time)"
    r"|\bon an? (?:rolling|continuous|regular) (?:\d+|[a-z]+)[- ](?:day|week|month|year)s? (?:basis|cycle)\b",
    re.I,
)
# The verbs of keeping data that make a reason for keeping (PERIOD's "reason" group) a retention detail.
KEEP_VERB = re.compile(
    r"\b(?:keep|keeps|kept|keeping|retain\w*|retention|stor(?:e|es|ed|ing|age)|hold|holds|held|holding|preserv\w*|"
    r"archiv\w*)\b",
    re.I,
)
PLACE = re.compile(
    r"\b(?:in|to)\s+(?:the\s+)?(United States(?: of America)?|U\.S\.(?:A\.)?|USA|European Union|"
    r"European Economic Area|EEA|EU|United Kingdom|UK|US|Ireland|Canada|Singapore|India|Japan|Australia|"
    r"Germany|Netherlands|Switzerland|Brazil|China|your (?:country|region)|other countries|"
    r"countries outside[^.;,]{0,40})(?!\w)",  # a whole name: "located in Indiana" is not India
)
PLACE_CONTEXT = re.compile(r"\b(stor\w*|server\w*|data cent\w*|host\w*|transfer\w*|located|process\w*)\b", re.I)
# xsd:duration has no week designator (ISO 8601's PnW is not in XML Schema 1.0 or 1.1): a week is 7 days.
UNIT = {"day": ("D", 1), "week": ("D", 7), "month": ("M", 1), "year": ("Y", 1)}

# ---- Security ----

SECURE_AIM = re.compile(
    r"\s+(?:[\w'-]+\s+){0,8}?(?:protect\w*|secur\w*|safeguard\w*|prevent\w*|unauthori[sz]ed|confidential\w*)\b", re.I
)
NOT_DATA_PROTECTION = re.compile(
    r"\s+(?:and defend\s+)?(?:\w+\s+){0,2}?"
    r"(?:rights?|property|safety|interests|legal|privacy of (?:children|minors))\b",
    re.I,
)
# Security measures named without a security trigger word (data access limits, confidentiality duties,
# password protection, breach notice, privacy seals); the "strong" ones count without data in the sentence.
# What a threat is to when it is not data: a site, a service, a system ("unauthorized use of our web site").
# An account is not among them: it holds the person's data, so a threat to it is one to data (as "protect your
# account from unauthorized access" is).
OF_A_SITE = (
    r"(?:,?\s+(?:or|and)\s+(?:[\w-]+\s+){0,2}?[\w-]+)*?\s+(?:to|of)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:services?|sites?|web\s*sites?|systems?|networks?|property)\b"
    # (not when data or an account follows: "to our systems and your personal data", "... and data")
    r"(?!,?\s+(?:and|or)\s+(?:to\s+)?(?:(?:your|personal|the|their|any|customer|user)\s+)?"
    r"(?:[\w'’-]+\s+){0,2}?(?:data|information|PII|accounts?)\b)"
)
NOT_DATA_THREAT = re.compile(OF_A_SITE, re.I)
# Protecting people, not their data ("help protect you and others from impersonation"): a purpose of use.
PROTECT_PERSON = re.compile(
    r"\s*\[?(?:you|yourself|users?|people|others|(?:our|other)\s+(?:users|members|customers|community|visitors))\b",
    re.I,
)
SECURE_CUE = re.compile(
    r"\b(?:limit|limits|limited|limiting|restrict|restricts|restricted|restricting)\s+(?:the\s+|their\s+|its\s+)?"
    r"(?:number\s+of\s+(?:people|persons|employees)\s+(?:who\s+have\s+|with\s+)?)?"
    r"(?:(?:physical|electronic|employee|internal)\s+)?access\b"
    r"|\baccess\s+(?:to\s+(?:[\w-]+\s+){1,5}?)?(?:is|are|will be)\s+(?:only\s+|strictly\s+)?(?:limited|restricted)\b"
    r"|\bonly\s+(?:be\s+)?accessible\s+(?:to|by)\b"
    r"|\b(?:only|authori[sz]ed)\s+(?:[\w-]+\s+){0,2}?(?:employees|personnel|staff|associates)\s+(?:who|that|with)\s+"
    r"(?:\w+\s+){0,3}?(?:need|require)"
    r"|(?P<strong>\bneed[- ]to[- ]know\b"
    r"|\b(?:data|security)\s+breach\b|\b(?:has|have|may\s+have)\s+been\s+compromised\b|\bintercept(?:s|ed|ing|ion)\b|\bSSL\b"
    r"|\b(?:100%|completely|perfectly|totally|fully)\s+secure\b|\bsecure\s+sockets?\s+layer\b"
    r"|\btransmission\s+over\s+the\s+internet\b|\bPCI\b|\bdata\s+security\s+standard\b"
    r"|\bguarantee\w*\s+(?:[\w,'’-]+\s+){0,6}?(?:the\s+)?(?:security|secure)\b"
    r"|\bpasswords?\s+(?:[\w,'’-]+\s+){0,6}?confidential\b"
    r"|\bsecure\s+(?:facility|facilities|servers?|environment|location|network|database)\b"
    # a measure against a threat to the data: "procedures to prevent unauthorized access to your data"
    r"|\b(?:prevent\w*|guard\w*\s+against)\s+(?:the\s+)?(?:risk\s+of\s+)?(?:\w+\s+){0,2}?unauthori[sz]ed\s+"
    rf"(?:access|use|disclosure|alteration|release)\b(?!{OF_A_SITE})"
    # a privacy review or audit (OPP-115's "Privacy review/audit"): a seal awarded, practices certified or reviewed
    r"|\b(?:awarded|earned|received)\b[^.]{0,60}\bseal\b|\bseal\b[^.]{0,40}\b(?:signif|confirm|certif)\w*"
    r"|\b(?:reviewed|certified|audited)\s+(?:and\s+\w+\s+)?by\s+(?:the\s+)?(?:TRUSTe|ESRB|BBB|an?\s+independent)"
    # (not a self-certification to Safe Harbor or the Data Privacy Framework: a transfer mechanism)
    # a member of a seal or privacy programme, not of any organisation ("a participating member of the
    # Digital Advertising Alliance" is an advertising-industry body: no security measure)
    r"|\bTRUSTe[- ]certified\b|\b(?:licensee|participating\s+member)\s+(?:in|of)\s+(?:the\s+)?"
    r"(?:(?:TRUSTe|ESRB|BBB)\b|(?:[\w'’-]+\s+){0,4}?(?:privacy|seal)\s+program(?:me)?s?\b)"
    r")",
    re.I,
)
# Keeping data's security, confidentiality or integrity ("protect the confidentiality and security of your
# information", "cannot guarantee the security of any data you send"); not when a recipient is bound to it
# (OPP-115 counts "service providers must keep it confidential" as a sharing condition).
SECURE_OF = re.compile(
    r"\b(?:protect\w*|safeguard\w*|ensur\w*|guarantee\w*|warrant\w*|maintain\w*|preserv\w*|responsib\w+\s+for)\s+"
    r"(?:the\s+)?(?:(?:privacy|confidentiality|security|integrity|safety)(?:,\s*|,?\s+and\s+|\s+or\s+))*"
    r"(?:confidentiality|security|integrity)\s+of\s+(?:[\w'’-]+\s+){0,4}?"
    r"(?:information|data|PII|communications?|transmissions?|e-?mails?|messages)\b",
    re.I,
)
# The site checking the reader's identity for their protection ("to protect your account, we confirm your
# identity"); not a check before answering the reader's access or deletion request (a user-access statement).
SECURE_IDENTITY = re.compile(
    r"\b(?:protect\w*|safeguard\w*)\s+(?:the\s+)?(?:your|their|our\s+(?:users|customers)['’]?)\s+"
    r"(?:[\w'’-]+\s+){0,3}?(?:privacy|security|confidentiality|accounts?|information|data)\b[^.;]{0,80}?"
    r"\b(?:verif\w+|confirm\w*|authenticat\w+)\s+(?:your|the|their)\s+identity\b"
    r"|\b(?:verif\w+|confirm\w*|authenticat\w+)\s+(?:your|the|their)\s+identity\b[^.;]{0,80}?\b(?:to|so\s+as\s+to)\s+"
    r"(?:help\s+)?(?:protect|safeguard)\w*\s+(?:your|their)\s+(?:[\w'’-]+\s+){0,3}?"
    r"(?:privacy|security|confidentiality|accounts?|information|data)\b",
    re.I,
)
# Round 11: sign-in checks that keep others out of the reader's account: identity checked with a one-time code,
# PIN or security question before the account is opened or discussed, lock-out after failed sign-ins.
SECURE_SIGN_IN = re.compile(
    r"\b(?:verif\w+|confirm\w*|authenticat\w+|check\w*)\s+(?:your|the|their)\s+identity\s+(?:with|using|through|by)\s+"
    r"(?:[\w'’-]+\s+){0,4}?(?:codes?|(?-i:PINs?)|passcodes?|security\s+questions?|tokens?)\b"
    r"|\bbefore\s+[^.;]{1,80}?\b(?:ask|require|request)\w*\s+(?:you\s+)?(?:for\s+|to\s+(?:provide|enter|give)\s+)?"
    r"(?:[\w'’-]+\s+){0,6}?(?:(?-i:PIN)|passcode|security\s+questions?|(?:one-time|verification|security)\s+code)\b"
    r"|\b(?:ask|require|request)\w*\s+(?:you\s+)?(?:for\s+|to\s+(?:provide|enter|give)\s+)?(?:[\w'’-]+\s+){0,6}?"
    r"(?:(?-i:PIN)|passcode|security\s+questions?|(?:one-time|verification|security)\s+code)\b[^.;]{0,20}?\bbefore\s+"
    r"(?:we\s+|you\s+)?(?:\w+\s+){0,3}?(?:discuss|view|access|open|see|chang|releas|disclos|grant|giv|mak)\w*"
    r"|\bonly\s+after\s+you\s+(?:provide|enter|give|supply|show|present)\s+(?:[\w'’-]+\s+){0,2}?"
    r"(?:(?-i:PIN)|passcode|password|photo\s+ID|security\s+code)\b"
    r"|\block\w*\s+(?:you\s+out\s+of\s+)?(?:your\s+|the\s+)?accounts?\s+(?:[\w-]+\s+){0,4}?after\s+(?:[\w-]+\s+){0,3}?"
    r"(?:unsuccessful|failed|incorrect|invalid|wrong)\b"
    r"|\b(?:unsuccessful|failed|incorrect|invalid|wrong)\s+(?:sign-?in|log-?in|login|password)\s+attempts\b[^.;]{0,60}?"
    r"\block\w*\b",
    re.I,
)
# Round 11: the organisation vetting, training and watching its own staff: background checks on employees,
# security training, a written security programme, staff look-ups of accounts that are logged or audited.
SECURE_STAFF = re.compile(
    r"\b(?<!prospective\s)(?<!potential\s)(?:employees?|staff|personnel|associates|contractors|team\s+members)\b"
    r"[^.;]{0,60}?\b(?:pass\w*|undergo\w*|underwent|complet\w+|subject\s+to|go\w*\s+through|submit\w*\s+to)\s+"
    r"(?:[\w-]+\s+){0,3}?background\s+(?:checks?|screening|investigations?)\b"
    r"|\bbackground\s+(?:checks?|screening|investigations?)\s+(?:on|of|for)\s+(?:all\s+)?(?:our\s+|its\s+|new\s+)?"
    r"(?:employees|staff|personnel|associates|contractors|hires)\b"
    r"|\b(?:written|comprehensive|formal)\s+(?:information\s+)?security\s+(?:programs?|programmes?|plans?|polic(?:y|ies))\b"
    r"|\b(?:access|look-?ups?|sessions?|logins?|sign-?ins?)\s+(?:to\s+(?:[\w'’-]+\s+){1,4}?)?(?:is|are|will\s+be)\s+"
    r"(?:\w+\s+)?(?:logged|audited|recorded\s+in\s+(?:an?\s+)?audit\s+(?:logs?|trails?))\b",
    re.I,
)
RIGHTS_REQUEST = re.compile(r"\b(?:requests?|correct\w*|delet\w+|updat\w+|portability|rectif\w+|copy|copies)\b", re.I)
# Security measures of the site's own organisation and systems, stated without data: staff confidentiality
# duties and privacy training, monitoring and testing for attacks, security audits, breach handling.
SECURE_MORE = re.compile(
    r"\b(?:employees|staff|personnel|associates|team\s+members)\b[^.;]{0,60}?\b(?:confidentiality\s+"
    r"(?:agreements?|obligations?|polic\w+|requirements?|undertakings?)|non-?disclosure\s+agreements?|"
    r"(?:keep|maintain|treat|hold)\w*\s+"
    r"(?:[\w-]+\s+){0,4}?(?:confidential|in\s+confidence))"
    r"|\b(?:train|trains|trained|training)\s+(?:our|all|its|their)?\s*(?:employees|staff|personnel|associates)\b"
    # staff trained ("employees are trained", "staff complete annual privacy training")
    r"|\b(?:employees|staff|personnel|associates|contractors)\b(?:\s+(?:are|is)\s+(?:\w+\s+){0,3}?(?:trained|training)"
    r"|[^.;]{0,60}?\b(?:complete|receive|undergo|attend|take)\w*\s+(?:[\w-]+\s+){0,5}?training)\b"
    r"|\b(?:monitor\w*|scan\w*|test\w*)\s+(?:[\w-]+\s+){0,4}?(?:for\s+)?(?:intrusions?|vulnerabilit\w+|attacks?|"
    r"malware|viruses)\b|\b(?:intrusion\s+(?:detection|prevention)|penetration\s+test\w*|anti-?virus|"
    r"security\s+(?:audits?|reviews?|assessments?|testing))\b"
    r"|\bbreach\w*\s+of\s+(?:our\s+|its\s+|the\s+)?(?:security|systems?|networks?|databases?|servers?)\b"
    r"|\bsecurity\s+(?:incident|breach)\w*\b|\bhackers?\b|\bHTTPS\b(?!:)"
    r"|\b(?:impenetrable|unbreakable)\b|\b(?:absolutely|entirely)\s+secure\b|\bno\s+longer\s+secure\b"
    r"|\btransmissions?\s+(?:[\w-]+\s+){0,8}?(?:is|are)\s+(?:\w+\s+)?at\s+your\s+own\s+risk\b"
    r"|\bprotected\s+by\s+(?:a|your)\s+(?:[\w-]+\s+)?(?:password|passcode|(?-i:PIN)|passphrase)\b"
    r"|\b(?:do\s+not|don['’]t|never)\s+(?:share|disclose|give|reveal|tell)\s+(?:your|their)\s+"
    r"(?:[\w-]+\s+)?passwords?\b"
    r"|\b(?:log|sign)\s*(?:out|off)\b[^.;]{0,60}\bclos\w+\s+(?:your\s+|the\s+)?browser\b"
    r"|\bkeep\w*\s+(?:[\w'’-]+\s+){0,3}?(?:information|data|details|records|accounts?)\s+(?:safe|secure|protected)\b"
    r"|\b(?:audit|review|check)\w*\s+(?:[\w-]+\s+){0,4}?for\s+(?:[\w-]+\s+){0,2}?"
    r"(?:vulnerabilit\w+|intrusions?|attacks?)\b"
    r"|\b(?:review|audit|test|evaluat|updat)\w*\s+(?:our\s+|its\s+|the\s+)?security\b"
    r"|\bsecurity\s+(?:practices|policies|procedures|systems|measures)\s+(?:are\s+|is\s+)?(?:\w+\s+)?"
    r"(?:reviewed|audited|updated|tested|evaluated)\b"
    r"|\bfirewalls?\b|(?<!media\s)\baccess\s+controls?\b"
    r"|\baccessible\s+only\s+(?:to|by)\b"
    # staff-only access ("only authorized employees have access", "only our billing staff can open it")
    r"|\bonly\s+(?:[\w-]+\s+){0,3}?(?:(?:employees|personnel|staff|associates|team\s+members)\s+"
    r"(?:(?:who|that|with)\s+[^.;]{0,60}?\s+)?(?:can|may|are\s+able\s+to|will\s+be\s+able\s+to)\s+"
    r"(?:access|open|see|view|read|look\s+at)|(?:employees|personnel|staff|associates|people|persons|individuals)\s+"
    r"(?:\w+\s+){0,2}?(?:have|has|are\s+(?:given|granted|permitted|allowed))\s+access)\b"
    r"|\b(?:security|confidentiality|protection)\s+of\s+(?:[\w'’-]+\s+){0,4}?(?:information|data)\s+(?:is|are)\s+"
    r"(?:\w+\s+){0,3}?(?:important|(?:a|our)\s+(?:top\s+|highest\s+|first\s+)?priority|paramount)\b"
    # passwords kept as salted one-way hashes
    r"|\bpasswords?\s+(?:[\w-]+\s+){0,4}?(?:hashed|salted|one-way)\b"
    r"|\b(?:hash|hashes|hashed|hashing|salt|salts|salted|salting)\s+(?:(?:and|or)\s+(?:salt|hash)\w*\s+)?"
    r"(?:[\w'’-]+\s+){0,2}?passwords?\b"
    # keeping other people out of the reader's account or data
    r"|\b(?:prevent|stop|guard\s+against|protect\s+against)\w*\s+(?:[\w'’-]+\s+){0,4}?(?:someone|anyone|others|"
    r"other\s+people|strangers|impostors|fraudsters|(?:malicious|unauthori[sz]ed|other)\s+(?:[\w-]+\s+)?"
    r"(?:users|people|parties|persons|individuals))\b[^.;]{0,80}?\b(?:using|accessing|logging\s+in|signing\s+in|"
    r"getting\s+into|steal\w*|taking\s+over|hijack\w*)\b"
    r"|\bno\s+(?:risk|chance)\s+(?:of|that)\s+(?:anyone|someone)\s+(?:other\s+than\s+you\s+|else\s+)?"
    r"(?:\w+\s+)?(?:gain\w*|get\w*|ha\w+)\s+access\b"
    # a breach the site detects or suffers (not a breach of terms or contract, nor one by the reader)
    r"|\b(?:detect\w*|discover\w*|aware\s+of|learn\w*\s+of|suffer\w*|experienc\w*|event\s+of|case\s+of)\s+"
    r"(?:a|an|any)\s+(?:[\w-]+\s+){0,2}?breach(?:es)?\b(?!\s+by\s+(?:you|the\s+user|users|a\s+user)\b)(?!\s+of\b(?!\s+(?:our\s+|its\s+|the\s+|your\s+|any\s+)?"
    r"(?:security|systems?|data|personal|information|networks?|databases?|servers?)))"
    # the site never asks for passwords or card numbers (a warning against impostors)
    r"|\bnever\s+(?:\w+\s+){0,2}?(?:(?:ask|request|solicit|call|e-?mail|contact|text)\w*|send\s+you\s+(?:an?\s+)?"
    r"(?:e-?mails?|messages?|texts?))\s+(?:you\s+)?(?:[\w-]+\s+){0,4}?(?:for|asking|requesting|to\s+(?:confirm|provide|"
    r"give|enter|update|verify|send))\s+(?:\w+\s+){0,4}?(?:passwords?|(?-i:PINs?)|credit\s+card|card\s+numbers?|"
    r"payment\s+(?:details|information)|bank\s+(?:details|account)|account\s+numbers?|social\s+security\s+numbers?)\b"
    # access limited to those who need it
    r"|\bonly\s+(?:[\w-]+\s+){0,2}?(?:people|persons|individuals)\s+(?:who|that)\s+need\s+(?:it|access|to)\b"
    r"[^.;]{0,60}?\b(?:have|has|can|may|get)\s+access\b"
    # security staff watching the systems
    r"|\bsecurity\s+(?:team|staff|personnel|engineers)\s+(?:\w+\s+)?(?:monitor|watch|review|test)\w*\b"
    r"|\b(?:monitor|watch)\w*\s+(?:[\w-]+\s+){0,3}?(?:systems|networks?|servers|infrastructure)\s+"
    r"(?:around\s+the\s+clock|24\s*/\s*7|24\s+hours\s+a\s+day|continuously|constantly)"
    # physical locks on records
    r"|\blocked\s+(?:[\w-]+\s+){0,2}?(?:cabinets?|drawers?|offices?|rooms?|facilit\w+|buildings?|safes?|storage)\b"
    r"|\b(?:cabinets?|drawers?|offices?|rooms?|facilit\w+)\s+(?:that\s+|which\s+)?(?:are|is)\s+(?:kept\s+|always\s+)?locked\b"
    # automatic sign-out of idle sessions
    r"|\b(?:log|logs|logged|sign|signs|signed)\s+(?:you\s+)?(?:out|off)\s+(?:of\s+(?:your\s+)?(?:account|session)\s+)?"
    r"(?:automatically|after\s+(?:[\w-]+\s+){0,3}?(?:minutes?|inactivity))\b"
    r"|\bautomatically\s+(?:log|sign)\w*\s+(?:you\s+)?(?:out|off)\b"
    r"|\b(?:idle|inactive)\s+for\s+[^.;]{0,40}\b(?:log|sign)\w*\s+(?:you\s+)?(?:out|off)\b"
    # card numbers masked or truncated
    r"|\b(?:mask|masks|masked|masking|truncat\w+)\s+(?:your\s+|the\s+|all\s+)?(?:credit\s+|payment\s+)?card\s+numbers?\b"
    r"|\bcard\s+numbers?\s+(?:are|is)\s+(?:\w+\s+)?(?:masked|truncated)\b"
    r"|\bonly\s+the\s+last\s+(?:four|4)\s+digits\b[^.;]{0,60}?\b(?:appears?|shown|displayed|visible|revealed)\b"
    # testing for weaknesses; sign-in steps beyond the password
    r"|\b(?:test|scan|check|audit|probe)\w*\s+(?:[\w-]+\s+){0,4}?for\s+(?:[\w-]+\s+){0,2}?(?:weakness\w*|"
    r"security\s+(?:holes|flaws|gaps|weaknesses))\b"
    r"|\b(?:two|2|multi)[- ](?:step|factor)\s+(?:verification|authentication|log-?in|sign-?in)\b"
    r"|\bcode\s+(?:[\w-]+\s+){0,4}?in\s+addition\s+to\s+(?:your|a|the)\s+password\b"
    # the site telling the reader of unauthorized access, loss or theft of their data
    r"|\bwe\s+(?:will\s+|may\s+|shall\s+|would\s+)?(?:\w+\s+){0,2}?(?:notify|inform|tell|alert|let)\s+(?:you|affected\s+\w+|"
    r"users|customers|those)\b[^.;]{0,80}?\b(?:unauthori[sz]ed\s+(?:access|acquisition|disclosure|use)|lost\s+or\s+stolen|"
    r"compromis\w+)"
    r"|\b(?:unauthori[sz]ed\s+(?:access|acquisition|disclosure)|compromis\w+|"
    # data lost or stolen, not the reader's card or phone
    r"(?!(?:cards?|phones?|devices?|wallets?|keys?)\b)[\w'’-]+\s+(?:(?:is|are|was|were|be|been|has|have|had|gets?|got|"
    r"ever|may|might)\s+){1,3}lost\s+or\s+stolen)\b[^.;]{0,80}?"
    r"\bwe\s+(?:will\s+|may\s+|shall\s+|would\s+)?(?:\w+\s+){0,2}?(?:notify|inform|tell|alert|let\s+you\s+know)"
    # disclaimers that data may still be reached by others
    r"|\b(?:cannot|can\s*not|can['’]t|do\s+not|don['’]t|unable\s+to)\s+(?:fully\s+|completely\s+)?"
    r"(?:guarantee|promise|ensure|assure|warrant)\w*\b[^.;]{0,30}?\b(?:information|data|details|communications?|"
    r"transmissions?|messages|it)\b[^.;]{0,60}?\b(?:accessed|intercepted|disclosed|misused|stolen|lost|hacked|private|safe|"
    r"secure|breach\w*|unauthori[sz]ed\s+(?:access|use|disclosure|parties|third\s+parties|persons|individuals))\b"
    r"|\b(?:transmission|transfer|sending)\s+of\s+(?:[\w-]+\s+){0,3}?(?:over|via|through|across)\s+the\s+internet\b"
    r"|\b(?:completely|totally|entirely|100%)\s+(?:safe|risk[- ]free)\b"
    # the site keeping data confidential
    r"|\bwe\s+(?:will\s+|shall\s+|always\s+)?(?:keep|treat|hold|maintain)\s+(?:[\w'’-]+\s+){0,8}?(?:as\s+)?"
    r"(?:strictly\s+)?(?:(?:private\s+and\s+)?confidential|in\s+(?:strict\s+)?confidence)\b"
    r"|\b(?:information|data|details|records)\s+(?:is|are|will\s+be)\s+(?:always\s+)?(?:kept|treated|held)\s+(?:as\s+)?"
    r"(?:strictly\s+)?(?:(?:private\s+and\s+)?confidential|in\s+(?:strict\s+)?confidence)\b"
    # systems protected against malware and attacks; sanctions on staff who misuse data; taking protection seriously
    r"|\b(?:systems|servers|networks?|infrastructure|databases?)\s+(?:is|are)\s+(?:\w+\s+)?(?:protected|guarded|defended)\s+"
    r"against\s+(?:[\w-]+\s+){0,3}?(?:viruses|malware|attacks|intrusions?|hacking)\b"
    r"|\b(?:employees?|staff|personnel)\b[^.;]{0,80}?\bdisciplinary\s+action\b"
    r"|\btake\w*\s+(?:the\s+)?(?:protection|security|safety|confidentiality)\s+of\s+(?:[\w'’-]+\s+){0,3}?"
    r"(?:information|data)\s+(?:very\s+)?seriously\b",
    re.I,
)
# "… to (help) protect / secure …" after a use or sharing verb: the aim of that practice, unless what is
# protected is the data itself ("we use encryption to protect your information").
PURPOSE_TO = re.compile(r"\bto\s+(?:help\s+(?:us\s+)?)?(?:\w+\s+(?:and|or)\s+)?$", re.I)
DATA_OBJECT = re.compile(
    r"\s+(?:it|them|(?:(?:the|all|any|this|that|these|such|your|our\s+users'?)\s+)?(?:[\w'’-]+\s+){0,2}?"
    r"(?:information|data|details|records))\b",
    re.I,
)
BOUND_TO = re.compile(
    r"\b(?:require[sd]?|requiring|agree[sd]?|agreement|obligat\w+|bound|contracts?|contractually|they|them)\b", re.I
)

# ---- Headings, lists and paragraphs ----

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


# Round 9: misreadings found in policies the rules were not fitted to (security, collection, sharing, retention).
# Protecting people rather than data ("protect you, ourselves and others", "protect the company in litigation").
PROTECT_PEOPLE = re.compile(
    r"\s+(?:(?:you|ourselves|us|others|themselves|yourself)\b|(?:[\w'’-]+\s+){1,3}?in\s+(?:litigation|disputes?|legal)\b)",
    re.I,
)

# A heading's security words; "data protection" that names the law or the reader's rights under it.
SECURE_HEAD_WORD = re.compile(r"\b(?:secur\w*|protect\w*|safeguard\w*)\b", re.I)

DATA_PROTECTION_LAW = re.compile(r"\bdata[\s-]+protection$", re.I)

LEGAL_REGIME = re.compile(
    r"\bdata\s+protection\s+(?:rights?|officers?|laws?|authorit\w+|regulations?|directive|act|legislation|"
    r"principles|clauses)\b|\b(?:rights?|officer|GDPR|European|EEA|E\.E\.A\.|EU|UK|Swiss|Switzerland|"
    r"international|transfers?|legal\s+bas\w+)\b",
    re.I,
)

# "secure" said of the site's services rather than of data, as the aim of a use: "to keep our services secure
# and up to date", "by keeping our platform safe and secure", "safe, secure products", "secure our products and
# services". (Keeping systems or networks secure is a security measure, and is left out.)
SERVICE_NOUN = (
    r"(?:services?|products?|platforms?|(?:web)?sites?|apps?|applications|communit(?:y|ies)|experiences?|"
    r"properties|features)"
)

SECURE_SERVICE_BEFORE = re.compile(
    r"(?:\b(?:to|help|helps|and|or)\s+(?:help\s+(?:us\s+)?)?(?:keep|make|ensure)|\b(?:keeping|making|ensuring))"
    r"\s+(?:that\s+)?(?:[\w'’-]+\s+){0,4}?"
    + SERVICE_NOUN
    + r"\s+(?:(?:is|are|remain|remains|stay|stays)\s+)?(?:(?:[\w-]+,?\s+){0,5}?(?:and|or)\s+)?(?:more\s+)?$",
    re.I,
)

SECURE_SERVICE_AFTER = re.compile(
    r"(?:\s*,\s*|\s+)(?:(?:and|or)\s+)?(?:(?:the|our|its)\s+)?(?:[\w-]+,?\s+(?:and\s+|or\s+)?){0,3}?"
    + SERVICE_NOUN
    + r"\b",
    re.I,
)

# A sentence about moving data across borders or the legal mechanisms for it: its "safeguards" and "protection"
# are transfer mechanisms (contract clauses, adequacy), not security measures, unless a method or threat is named.
CROSS_BORDER = re.compile(
    r"\btransfer\w*\b[^.;:]{0,120}?\b(?:countr(?:y|ies)|jurisdictions?|international\w*|cross-border|abroad|outside|"
    r"EEA|E\.E\.A\.|European|EU|UK|United\s+Kingdom|Switzerland|Swiss|United\s+States|U\.S\.|USA)\b"
    r"|\b(?:countr(?:y|ies)|international\w*|cross-border|outside\s+(?:of\s+)?(?:the\s+)?(?:EEA|UK|EU|European|"
    r"United|country))\b[^.;:]{0,120}?\btransfer\w*\b"
    r"|\bstandard\s+contractual\s+clauses\b|\badequa(?:cy|te\s+level)\b|\bsafe\s+harbor\b|\bprivacy\s+shield\b|"
    r"\bdata\s+privacy\s+framework\b|\bbinding\s+corporate\s+rules\b",
    re.I,
)

# A named security technique, or safeguards named by their kind ("technical and physical safeguards"); not the
# generic "safeguards" or "measures" that transfer mechanisms are called.
NAMED_METHOD = re.compile(
    r"\b(?:encrypt\w*|SSL|TLS|HTTPS|secure\s+sockets?|firewalls?|access\s+controls?|pseudonymi[sz]\w*|"
    r"anonymi[sz]\w*|(?:two|multi)[- ]factor|passwords?|"
    r"(?:physical|technical|administrative|organi[sz]ational)\s+(?:safeguards|measures))\b",
    re.I,
)

# A security incident the site detects or investigates (a purpose of use in a list of purposes), not a breach
# notice or a measure.
INCIDENT = re.compile(r"security\s+(?:incident|breach)\w*", re.I)

DETECTING = re.compile(
    r"\b(?:detect\w*|investigat\w*|assess\w*|identify\w*)\b(?:[\s,]+(?:and|or)?\s*[\w-]+){0,5}?[\s,]*$", re.I
)

# "Safeguards" as a legal condition: "subject to appropriate (contractual) safeguards", "safeguards for
# individuals' rights and freedoms".
SUBJECT_TO = re.compile(r"\bsubject\s+to\s+(?:[\w-]+\s+){0,2}$", re.I)

FOR_RIGHTS = re.compile(r"\s+for\s+(?:[\w'’-]+\s+){0,2}?(?:rights|freedoms)\b", re.I)

# "need to know" that is the reader's need or part of a web address, not an access limit.
READER_NEED = re.compile(r"(?:[/-]|\b(?:you|we|I)\s)$|^(?:[-/]|\s+about\b)", re.I)

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

# What data can do, not what the site does with it: "information that can be used to identify you" defines
# personal data inside a sentence that may state a practice ("we collect information that can be used to
# identify you, such as…"); only its own "used" is no practice.
IDENTIFIES = re.compile(
    r"\b(?:can|could|may|might)(?:\s*not|n[’']t)?\s+(?:\w+ly\s+)?be\s+used\s+to\s+(?:\w+ly\s+)?"
    r"(?:identify|contact|locate)\b",
    re.I,
)

# Words after which "request(s)" is a verb ("we may request your address"); after any other word it is a noun
# ("valid requests", "a data subject request", "to make requests"), the reader's request rather than collection.
REQUEST_VERB_AFTER = re.compile(
    r"\b(?:we|they|it|may|might|will|would|shall|can|could|must|also|only|not|never|then|sometimes|\w+ly)\s+$", re.I
)

# People as the agent of a passive "accessed" ("may be accessed by others / by many people / by anyone").
BY_PEOPLE = re.compile(
    r"\s+(?:(?:and|or)\s+\w+\s+)?by\s+(?:(?:many|other|some|all|any|the|those)\s+)?"
    r"(?:others|anyone|anybody|everyone|people|users|members|visitors|public)\b",
    re.I,
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

# "provide / supply / furnish <recipient> with <data>": the recipient named before the data.
GIVE_WITH = re.compile(r"\b(?:provid|suppl|furnish)\w*\s+$", re.I)

WITH_DATA = re.compile(r"\s+with\s+(?:[\w'’,-]+\s+){0,4}", re.I)

# The reader as the subject of a list of verbs ending in "share" ("lets you organize, view, and share photos",
# "you can create, store and share documents", "allow you to create and share content").
YOU_AND_SHARE = re.compile(
    r"\byou\s+(?:(?:can|may|could|might)\s+(?:use\s+(?:it\s+)?to\s+)?|to\s+)?(?:[\w-]+,\s+){1,3}(?:[\w-]+\s+)?"
    r"(?:and|or|and/or)\s+$"
    r"|\b(?:lets?|allows?|enables?|helps?|permits?)\s+you\s+(?:to\s+)?[\w-]+\s+(?:and|or)\s+$",
    re.I,
)

# "file sharing", "screen sharing": a product feature named by its noun, not the site disclosing data.
FEATURE_BEFORE = re.compile(r"\b(?:file|photo|screen|video|music|document|ride|car|desktop|peer-to-peer)[- ]$", re.I)

# "likes, comments, shares and clicks": a count of reactions to posts.
ENGAGEMENT = r"(?:likes?|comments?|views?|clicks?|posts?|reposts?|reactions?|follows?|retweets?|favorites?)"

ENGAGEMENT_BEFORE = re.compile(rf"\b{ENGAGEMENT}\s*,\s*(?:[\w-]+\s*,\s*)*(?:and\s+|or\s+)?$", re.I)

ENGAGEMENT_AFTER = re.compile(rf"\s*,?\s*(?:and\s+|or\s+)?{ENGAGEMENT}\b", re.I)

# A change of ownership names the recipient of a transfer implicitly ("if we are acquired by or merged with
# another company, your information may be transferred"); the other side must be a company ("merged with data from
# public sources", "items bought by you" are no change of ownership).
IMPLIED_BUYER = re.compile(
    r"\b(?:(?:merged?|merging)\s+(?:with|into)|(?:acquired|bought|purchased)\s+by)\s+"
    r"(?:(?:or\s+)?(?:merged?|merging)\s+(?:with|into)\s+)?(?:another|an?|one\s+or\s+more|other|the)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:compan(?:y|ies)|entit(?:y|ies)|business(?:es)?|organi[sz]ations?|buyers?|acquirers?|"
    r"purchasers?|successors?|corporations?|firms?)\b"
    r"|\b(?:acquired|bought|purchased)\s+by\s+(?!(?-i:You|Us)\b)(?-i:[A-Z])"  # a named company ("acquired by Bigco")
    r"|\b(?:sale|sold)\s+of\s+(?:the|our|its)\s+(?:company|business)\b",
    re.I,
)

# A recipient the party lexicon leaves out, named as the object of a handing verb by a determiner and an
# organisation noun ("passed to our card processing gateway", "sent to a background screening company"); the
# site itself ("to the company", "to our organization") is not one; or anyone at all ("we will not rent it to anyone").
TO_RECIPIENT = re.compile(
    r"[^.;:]*?\b(?:to|with)\s+(?:(?:anyone|anybody|any\s+one|no\s+one|nobody|outsiders|other\s+people)\b|"
    r"(?!(?:the|our|this)\s+(?:company|organi[sz]ation)\b)"
    r"(?:(?:a|an|the|our|its|their|that|this|these|those|such|one|another|other|"
    r"outside|independent|trusted|selected|certain)\s+)+"
    r"(?:[\w-]+\s+){0,3}?"
    r"(?:compan(?:y|ies)|processors?|gateways?|providers?|vendors?|agenc(?:y|ies)|firms?|"
    r"bureaus?|carriers?|couriers?|banks?|institutions?|publishers?|partners?|organi[sz]ations?|police|"
    r"insurers?|lenders?)\b)",
    re.I,
)

# A line marked up as a title that the loader does not take for a heading: a list item holding a Markdown
# heading ("*   ### [Who do we share your information with?](…)", a collapsible section). It ends the section
# above it for the lines below that take their practice from a heading.
MARKED_TITLE = re.compile(r"[*+-]\s+#{1,6}\s+\S.{0,150}")

# More measures of how long data is kept (see PERIOD): the site's own need or the reader's wish ("as long as we
# need it", "as long as you want"), and the period named as a topic ("how long we keep…"); a legal duty to keep
# data is LEGAL_KEEP.
PERIOD_MORE = re.compile(
    r"\b(?:as|so) long as (?:we|you) (?:(?:reasonably|still|continue to|may|actually) )?"
    r"(?:need|require|use)\b[^.;,]{0,60}"
    r"|\b(?:as|so) long as (?:you|the user|users) (?:choose|chooses|want|wants|wish|wishes|like|likes|tell us)\b"
    r"|\bas long as we have (?:a |an )?(?:valid|legitimate|good|lawful) (?:\w+ )?"
    r"(?:reason|purpose|basis|need)\b[^.;,]{0,60}"
    # the period named as a topic: "how long we keep your data", "when deciding how long to retain it"
    r"|\bhow long (?:to |we |we'll |we will |do we |will we |\w+ (?:will |may |can )?)?"
    r"(?:keep|retain|store|hold|preserve)\b"
    # the end of the account as the measure ("when you close your account, we delete…"): OPP-115's limited period
    r"|\b(?:when|once|after|upon|if|following)\s+(?:you\s+)?(?:close|delete|terminate|cancel|deactivate)s?\s+"
    r"(?:your|an|the)\s+account\b"
    r"|\b(?:upon|after|following|on)\s+(?:the\s+)?(?:closure|deletion|termination|cancellation|deactivation)\s+of\s+"
    r"(?:your|an|the)\s+account\b",
    re.I,
)

# A legal duty to keep data, right before a keeping verb ("we are legally obligated to keep a record of…").
LEGAL_KEEP = re.compile(
    r"\b(?:required|obligated|obliged|compelled)\s+(?:by\s+(?:\w+\s+)?law\s+|under\s+(?:\w+\s+)?law\s+)?to\s+$",
    re.I,
)

# Deleted when the reader closes the browser: a session cookie's lifetime, not the site's retention.
BROWSER_CLOSE = re.compile(
    r"\s+(?:[\w'’-]+\s+){0,4}?(?:when|whenever|each time|every time|once|after|as soon as)\s+"
    r"(?:you|the user|users|they)\s+"
    r"(?:close|closes|exit|exits|quit|quits|leave|leaves|shut down)\s+(?:your|the|their|a)\s+(?:web\s+|internet\s+)?"
    r"(?:browser|browsing session|browser window|window|tab)\b"
    r"|\s+(?:[\w'’-]+\s+){0,4}?at the end of (?:your|the|each) (?:browser|browsing) session\b",
    re.I,
)

# Saved onto / into the reader's own device (see ON_DEVICE).
ONTO_DEVICE = re.compile(
    r"\s+(?:\w+\s+){0,3}?(?:onto|into)\s+(?:your|the user's|a user's|users'?|their)\s+(?:own\s+)?(?:\w+\s+)?"
    r"(?:computer|device|hard drive|browser|machine|phone|hard disk)",
    re.I,
)

# "keep" followed by another verb's -ing form ("we will keep sending you offers"): to continue, not keeping data.
KEEP_DOING = re.compile(
    r"\s+(?:on\s+)?(?:sending|receiving|using|getting|providing|offering|improving|working|updating|trying|"
    r"visiting|browsing|playing|coming|growing|adding|making|doing|running)\b",
    re.I,
)
# "keep" with a state after its object ("keep your data secure / accurate", "keep in mind", "keep you signed in"):
# not keeping data.
KEEP_STATE = re.compile(
    r"(?:\s+[\w'’-]+){0,4}?\s+(?:safe|secure|securely|private|confidential|accurate|up[- ]to[- ]date|"
    r"current|in mind|informed|in touch|signed[- ]in|logged[- ]in)\b",
    re.I,
)

# How far whitespace and up to three words reach (as far as AGENT_MODIFIERS or HIRED_PARTY can): a party further
# away cannot be joined to a verb by them, so the other parties of a run-on sentence are not tried.
WORDS_REACH = re.compile(r"\s*(?:[\w-]+\s+){0,3}")
SPACE = re.compile(r"\s")
