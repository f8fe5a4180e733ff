"""How a policy is read: its text as units of meaning, with markup removed and every character mapped back.

A *unit* is a paragraph (its hard-wrapped lines joined by a space), a list item (with its wrapped continuation
lines), a heading or a table row. The *reading* is the policy's text with one unit per line, blank lines kept
where the text had them, and inline markup removed: ``**``/``__``/``*``/``_`` emphasis, code ticks, links
(``[text](url)`` → ``text``), inline HTML tags (``<br>`` → a space) and entities. Each character of the reading
keeps the offsets of the source characters it stands for, so whatever is found in the reading is given back as
offsets, and exact text, of the policy (see :meth:`Reading.source_span`).

Lines are joined only where the break looks forced by a wrap width: the width is estimated from the text (the
usual length of lines followed by running text), and a document whose lines do not share one (one line per
paragraph) is never joined. A unit longer than :data:`MAX_UNIT` characters (a text whose structure cannot be
recovered, e.g. one line of megabytes) is cut into windows at sentence ends, else at spaces, with a warning.
"""

from __future__ import annotations

import html
import math
import re
from array import array
from dataclasses import dataclass, field

from pp_graph.model import Policy

VERSION = "units-2"  # the segmenter's version in provenance (units-1: one segment per line)
MAX_UNIT = 4000  # characters: longer units are read in windows of at most this size, cut at sentence ends
# A table row's cells belong together (a purpose in one cell, the data in the next): rows are windowed only past
# this size, which the corpus's longest rows (under 8,000 characters) stay below.
MAX_ROW = 16000
RUN_WINDOW = 500  # characters: the windows of a run with no sentence end in reach (cut at spaces)

_ATX = re.compile(r"^\s{0,3}#{1,6}(?:\s|$)")
_UNDERLINE = re.compile(r"^\s{0,3}(?:=+|-+)\s*$")
_RULE = re.compile(r"^\s{0,3}([-=*_])(?:\s*\1){2,}\s*$")
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")
_ITEM = re.compile(r"^\s*(?:[-*+•◦▪‣●–—]|\d{1,3}[.)]|\(?[a-zA-Z]{1,4}\)|\(\d{1,3}\))\s+\S")
_BULLET = re.compile(r"^\s*[*+•◦▪‣●]\s")  # always an item; a dash, number or letter can be a wrapped sentence's
_END = re.compile(r"[.!?:;][\"'”’)\]]*$")  # a line that ends a sentence or announces a list
_SPACES = re.compile(r"[ \t]{2,}")
_MARKER = re.compile(r"(?:[-*+•◦▪‣●–—]|\d{1,3}[.)]|\(?[a-zA-Z]{1,4}\)|\(\d{1,3}\))\s+")

# Inline markup, in one pass: links and images, autolinks, HTML tags, entities, escapes, emphasis runs, code ticks.
_INLINE = re.compile(
    r"(?P<image>!\[(?P<alt>[^\]\n]*)\]\([^)\s]*(?:\s+\"[^\"]*\")?\))"
    r"|(?P<link>\[(?P<text>[^\]\n]+)\](?:\([^)\s]*(?:\s+\"[^\"]*\")?\)|\[[^\]\n]*\]))"
    r"|(?P<auto><(?P<url>(?:https?://|mailto:)[^>\s]+)>)"
    r"|(?P<br><br\s*/?>)"
    r"|(?P<tag></?[a-zA-Z][a-zA-Z0-9]*(?:\s[^<>]*)?/?>)"
    r"|(?P<entity>&(?:#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});)"
    r"|(?P<escape>\\(?P<escaped>[!-/:-@\[-`{-~]))"
    r"|(?P<emph>(?<![\w*])[*_]{1,3}(?=[^\s*_])|(?<=[^\s*_])[*_]{1,3}(?![\w*]))"
    r"|(?P<tick>`+)"
    r"|(?P<space>[ \t\xa0]{2,}|\t)"
)


@dataclass(frozen=True)
class Reading:
    """A policy's reading (``policy``: the same policy, its text the reading) and the map back to ``source``."""

    source: Policy
    policy: Policy
    # per reading character: the source offset it starts at and the one it ends at (empty arrays: identical text)
    starts: array = field(repr=False)
    ends: array = field(repr=False)
    warnings: tuple[str, ...] = ()
    bounds: dict[int, tuple[int, int]] = field(default_factory=dict, repr=False)  # unit start → its source bounds

    @property
    def identical(self) -> bool:
        return not self.starts

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """Reading offsets [start, end) → the source offsets of the characters they stand for."""
        if self.identical or end <= start:
            return start, end
        return self.starts[start], self.ends[end - 1]

    def unit_span(self, start: int, end: int) -> tuple[int, int]:
        """A unit of the reading [start, end) → its bounds in the source: its lines whole, markup included."""
        if self.identical:
            return start, end
        return self.bounds.get(start) or self.source_span(start, end)


