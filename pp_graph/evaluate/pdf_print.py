"""Print a markdown policy to PDF as a browser would show it (for the wrap benchmark and its tests; needs fpdf2).

Headings bold, paragraphs and list items wrapped by the page width in a proportional font, bullets as "•",
inline markup rendered (removed) as a reader sees it. The PDF's text layer is then read back with the project's
PDF loader, so the round trip measures how well hard-wrapped PDF text is read.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from pp_graph.load.reading import read
from pp_graph.model import Policy

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HEADING_SIZE = (18, 15, 13, 12, 11.5, 11)  # points, by heading level (body text: 10.5)
_BULLET = re.compile(r"^([-*+])\s+")
_LATIN1 = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "…": "...", "•": "-"})


def unicode_font() -> Path | None:
    """A TrueType font with the policies' characters (curly quotes, dashes), when one is at hand."""
    try:
        import matplotlib

        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        if path.is_file():
            return path
    except ImportError:
        pass
    if shutil.which("fc-match"):
        out = subprocess.run(["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True, check=False)
        if out.stdout.endswith(".ttf") and Path(out.stdout).is_file():
            return Path(out.stdout)
    return None


def markdown_to_pdf(text: str) -> bytes:
    """The markdown ``text`` rendered to an A4 PDF."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(True, margin=15)
    font = unicode_font()
    if font is not None:
        pdf.add_font("body", "", str(font))
        pdf.add_font("body", "B", str(font))  # the same face: bold is size here, not a second file
        family, fix = "body", (lambda s: s)
    else:
        family, fix = "helvetica", (lambda s: s.translate(_LATIN1).encode("latin-1", "replace").decode("latin-1"))
    pdf.add_page()
    lines = read(Policy("example.com", text, "print.md", "text/markdown")).policy.text.split("\n")
    source = text.split("\n")  # the reading keeps the lines but not their indentation, which nests list items
    for i, line in enumerate(lines):
        indent = len(source[i]) - len(source[i].lstrip()) if len(source) == len(lines) else 0
        _print_line(pdf, family, fix, " " * indent + line.lstrip(), lines[i + 1] if i + 1 < len(lines) else "")
    return bytes(pdf.output())


def _print_line(pdf: object, family: str, fix: object, line: str, after: str) -> None:
    s = line.strip()
    if not s or re.fullmatch(r"[=\-*_\s]{3,}", s) or re.fullmatch(r"\|?[\s:|-]+\|?", s):
        pdf.ln(3)  # type: ignore[attr-defined]
        return
    head = _HEADING.match(s)
    setext = re.fullmatch(r"\s{0,3}(=+|-+)\s*", after) is not None
    if head or setext:
        level = len(head.group(1)) if head else (1 if after.strip().startswith("=") else 2)
        pdf.set_font(family, "B", _HEADING_SIZE[min(level, 6) - 1])  # type: ignore[attr-defined]
        pdf.multi_cell(0, 7, fix(head.group(2) if head else s))  # type: ignore[attr-defined,operator]
        pdf.ln(1)  # type: ignore[attr-defined]
        return
    pdf.set_font(family, "", 10.5)  # type: ignore[attr-defined]
    indent = min(len(line) - len(line.lstrip()), 8)
    bullet = _BULLET.match(s)
    if bullet:
        s = "• " + s[bullet.end() :]
    if s.startswith("|"):
        s = "   ".join(c.strip() for c in s.strip("|").split("|"))
    pdf.set_x(pdf.l_margin + 2 * indent + (5 if bullet else 0))  # type: ignore[attr-defined]
    pdf.multi_cell(0, 5, fix(s))  # type: ignore[attr-defined,operator]
