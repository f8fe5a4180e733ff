"""Shapes several recogniser families share: name-word character classes, function words, a signature's name
line and a job title's line, and the street suffixes (a listed first name before one is a place, not a person)."""

from __future__ import annotations

import re

UC = "A-ZÀ-ÖØ-ÞĀ-Ž"
LC = "a-zß-ÿā-ž"

STREET_SUFFIX = (
    r"(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl|Terrace|"
    r"Square|Sq|Parkway|Pkwy|Highway|Hwy|Crescent|Close|Circle|Cir|Trail|Row|Alley|Plaza|Loop|Path|Pike|"
    r"Ridge|Mews|Walk|Hill|Park|Gardens|Grove|Heights|Point|Estate|Rue|Route|Chaussee)"
)


# A job title on a line of its own, as in a signature under the name: "Leasing consultant", "Echocardiographer".
JOB_HEAD = (
    r"(?:manager|director|consultant|engineer|developer|designer|analyst|assistant|officer|specialist|technician|"
    r"installer|cleaner|writer|editor|nurse|teacher|clerk|coordinator|administrator|accountant|architect|"
    r"secretary|supervisor|operator|inspector|advis[oe]r|agent|representative|scientist|therapist|surgeon|"
    r"physician|lawyer|attorney|paralegal|librarian|pharmacist|mechanic|electrician|plumber|carpenter|driver|"
    r"pilot|chef|cook|baker|cashier|receptionist|producer|president|executive|intern|worker|labou?rer|planner|"
    r"buyer|auditor|controller|strategist|programmer|surveyor|dentist|midwife|packager|porter|caretaker|"
    r"gardener|farmer|fitter|welder|machinist|tester|trainer|instructor|lecturer|professor|tutor|counsell?or|"
    r"broker|dispatcher|courier|steward|waiter|waitress|bartender|barista|[a-z]+grapher|[a-z]+ologist|"
    r"[a-z]+ician|(?:art|journal|econom|chem|dent|pharmac|physic|novel|pian|guitar|violin|flor|typ|styl|hygien|"
    r"column|lobby|special|therap|psychiatr|orthodont|anaesthet|anesthet|machin|cartoon|copy)ist)"
)
TITLE_LINE = re.compile(
    rf"(?m)(?<=\n)[ \t>|]*((?:[A-Za-z][a-z-]*[ \t]+){{0,3}}(?i:{JOB_HEAD})(?:[ \t]+of[ \t]+[A-Za-z][a-z]+)?)[ \t]*$"
)


SIG_NAME = re.compile(r"[^\W\d_][\w'’.-]*(?:[ \t]+[^\W\d_][\w'’.-]*){1,2}")
SIG_MARKS = " \t>|"


def is_stop(word: str) -> bool:
    from pp_graph.anonymize import gazetteer

    return gazetteer.is_stop_word(word)


def is_title_line(line: str) -> bool:
    return TITLE_LINE.search("\n" + line) is not None


def is_name_line(line: str, listed: bool = True) -> bool:
    """A signature's name line: two or three words in one case, none a function word, and (``listed``) opening
    with a listed first name or closing with a listed surname, neither a common word ("Jane Roe", "Cormac Allan";
    not "Privacy Notice"). A job title's line asks only the shape (dev half: TITLE F1 0.885 listed, 0.910 not)."""
    from pp_graph.anonymize import gazetteer

    words = line.split()
    same_case = all(w[0].isupper() for w in words) or all(w.islower() for w in words)
    if not (SIG_NAME.fullmatch(line) and same_case) or any(is_stop(w) for w in words):
        return False
    if not listed:
        return True
    first = gazetteer.is_first_name(words[0]) and not gazetteer.is_common_word_name(words[0])
    return first or (gazetteer.is_last_name(words[-1]) and not gazetteer.is_common_word_name(words[-1]))