class _Text:
    """A string built piece by piece with each character's source offsets."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.starts = array("i")
        self.ends = array("i")

    def copy(self, source: str, a: int, b: int) -> None:
        """source[a:b] as it is."""
        self.parts.append(source[a:b])
        self.starts.extend(range(a, b))
        self.ends.extend(range(a + 1, b + 1))

    def put(self, s: str, a: int, b: int) -> None:
        """``s`` standing for source[a:b] (a joiner, a decoded entity, a window break)."""
        self.parts.append(s)
        self.starts.extend([a] * len(s))
        self.ends.extend([b] * len(s))

    def take(self, other: _Text, a: int, b: int) -> None:
        """other's characters [a, b) with their offsets (``other.text()`` already joined)."""
        self.parts.append(other.parts[0][a:b])
        self.starts.extend(other.starts[a:b])
        self.ends.extend(other.ends[a:b])

    def extend(self, other: _Text) -> None:
        self.parts.extend(other.parts)
        self.starts.extend(other.starts)
        self.ends.extend(other.ends)

    def text(self) -> str:
        s = "".join(self.parts)
        self.parts = [s]
        return s


@dataclass(frozen=True, slots=True)
class Line:
    start: int  # offsets of the line's text, surrounding whitespace trimmed
    end: int
    raw: str  # the line as written (indentation kept, trailing whitespace dropped)
    row: int  # its line number (0-based)
    hard_break: bool  # ends in a markdown hard line break (two spaces or a backslash)
    width: int  # its length with inner runs of spaces as one (a justified PDF line's text doubles some)


def read(policy: Policy) -> Reading:
    """The policy's reading (see the module doc)."""
    text = policy.text
    lines = _lines(text)
    kinds = _kinds(lines)
    width = wrap_width(lines, kinds)
    out = _Text()
    bounds: dict[int, tuple[int, int]] = {}
    warnings: list[str] = []
    pos = 0
    for unit in _units(lines, kinds, width):
        first, last = lines[unit[0]], lines[unit[-1]]
        if out.parts:
            gap = text.count("\n", pos, first.start)
            out.put("\n" * max(1, min(gap, 2)), pos, first.start)
        body = _unit_text(text, [lines[i] for i in unit], kinds[unit[0]])
        windows = _windows(body, warnings, MAX_ROW if kinds[unit[0]] == "table" else MAX_UNIT)
        for j, (a, b) in enumerate(windows):
            if j:
                out.put("\n", body.ends[windows[j - 1][1] - 1], body.starts[a])
            # a segment's bounds: its unit's lines whole (markup and all), or where its window starts and ends
            bounds[len(out.starts)] = (
                first.start if j == 0 else body.starts[a],
                last.end if j == len(windows) - 1 else body.ends[b - 1],
            )
            out.take(body, a, b)
        pos = last.end
    if pos < len(text):
        out.put("\n", pos, len(text))
    reading = out.text()
    if reading == text:
        return Reading(policy, policy, array("i"), array("i"))
    view = Policy(policy.site, reading, policy.source_name, policy.media_type, policy.valid_from)
    return Reading(policy, view, out.starts, out.ends, tuple(dict.fromkeys(warnings)), bounds)


def _lines(text: str) -> list[Line]:
    out = []
    pos = 0
    for row, raw in enumerate(text.split("\n")):
        start = pos
        pos += len(raw) + 1
        kept = raw.rstrip()
        stripped = kept.lstrip()
        if stripped:
            lead = len(kept) - len(stripped)
            hard = raw.endswith("  ") or kept.endswith("\\")
            marker = _MARKER.match(stripped)  # "*   " counts as written: a wrapper measures it so
            cut = marker.end() if marker else 0
            width = lead + cut + len(_SPACES.sub(" ", stripped[cut:]))
            out.append(Line(start + lead, start + len(kept), kept, row, hard, width))
    return out


def _kinds(lines: list[Line]) -> list[str]:
    """heading, title (of a setext heading), underline, rule, table, code, item or text, per line."""
    kinds = []
    fenced = False
    for ln in lines:
        raw = ln.raw.lstrip()  # indented markup counts as such (a heading inside a list item)
        if _FENCE.match(raw):
            fenced = not fenced
            kinds.append("code")
        elif fenced:
            kinds.append("code")
        elif _ATX.match(raw):
            kinds.append("heading")
        elif _UNDERLINE.match(raw):
            kinds.append("underline")
        elif _RULE.match(raw):
            kinds.append("rule")
        elif raw.startswith("|"):
            kinds.append("table")
        elif _ITEM.match(raw):
            kinds.append("item")
        else:
            kinds.append("text")
    for i, k in enumerate(kinds):
        if k != "underline":
            continue
        if i and kinds[i - 1] in ("text", "item") and lines[i - 1].row == lines[i].row - 1:
            kinds[i - 1] = "title"
        else:
            kinds[i] = "rule" if _RULE.match(lines[i].raw.lstrip()) else "text"
    return kinds


