"""The one gate over the offline extractor's practices: the cue rules of data/rules/offline.toml.

Every practice the candidate rules make, in a sentence or inherited by a line from its heading or lead-in, is
scored for its category (``first-party``, ``third-party``, ``retention``, ``security``): the weight of the
``@base`` cue rule (``@inherited`` for an inherited practice) plus the weight of every cue rule that matches the
sentence (the line, for an inherited practice). A practice is kept when its score is above zero. A cue is a
regular expression (case-insensitive) or a feature of the entities in the text (``@third_party``: a third-party
mention, ``@concrete_data``: personal data more specific than "information"/"data"), or a feature a paragraph
rule finds (``@passing_mention``, ``@replaced_party``, see paragraph.py) or a line's out-of-scope sentence
(``@out_of_scope``, backend.py, for an inherited practice): those rules do not drop a practice themselves, they
score it here with their cue added. Each cue rule that scored a practice is noted in the trace
under its own id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from pp_graph.extract.offline.facts import SegmentState
from pp_graph.extract.offline.patterns.collection import CLAUSE_SPLIT, SECURITY_ASIDE
from pp_graph.extract.offline.patterns.practices import CATEGORY, GENERIC_DATA
from pp_graph.extract.offline.rules import Rule, declared
from pp_graph.model import PartyKind, PracticeMention, PracticeType

BASES = ("@base", "@inherited")
# (rule, action, start, end, practice, why): how the gate reports to a trace
Note = Callable[[str, str, int, int, str, str], None]


@dataclass(frozen=True)
class Cue:
    id: str  # the cue rule's id
    category: str  # a practice category, or "all"
    weight: float
    name: str  # "@…" for bases and features, else the regular expression
    pattern: re.Pattern[str] | None
    scope: str = "sentence"  # "paragraph": a feature a paragraph rule finds (see passes, rescored)


@dataclass(frozen=True)
class CueTable:
    cues: tuple[Cue, ...]

    def matched(self, category: str, text: str, features: frozenset[str], inherited: bool = False) -> list[Cue]:
        """The cue rules that score ``text`` for ``category``, in declared order (the base first)."""
        key = BASES[1] if inherited else BASES[0]
        out = [c for c in self.cues if c.name == key and c.category in (category, "all")]
        for c in self.cues:
            if c.category not in (category, "all") or c.name in BASES:
                continue
            if (c.pattern is None and c.name in features) or (c.pattern is not None and c.pattern.search(text)):
                out.append(c)
        return out

    def score(self, category: str, text: str, features: frozenset[str], inherited: bool = False) -> float:
        return total(self.matched(category, text, features, inherited))

    def explain(self, category: str, text: str, features: frozenset[str], inherited: bool = False) -> str:
        """The score and the cue rules that matched, for a trace ("score -1.0: cue.base +1, cue.seal -1")."""
        cues = self.matched(category, text, features, inherited)
        parts = ", ".join(f"{c.id} {c.weight:+g}" for c in cues)
        return f"score {self.score(category, text, features, inherited):+g}: {parts}"


def total(cues: Iterable[Cue]) -> float:
    """A practice's score: the sum of the weights of the cue rules that matched it (the one scoring function)."""
    return sum((c.weight for c in cues), 0.0)


def cue_table_from(rules: Iterable[Rule]) -> CueTable:
    """The cue rules among ``rules`` (validated by rules.load_rules), in their order."""
    cues = []
    for r in rules:
        if r.kind == "cue" and r.cue:
            pattern = None if r.cue.startswith("@") else re.compile(r.cue, re.I)
            cues.append(Cue(r.id, r.category, r.weight, r.cue, pattern, r.scope))
    return CueTable(tuple(cues))


@cache
def cue_table() -> CueTable:
    """The declared cue rules, in their declared order."""
    return cue_table_from(declared())


def features(state: SegmentState, start: int, end: int) -> frozenset[str]:
    """Entity features of a text range for the cue rules."""
    feats = set()
    if any(start <= p.span.start < end and p.kind == PartyKind.THIRD_PARTY for p in state.parties):
        feats.add("@third_party")
    if any(start <= d.start < end and d.entry.value[0] != GENERIC_DATA for d in state.data):
        feats.add("@concrete_data")
    return frozenset(feats)


def passes(
    p: PracticeMention,
    text: str,
    feats: frozenset[str],
    note: Note | None,
    *,
    inherited: bool = False,
    at: int = 0,
    rescored: str = "",
) -> bool:
    """Whether the cue rules keep practice ``p`` read in ``text`` (its sentence, starting at offset ``at``; or,
    inherited, its line). The one place a practice once made is kept or dropped (veto rules stop trigger words,
    sentences and sections before any practice is made; veto.inherit.out-of-scope is a cue, ``@out_of_scope``). A
    paragraph rule re-scores a practice
    with its feature added to ``feats`` and ``rescored`` saying why (the paragraph's title): only the
    paragraph cues are noted then, the others were noted when the sentence was read."""
    cues, category = cue_table(), CATEGORY[p.type]
    matched = cues.matched(category, text, feats, inherited)
    if note is not None:
        for c in matched:
            if not rescored or c.scope == "paragraph":
                note(c.id, "scored", p.span.start, p.span.end, p.type.value, f"{c.weight:+g}")
    if total(matched) > 0:
        return True
    # "you must provide your name and a password (which is encrypted)": a security measure in another clause
    # does not make the collection a passing mention in a security statement
    if (
        not inherited
        and p.type == PracticeType.FIRST_PARTY_COLLECTION_USE
        and not p.span.text.lower().startswith(("us", "utili", "process", "access"))
        and (rest := _without_security_asides(text, p.span.start - at)) != text
        and cues.score(category, rest, feats) > 0
    ):
        if note is not None:
            note("gate.cues", "kept", p.span.start, p.span.end, p.type.value, "without its security aside")
        return True
    if note is not None:
        note(
            "gate.cues",
            "dropped",
            p.span.start,
            p.span.end,
            p.type.value,
            cues.explain(category, text, feats, inherited) + (f" ({rescored})" if rescored else ""),
        )
    return False


def _without_security_asides(sentence: str, at: int) -> str:
    """A sentence without the clauses (between CLAUSE_SPLIT breaks) that name a security measure, except the
    clause around position `at` ("you must provide a password (which is encrypted)" → "you must provide a
    password")."""
    bounds = [0, *(x for m in CLAUSE_SPLIT.finditer(sentence) for x in (m.start(), m.end())), len(sentence)]
    kept = [
        sentence[a:b]
        for a, b in zip(bounds[::2], bounds[1::2], strict=True)
        if a <= at <= b or not SECURITY_ASIDE.search(sentence, a, b)
    ]
    return " ".join(kept)
