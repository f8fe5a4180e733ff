"""The residual sweep: from L3 on, identifying-looking tokens the detector left are masked too.

The anonymizer errs towards privacy: after the detected entities (and their other mentions) are placed, each
rule of the sweep looks at what is left for evidence that a token identifies someone, and the span gets a
consistent placeholder like a detected one ([NAME_1] is the same value throughout a text). Rules, in order (the
first to claim a span keeps it):

- ``speaker``: a line's first word before a colon and quoted speech, in a dialogue of two such lines or more
  ('Zuzana: "Who are you?"').
- ``listed-name``: a capitalised word in the shipped first- or last-name lists (``gazetteer``), not a function
  word; a listed name that is a common English word ("Grace", "Mark") only next to another capitalised word;
  at a sentence start only a first name (the surname list holds many English words: "Mail", "Later"), alone
  only with ``lone_first_names`` and when it is not a common word.
- ``initial``: a lone capital letter (not I or A) between a word and a capitalised word ("Maja S Hermansen").
- ``number``: a run of digits (with ``-``, ``/``, ``.``, ``,``, ``:`` or single spaces inside) holding at least
  ``min_digits`` digits: account, postal and house numbers, ages, years.
- ``code``: a token mixing letters and digits, of at least ``min_code`` characters (licence, booking, plate ids).
- ``capitalised-run``: a run of capitalised words (joined by spaces, hyphens or name particles) without its
  function words at either end; a sentence's first word joins only with ``sentence_initial``, when the run
  has two words or more and when no part of it is a detected entity ("Blue Harbour Labs signed", not the
  "Mail" of "Mail Jane Roe"), or when a postcode follows ("GRASSE, PA 39551"): places, organisations, names
  the lists do not hold. Capital letters of every script count (Greek and Cyrillic address lines too).
- ``lowercase-name``: in a text with no capital letter at all, a listed first name that is not a function or
  common word, and a listed surname right after one.
- ``block-line``: a line of one to three capitalised words inside a block of lines (a signature's company line).
- ``unknown-word``: a word of three letters or more that is neither an English lemma (WordNet's, from the lookups
  the spaCy pipeline's package ships; regular inflections count) nor a function word, where capitalisation says
  nothing: opening a sentence ("Mourik began writing"), or anywhere in a text with no capital letter; with
  ``unknown_anywhere`` also every lower-case word of other texts.

A candidate that overlaps a detected entity keeps only its free stretches, without function words at either end;
adjacent name spans (one space, hyphen or name particles apart) merge into one; terms of
``data/anonymize/sweep-keep.txt`` (defined terms, role labels, technical tokens, units) and percentages are never
masked; ``unknown-word`` reads Latin-script words only, and a text is "lower-case" only when most of its letters
are of a cased script. Other mentions of a swept name are masked too. ``sweep_digest(settings)`` names what the
output depends on; records carry it. Each masked span records its rule and evidence (``Entity.recognizer`` is
``sweep:<rule>:<evidence>``; the replacement record has ``recognizer`` and ``evidence``), never the value.
Detection figures stay those of the detector alone: the sweep is part of the levels, not of ``recognize``.
The settings (``DEFAULT_SWEEP``) were chosen by cross-validation on the benchmark's dev half
(``benchmarks/cv_anonymize.py --curve``). Worked examples, each one a test: ``data/anonymize/sweep-examples.tsv``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

from pp_graph.anonymize import gazetteer
from pp_graph.anonymize.recognizers import Entity
from pp_graph.datafiles import tsv_lines
from pp_graph.errors import ConfigError, DataFileError
from pp_graph.resources import DATA

EXAMPLES_FILE = DATA / "anonymize" / "sweep-examples.tsv"
KEEP_FILE = DATA / "anonymize" / "sweep-keep.txt"
# The data files the rules read (the digest covers them): the word lists of ``gazetteer`` and the keep list.
DATA_FILES = (
    *(gazetteer.FUNCTION_WORDS_FILE, gazetteer.COMMON_WORD_NAMES_FILE),
    *(DATA / "anonymize" / "sweep-keep.txt", DATA / "anonymize" / "name-particles.txt"),
)


@dataclass(frozen=True)
class SweepSettings:
    """Which rules run, in which order, and their thresholds. Part of what the levels' output depends on."""

    rules: tuple[str, ...] = (
        *("speaker", "listed-name", "initial", "number", "code", "capitalised-run", "lowercase-name", "block-line"),
        "unknown-word",
    )
    min_digits: int = 2  # number: digits in the run
    min_code: int = 4  # code: characters in the token
    lone_first_names: bool = True  # listed-name: a first name alone at a sentence start (not a common word)
    sentence_initial: bool = True  # capitalised-run: a run of two or more words may open a sentence
    unknown_anywhere: bool = False  # unknown-word: also lower-case words in a text with capitals

    def __post_init__(self) -> None:
        if self.min_digits < 1 or self.min_code < 2:
            raise ConfigError(f"sweep settings: min_digits {self.min_digits} (≥ 1), min_code {self.min_code} (≥ 2)")

    def replace(self, **changes: object) -> SweepSettings:
        return replace(self, **changes)  # type: ignore[arg-type]


