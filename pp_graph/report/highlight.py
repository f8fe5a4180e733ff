"""Cut a line of policy text into pieces, each covered by the same set of evidence spans.

Spans overlap (a practice's trigger lies inside another practice's data span; two practices share a line),
so the line is cut at every span boundary; each piece knows which practices' spans cover it. Escaping is
the template's job: pieces hold plain text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from itertools import pairwise


@dataclass(frozen=True)
class Mark:
    start: int  # offsets in the policy text
    end: int
    practice: str  # the practice's anchor id
    type: str  # its practice type (colour)
    role: str  # trigger, data, purpose, receiver …
    negated: bool = False  # the practice is stated as not done ("we do not sell")


@dataclass(frozen=True)
class Piece:
    text: str
    start: int
    end: int
    marks: tuple[Mark, ...]

    @property
    def types(self) -> list[str]:
        return sorted({m.type for m in self.marks})

    @property
    def practices(self) -> list[str]:
        return list(dict.fromkeys(m.practice for m in self.marks))

    @property
    def roles(self) -> list[str]:
        return sorted({m.role for m in self.marks})


def pieces(text: str, offset: int, marks: Iterable[Mark]) -> list[Piece]:
    """The line ``text`` (starting at ``offset`` in the policy) as consecutive pieces covering all of it."""
    end = offset + len(text)
    inside = [m for m in marks if m.start < end and m.end > offset and m.start < m.end]
    cuts = sorted({offset, end, *(max(offset, m.start) for m in inside), *(min(end, m.end) for m in inside)})
    out: list[Piece] = []
    for lo, hi in pairwise(cuts):
        covering = tuple(sorted((m for m in inside if m.start <= lo and m.end >= hi), key=_order))
        out.append(Piece(text[lo - offset : hi - offset], lo, hi, covering))
    return out


def _order(m: Mark) -> tuple[int, int, str, str]:
    return (m.start, -m.end, m.practice, m.role)


def to_html(parts: Iterable[Piece]) -> str:
    """The pieces as HTML: marked pieces become links to their first practice's card (works without scripts).

    Every piece of text is escaped here; the result is safe to mark as such in a template.
    """
    out: list[str] = []
    for p in parts:
        text = escape(p.text)
        if not p.marks:
            out.append(text)
            continue
        flags = (["trigger"] if "trigger" in p.roles else []) + (["negated"] if all(m.negated for m in p.marks) else [])
        classes = " ".join(["hl", *(f"t-{t}" for t in p.types), *flags])
        ids = p.practices
        out.append(
            f'<a class="{escape(classes)}" href="#{escape(ids[0])}" data-practices="{escape(" ".join(ids))}" '
            f'data-start="{p.start}" data-end="{p.end}">{text}</a>'
        )
    return "".join(out)
