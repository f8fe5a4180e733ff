"""Overlap resolution: which of several candidate spans over the same characters is kept.

``resolve(candidates, taken)`` keeps spans already taken and adds candidates in order of (rank, -length, start):
a lower rank (a recogniser's priority; later stages use higher ranks) wins, then the longer span, then the earlier
one; a candidate overlapping anything kept is dropped. ``clip`` cuts a model's span around the structured entities
inside it. ``Occupied`` answers "is [s, e) free?" in O(log n).
"""

from __future__ import annotations

import bisect
import re

from pp_graph.anonymize.recognizers.base import Entity


class Occupied:
    """Non-overlapping taken spans with O(log n) look-ups (texts can hold tens of thousands of entities)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []

    def free(self, s: int, e: int) -> bool:
        i = bisect.bisect_right(self.starts, s)
        if i and self.ends[i - 1] > s:  # the span starting at or before s reaches into [s, e)
            return False
        return i == len(self.starts) or self.starts[i] >= e

    def take(self, s: int, e: int) -> None:
        i = bisect.bisect_right(self.starts, s)
        self.starts.insert(i, s)
        self.ends.insert(i, e)


def resolve(cands: list[tuple[int, int, Entity]], taken: list[Entity]) -> list[Entity]:
    """``taken`` with each candidate ``(rank, -length, entity)`` appended that overlaps nothing kept, candidates
    tried by (rank, -length, start). ``taken`` is extended in place and returned. A building block of an NER mode
    registered from outside (``register_mode``)."""
    occ = Occupied()
    for o in sorted(taken, key=lambda x: x.start):
        occ.take(o.start, o.end)
    for _, _, ent in sorted(cands, key=lambda c: (c[0], c[1], c[2].start)):
        if occ.free(ent.start, ent.end):
            occ.take(ent.start, ent.end)
            taken.append(ent)
    return taken


def clip(spans: list[tuple[str, int, int]], hard: list[Entity], text: str) -> list[tuple[str, int, int]]:
    """Model spans minus the structured entities inside them ("… 97403 before Friday" keeps the address part)."""
    out = []
    for t, s, e in spans:
        cuts = [(x.start, x.end) for x in hard if x.start < e and s < x.end]
        cuts += [(s + m.start(), s + m.end()) for m in _QUOTE_MARK.finditer(text[s:e])]  # "\n> " of a quoted reply
        clause = _CLAUSE.search(text, s, e)  # "… Springfield and works for …": the address ended before the verb
        if clause:
            cuts.append((clause.start(), e))
        cuts.sort()
        for a, b in cuts:
            if a > s:
                out.append((t, s, a))
            s = max(s, b)
        out.append((t, s, e))
    trimmed = []
    for t, s, e in out:
        while True:  # leading "is"/"at" ("… is 12 Main St") is not the address
            first = _FIRST_WORD.match(text, s, e)
            if not first or first.group(1).lower() not in _HEAD_WORDS:
                break
            s = first.end()
        while True:  # trailing blanks and function words ("… 97403 before") are not the address
            while e > s and text[e - 1].isspace():
                e -= 1
            last = _LAST_WORD.search(text, s, e)
            if not last or last.group(0).lower() not in _TAIL_WORDS:
                break
            e = last.start()
        if e - s > 4 and text[e - 1] == "." and re.search(r"[^\W\d_]{4}$", text[s : e - 1]):
            e -= 1  # the full stop after "… Springfield." ends the sentence, not an abbreviation
        if any(c.isalnum() for c in text[s:e]):
            trimmed.append((t, s, e))
    return trimmed


_CLAUSE = re.compile(r"\s+(?:and|but|who|which|where)\s+[a-z]{3,}\b(?!\.)")
_FIRST_WORD = re.compile(r"(\w+)\s+")
_LAST_WORD = re.compile(r"\w+$")
_HEAD_WORDS = frozenset({"is", "at", "to", "in", "on", "from"})
_TAIL_WORDS = frozenset({"before", "after", "for", "in", "on", "at", "last", "and", "the", "to", "by", "please", "or"})
_QUOTE_MARK = re.compile(r"\n[ \t]*[>|][>| \t]*")