DEFAULT_SWEEP = SweepSettings()
NO_SWEEP = SweepSettings(rules=())

Span = tuple[int, int, str]  # start, end, evidence
Finder = Callable[[str, SweepSettings], Iterable[Span]]


@dataclass(frozen=True)
class SweepRule:
    name: str
    type: str  # the placeholder's type: [NAME_1], [NUMBER_1], [CODE_1]
    find: Finder = field(repr=False)


RULES: dict[str, SweepRule] = {}
TYPES = ("NAME", "NUMBER", "CODE")  # the sweep's placeholder types (each has a DPV category row too)


def sweep_rule(name: str, type_: str) -> Callable[[Finder], Finder]:
    """Register a sweep rule: ``find(text, settings)`` yields (start, end, evidence) of the spans it would mask."""

    def add(fn: Finder) -> Finder:
        if type_ not in TYPES:
            raise ConfigError(f"sweep rule {name!r}: type {type_!r} is not one of {', '.join(TYPES)}")
        if name in RULES:
            raise ConfigError(f"sweep rule {name!r} is registered twice")
        RULES[name] = SweepRule(name, type_, fn)
        return fn

    return add


def _upper_class() -> str:
    """A regex class of every upper- and title-case letter of the Basic Multilingual Plane (Greek and Cyrillic
    city lines too, not only Latin), as ranges."""
    cps = [c for c in range(0x10000) if chr(c).isupper() or chr(c).istitle()]
    ranges, start, prev = [], cps[0], cps[0]
    for c in [*cps[1:], -1]:
        if c != prev + 1:
            ranges.append(re.escape(chr(start)) + ("-" + re.escape(chr(prev)) if prev > start else ""))
            start = c
        prev = c
    return "[" + "".join(ranges) + "]"


_UPPER = _upper_class()
# Combining marks (a decomposed "Zoë") belong to their word; a word never starts inside another ("eBay").
_MARKS = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_LEFT = rf"(?<![\w'’{_MARKS}-])"
_CAP = rf"{_UPPER}[\w'’{_MARKS}-]*"
_WORD = re.compile(_LEFT + _CAP)
# Name particles that join capitalised words into one run ("Willemine ten Pas", "Via Nuova del Campo").
PARTICLES_FILE = DATA / "anonymize" / "name-particles.txt"


@cache
def particles() -> frozenset[str]:
    """The name particles of ``data/anonymize/name-particles.txt`` (validated like the other word lists)."""
    return gazetteer.word_list(PARTICLES_FILE, "name-particle", 10)


@cache
def _run_rx() -> re.Pattern[str]:
    """Capitalised words joined by one space or hyphen, or by particles; a line break ends the run."""
    return re.compile(rf"{_LEFT}{_CAP}(?:{_join_rx().pattern}{_CAP})*")


@cache
def _join_rx() -> re.Pattern[str]:
    alts = "|".join(sorted(particles(), key=len, reverse=True))
    return re.compile(rf"(?:[ -]|(?: (?:{alts}))+ )")


_OPENER = re.compile(r"(?:^|[.!?:;\n]|[\"“(]|\s-)\s*[\"“(]?$")
_PLACEHOLDER = re.compile(r"\[[A-Z_]+(?:_\d+)?\]")  # [PERSON_1], [NUMBER], [DETAILS]


