"""What qualifies a negated practice: an exception ("except as required by law", "unless you consent") or a
condition ("if you do not create an account") stated in the sentence of its trigger.

The words are the contradiction cues' (data/contradict/cues.toml, ``exception`` and ``condition``): the same
reading decides "these two statements do not contradict" there and "this prohibition does not hold as stated"
here. The exporters cannot evaluate the qualifier, so they say it is there instead of dropping it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pp_graph.contradict.cues import cues
from pp_graph.contradict.statements import sentence_at

KINDS = ("exception", "condition")


@dataclass(frozen=True, slots=True)
class Qualifier:
    kind: str  # "exception" or "condition"
    wording: str  # the words that state it, as in the sentence


def qualifiers(line: str, offset: int) -> list[Qualifier]:
    """The exception and condition cues the sentence of ``line`` holding ``offset`` (relative to the line)
    matches, at most one of each kind, in KINDS order."""
    start, end = sentence_at(line, max(0, min(offset, len(line))))
    sentence = line[start:end]
    found = []
    for cue in cues().cues:
        if cue.id not in KINDS:
            continue
        m = next((m for p in cue.patterns if (m := p.search(sentence))), None)
        if m is not None:
            found.append(Qualifier(cue.id, _phrase(sentence, m.start(), m.end())))
    return sorted(found, key=lambda q: KINDS.index(q.kind))


def _phrase(sentence: str, start: int, end: int, words: int = 6) -> str:
    """The cue's words and up to ``words`` more, so the description says what the exception is."""
    rest = sentence[end:].split()
    tail = " ".join(rest[:words]).rstrip(".;:!?")
    return (sentence[start:end] + (" " + tail if tail else "")).strip() + (" …" if len(rest) > words else "")


def practice_qualifiers(row: dict[str, object]) -> list[Qualifier]:
    """A negated practice row's qualifiers (export-practices.rq: line, lineStart, triggerStart); none for a stated
    practice or a row without its line."""
    line, line_start, trigger = row.get("line"), row.get("lineStart"), row.get("triggerStart")
    if not row.get("negated") or not isinstance(line, str) or line_start is None or trigger is None:
        return []
    return qualifiers(line, int(str(trigger)) - int(str(line_start)))
