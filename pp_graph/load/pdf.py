"""PDF policies: the text layer, read with pypdf, with its headings marked.

The text layer is hard-wrapped (pp_graph.load.reading joins its lines back) and has no markup: a line set in a
larger font than the body text is a heading, so it is given markdown's ``#`` marks, one more for each smaller
heading size, and the extractor reads the policy's sections as it does for markdown and HTML.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from pp_graph.errors import InputError

HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
MAX_HEADING = 150  # characters: a longer line is text set large, not a title


def pdf_text(data: bytes, source: str) -> str:
    """The PDF's text, page after page; InputError naming ``source`` when it cannot be read or has no text."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [_page_lines(page) for page in reader.pages]
    except (PdfReadError, ValueError, KeyError) as e:
        raise InputError(source, f"is not a readable PDF ({e})") from e
    lines = [ln for page in pages for ln in page]
    if not any(text.strip() for text, _ in lines):
        raise InputError(source, "PDF has no text layer (a scan?)")
    # A page break is a line break: a paragraph that runs on to the next page is joined back like any other.
    return "\n".join(_marked(lines)).strip() + "\n"


def _page_lines(page: Any) -> list[tuple[str, float]]:
    """The page's text lines, each with the largest font size on it."""
    chars: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        scale = abs(tm[3] * cm[3]) or 1.0
        chars.extend((c, size * scale) for c in text)

    page.extract_text(visitor_text=visit)
    lines: list[tuple[str, float]] = []
    text: list[str] = []
    top = 0.0
    for c, size in [*chars, ("\n", 0.0)]:
        if c == "\n":
            lines.append(("".join(text).strip(), top))
            text, top = [], 0.0
            continue
        text.append(c)
        if not c.isspace():
            top = max(top, size)
    return [ln for ln in lines if ln[0]]


def _marked(lines: list[tuple[str, float]]) -> list[str]:
    """The lines, those set larger than the body text as markdown headings (largest size: ``#``)."""
    weight: Counter[float] = Counter()
    for text, size in lines:
        weight[round(size, 1)] += len(text)
    if not weight:
        return [text for text, _ in lines]
    body = weight.most_common(1)[0][0]
    sizes = sorted({round(s, 1) for t, s in lines if _is_heading(t, s, body)}, reverse=True)
    level = {s: min(i + 1, 6) for i, s in enumerate(sizes)}
    return [f"{'#' * level[round(s, 1)]} {t}" if _is_heading(t, s, body) else t for t, s in lines]


def _is_heading(text: str, size: float, body: float) -> bool:
    return size >= body * HEADING_RATIO and len(text) <= MAX_HEADING and not text.startswith("#")
