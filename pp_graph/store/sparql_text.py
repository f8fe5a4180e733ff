"""SPARQL text without its opaque parts: strings, IRIs and comments blanked out, offsets kept.

Both the query runner (which finds a query's variables) and the remote store (which finds its form) read queries
this way; it lives beside the stores so that they need nothing from the layer above them.
"""

from __future__ import annotations

import re

OPAQUE = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''
    r"|<[^<>\"{}|^`\\\s]*>|#[^\n]*"
)


def mask(text: str) -> str:
    """Replace strings, IRIs and comments by spaces of the same length (keeps offsets)."""
    return OPAQUE.sub(lambda m: " " * len(m.group()), text)
