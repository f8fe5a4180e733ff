"""Taint tracking: where facts from earlier tool results reappear in later tool arguments.

Four ways to match, tried in order, the first that hits is recorded as the flow's ``match``:
``exact`` (the value as it was), ``normalised`` (case, punctuation, whitespace and number separators folded;
token boundaries respected), ``email`` (an address spelt "name at host dot com") and ``fuzzy`` (a sentence
reworded: rapidfuzz's token-set ratio over the normalised text, with a floor on the content words shared, so a
short greeting that happens to share two words is not a flow).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

from pp_graph.audit.facts import leaves
from pp_graph.audit.model import Fact, Flow, Trace
from pp_graph.audit.text import Normalised, content_tokens, normalise, sentences
from pp_graph.vocab.dpv import PD

FUZZY_MIN = 80.0  # token-set ratio (0-100) a reworded sentence needs
FUZZY_SHARED = 3  # content words it must share with the fact
FUZZY_COVER = 0.5  # …and those must be at least this share of the shorter side's content words
EMAIL = PD + "EmailAddress"


@dataclass
class _Unit:
    start: int
    end: int
    norm: str
    tokens: frozenset[str]


def _boundary(s: str, i: int, j: int) -> bool:
    return (i == 0 or s[i - 1] == " ") and (j == len(s) or s[j] == " ")


def _exact(fact: Fact, text: str) -> tuple[int, int] | None:
    i = text.find(fact.text)
    return (i, i + len(fact.text)) if i >= 0 and fact.text.strip() else None


def _normalised(fact: Fact, ns: Normalised) -> tuple[int, int] | None:
    start = 0
    digits = fact.norm.isdigit() and len(fact.norm) >= 7  # card and phone digits may sit inside a longer run
    while (i := ns.text.find(fact.norm, start)) >= 0:
        j = i + len(fact.norm)
        if digits or _boundary(ns.text, i, j):
            return ns.span(i, j)
        start = i + 1
    return None


def _email(fact: Fact, text: str) -> tuple[int, int] | None:
    if fact.kind != EMAIL or "@" not in fact.text:
        return None
    local, _, host = fact.text.strip().lower().partition("@")
    sep = r"\s*(?:\.|\bdot\b)\s*"
    rx = (
        sep.join(re.escape(p) for p in local.split("."))
        + r"\s*(?:@|\bat\b|\[at\]|\(at\))\s*"
        + sep.join(re.escape(p) for p in host.split("."))
    )
    m = re.search(rx, text, re.IGNORECASE)
    return (m.start(), m.end()) if m else None


def _units(text: str) -> list[_Unit]:
    out = []
    for s, e in sentences(text) or [(0, len(text))]:
        n = normalise(text[s:e]).text
        out.append(_Unit(s, e, n, frozenset(content_tokens(n))))
    return out


def _fuzzy(facts: list[Fact], units: list[_Unit]) -> dict[int, tuple[tuple[int, int], float]]:
    """Best reworded match per fact index: (sink span, score)."""
    index: dict[str, list[int]] = {}
    for i, f in enumerate(facts):
        if len(f.tokens) >= FUZZY_SHARED:
            for t in f.tokens:
                index.setdefault(t, []).append(i)
    best: dict[int, tuple[tuple[int, int], float]] = {}
    for u in units:
        if len(u.tokens) < FUZZY_SHARED:
            continue
        shared = Counter(i for t in u.tokens for i in index.get(t, ()))
        for i, n in shared.items():
            f = facts[i]
            if n < FUZZY_SHARED or n < FUZZY_COVER * min(len(u.tokens), len(f.tokens)):
                continue
            score = fuzz.token_set_ratio(u.norm, f.norm)
            if score >= FUZZY_MIN and score > best.get(i, ((0, 0), 0.0))[1]:
                best[i] = ((u.start, u.end), score)
    return best


def track(trace: Trace, facts: list[Fact]) -> list[tuple[Flow, Fact, str]]:
    """Every flow of a fact into the arguments of a later step, one per (fact, sink leaf), in trace order.

    Each comes with its fact and the sink leaf's text, for the verdict; neither is ever written out.
    """
    flows: list[tuple[Flow, Fact, str]] = []
    for j, step in enumerate(trace.steps):
        earlier = [f for f in facts if f.step < j]
        if not earlier or step.args is None:
            continue
        for path, _keys, text in leaves(step.args, "$"):
            ns = normalise(text)
            hit: dict[int, tuple[tuple[int, int], str, float]] = {}
            for i, f in enumerate(earlier):
                if (span := _exact(f, text)) is not None:
                    hit[i] = (span, "exact", 1.0)
                elif (span := _normalised(f, ns)) is not None:
                    hit[i] = (span, "normalised", 1.0)
                elif (span := _email(f, text)) is not None:
                    hit[i] = (span, "email", 1.0)
            rest = [f for i, f in enumerate(earlier) if i not in hit]
            back = [i for i in range(len(earlier)) if i not in hit]
            for k, (span, score) in _fuzzy(rest, _units(text)).items():
                hit[back[k]] = (span, "fuzzy", score / 100.0)
            for i in sorted(hit):
                f, (span, how, score) = earlier[i], hit[i]
                flow = Flow(f.step, f.path, (f.start, f.end), j, step.tool, path, span, f.unit, how, score, f.kind)
                flows.append((flow, f, text))
    return flows
