"""How segments are shown to the model: numbered ``<segment>`` blocks, our markers defused, packed into batches."""

from __future__ import annotations

import re

from pp_graph.model import Segment

_MARKER = re.compile(r"<(/?)(segments?|practices|entities|spans)\b", re.I)


def neutral(text: str) -> str:
    """Policy text with our boundary markers defused (a span containing them is then simply not found)."""
    return _MARKER.sub(lambda m: f"‹{m.group(1)}{m.group(2)}", text)


def _attr(value: str) -> str:
    return value.replace('"', "'").replace("\n", " ")[:120]


def render_segment(n: int, seg: Segment) -> str:
    attrs = f' n="{n}"'
    if seg.is_heading:
        attrs += ' heading="true"'
    elif seg.heading_path:
        attrs += f' section="{_attr(seg.heading_path[-1])}"'
    return f"<segment{attrs}>\n{neutral(seg.text)}\n</segment>"


def pack(segments: list[Segment], max_chars: int, max_segments: int) -> list[list[Segment]]:
    """Consecutive segments grouped up to ``max_chars`` characters and ``max_segments`` segments."""
    batches: list[list[Segment]] = []
    cur: list[Segment] = []
    size = 0
    for seg in segments:
        if cur and (size + len(seg.text) > max_chars or len(cur) >= max_segments):
            batches.append(cur)
            cur, size = [], 0
        cur.append(seg)
        size += len(seg.text)
    if cur:
        batches.append(cur)
    return batches
