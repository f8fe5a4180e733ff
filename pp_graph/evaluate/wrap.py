"""Does the same text give the same facts however its lines are broken? (benchmarks/eval_wrap.py)

A policy is re-wrapped at a width as an editor or a mail client would: paragraph lines and list items are
hard-wrapped (a list item keeps its marker and indents its continuation lines under its text); headings, setext
underlines, rules, table rows and code are left as they are. Both versions are converted and compared by their
*statements*: one per practice (type, polarity, data class it names, or dpv:PersonalData when it names none),
counted as a multiset per policy.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterable

from pp_graph.model import PolicyExtraction, Role

GENERIC = "https://w3id.org/dpv#PersonalData"
_DATA_ROLES = {Role.DATA_COLLECTED, Role.DATA_SHARED, Role.DATA_RETAINED, Role.DATA_PROTECTED}
_KEEP = re.compile(r"^\s{0,3}(?:#{1,6}\s|[=-]+\s*$|\||```|~~~|([-*_])(\s*\1){2,}\s*$)")
_MARKER = re.compile(r"^(\s*(?:[-*+]|\d{1,3}[.)])\s+)")

Statement = tuple[str, bool, str]


def rewrap(text: str, width: int) -> str:
    """``text`` with its paragraph lines and list items hard-wrapped at ``width`` (see the module doc)."""
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        underlined = i + 1 < len(lines) and re.fullmatch(r"\s{0,3}(=+|-+)\s*", lines[i + 1]) is not None
        if not line.strip() or len(line.rstrip()) <= width or underlined or _KEEP.match(line):
            out.append(line)
            continue
        m = _MARKER.match(line)
        lead = m.group(1) if m else line[: len(line) - len(line.lstrip())]
        hang = " " * len(lead)
        body = line[len(lead) :].strip()
        out.append(
            textwrap.fill(
                body, width, initial_indent=lead, subsequent_indent=hang, break_long_words=False, break_on_hyphens=False
            )
        )
    return "\n".join(out)


def statements(ex: PolicyExtraction) -> Counter[Statement]:
    """Each practice's (type, negated, data class) statements, as a multiset."""
    out: Counter[Statement] = Counter()
    for res in ex.results:
        for i, p in enumerate(res.practices):
            data = {
                res.data[int(r.entity.partition(":")[2])].concept or GENERIC
                for r in res.relations
                if r.practice == i and r.role in _DATA_ROLES and r.entity.startswith("data:")
            }
            for d in sorted(data) or [GENERIC]:
                out[(p.type.value, p.negated, d)] += 1
    return out


def agreement(gold: Counter[Statement], other: Counter[Statement]) -> tuple[float, float, float]:
    """(precision, recall, F1) of ``other`` against ``gold``, matched as multisets."""
    both = sum((gold & other).values())
    p = both / sum(other.values()) if other else (1.0 if not gold else 0.0)
    r = both / sum(gold.values()) if gold else (1.0 if not other else 0.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def total(counters: Iterable[Counter[Statement]]) -> Counter[Statement]:
    out: Counter[Statement] = Counter()
    for c in counters:
        out.update(c)
    return out
