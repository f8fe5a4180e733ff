"""Cut a line of policy text into pieces, each covered by the same set of evidence spans.

Spans overlap (a practice's trigger lies inside another practice's data span; two practices share a line),
so the line is cut at every span boundary; each piece knows which practices' spans cover it. Escaping is
the template's job: pieces hold plain text.

Markdown markup is hidden when the pieces are shown (``**``, link brackets and targets, ``<br>``, table pipes,
escapes): a piece of markup shows its replacement (nothing, a line break, a cell gap) while its offsets stay those of
the policy text, so highlights and evidence links still point at the exact characters.
"""

from __future__ import annotations

import re
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
    shown: str | None = None  # what is displayed instead of ``text`` (markup: "", "\n", a cell gap)

    @property
    def types(self) -> list[str]:
        return sorted({m.type for m in self.marks})

    @property
    def practices(self) -> list[str]:
        return list(dict.fromkeys(m.practice for m in self.marks))

    @property
    def roles(self) -> list[str]:
        return sorted({m.role for m in self.marks})


_MARKUP = re.compile(
    r"(?P<br><br\s*/?>)"
    r"|(?P<open>\[)(?=[^\]\n]*\]\([^)\s]*\))"  # a link's opening bracket
    r"|(?P<target>\]\([^)\s]*\))"  # its closing bracket and target
    r"|(?P<escape>\\)(?=[\\`*_{}\[\]()#+\-.!|])"
    r"|(?P<edge>^[ \t]*\|[ \t]?|[ \t]?\|[ \t]*$)"  # a table row's outer pipes
    r"|(?P<cell>[ \t]\|[ \t])"  # a cell boundary
    r"|(?P<bullet>(?:^|(?<=<br>))[ \t]*[*+-][ \t])",
    re.M,
)
_SHOWN = {"br": "\n", "cell": " · ", "bullet": "• "}


_STRONG = re.compile(r"(\*\*|__)(?=\S)(?:.+?)(?<=\S)\1")  # a pair of markers around text, on one line


def markup(text: str) -> list[tuple[int, int, str]]:
    """Markdown markup in ``text``: (start, end, what to show instead), offsets relative to ``text``.

    Not pp_graph.load.reading's stripper, on purpose: that one writes the text the extractors read (links' and
    emphasis' markers, tags and entities gone, table pipes kept, a <br> a space) and is pinned by the offline
    snapshot; this one only says what to hide on a page that shows the policy as written (a <br> a line break,
    pipes cell gaps, bullets dots, the text itself untouched). One stripper would change either the graphs or the
    report's HTML."""
    out = [(m.start(), m.end(), _SHOWN.get(m.lastgroup or "", "")) for m in _MARKUP.finditer(text)]
    taken = {i for s, e, _ in out for i in range(s, e)}
    for m in _STRONG.finditer(text):
        for s, e in ((m.start(), m.start() + 2), (m.end() - 2, m.end())):
            if not taken.intersection(range(s, e)):
                out.append((s, e, ""))
    return sorted(x for x in out if x[1] > x[0])


def pieces(text: str, offset: int, marks: Iterable[Mark]) -> list[Piece]:
    """The line ``text`` (starting at ``offset`` in the policy) as consecutive pieces covering all of it."""
    end = offset + len(text)
    inside = [m for m in marks if m.start < end and m.end > offset and m.start < m.end]
    hidden = {offset + s: (offset + e, shown) for s, e, shown in markup(text)}
    bounds = [b for s, (e, _) in hidden.items() for b in (s, e)]
    cuts = sorted({offset, end, *bounds, *(max(offset, m.start) for m in inside), *(min(end, m.end) for m in inside)})
    out: list[Piece] = []
    for lo, hi in pairwise(cuts):
        covering = tuple(sorted((m for m in inside if m.start <= lo and m.end >= hi), key=_order))
        shown = hidden[lo][1] if lo in hidden and hidden[lo][0] == hi else None
        out.append(Piece(text[lo - offset : hi - offset], lo, hi, covering, shown))
    return out


def _order(m: Mark) -> tuple[int, int, str, str]:
    return (m.start, -m.end, m.practice, m.role)


def to_html(parts: Iterable[Piece]) -> str:
    """The pieces as HTML: marked pieces become links to their first practice's card (works without scripts).

    Every piece of text is escaped here; the result is safe to mark as such in a template.
    """
    out: list[str] = []
    for p in parts:
        text = escape(p.text) if p.shown is None else escape(p.shown).replace("\n", "<br>")
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
