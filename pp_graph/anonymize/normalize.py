"""Text as the pattern recognisers read it: NFKC, without zero-width characters, offsets mapped back.

Full-width letters (ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ), a zero-width space inside an address or an accent written as a
combining mark would otherwise hide an identifier from every pattern. Patterns run over the normalised text and
each span found there is mapped back to the characters of the original text it came from, so replacements and
records keep pointing into the text the caller gave.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Characters that render as nothing (zero-width space, joiners, word joiner, BOM, soft hyphen, invisible operators).
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
# A base character with the combining marks and invisible characters that follow it: one unit of normalisation.
_CLUSTER = re.compile(
    "(?s).[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
    + "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]*"
)


@dataclass(frozen=True)
class Normalized:
    """The normalised text and, per character of it, the original (start, end) it came from (None: identity)."""

    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of ``text[start:end]`` (non-empty)."""
        if self.starts is None or self.ends is None:
            return start, end
        return self.starts[start], self.ends[end - 1]


def normalized(text: str) -> Normalized:
    """``text`` in NFKC without invisible characters; identity (no map) when that changes nothing."""
    if text.isascii() or (unicodedata.is_normalized("NFKC", text) and not _INVISIBLE.search(text)):
        return Normalized(text)
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for m in _CLUSTER.finditer(text):
        piece = unicodedata.normalize("NFKC", _INVISIBLE.sub("", m.group()))
        out.append(piece)
        starts.extend([m.start()] * len(piece))
        ends.extend([m.end()] * len(piece))
    return Normalized("".join(out), tuple(starts), tuple(ends))
