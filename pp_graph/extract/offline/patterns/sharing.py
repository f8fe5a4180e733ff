"""Sharing: the wording of disclosures, their recipients, and the sharing verbs that disclose nothing."""

from __future__ import annotations

import re

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

# People as the agent of a passive "accessed" ("may be accessed by others / by many people / by anyone").
BY_PEOPLE = re.compile(
    r"\s+(?:(?:and|or)\s+\w+\s+)?by\s+(?:(?:many|other|some|all|any|the|those)\s+)?"
    r"(?:others|anyone|anybody|everyone|people|users|members|visitors|public)\b",
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