def wrap_width(lines: list[Line], kinds: list[str]) -> int | None:
    """The width the running text is hard-wrapped at, or None when its lines do not share one.

    Read from the lines followed directly by a line of running text: in a wrapped text nearly all of them end
    close to the width, most of them inside a sentence; in a text of one line per paragraph or per sentence their
    lengths are spread out, they end sentences (or there are none)."""
    followed = [
        lines[i]
        for i in range(len(lines) - 1)
        if kinds[i] in ("text", "item") and kinds[i + 1] == "text" and lines[i + 1].row == lines[i].row + 1
    ]
    if sum(bool(_END.search(ln.raw)) for ln in followed) > 0.5 * len(followed):
        return None  # one sentence per line (or one paragraph per line): the breaks are the author's
    # a line with a link's address runs over any width: not one to measure it by
    lengths = sorted(ln.width for ln in followed if max(map(len, ln.raw.split(" "))) <= 30)
    if not lengths or (len(lengths) == 1 and lengths[0] < 40):
        return None  # one short line followed by another tells nothing of a width
    width = lengths[min(len(lengths) - 1, math.ceil(0.9 * (len(lengths) - 1)))]
    # Wrapped lines end in a narrow band below the width (headings and last lines are short; one-line paragraphs
    # are spread over every length).
    near = sum(0.85 * width <= n <= width + 2 for n in lengths)
    return width if 20 <= width <= 250 and near >= min(2, len(lengths)) and near >= 0.3 * len(lengths) else None


def _units(lines: list[Line], kinds: list[str], width: int | None) -> list[list[int]]:
    """Line indices per unit: running text and list items take the lines that continue them."""
    units: list[list[int]] = []
    cur: list[int] | None = None
    for i, k in enumerate(kinds):
        if cur is not None and _continues(
            lines[cur[-1]], lines[i], k, width, len(cur) == 1 and kinds[cur[0]] == "item"
        ):
            cur.append(i)
            continue
        cur = [i]
        units.append(cur)
        if k not in ("text", "item"):
            cur = None  # headings, table rows, rules and code lines are units of their own
    return units


def _continues(a: Line, b: Line, kind: str, width: int | None, a_opens_item: bool) -> bool:
    """Line b continues line a's unit: the break between them was forced by the wrap width (``a_opens_item``:
    line a is a list item's first line, so a marked line b is the next item)."""
    if width is None or b.row != a.row + 1 or (a.hard_break and a.width < 0.85 * width):
        return False  # (trailing spaces on a line that reaches the width are a justified PDF line's, no break)
    if kind not in ("text", "item") or _BULLET.match(b.raw):
        return False
    first = b.raw.lstrip().split(" ", 1)[0]  # a no-break space does not end a word for a wrapper
    if kind == "item":  # "(ii) develop", "- the", "2. days" where the width forced the break: the sentence goes on
        return not a_opens_item and width - len(first) - 1 < a.width <= width
    letter = re.search(r"[^\W_]", b.raw)
    boundary = bool(_END.search(a.raw)) and (letter is None or not letter.group().islower())
    n = a.width
    if n > width + 2 and n - max(map(len, a.raw.split(" "))) > width:
        return not boundary  # longer than the width (not by one long word such as a URL): joined inside a sentence
    return n + 1 + len(first) > width or (n >= 0.85 * width and not boundary)


def _unit_text(text: str, lines: list[Line], kind: str) -> _Text:
    """The unit's lines joined by a space (a word hyphenated across the break is joined without one)."""
    out = _Text()
    for j, ln in enumerate(lines):
        if j:
            prev = lines[j - 1]
            split_word = text[prev.end - 1] == "-" and text[prev.end - 2 : prev.end - 1].isalpha()
            if not (split_word and text[ln.start].islower()):
                out.put(" ", prev.end, ln.start)
        out.copy(text, ln.start, ln.end)
    s = out.text()
    if kind == "code" or is_navigation(s):
        return out
    bold = _BOLD_LINE.fullmatch(s)
    if bold is None:
        return _strip_markup(out)
    # A line bold from end to end reads as a title: its outer markers are kept for the extractor to see.
    inner = _Text()
    inner.take(out, bold.start(3), bold.end(3))
    inner.text()
    whole = _Text()
    whole.take(out, 0, bold.start(3))
    whole.extend(_strip_markup(inner))
    whole.take(out, bold.end(3), len(s))
    whole.text()
    return whole


