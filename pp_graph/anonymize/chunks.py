"""Recognition over texts of any length: NER in bounded chunks, offsets mapped back to the whole text.

NER cost and memory grow with the text, and spaCy refuses very long documents, so a long text is cut at
paragraph, sentence or word boundaries into cores of at most ``CHUNK_CHARS``; each core is read with ``OVERLAP``
characters of context on both sides. An entity belongs to the chunk whose core holds its start, so one that
straddles a cut is found whole (by the chunk it starts in, which sees past the cut) and never twice. Name
propagation then runs once over the whole text, so a person found in one chunk is found in every other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from pp_graph.anonymize.pipeline import recognize
from pp_graph.anonymize.recognizers.base import Entity
from pp_graph.anonymize.resolve import Occupied

CHUNK_CHARS = 10_000
OVERLAP = 400  # longer than any entity, and enough context for the tagger at a window's edge
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s+")


def _cut(text: str, lo: int, hi: int) -> int:
    """The last paragraph break, else sentence end, else whitespace in text[lo:hi]; hi when there is none."""
    seg = text[lo:hi]
    para = seg.rfind("\n\n")
    if para > 0:
        return lo + para + 2
    ends = [m.end() for m in _SENTENCE_END.finditer(seg)]
    if ends:
        return lo + ends[-1]
    for sep in ("\n", " ", "\t"):
        i = seg.rfind(sep)
        if i > 0:
            return lo + i + 1
    return hi


def cores(text: str, size: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """Consecutive (start, end) cores covering ``text``, each at most ``size`` and at least half of it
    (except the last), cut at the best boundary."""
    out, start, n = [], 0, len(text)
    while start < n:
        if n - start <= size:
            out.append((start, n))
            break
        end = _cut(text, start + size // 2, start + size)
        out.append((start, end))
        start = end
    return out


def recognize_long(
    text: str,
    *,
    ner: bool = True,
    types: Iterable[str] | None = None,
    size: int = CHUNK_CHARS,
    overlap: int = OVERLAP,
    ner_chars: int | None = None,
    mode: str | None = None,
) -> list[Entity]:
    """``recognize`` for a text of any length: the same result as one call for texts up to ``size``.

    ``ner_chars`` bounds the cost: NER reads the chunks that start before it, the rest gets the pattern
    recognisers only (``ner_coverage`` says how far NER read). ``mode``: the NER mode (``recognize``'s)."""
    if len(text) <= size and (ner_chars is None or len(text) <= ner_chars):
        return recognize(text, ner=ner, types=types, mode=mode)
    from pp_graph.anonymize.structure import name_propagation

    occ, found = Occupied(), []
    for start, end in cores(text, size):
        lo = max(0, start - overlap)
        use_ner = ner and (ner_chars is None or start < ner_chars)
        for ent in recognize(text[lo : min(len(text), end + overlap)], ner=use_ner, mode=mode):
            s, e = ent.start + lo, ent.end + lo
            if start <= s < end and occ.free(s, e):
                occ.take(s, e)
                found.append(replace(ent, start=s, end=e))
    persons = [(x.start, x.end) for x in found if x.type == "PERSON"]
    for t, a, b in name_propagation(text, persons):
        if occ.free(a, b):
            occ.take(a, b)
            found.append(Entity(t, a, b, "name_propagation"))
    want = set(types) if types is not None else None
    out = [x for x in found if want is None or x.type in want]
    out.sort(key=lambda x: (x.start, x.end))
    return out


def ner_coverage(text: str, ner_chars: int | None, size: int = CHUNK_CHARS) -> int:
    """How many leading characters of ``text`` NER reads under ``recognize_long(..., ner_chars=…)``."""
    if ner_chars is None or len(text) <= ner_chars:
        return len(text)
    return max((e for s, e in cores(text, size) if s < ner_chars), default=0)
