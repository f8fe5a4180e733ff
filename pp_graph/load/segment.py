"""Policy text → segments: one per unit of meaning (see pp_graph.load.reading), with offsets and headings.

:func:`segment_lines` cuts a reading (one unit per line) into segments; :func:`segment` gives a policy's segments
as its own text: each one's lines whole, markup and line breaks as written (see docs/segments.md).
"""

from __future__ import annotations

import re
from dataclasses import replace

from pp_graph.load.reading import Reading, read
from pp_graph.model import Policy, Segment

_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^\s{0,3}([-=*_])(\s*\1){2,}\s*$")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKUP = re.compile(r"[*_`]+")


def heading_title(line: str) -> str:
    """Visible words of a heading line: '### [From You](#from-you)' → 'From You'."""
    m = _ATX.match(line)
    title = m.group(2) if m else line
    title = _LINK.sub(r"\1", title)
    return _MARKUP.sub("", title).strip()


def segment(policy: Policy) -> list[Segment]:
    """The policy's segments: ``policy.text[s.start:s.end] == s.text`` (the unit's source lines)."""
    reading = read(policy)
    return [to_source(reading, s) for s in segment_lines(reading.policy)]


def to_source(reading: Reading, seg: Segment) -> Segment:
    """A segment of the reading as a segment of the source: its unit's lines whole, offsets and text."""
    if reading.identical:
        return seg
    start, end = reading.unit_span(seg.start, seg.end)
    return replace(seg, start=start, end=end, text=reading.source.text[start:end])


def segment_lines(policy: Policy) -> list[Segment]:
    """One segment per non-empty line of the policy's text (a reading has one unit per line)."""
    text = policy.text
    lines: list[tuple[int, int, str]] = []
    pos = 0
    for raw in text.split("\n"):
        start, end = pos, pos + len(raw)
        pos = end + 1
        # Trim surrounding whitespace but keep offsets exact.
        lead = len(raw) - len(raw.lstrip())
        trail = len(raw.rstrip())
        if trail > lead:
            lines.append((start + lead, start + trail, raw[lead:trail]))

    # Levels: ATX '#'*n; setext '=' → 1, '-' → 2.
    setext_level: dict[int, int] = {}
    for i in range(1, len(lines)):
        m = _SETEXT.match(lines[i][2])
        # An underline directly below a text line (no blank line between) makes it a heading.
        if m and text.count("\n", lines[i - 1][1], lines[i][0]) == 1 and not _SETEXT.match(lines[i - 1][2]):
            setext_level[i - 1] = 1 if m.group(1)[0] == "=" else 2

    segments: list[Segment] = []
    stack: list[tuple[int, str]] = []
    # Setext underlines and horizontal rules carry no text of their own.
    skip = {i + 1 for i in setext_level} | {i for i, ln in enumerate(lines) if _RULE.match(ln[2])}
    for i, (start, end, line) in enumerate(lines):
        if i in skip:
            continue
        level = 0
        if i in setext_level:
            level = setext_level[i]
        else:
            m = _ATX.match(line)
            if m:
                level = len(m.group(1))
        if level:
            while stack and stack[-1][0] >= level:
                stack.pop()
            path = (*(t for _, t in stack), heading_title(line))
            stack.append((level, heading_title(line)))
            segments.append(Segment(len(segments), start, end, line, path, is_heading=True))
        else:
            segments.append(Segment(len(segments), start, end, line, tuple(t for _, t in stack)))
    return segments