_NAV_LINK = re.compile(r"\[[^\]\n]*\]\([^)\s]*\)")
_PAGE_LINK = re.compile(r"\[[^\]\n]*\]\(#[^)\s]*\)")  # to a section of the same page


def is_navigation(s: str) -> bool:
    """A line made of links (a table of contents, a menu), or one entry of a table of contents: it names topics,
    it does not address them. Such a unit is read as written, since its links' texts would run together once their
    markup is gone ("Who we areYour rights…"), and later stages (the transparency rules) recognise it by its
    links."""
    if s.count("](") >= 2:
        return len(_NAV_LINK.sub("", s).strip(" |*-•·,")) < 0.2 * len(s)
    return is_contents_entry(s)


def is_contents_entry(s: str) -> bool:
    """Nothing but links to sections of the same page, as a list item or a line of their own ("* [Who do we share
    your data with?](#sharing)"): it names its sections as their headings do and states nothing. (A line with
    words of its own beside such links, "Information used: [Information You Provide](#provide)", says something.)"""
    return bool(_PAGE_LINK.search(s)) and not re.sub(r"[\s|*+•·,;.)\d-]+", "", _PAGE_LINK.sub("", s))


_BOLD_LINE = re.compile(r"((?:[-*+]|\d{1,3}[.)])?\s*(\*\*|__))(?!\s)((?:(?!\2).)+?)(?<!\s)\2[.:]?")


_KEEP_TAGS = re.compile(r"</?(?:a|b|i|em|strong|span|u|sup|sub|small|code|mark|abbr|font)\b", re.IGNORECASE)


def _strip_markup(t: _Text) -> _Text:
    """Inline markup removed (see the module doc); what is kept keeps its offsets. (The report's
    pp_graph.report.highlight.markup reads markup too, to hide it on a page, not to make the text the extractors
    read: why the two stay apart is said there.)"""
    s = t.parts[0]
    out = _Text()
    pos = 0
    for m in _INLINE.finditer(s):
        out.take(t, pos, m.start())
        pos = m.end()
        if m.group("link") is not None:
            inner = _Text()
            inner.take(t, m.start("text"), m.end("text"))
            inner.text()
            out.extend(_strip_markup(inner))
        elif m.group("auto") is not None:
            out.take(t, m.start("url"), m.end("url"))
        elif m.group("entity") is not None:
            ch = html.unescape(m.group()).replace("\xa0", " ")
            out.put(ch, t.starts[m.start()], t.ends[m.end() - 1])
        elif m.group("escape") is not None:
            out.take(t, m.start("escaped"), m.end("escaped"))
        elif (
            m.group("br") is not None
            or m.group("space") is not None
            or (m.group("tag") is not None and not _KEEP_TAGS.match(m.group()))
        ):
            out.put(" ", t.starts[m.start()], t.ends[m.end() - 1])
        # images, inline tags, emphasis runs and code ticks leave nothing
    out.take(t, pos, len(s))
    out.text()
    return out


_SENTENCE_END = re.compile(r"[.!?;][\"'”’)\]]*\s")


def _windows(body: _Text, warnings: list[str], limit: int = MAX_UNIT) -> list[tuple[int, int]]:
    """The unit's windows [a, b): one, or for a unit over ``limit`` characters, windows cut at the last sentence
    end in each, else at a space (the space is dropped), else anywhere."""
    s = body.parts[0]
    out: list[tuple[int, int]] = []
    pos = 0
    unstructured = False
    while len(s) - pos > limit:
        lo, hi = pos + limit // 2, pos + limit
        ends = [m.end() - 1 for m in _SENTENCE_END.finditer(s, lo, hi)]
        if not ends:  # no sentence to end a window at: short ones, as a run-on "sentence" costs its square
            lo, hi = pos + RUN_WINDOW // 2, pos + RUN_WINDOW
        cut = ends[-1] if ends else s.rfind(" ", lo, hi)
        unstructured = unstructured or not ends
        if cut <= pos:  # no space either: a hard cut
            out.append((pos, hi))
            pos = hi
        else:
            out.append((pos, cut))
            pos = cut + 1
    out.append((pos, len(s)))
    if unstructured:
        warnings.append(
            f"a run of {len(s):,} characters without paragraph or sentence breaks; read in windows of "
            f"about {RUN_WINDOW:,} characters (facts that span a window's edge can be missed)"
        )
    return out
