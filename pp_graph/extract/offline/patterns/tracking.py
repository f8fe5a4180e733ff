"""Tracking technologies: the site's own cookies and beacons, and third parties' tracking on the site."""

from __future__ import annotations

import re

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
