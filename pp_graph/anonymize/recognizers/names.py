"""Personal names: after a cue ("my name is …", "Mr."), a listed first name with a middle initial or before one
or two capitalised words, enumerations of listed first names, and a signature's first line (name lists:
gazetteer.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pp_graph.anonymize.recognizers.base import Family
from pp_graph.anonymize.recognizers.shapes import LC, STREET_SUFFIX, UC, is_stop

FAMILY = Family("names")

_NAME_CUE = re.compile(
    r"(?:(?i:my name is|this is|i am|i'm|name:|called|named(?: him| her)?|call me|signed,?|"
    r"(?:directed|written|produced|posted|sent) by:?|"
    r"(?:first|last|full) name(?:\??:|\?| is:?)|name on the account(?: is)?\??:?(?:\s+User:)?|"
    r"under (?:my |the |her |his )?(?:\w+'s )?name)[ \t]+|"
    r"(?i:\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame)\b)\.?[ \t]+)"
    # a name does not run across lines nor into an address unit ("Mrs. Barbara Yudina Apt. 675"); a middle
    # initial may go without its full stop ("Ruth R Montez")
    r"((?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'-]+|[A-Z]\.)"
    r"(?:[ \t]+(?!(?:Apt|Suite|Ste|Unit|Flat|Room|Box)\b)(?:[A-ZÀ-ÖØ-ÞĀ-Ž][\w'-]+|[A-Z]\.|[A-Z](?=[ \t]+[A-Z]))){0,3})"
)


def _cued_names(text: str) -> Iterator[tuple[int, int]]:
    for m in _NAME_CUE.finditer(text):
        e = m.end(1) - 2 if m.group(1).endswith(("'s", "’s")) else m.end(1)
        yield m.start(1), e


FAMILY.add("name_cue", "PERSON", 45, _cued_names)

_NAME_WORD = rf"[{UC}][{LC}'’]+(?:-[{UC}][{LC}'’]+)?"
# "Shane M Culp", "John F. Kennedy": a middle initial between two name words (not "A"/"I", English words)
_INITIAL_NAME = re.compile(rf"\b({_NAME_WORD})[ \t]+[B-HJ-Z]\.?[ \t]+({_NAME_WORD})\b")
# "James Talbot", "Mary Ann Smith": a listed first name, then one or two capitalised words
_LISTED_NAME = re.compile(rf"\b({_NAME_WORD})((?:[ \t]+{_NAME_WORD}){{1,2}})\b")


def _weak_first_name(words: list[str]) -> bool:
    """A first name that is a common English word ("Rich Media Ads", "Mark Read") without its last word a listed
    surname that is not one too: too weak to be a person."""
    from pp_graph.anonymize import gazetteer

    last = words[-1]
    strong = gazetteer.is_last_name(last) and not gazetteer.is_common_word_name(last)
    return gazetteer.is_common_word_name(words[0]) and not strong


def _initial_names(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    for m in _INITIAL_NAME.finditer(text):
        first, last = m.group(1), m.group(2)
        if is_stop(first) or is_stop(last):
            continue
        if gazetteer.is_first_name(first) or gazetteer.is_last_name(last):
            yield m.start(), m.end() - 2 if m.group(0).endswith(("'s", "’s")) else m.end()


def _possessive_cut(text: str, start: int, end: int) -> int:
    """The end of a name that stops at its first possessive word: "Terence Vassiliev's Cautionary" ends before
    the 's, not after the next word."""
    for w in re.finditer(r"\S+", text[start:end]):
        if w.group(0).endswith(("'s", "’s")):
            return start + w.end() - 2
    return end


def _listed_name_at(text: str, m: re.Match[str]) -> tuple[int, int] | None:
    from pp_graph.anonymize import gazetteer

    end = _possessive_cut(text, m.start(), m.end())
    first, rest = m.group(1), text[m.end(1) : end].split()
    if not rest or not gazetteer.is_first_name(first) or gazetteer.is_country(first) or any(is_stop(w) for w in rest):
        return None
    if _weak_first_name([first, *rest]):
        return None
    if any(gazetteer.is_country(w) or (re.fullmatch(STREET_SUFFIX, w) and not gazetteer.is_last_name(w)) for w in rest):
        return None  # "Georgia Avenue", "Mary Road": a place ("Linda Park": a listed surname, a person)
    return m.start(), end


def _listed_names(text: str) -> Iterator[tuple[int, int]]:
    pos = 0
    while (m := _LISTED_NAME.search(text, pos)) is not None:
        span = _listed_name_at(text, m)
        if span is not None:
            yield span
            pos = span[1]
        else:  # retry from the next word: "Contact James Talbot", "Sales Rep Linda Park"
            pos = m.end(1)


FAMILY.add("name_initial", "PERSON", 46, _initial_names)

# "they had 6: silvana, adam, christopher, kristina, chad and caleb": an enumeration of single words, most of them
# listed first names, is a list of people (in any case; name propagation covers capitalised lists with a person).
_WORD_LIST = re.compile(r"(?<![\w,] )(?<![\w-])[^\W\d_]+(?:, [^\W\d_]+)+,? and [^\W\d_]+(?![\w-])")
_LIST_MEMBER = re.compile(r"[^\W\d_]+")


def _name_lists(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    for m in _WORD_LIST.finditer(text):
        members = [x for x in _LIST_MEMBER.finditer(m.group(0)) if x.group(0) != "and"]
        listed = sum(gazetteer.is_first_name(x.group(0)) for x in members)
        if len(members) >= 3 and 3 * listed >= 2 * len(members) and not any(is_stop(x.group(0)) for x in members):
            yield from ((m.start() + x.start(), m.start() + x.end()) for x in members)


# A signature's first line: "Cormac Allan" / "aksel kristensen" above a title, firm or address line.
_SIGNATURE_NAME = re.compile(r"\A[ \t>|\n]*([^\W\d_][\w'’-]+(?:[ \t]+[^\W\d_][\w'’.-]*){1,2})[ \t]*\n[ \t>|]*\S")


def _signature_names(text: str) -> Iterator[tuple[int, int]]:
    from pp_graph.anonymize import gazetteer

    m = _SIGNATURE_NAME.match(text)
    if m is None:
        return
    words = m.group(1).split()
    same_case = all(w[0].isupper() for w in words) or all(w.islower() for w in words)
    # a listed first name opens it: a listed surname alone is too weak ("Hello World")
    if (
        same_case
        and not any(is_stop(w) for w in words)
        and gazetteer.is_first_name(words[0])
        and not _weak_first_name(words)
    ):
        yield m.start(1), m.end(1)


FAMILY.add("name_list", "PERSON", 46, _name_lists)
FAMILY.add("name_signature", "PERSON", 46, _signature_names)
FAMILY.add("name_listed", "PERSON", 47, _listed_names)