def _sentence_initial(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a sentence, a line, a quotation or a bullet."""
    return start == 0 or _OPENER.search(text, max(0, start - 4), start) is not None


def _bare(word: str) -> str:
    """The word without a possessive or trailing apostrophes and hyphens (a prefix of it)."""
    return re.sub(r"(?:'s|’s)$", "", word).rstrip("'’-")


_SPEAKER = re.compile(r"(?m)^[ \t]*([^\W\d_][\w'’-]*)[ \t]*:[ \t]*[\"“]")


@sweep_rule("speaker", "NAME")
def _speakers(text: str, st: SweepSettings) -> Iterator[Span]:
    """A line's first word before a colon and quoted speech, in a dialogue (two such lines or more): a speaker
    label ('Zuzana: "Who are you?"')."""
    found = list(_SPEAKER.finditer(text))
    for m in found if len(found) > 1 else []:
        if not gazetteer.is_stop_word(m.group(1)):
            yield m.start(1), m.end(1), "speaker label"


@sweep_rule("listed-name", "NAME")
def _listed_names(text: str, st: SweepSettings) -> Iterator[Span]:
    words = list(_WORD.finditer(text))
    for i, m in enumerate(words):
        w = _bare(m.group(0))
        if len(w) < 2 or gazetteer.is_stop_word(w) or w.isupper():
            continue
        first, last = gazetteer.is_first_name(w), gazetteer.is_last_name(w)
        common = gazetteer.is_common_word_name(w)
        if not (first or last) or (common and not _next_to_capitalised(text, words, i)):
            continue
        # the surname list holds many English words ("Mail", "Later"): a sentence start needs a first name,
        # followed by another capitalised word unless lone first names are allowed
        if _sentence_initial(text, m.start()) and not (
            first and (_next_to_capitalised(text, words, i) or (st.lone_first_names and not common))
        ):
            continue
        yield m.start(), m.start() + len(w), "first-name list" if first else "last-name list"


def _next_to_capitalised(text: str, words: list[re.Match[str]], i: int) -> bool:
    """Whether word ``i`` has a capitalised, non-function word right before or after it (one space apart)."""
    for j in (i - 1, i + 1):
        if 0 <= j < len(words):
            a, b = sorted((words[i], words[j]), key=lambda m: m.start())
            if text[a.end() : b.start()] == " " and not gazetteer.is_stop_word(_bare(words[j].group(0))):
                return True
    return False


_INITIAL = re.compile(rf"(?<=[^\W\d_] )[B-HJ-Z]\.?(?= {_UPPER})")


@sweep_rule("initial", "NAME")
def _initials(text: str, st: SweepSettings) -> Iterator[Span]:
    """A lone capital letter between two words, the second capitalised ("Maja S Hermansen"); not I or A."""
    for m in _INITIAL.finditer(text):
        yield m.start(), m.start() + 1, "initial"


# digits joined by "-./:", a thousands comma ("1,000") or one space or tab; never across ", " or a line break;
# a bracketed number is masked too ("[44112210]": placeholders are taken before any rule runs)
_NUMBER = re.compile(r"(?<!\w)\d(?:[\d./:-]|,(?=\d)|[ \t](?=\d))*\d(?!\w)|(?<!\w)\d(?!\w)")


_PERCENT = re.compile(r"[ \t]?(?:%|per ?cent\b)")


@sweep_rule("number", "NUMBER")
def _numbers(text: str, st: SweepSettings) -> Iterator[Span]:
    for m in _NUMBER.finditer(text):
        if _PERCENT.match(text, m.end()):
            continue  # a share ("100%", "5 percent"), not an identifier
        if sum(c.isdigit() for c in m.group(0)) >= st.min_digits:
            yield m.start(), m.end(), "digits"


_CODE = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9][\w-]*[A-Za-z0-9](?![\w-])")


@sweep_rule("code", "CODE")
def _codes(text: str, st: SweepSettings) -> Iterator[Span]:
    for m in _CODE.finditer(text):
        if len(m.group(0)) >= st.min_code:
            yield m.start(), m.end(), "letters and digits"


# ", PA 39551" or " 84968" after a place; not "Sorry, 2024" (a comma and a bare number say nothing)
_POSTCODE_AFTER = re.compile(r"(?:,?[ \t]*[^\W\d_]{1,4}\.?[ \t]+|[ \t]+)\d{4,}\b")
WHOLE_RUN = "capitalised run at a sentence start"  # evidence of a candidate taken only when all of it is free


def _before_postcode(text: str, m: re.Match[str], words: list[str]) -> bool:
    """A place before a postcode ("GRASSE, PA 39551", "Grasse 06130"); a lone English word before a bare
    number ("Ref 4411", "Room 12") is not one."""
    first = _bare(words[0])
    if gazetteer.is_stop_word(first) or not _POSTCODE_AFTER.match(text, m.end()):
        return False
    return len(words) > 1 or text.startswith(",", m.end()) or not is_english(first)


def _opens_run(words: list[str]) -> bool:
    """Whether a sentence's first word joins the capitalised run it opens: not a function word, and not an
    English word that cannot be a noun ("Later Zorblat said", "Ask Maria de la Cruz": not the first word)."""
    first = _bare(words[0])
    if len(words) < 2 or gazetteer.is_stop_word(first) or gazetteer.is_common_word_name(first):
        return False  # "Rich Zorblat …": the listed-name rule decides whether a common-word name is a name
    return not is_english(first) or is_noun(first)


@sweep_rule("capitalised-run", "NAME")
def _capitalised_runs(text: str, st: SweepSettings) -> Iterator[Span]:
    for m in _run_rx().finditer(text):
        words = m.group(0).split(" ")
        start = m.start()
        if _sentence_initial(text, start):
            first = words[0]
            if _before_postcode(text, m, words):
                yield start, start + len(_bare(m.group(0))), "place before a postcode"  # "GRASSE, PA 39551"
            elif st.sentence_initial and _opens_run(words):
                yield start, start + len(_bare(m.group(0))), WHOLE_RUN  # only where nothing of it is taken
            start += len(first) + 1  # else a sentence's first word is capitalised anyway: the rest of the run
            words = words[1:]
        if words and len(_bare(" ".join(words))) > 1:
            yield start, start + len(_bare(" ".join(words))), "capitalised run"


_LOWER_WORD = re.compile(r"(?<![\w'’-])[a-zß-ÿā-ž][a-zß-ÿā-ž'’-]+")


def lower_case_text(text: str) -> bool:
    """A text written all in lower case: no capital letter, and most of its letters of a cased script (so a
    Chinese or Arabic text, which has no capitals at all, is not one)."""
    cased = letters = 0
    for c in text:
        if c.isalpha():
            letters += 1
            if c.lower() != c.upper():
                if c.isupper() or c.istitle():
                    return False
                cased += 1
    return cased >= 3 and cased * 2 >= letters


_LATIN = re.compile(rf"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff{_MARKS}'’-]+")


@sweep_rule("lowercase-name", "NAME")
def _lowercase_names(text: str, st: SweepSettings) -> Iterator[Span]:
    """In a text with no capital letter at all (capitalisation carries no evidence there), a listed first name
    that is neither a function word nor a common English word, and a listed surname right after one."""
    if not lower_case_text(text):
        return
    prev_end = -2
    for m in _LOWER_WORD.finditer(text):
        w = _bare(m.group(0))
        if len(w) < 3 or gazetteer.is_stop_word(w) or gazetteer.is_common_word_name(w):
            continue
        if gazetteer.is_first_name(w) or (prev_end == m.start() - 1 and gazetteer.is_last_name(w)):
            prev_end = m.start() + len(w)
            yield m.start(), prev_end, "name list, lower-case text"


_LINE = re.compile(rf"(?m)(?<=\n)[ \t]*({_CAP}(?: {_CAP}){{0,2}})[ \t]*$")


@sweep_rule("block-line", "NAME")
def _block_lines(text: str, st: SweepSettings) -> Iterator[Span]:
    """A line of one to three capitalised words (no digits, no punctuation) inside a block of lines, such as a
    signature's organisation line ("Jane Roe / Innography / 5 Main St")."""
    for m in _LINE.finditer(text):
        words = m.group(1).split(" ")
        prev = text[: m.start()].rstrip(" \t").endswith("\n\n")
        if (
            not prev
            and not any(gazetteer.is_stop_word(_bare(w)) for w in words)
            and not any(c.isdigit() for c in m.group(1))
        ):
            yield m.start(1), m.end(1), "line in a block"


@cache
def _lemma_tables() -> tuple[frozenset[str], frozenset[str]]:
    """(every English word, the nouns among them) from the lookups the spaCy pipeline's package ships for its
    lemmatizer: WordNet's lemmas (nouns, verbs, adjectives, adverbs: 83,000) and the irregular forms of its
    exception table, both the forms and their lemmas ("went", "children", "feet"); read once, nothing downloads."""
    from pp_graph.anonymize.ner import NER_PACKAGE

    spec = find_spec(NER_PACKAGE)
    found = sorted(Path(spec.origin).parent.glob("*/lemmatizer/lookups")) if spec and spec.origin else []
    if not found:
        raise gazetteer.GazetteerUnavailable(
            f"the package {NER_PACKAGE!r} with its lemmatizer lookups is not installed"
        )
    try:
        from spacy.lookups import Lookups

        lookups = Lookups().from_disk(found[0])
        index, exc = lookups.get_table("lemma_index"), lookups.get_table("lemma_exc")
        words = {w for pos in _POS for w in index[pos]}
        nouns = frozenset(index["noun"]) | frozenset(exc["noun"])
        for pos in _POS:
            for form, lemmas in exc[pos].items():
                words.add(form)
                words.update(lemmas)
    except (ImportError, OSError, KeyError, ValueError, TypeError, AttributeError) as e:
        raise gazetteer.GazetteerUnavailable(f"{found[0]}: cannot read the English lemma tables ({e})") from None
    if len(words) < 50_000:
        raise gazetteer.GazetteerUnavailable(f"{found[0]}: the lemma index has {len(words)} words, fewer than 50,000")
    return frozenset(words), nouns


_POS = ("noun", "verb", "adj", "adv")


def english_words() -> frozenset[str]:
    """English words: WordNet's lemmas and the irregular forms of the lemmatizer's exception table."""
    return _lemma_tables()[0]


def is_noun(word: str) -> bool:
    """Whether ``word`` (any case) can be an English noun ("Blue", "Port"; not "Later", "Went")."""
    return word.lower() in _lemma_tables()[1]


_SUFFIXES = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"), ("ly", ""))


def is_english(word: str) -> bool:
    """Whether ``word`` (any case) or a regular inflection of it is an English lemma or a function word."""
    w = word.lower()
    if gazetteer.is_stop_word(w):
        return True
    words = english_words()
    return w in words or any(w.endswith(a) and w[: len(w) - len(a)] + b in words for a, b in _SUFFIXES)


_ALPHA_WORD = re.compile(rf"{_LEFT}[^\W\d_](?:[^\W\d_]|[{_MARKS}]){{2,}}(?![\w'’{_MARKS}-])")


@sweep_rule("unknown-word", "NAME")
def _unknown_words(text: str, st: SweepSettings) -> Iterator[Span]:
    """A word that is not English where capitalisation says nothing: at a sentence start (capitalised), or
    anywhere in a text with no capital letter at all ("Mourik began writing", "my name is vitoria")."""
    lower_text = lower_case_text(text)
    for m in _ALPHA_WORD.finditer(text):
        w = m.group(0)
        if not _LATIN.fullmatch(w):
            continue  # the English lists say nothing of other scripts' words ("Привет", "北京")
        if w[0].isupper() and not w.isupper() and _sentence_initial(text, m.start()):
            where = "sentence start"
        elif lower_text or (st.unknown_anywhere and w.islower()):
            where = "lower-case text" if lower_text else "lower-case word"
        else:
            continue
        if not is_english(w):
            yield m.start(), m.end(), f"{where}, not an English word"


_KEEP_LINE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ./+-]*[A-Za-z0-9.]|[A-Za-z]")
_MIN_KEEP = 50


