"""Sentences, clauses and subjects: the patterns every practice's rules read (negation, passives, who acts)."""

from __future__ import annotations

import re

SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[\"“(\[]?[A-Z0-9*])")
NEGATION = {"not", "never", "n't", "no", "neither", "nor", "without"}
# A negation of an obligation, not of the practice: "you are not required to provide", "you do not have to give us",
# "there is no obligation to share" say the user may; the collection, if they do, is stated. Blanked before the
# negation words are read.
NOT_OBLIGED = re.compile(
    r"\b(?:not|never|no)\s+(?:(?:legally|contractually|statutorily)\s+)?(?:required|obliged|obligated|necessary|"
    r"mandatory|obligation|requirement|need|have)\s+to\b",
    re.I,
)
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

# How far whitespace and up to three words reach (as far as AGENT_MODIFIERS or HIRED_PARTY can): a party further
# away cannot be joined to a verb by them, so the other parties of a run-on sentence are not tried.
WORDS_REACH = re.compile(r"\s*(?:[\w-]+\s+){0,3}")
SPACE = re.compile(r"\s")
