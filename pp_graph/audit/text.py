"""Text forms the taint tracker compares: normalised strings with an offset map, sentences, content tokens.

Normalisation folds case, turns every run of punctuation and spaces into one space and writes a number
without its separators ("4111-1111 1111", "$5,000.00" and "5000" become digit runs), so a value reformatted
between a tool result and a tool argument still matches. Each normalised character remembers the offset
of the original character it came from, so matches are reported in the original text's offsets.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache

from pp_graph.errors import DataFileError
from pp_graph.resources import DATA
from pp_graph.risk.tables import longest_first, term_table

# A number (one separator between its digit groups: 4,870.00, 4539 1488, (415) 555-0137) or a run of letters and
# digits; everything else separates tokens ("March 14, 2025" is three).
_TOKEN = re.compile(r"[0-9]+(?:(?:[,.\-/]|\)? )[0-9]+)*|[^\W_]+")
_DECIMAL_ZEROS = re.compile(r"(?:\.[0-9]*?|,[0-9]??)(0+)$")  # zeros ending a decimal part (not "3,000")
_ABBREV = re.compile(r"(?i)(?:^|\s)(?:mr|mrs|ms|dr|st|jr|sr|prof|vs|etc|e\.g|i\.e|no|approx)\.$")
_SENT_END = re.compile(r"[.!?;]+(?=\s|$)|\n+")
_THOUSANDS_END = re.compile(r",[0-9]{3}$")
_CAMEL = re.compile(r"([a-z])([A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Normalised:
    text: str
    offsets: tuple[int, ...]  # offsets[i]: where normalised char i came from in the original
    end: int  # length of the original

    def slice(self, start: int, end: int) -> str:
        """The normalised text of the original slice [start, end)."""
        i, j = bisect_left(self.offsets, start), bisect_left(self.offsets, end)
        return self.text[i:j].strip()

    def span(self, start: int, stop: int) -> tuple[int, int]:
        """Original (start, end) of the normalised slice [start, stop)."""
        return self.offsets[start], self.offsets[stop - 1] + 1


def normalise(text: str) -> Normalised:
    out: list[str] = []
    offs: list[int] = []
    for m in _TOKEN.finditer(text):
        tok, at = m.group(0), m.start()
        if out:
            out.append(" ")
            offs.append(at - 1)
        if "0" <= tok[0] <= "9":
            zeros = _DECIMAL_ZEROS.search(tok)
            if zeros and not _THOUSANDS_END.search(tok):
                tok = tok[: zeros.start(1)]  # 1,250.00 → 1250 and 12.50 → 125, as 12.5 is
            for j, c in enumerate(tok):
                if "0" <= c <= "9":
                    out.append(c)
                    offs.append(at + j)
        else:
            out.append(tok.lower())
            offs.extend(range(at, at + len(tok)))
    return Normalised("".join(out), tuple(offs), len(text))


_ISO_DATE = re.compile(r"\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][0-9:.]+(?:Z|[+-][0-9:]+)?)?\s*")
_MONTH_NAMES = (
    "january february march april may june july august september october november december".split()  # noqa: SIM905
)


def date_forms(text: str) -> tuple[str, ...]:
    """Other normalised spellings of an ISO date (2025-03-14): 14/03/2025, 03/14/2025, 14 March 2025, Mar 14 2025."""
    m = _ISO_DATE.fullmatch(text)
    if not m or not 1 <= int(m.group(2)) <= 12:
        return ()
    y, mo, d = m.group(1), int(m.group(2)), int(m.group(3))
    name = _MONTH_NAMES[mo - 1]
    forms = {
        f"{d:02d}{mo:02d}{y}",
        f"{mo:02d}{d:02d}{y}",
        f"{d}{mo}{y}",
        f"{mo}{d}{y}",
        f"{d} {name} {y}",
        f"{name} {d} {y}",
        f"{d} {name[:3]} {y}",
        f"{name[:3]} {d} {y}",
    }
    return tuple(sorted(forms))


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans (trimmed) of ``text``: split at . ! ? ; and line breaks, but not inside numbers or e-mails."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENT_END.finditer(text):
        if m.group(0) == "." and _ABBREV.search(text, max(0, m.start() - 6), m.end()):
            continue  # "Mr. Smithson" is one sentence
        spans.append((start, m.end()))
        start = m.end()
    if start < len(text):
        spans.append((start, len(text)))
    out = []
    for s, e in spans:
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            out.append((s, e))
    return out


@cache
def stopwords() -> frozenset[str]:
    path = DATA / "audit" / "stopwords.txt"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise DataFileError(f"{path.name}: cannot be read ({e.strerror})") from e
    words = {w.strip().lower() for w in lines if w.strip() and not w.startswith("#")}
    bad = sorted(w for w in words if " " in w)
    if bad:
        raise DataFileError(f"{path.name}: one word per line, got {bad[0]!r}")
    return frozenset(words)


@cache
def stem(word: str) -> str:
    """A crude plural/tense fold so 'cases'/'case' and 'charged'/'charge' meet; enough for overlap counts."""
    for suf in ("ies", "ing", "ed", "es", "s"):
        if len(word) > len(suf) + 3 and word.endswith(suf):
            return word[: -len(suf)]
    return word


def content_tokens(normalised_text: str) -> list[str]:
    """Stemmed words of a normalised string that are not stopwords (numbers kept)."""
    stop = stopwords()
    return [stem(w) for w in _WORD.findall(normalised_text) if w not in stop and (len(w) > 1 or w.isdigit())]


@cache
def kind_terms() -> tuple[re.Pattern[str], dict[str, str]]:
    """The term → pd: category table (data/audit/kind_terms.tsv) and one regex over its terms."""
    path = DATA / "audit" / "kind_terms.tsv"
    table = term_table(path)
    return re.compile(rf"(?<![a-z0-9])(?:{longest_first(table)})(?![a-z0-9])"), table


def kinds_named(text: str) -> list[str]:
    """pd: categories whose terms occur in ``text`` (any case; '_' and camelCase split), in order of appearance."""
    spaced = _CAMEL.sub(r"\1 \2", text).replace("_", " ").lower()
    rx, table = kind_terms()
    seen: list[str] = []
    for m in rx.finditer(spaced):
        iri = table[m.group(0)]
        if iri not in seen:
            seen.append(iri)
    return seen


def key_words(key: str) -> list[str]:
    """Content words of a JSON key: 'cardNumber' / 'card_number' → ['card', 'number']."""
    spaced = _CAMEL.sub(r"\1 \2", key).replace("_", " ").replace("-", " ").lower()
    return content_tokens(spaced)