@cache
def keep_terms() -> re.Pattern[str]:
    """The terms of ``data/anonymize/sweep-keep.txt`` (defined terms, role labels, technical tokens, units) as one
    case-insensitive whole-word pattern; a malformed line, a repeated term or a short list is an error naming
    the file (and line)."""
    try:
        lines = KEEP_FILE.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise DataFileError(f"{KEEP_FILE.name}: cannot read the keep list ({e})") from None
    terms: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        term = line.split("#", 1)[0].strip()
        if not term:
            continue
        if not _KEEP_LINE.fullmatch(term) or "  " in term:
            raise DataFileError(f"{KEEP_FILE.name}:{n}: {term!r} is not a term (words, digits, ' ./+-')")
        if term.lower() in terms:
            raise DataFileError(f"{KEEP_FILE.name}:{n}: {term!r} repeats line {terms[term.lower()]}")
        terms[term.lower()] = n
    if len(terms) < _MIN_KEEP:
        raise DataFileError(f"{KEEP_FILE.name}: {len(terms)} terms, fewer than {_MIN_KEEP}")
    alts = "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True))
    return re.compile(rf"(?i)(?<![\w'’-])(?:{alts})(?![\w'’-]|\.\w)")


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as e:
        raise DataFileError(f"{path.name}: cannot read it for the sweep's digest ({e})") from None


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "absent"


