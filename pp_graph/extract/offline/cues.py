"""Per-sentence cue scoring: a gate over the trigger rules, with hand-set weights in a data file.

Each practice the trigger rules find is scored for its category (``first-party``, ``third-party``,
``retention``, ``security``): the category's base score (``@base`` for a practice stated in the
sentence, ``@inherited`` for one a line takes from its heading or lead-in), plus the weight of every
cue that matches the sentence (the line, for an inherited practice). A practice is kept when its
score is above zero. Cues are regular expressions (case-insensitive) or features computed from the
entities in the sentence (``@third_party``: a third-party mention, ``@concrete_data``: personal data
more specific than "information"/"data"). Weights are set by hand from error analysis, not fitted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError

CATEGORIES = ("first-party", "third-party", "retention", "security")
BASES = ("@base", "@inherited")
FEATURES = ("@third_party", "@concrete_data")


@dataclass(frozen=True)
class Cue:
    category: str  # one of CATEGORIES, or "all"
    weight: float
    name: str  # "@…" for bases and features, else the regular expression
    pattern: re.Pattern[str] | None


@dataclass(frozen=True)
class CueTable:
    cues: tuple[Cue, ...]

    def base(self, category: str, inherited: bool) -> float:
        key = BASES[1] if inherited else BASES[0]
        return sum(c.weight for c in self.cues if c.name == key and c.category in (category, "all"))

    def score(self, category: str, text: str, features: frozenset[str], inherited: bool = False) -> float:
        total = self.base(category, inherited)
        for c in self.cues:
            if c.category not in (category, "all") or c.name in BASES:
                continue
            if c.pattern is None:
                if c.name in features:
                    total += c.weight
            elif c.pattern.search(text):
                total += c.weight
        return total

    def explain(self, category: str, text: str, features: frozenset[str], inherited: bool = False) -> str:
        """The score and the cues that matched, for a trace ("score -1.0: base -2.0, 'encrypt' +1.0")."""
        parts = [f"base {self.base(category, inherited):+g}"]
        for c in self.cues:
            if c.category not in (category, "all") or c.name in BASES:
                continue
            if (c.pattern is None and c.name in features) or (c.pattern is not None and c.pattern.search(text)):
                parts.append(f"{c.name!r} {c.weight:+g}")
        return f"score {self.score(category, text, features, inherited):+g}: " + ", ".join(parts)


def load_cues(path: Path) -> CueTable:
    """Read and validate the cue file: category, weight, cue, rationale (tab-separated)."""
    cues: list[Cue] = []
    for n, parts, line in tsv_lines(path):
        if len(parts) != 4 or not all(p.strip() for p in parts):
            raise DataFileError(
                f"{path.name}:{n}: expected category, weight, cue, rationale (4 tab-separated fields), got {line!r}"
            )
        category, weight_s, name, _ = (p.strip() for p in parts)
        if category not in (*CATEGORIES, "all"):
            raise DataFileError(f"{path.name}:{n}: category {category!r} is not one of {[*CATEGORIES, 'all']}")
        try:
            weight = float(weight_s)
        except ValueError:
            raise DataFileError(f"{path.name}:{n}: weight {weight_s!r} is not a number") from None
        pattern = None
        if name.startswith("@"):
            if name not in (*BASES, *FEATURES):
                raise DataFileError(f"{path.name}:{n}: unknown feature {name!r}; known: {[*BASES, *FEATURES]}")
        else:
            try:
                pattern = re.compile(name, re.I)
            except re.error as e:
                raise DataFileError(f"{path.name}:{n}: cue {name!r} is not a valid regular expression ({e})") from e
        cues.append(Cue(category, weight, name, pattern))
    return CueTable(tuple(cues))
