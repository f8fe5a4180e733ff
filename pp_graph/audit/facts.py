"""What a tool returned, split into facts: JSON leaves, sentences of long strings, detected personal-data spans.

A short leaf ("card_number": "4111 …") is one fact; a long one (an e-mail body, a note) is split into sentences,
each a fact; every personal-data span ``risk.detect`` finds is a fact of its own with its category, and so is an
identifier inside a longer text (letters and digits mixed: TechE325235). Leaves too
short or too generic to identify anything ("ok", "pending", 42) are not facts: matching them would flag every
argument that happens to contain a common word.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any

from pp_graph.audit.model import Fact
from pp_graph.audit.text import content_tokens, date_forms, key_words, kinds_named, normalise, sentences
from pp_graph.risk.detect import Detection, detect
from pp_graph.vocab.dpv import PD

PHONE = PD + "TelephoneNumber"
SHORT_LEAF = 160  # characters: a leaf at most this long and of one sentence is a single fact
MIN_NORM = 4  # normalised characters a fact of unknown kind needs
MIN_KNOWN = 3  # …and one whose key or detection gives its category
MIN_SENTENCE_TOKENS = 3  # content words a sentence fact needs
# An identifier inside a longer text: letters and digits mixed, six characters or more (TechE325235, INV-2291).
_ID_TOKEN = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]{4,}[A-Za-z0-9](?![\w-])")
_SEP = "\n\x00\n"  # between leaves for one detect() call
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def leaves(value: Any, path: str = "$", keys: tuple[str, ...] = ()) -> Iterator[tuple[str, tuple[str, ...], str]]:
    """(JSON path, keys on the path, text) for every string and number leaf (booleans and null skipped)."""
    if isinstance(value, dict):
        for k, v in value.items():
            ks = str(k)
            sub = f"{path}.{ks}" if _IDENT.match(ks) else f"{path}[{ks!r}]"
            yield from leaves(v, sub, (*keys, ks))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, f"{path}[{i}]", keys)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, str | int | float):
        yield path, keys, str(value)


def _fact(
    step: int, path: str, start: int, end: int, unit: str, kind: str | None, keys: tuple[str, ...], text: str, norm: str
) -> Fact:
    alts = date_forms(text)
    if kind == PHONE and norm.isdigit() and len(norm) > 10:
        alts = (norm[-10:],)  # +1 415 555 0137 is (415) 555-0137 at home
    return Fact(step, path, start, end, unit, kind, keys, text, norm, frozenset(content_tokens(norm)), alts)


def _identifying(norm: str, tokens: frozenset[str], kind: str | None) -> bool:
    if kind is not None:
        return len(norm) >= MIN_KNOWN  # a three-digit CVV under a "cvv" key is still card data
    if len(norm) < MIN_NORM:
        return False
    return sum(c.isdigit() for c in norm) >= 4 or len(tokens) >= 2


def _identifiers(step: int, path: str, kw: tuple[str, ...], text: str, taken: list[tuple[int, int]]) -> list[Fact]:
    """Identifiers inside a longer text (a whole-leaf identifier is the leaf fact), outside detected spans."""
    out = []
    for m in _ID_TOKEN.finditer(text):
        if m.end() - m.start() < len(text.strip()) and all(m.end() <= a or m.start() >= b for a, b in taken):
            sub = m.group(0)
            out.append(_fact(step, path, m.start(), m.end(), "identifier", None, kw, sub, normalise(sub).text))
    return out


def _detect_all(texts: list[str], mode: str | None = None) -> list[list[Detection]]:
    """``detect`` (in NER ``mode``) over many leaves in one call (its fixed cost per call dominates on short
    leaves).

    The leaves are joined with a NUL between line breaks, which no recogniser matches across; a detection that
    still spans two leaves is dropped. Offsets come back relative to each leaf.
    """
    joined = _SEP.join(texts)
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + len(_SEP)
    out: list[list[Detection]] = [[] for _ in texts]
    for d in detect(joined, mode=mode):
        i = bisect_right(starts, d.start) - 1
        if d.end <= starts[i] + len(texts[i]):
            out[i].append(Detection(d.category, d.start - starts[i], d.end - starts[i], d.recognizer))
    return out


def facts_of(step: int, result: Any, mode: str | None = None) -> list[Fact]:
    """Every fact in one tool result, in document order; personal data detected in NER ``mode`` (None: the
    default; the auditor passes its risk engine's)."""
    out: list[Fact] = []
    items = list(leaves(result))
    detections = _detect_all([text for _, _, text in items], mode)
    for (path, keys, text), found in zip(items, detections, strict=True):
        kw = tuple(key_words(keys[-1])) if keys else ()
        key_kind = next(iter(kinds_named(keys[-1])), None) if keys else None
        whole = next((d for d in found if (d.end - d.start) >= 0.6 * len(text.strip())), None)
        spans = sentences(text)
        leaf_mode = len(text) <= SHORT_LEAF and len(spans) <= 1
        if leaf_mode:
            kind = whole.category if whole else key_kind
            f = _fact(step, path, 0, len(text), "leaf", kind, kw, text, normalise(text).text)
            if _identifying(f.norm, f.tokens, kind):
                out.append(f)
        else:
            whole_norm = normalise(text)
            for s, e in spans:
                sub = text[s:e]
                named = kinds_named(sub)
                kind = named[0] if named else key_kind
                f = _fact(step, path, s, e, "sentence", kind, kw, sub, whole_norm.slice(s, e))
                if len(f.tokens) >= MIN_SENTENCE_TOKENS:
                    out.append(f)
        out.extend(_identifiers(step, path, kw, text, [(d.start, d.end) for d in found]))
        for d in found:
            if leaf_mode and d is whole:
                continue  # the leaf fact already carries this category
            sub = text[d.start : d.end]
            f = _fact(step, path, d.start, d.end, "pii", d.category, kw, sub, normalise(sub).text)
            if len(f.norm) >= MIN_NORM:
                out.append(f)
    return out