@cache
def sweep_digest(settings: SweepSettings = DEFAULT_SWEEP) -> str | None:
    """What the sweep's output depends on, as 'sha256:<hex>': the settings (rules in order, thresholds), this
    module's source, the data files it reads and the versions of the packages whose lists it reads (names, the
    spaCy pipeline's lemma tables). None when no rule runs (``NO_SWEEP``). Records carry it."""
    if not settings.rules:
        return None
    for name in settings.rules:
        rule(name)  # an unknown rule is an error here too
    from pp_graph.anonymize.crf import lexicons
    from pp_graph.anonymize.ner import NER_PACKAGE

    body = {
        "settings": asdict(settings),
        "source": _file_digest(Path(__file__)),
        "data": {p.name: _file_digest(p) for p in DATA_FILES},
        "packages": {p: _version(p) for p in ("spacy", NER_PACKAGE)},
        "lexicons": lexicons(),
    }
    blob = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return "sha256:" + hashlib.sha256(blob).hexdigest()


def rule(name: str) -> SweepRule:
    try:
        return RULES[name]
    except KeyError:
        raise ConfigError(f"unknown sweep rule {name!r}; one of {', '.join(RULES)}") from None


def _free_pieces(taken: bytearray, s: int, e: int) -> Iterator[tuple[int, int]]:
    """The stretches of [s, e) no entity holds (a candidate run around a detected name keeps the rest)."""
    i = s
    while i < e:
        i = taken.find(0, i, e)  # the next free position (bytearray.find: no loop over characters in Python)
        if i < 0:
            return
        j = taken.find(1, i, e)
        j = e if j < 0 else j
        yield i, j
        i = j


