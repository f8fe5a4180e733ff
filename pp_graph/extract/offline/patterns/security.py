"""Security: measures that protect data, and security wording that is no measure (protecting people or services)."""

from __future__ import annotations

import re

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
