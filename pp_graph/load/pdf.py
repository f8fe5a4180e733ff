"""PDF policies: the text layer, read with pypdf, with its headings marked.

The text layer is hard-wrapped (pp_graph.load.reading joins its lines back) and has no markup: a line set in a
larger font than the body text is a heading, so it is given markdown's ``#`` marks, one more for each smaller
heading size, and the extractor reads the policy's sections as it does for markdown and HTML. The layout gives
back what the text layer drops: a wider gap between lines is a paragraph break (a blank line), and a bullet set
further right than the first-level bullets is a nested list item (indented), so list items keep their lead-ins.
"""

from __future__ import annotations

import io
import itertools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pp_graph.errors import InputError

HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
MAX_HEADING = 150  # characters: a longer line is text set large, not a title
PARAGRAPH_GAP = 1.3  # a line this many line steps below the one above starts a new paragraph
NEST_STEP = 4.0  # points: a bullet this much further right than another list's bullets is nested in it
_BULLET = re.compile(r"^[•◦▪‣●○■□➢►-]\s")


def pdf_text(data: bytes, source: str) -> str:
    """The PDF's text, page after page; InputError naming ``source`` when it cannot be read or has no text."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [_page_lines(page) for page in reader.pages]
    except (PdfReadError, ValueError, KeyError) as e:
        raise InputError(source, f"is not a readable PDF ({e})") from e
    lines = [ln for page in pages for ln in _laid_out(page)]
    if not any(ln.text.strip() for ln in lines):
        raise InputError(source, "PDF has no text layer (a scan?)")
    # A page break is a line break: a paragraph that runs on to the next page is joined back like any other.
    return "\n".join(_marked(lines)).strip() + "\n"


@dataclass
class PdfLine:
    """One line of a page's text layer: its text, the largest font size on it, where it starts (points)."""

    text: str
    size: float
    x: float
    y: float
    gap_before: bool = False  # more space above it than between the lines of a paragraph


def _page_lines(page: Any) -> list[PdfLine]:
    """The page's text lines, each with the largest font size on it and the position of its first character."""
    chars: list[tuple[str, float, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        scale = abs(tm[3] * cm[3]) or 1.0
        x, y = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5]
        chars.extend((c, size * scale, x, y) for c in text)

    page.extract_text(visitor_text=visit)
    lines: list[PdfLine] = []
    text: list[str] = []
    top, at = 0.0, (0.0, 0.0)
    for c, size, x, y in [*chars, ("\n", 0.0, 0.0, 0.0)]:
        if c == "\n":
            if "".join(text).strip():
                lines.append(PdfLine("".join(text).strip(), top, *at))
            text, top = [], 0.0
            continue
        if not "".join(text).strip():
            at = (x, y)
        text.append(c)
        if not c.isspace():
            top = max(top, size)
    return lines


def _laid_out(lines: list[PdfLine]) -> list[PdfLine]:
    """The page's lines with what their layout says: a wider gap above a line is a paragraph break, and a bullet
    set further right than the page's first-level bullets is a nested item (indented by two spaces a level)."""
    steps = sorted(a.y - b.y for a, b in itertools.pairwise(lines) if a.y - b.y > 0)
    if steps:
        line_step = steps[len(steps) // 4]  # the lines of a paragraph are the closest; headings and gaps are wider
        for a, b in itertools.pairwise(lines):
            b.gap_before = a.y - b.y > PARAGRAPH_GAP * line_step
    bullets = sorted({round(ln.x) for ln in lines if _BULLET.match(ln.text)})
    if len(bullets) > 1:
        for ln in lines:
            if _BULLET.match(ln.text):
                level = sum(1 for x in bullets if x < round(ln.x) - NEST_STEP)
                ln.text = "  " * min(level, 4) + ln.text
    return lines


def _marked(lines: list[PdfLine]) -> list[str]:
    """The lines, those set larger than the body text as markdown headings (largest size: ``#``), with a blank
    line where the layout shows a paragraph break."""
    weight: Counter[float] = Counter()
    for ln in lines:
        weight[round(ln.size, 1)] += len(ln.text)
    body = weight.most_common(1)[0][0]
    sizes = sorted({round(ln.size, 1) for ln in lines if _is_heading(ln.text, ln.size, body)}, reverse=True)
    level = {s: min(i + 1, 6) for i, s in enumerate(sizes)}
    out: list[str] = []
    for ln in lines:
        if ln.gap_before and out:
            out.append("")
        heading = _is_heading(ln.text, ln.size, body)
        out.append(f"{'#' * level[round(ln.size, 1)]} {ln.text}" if heading else ln.text)
    return out


def _is_heading(text: str, size: float, body: float) -> bool:
    return size >= body * HEADING_RATIO and len(text) <= MAX_HEADING and not text.startswith("#")