_EDGE = re.compile(rf"[\W_]*(.*?)(?:(?![{_MARKS}])[\W_])*$", re.S)  # a final combining mark stays


def sweep(text: str, entities: Sequence[Entity], settings: SweepSettings = DEFAULT_SWEEP) -> list[Entity]:
    """The spans the rules of ``settings`` mask beyond ``entities`` (which they never overlap), by offset.

    A candidate that overlaps what is already taken keeps its free stretches (trimmed of punctuation and
    spaces). ``Entity.recognizer`` is ``sweep:<rule>:<evidence>``. Raises ConfigError for an unknown rule."""
    taken = bytearray(len(text))
    for ent in entities:
        taken[ent.start : ent.end] = b"\x01" * (ent.end - ent.start)
    for p in _PLACEHOLDER.finditer(text):  # never inside a placeholder the caller already wrote
        taken[p.start() : p.end()] = b"\x01" * (p.end() - p.start())
    detected = bytes(taken)  # what the caller holds: a whole run yields to it, not to other rules' spans
    for k in keep_terms().finditer(text):  # never masked, but no evidence against a run around them either
        if not _inside_run(text, k.start(), k.end()):
            taken[k.start() : k.end()] = b"\x01" * (k.end() - k.start())
    out: list[Entity] = []
    for name in settings.rules:
        r = rule(name)
        for s, e, evidence in r.find(text, settings):
            if evidence == WHOLE_RUN and any(detected[s:e]):
                continue  # "Mail Jane Roe": the opening word is not part of a detected name's run
            for a, b in _free_pieces(taken, s, e):
                m = _EDGE.match(text, a, b)  # always matches (every part is optional)
                if m is not None and m.end(1) > m.start(1):
                    a, b = m.start(1), m.end(1)
                    if r.type == "NAME":
                        a, b = _trim_function_words(text, a, b)
                        if a >= b:
                            continue
                    taken[a:b] = b"\x01" * (b - a)
                    out.append(Entity(r.type, a, b, f"sweep:{name}:{evidence}"))
    out = _merge_names(text, out, taken)
    out.extend(_mentions(text, taken, out))
    out.sort(key=lambda x: (x.start, x.end))
    return out


_EDGE_WORD = re.compile(r"[^\s-]+")


