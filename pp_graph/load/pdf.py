"""PDF policies: the text layer, read with pypdf (a hard-wrapped text: pp_graph.load.reading joins its lines)."""

from __future__ import annotations

import io

from pp_graph.errors import InputError


def pdf_text(data: bytes, source: str) -> str:
    """The PDF's text, page after page; InputError naming ``source`` when it cannot be read or has no text."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError) as e:
        raise InputError(source, f"is not a readable PDF ({e})") from e
    # A page break is a line break: a paragraph that runs on to the next page is joined back like any other.
    text = "\n".join(p.strip() for p in pages if p.strip())
    if not text:
        raise InputError(source, "PDF has no text layer (a scan?)")
    return text + "\n"
