"""Taint tracking: where facts from earlier tool results reappear in later tool arguments.

Four ways to match, recorded as the flow's ``match``: ``exact`` (the value as it was), ``normalised`` (case,
punctuation, whitespace and number separators folded, a date's other spellings, a phone number without its
country code; token boundaries respected), ``email`` (an address spelt "name at host dot com") — each occurrence
is a flow — and, for prose facts none of these found, ``fuzzy`` (a sentence reworded: rapidfuzz's token-set
ratio over the normalised text, with floors on the content words shared, so a greeting that happens to share a
word is not a flow). A value found inside a larger value that flowed (a name inside a copied e-mail address) is
not a flow of its own.
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

FUZZY_MIN = 60.0  # token-set ratio (0-100) a reworded sentence needs (tuned on PrivacyLens, see bench_audit)
FUZZY_SHARED = 2  # content words it must share with the fact
FUZZY_COVER = 0.5  # …and those must be at least this share of the shorter side's content words
EMAIL = PD + "EmailAddress"
FUZZY_PROSE = 2  # content words a leaf of unknown kind needs to be matched as reworded text
MAX_HITS = 20  # occurrences of one fact reported per sink leaf


@dataclass
class _Unit:
    start: int
    end: int
    norm: str
    tokens: frozenset[str]


def _boundary(s: str, i: int, j: int) -> bool:
    return (i == 0 or s[i - 1] == " ") and (j == len(s) or s[j] == " ")


def _exact(fact: Fact, text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    if not fact.text.strip():
        return out
    i = text.find(fact.text)
    while i >= 0 and len(out) < MAX_HITS:
        out.append((i, i + len(fact.text)))
        i = text.find(fact.text, i + len(fact.text))
    return out


def _normalised(fact: Fact, ns: Normalised) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for form in (fact.norm, *fact.alts):
        start = 0
        digits = form.isdigit() and len(form) >= 7  # card and phone digits may sit inside a longer run
        while len(out) < MAX_HITS and (i := ns.text.find(form, start)) >= 0:
            j = i + len(form)
            if digits or _boundary(ns.text, i, j):
                out.append(ns.span(i, j))
                start = j
            else:
                start = i + 1
    return out


def _email(fact: Fact, text: str) -> list[tuple[int, int]]:
    if fact.kind != EMAIL or "@" not in fact.text:
        return []
    local, _, host = fact.text.strip().lower().partition("@")
    sep = r"\s*(?:\.|\bdot\b)\s*"
    rx = (
        sep.join(re.escape(p) for p in local.split("."))
        + r"\s*(?:@|\bat\b|\[at\]|\(at\))\s*"
        + sep.join(re.escape(p) for p in host.split("."))
    )
    return [(m.start(), m.end()) for m in re.finditer(rx, text, re.IGNORECASE)][:MAX_HITS]


def _matches(fact: Fact, text: str, ns: Normalised) -> list[tuple[tuple[int, int], str]]:
    """Every occurrence of the fact: exact ones, then reformatted (normalised, e-mail) ones elsewhere."""
    out = [(sp, "exact") for sp in _exact(fact, text)]
    for how, spans in (("normalised", _normalised(fact, ns)), ("email", _email(fact, text))):
        out.extend((sp, how) for sp in spans if not any(a < sp[1] and sp[0] < b for (a, b), _ in out))
    return out


def _outer(
    hits: list[tuple[int, tuple[int, int], str, float]], facts: list[Fact]
) -> list[tuple[int, tuple[int, int], str, float]]:
    """Hits in fact order without those a larger value hit covers (a name inside a copied e-mail address)."""
    values = [(sp, i) for i, sp, how, _ in hits if how != "fuzzy" and facts[i].unit != "sentence"]
    out = []
    for h in sorted(hits, key=lambda h: (h[0], h[1])):
        i, (s, e), how, _ = h
        inner = facts[i].unit != "sentence" and how != "fuzzy"
        if inner and any(a <= s and e <= b and (b - a) > (e - s) for (a, b), k in values if k != i):
            continue
        out.append(h)
    return out


def _units(text: str, ns: Normalised) -> list[_Unit]:
    out = []
    for s, e in sentences(text) or [(0, len(text))]:
        n = ns.slice(s, e)
        out.append(_Unit(s, e, n, frozenset(content_tokens(n))))
    return out


def _fuzzy(facts: list[Fact], units: list[_Unit]) -> list[tuple[int, tuple[int, int], float]]:
    """Reworded matches: (fact index, sink sentence span, score), for every sink sentence a fact passes in."""
    index: dict[str, list[int]] = {}
    for i, f in enumerate(facts):
        # Values (PII spans, short leaves, known kinds) must match as values; only prose may be reworded.
        prose = f.unit == "sentence" or (f.unit == "leaf" and f.kind is None and len(f.tokens) >= FUZZY_PROSE)
        if prose and len(f.tokens) >= FUZZY_SHARED:
            for t in f.tokens:
                index.setdefault(t, []).append(i)
    out: list[tuple[int, tuple[int, int], float]] = []
    for u in units:
        if len(u.tokens) < FUZZY_SHARED:
            continue
        shared = Counter(i for t in u.tokens for i in index.get(t, ()))
        for i, n in shared.items():
            f = facts[i]
            if n < FUZZY_SHARED or n < FUZZY_COVER * min(len(u.tokens), len(f.tokens)):
                continue
            score = fuzz.token_set_ratio(u.norm, f.norm)
            if score >= FUZZY_MIN:
                out.append((i, (u.start, u.end), score))
    return out


def track(trace: Trace, facts: list[Fact]) -> list[tuple[Flow, Fact, str]]:
    """Every flow of a fact into the arguments of a later step, one per occurrence, in trace order.

    Each comes with its fact and the sink leaf's text, for the verdict; neither is ever written out.
    """
    flows: list[tuple[Flow, Fact, str]] = []
    for j, step in enumerate(trace.steps):
        earlier = [f for f in facts if f.step < j]
        if not earlier or step.args is None:
            continue
        for path, _keys, text in leaves(step.args, "$"):
            ns = normalise(text)
            hits: list[tuple[int, tuple[int, int], str, float]] = []
            matched: set[int] = set()
            for i, f in enumerate(earlier):
                for span, how in _matches(f, text, ns):
                    hits.append((i, span, how, 1.0))
                    matched.add(i)
            back = [i for i in range(len(earlier)) if i not in matched]
            for k, span, score in _fuzzy([earlier[i] for i in back], _units(text, ns)):
                hits.append((back[k], span, "fuzzy", score / 100.0))
            for i, span, how, score in _outer(hits, earlier):
                f = earlier[i]
                flow = Flow(f.step, f.path, (f.start, f.end), j, step.tool, path, span, f.unit, how, score, f.kind)
                flows.append((flow, f, text))
    return flows