_CAP_BEFORE = re.compile(rf"{_CAP}[ -]$")
_CAP_AFTER = re.compile(rf"[ -]{_UPPER}")


def _inside_run(text: str, s: int, e: int) -> bool:
    """Whether [s, e) has a capitalised word right before and right after it: a kept term inside a longer name
    ("Civil Rights Act") is part of that name, not a defined term."""
    return _CAP_BEFORE.search(text, max(0, s - 40), s) is not None and _CAP_AFTER.match(text, e) is not None


def _trim_function_words(text: str, a: int, b: int) -> tuple[int, int]:
    """[a, b) without function words or particles at either end (a free piece "We Collect" of "Information We
    Collect", whose "Information" is kept, is "Collect")."""
    words = [(m.start(), m.end()) for m in _EDGE_WORD.finditer(text, a, b)]
    while words and _filler(text[words[0][0] : words[0][1]]):
        words.pop(0)
    while words and _filler(text[words[-1][0] : words[-1][1]]):
        words.pop()
    return (words[0][0], words[-1][1]) if words else (b, b)


def _filler(word: str) -> bool:
    return gazetteer.is_stop_word(_bare(word)) or word in particles()


def _merge_names(text: str, found: list[Entity], taken: bytearray) -> list[Entity]:
    """Adjacent NAME spans of the sweep, one space, hyphen or name particles apart, become one span (one
    placeholder for "Maria de la Cruz", not three); the first span's rule and evidence name it."""
    out: list[Entity] = []
    for e in sorted(found, key=lambda x: (x.start, x.end)):
        last = out[-1] if out else None
        if last is not None and last.type == e.type == "NAME" and _join_rx().fullmatch(text, last.end, e.start):
            taken[last.end : e.start] = b"\x01" * (e.start - last.end)
            out[-1] = Entity("NAME", last.start, e.end, last.recognizer)
        else:
            out.append(e)
    return out


def _mentions(text: str, taken: bytearray, found: list[Entity]) -> Iterator[Entity]:
    """Other whole-word occurrences of a swept name ("Zorblat" opening a sentence after "ask Zorblat"), so the
    value is masked throughout the text and keeps its placeholder. Found by str.find, not a pattern compiled per
    text (compiling was half the sweep's time): left to right, the longest value at a start, none overlapping."""
    values = {text[e.start : e.end]: e for e in found if e.type == "NAME"}
    hits = sorted((a, -len(v), v) for v in values for a in _occurrences(text, v))
    end = 0
    for a, neg, v in hits:
        if a < end:
            continue
        b = a - neg
        end = b
        if not any(taken[a:b]):
            taken[a:b] = b"\x01" * (b - a)
            rule_name = values[v].recognizer.split(":")[1]
            yield Entity("NAME", a, b, f"sweep:{rule_name}:another mention")


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"  # what a pattern's \w matches


def _occurrences(text: str, value: str) -> Iterator[int]:
    """Starts of ``value`` in ``text`` as a whole word: not after a word character, apostrophe or hyphen, not
    before a word character or hyphen."""
    i = text.find(value)
    while i >= 0:
        j = i + len(value)
        before = text[i - 1] if i else ""
        after = text[j] if j < len(text) else ""
        if not (before and (_word_char(before) or before in "'’-")) and not (
            after and (_word_char(after) or after == "-")
        ):
            yield i
        i = text.find(value, i + 1)


@dataclass(frozen=True)
class Example:
    rule: str
    mask: bool  # True: ``value`` is masked whole; False: no masked span touches it
    text: str
    value: str


def examples() -> list[Example]:
    """The worked examples of ``data/anonymize/sweep-examples.tsv`` (run as tests); a malformed row, an unknown
    rule or a value not in its text is an error naming the line."""
    out = []
    for n, parts, line in tsv_lines(EXAMPLES_FILE):
        if len(parts) != 4 or parts[1] not in ("mask", "keep") or parts[0] not in RULES:
            raise DataFileError(
                f"{EXAMPLES_FILE.name}:{n}: expected 'rule<TAB>mask|keep<TAB>text<TAB>value' with a "
                f"known rule, got {line!r}"
            )
        text = parts[2].replace("\\n", "\n")
        if parts[3] not in text:
            raise DataFileError(f"{EXAMPLES_FILE.name}:{n}: the value {parts[3]!r} is not in the text")
        out.append(Example(parts[0], parts[1] == "mask", text, parts[3]))
    return out
