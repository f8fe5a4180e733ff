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
    offset = max(0, min(offset, len(line)))
    start, end = sentence_at(line, offset)
    start, end = _parenthetical(line, offset, start, end)
    sentence = line[start:end]
    found = []
    for cue in cues().cues:
        if cue.id not in KINDS:
            continue
        m = next((m for p in cue.patterns if (m := p.search(sentence))), None)
        if m is not None:
            found.append(Qualifier(cue.id, _phrase(sentence, m.start(), m.end())))
    return sorted(found, key=lambda q: KINDS.index(q.kind))


def _parenthetical(line: str, offset: int, start: int, end: int) -> tuple[int, int]:
    """The bounds of the parenthesis around ``offset`` inside the sentence, if any: "If you send the signal, we
    will honour it (we do not sell your data)" states the sale denial on its own, not under the condition."""
    opening = line.rfind("(", start, offset)
    if opening < 0 or line.find(")", opening, offset) >= 0:
        return start, end
    closing = line.find(")", offset, end)
    return (opening + 1, closing) if closing >= 0 else (start, end)


def _phrase(sentence: str, start: int, end: int, words: int = 6) -> str:
    """The cue's words and up to ``words`` more, so the description says what the exception is."""
    rest = sentence[end:].split()
    tail = " ".join(rest[:words]).rstrip(".;:!?")
    return (sentence[start:end] + (" " + tail if tail else "")).strip() + (" …" if len(rest) > words else "")


def trigger_sentence(row: dict[str, object]) -> tuple[int, int] | None:
    """The file offsets of the sentence holding a practice row's trigger (export-practice-lines.rq: line, lineStart,
    triggerStart); None without its line, or when the trigger is on another line (a lead-in's practice inherited
    by a list item)."""
    line, line_start, trigger = row.get("line"), row.get("lineStart"), row.get("triggerStart")
    if not isinstance(line, str) or line_start is None or trigger is None:
        return None
    base, offset = int(str(line_start)), int(str(trigger)) - int(str(line_start))
    if not 0 <= offset < len(line):
        return None
    start, end = _parenthetical(line, offset, *sentence_at(line, offset))
    return base + start, base + end


def practice_qualifiers(row: dict[str, object]) -> list[Qualifier]:
    """A negated practice row's qualifiers; none for a stated practice or when its sentence is not known."""
    bounds = trigger_sentence(row)
    if not row.get("negated") or bounds is None:
        return []
    line, base = str(row["line"]), int(str(row["lineStart"]))
    return qualifiers(line, int(str(row["triggerStart"])) - base)


def sentence_data(row: dict[str, object]) -> list[str]:
    """The data classes a practice row names inside its trigger's sentence (dataAt: "class offset" items); empty
    when the sentence is not known or names none of them."""
    bounds = trigger_sentence(row)
    items = row.get("dataAt") or []
    if bounds is None or not isinstance(items, list):
        return []
    found = set()
    for item in items:
        cls, _, at = str(item).rpartition(" ")
        if cls and at.isdigit() and bounds[0] <= int(at) < bounds[1]:
            found.add(cls)
    return sorted(found)
