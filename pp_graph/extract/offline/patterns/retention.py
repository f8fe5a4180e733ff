"""Retention: keeping and deleting data, retention periods, and the uses of keeping verbs that keep no data."""

from __future__ import annotations

import re

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
