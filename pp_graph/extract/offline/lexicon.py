"""Lexicons as validated TSV data files, matched with a token trie (longest match, exact offsets).

A phrase containing an upper-case letter matches case-sensitively (acronyms and names: "PII",
"Meta"); an all-lower-case phrase matches any case, except that a short all-caps hit ("US", "IT")
is not taken for a lower-case word.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError

TOKEN = re.compile(r"\w+|[^\w\s]")


def norm_token(tok: str) -> str:
    return tok.lower().replace("’", "'")


def tokens(text: str, offset: int = 0) -> list[tuple[int, int, str]]:
    return [(m.start() + offset, m.end() + offset, m.group()) for m in TOKEN.finditer(text)]


@dataclass(frozen=True, slots=True)
class Entry:
    phrase: str
    value: tuple[str, ...]  # the remaining TSV columns
    case_sensitive: bool


@dataclass(frozen=True, slots=True)
class Hit:
    start: int
    end: int
    entry: Entry


@dataclass
class _Node:
    children: dict[str, _Node] = field(default_factory=dict)
    entries: list[Entry] = field(default_factory=list)


def plural_variants(phrase: str) -> list[str]:
    """Simple English plurals of the last word (data lexicons list singulars and plurals loosely)."""
    head, _, last = phrase.rpartition(" ")
    if not last.isalpha() or last.isupper() or len(last) < 3:
        return []
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        forms = [last[:-1] + "ies"]
    elif last.endswith(("s", "x", "ch", "sh")):
        # "address" → "addresses"; a word ending in a single "s" is taken as already plural.
        forms = [] if last.endswith("s") and not last.endswith("ss") else [last + "es"]
    else:
        forms = [last + "s"]
    return [f"{head} {f}".strip() for f in forms]


class Lexicon:
    def __init__(self, name: str, entries: Iterable[Entry]) -> None:
        self.name = name
        self.root = _Node()
        self.index: dict[str, Entry] = {}
        for e in entries:
            self.add(e)

    def add(self, entry: Entry) -> None:
        node = self.root
        toks = [t for _, _, t in tokens(entry.phrase)]
        if not toks:
            return
        for t in toks:
            node = node.children.setdefault(norm_token(t), _Node())
        if not any(x.phrase == entry.phrase for x in node.entries):
            node.entries.append(entry)
        self.index.setdefault(_key(entry.phrase), entry)

    def lookup(self, phrase: str) -> Entry | None:
        return self.index.get(_key(phrase))

    def find(self, text: str, offset: int = 0) -> Iterator[Hit]:
        """Non-overlapping longest matches, left to right; offsets are ``offset``-based."""
        toks = tokens(text)
        i = 0
        while i < len(toks):
            node = self.root
            best: tuple[int, Entry] | None = None
            j = i
            while j < len(toks) and (nxt := node.children.get(norm_token(toks[j][2]))) is not None:
                node = nxt
                j += 1
                for e in node.entries:
                    if _accepts(e, text[toks[i][0] : toks[j - 1][1]]):
                        best = (j, e)
                        break
            if best is None:
                i += 1
                continue
            j, e = best
            # Words joined by a hyphen or apostrophe to the match belong to another word.
            s, t = toks[i][0], toks[j - 1][1]
            if (s > 0 and text[s - 1] in "-'’" and s > 1 and text[s - 2].isalnum()) or (
                t < len(text) - 1 and text[t] in "-" and text[t + 1].isalnum()
            ):
                i += 1
                continue
            yield Hit(s + offset, t + offset, e)
            i = j


def _key(phrase: str) -> str:
    return " ".join(norm_token(t) for _, _, t in tokens(phrase))


def _accepts(entry: Entry, surface: str) -> bool:
    if entry.case_sensitive:
        return surface == entry.phrase or surface == entry.phrase.replace("'", "’")
    return not (len(surface) <= 3 and surface.isupper() and len(surface) > 1)


def read_tsv(path: Path, columns: int) -> list[tuple[str, ...]]:
    """Rows of a lexicon TSV ('#' comments), padded to ``columns`` fields; the first field is required."""
    rows: list[tuple[str, ...]] = []
    for n, fields, line in tsv_lines(path):
        parts = tuple(fields)
        if not (1 <= len(parts) <= columns) or not parts[0]:
            raise DataFileError(f"{path.name}:{n}: expected up to {columns} tab-separated fields, got {line!r}")
        rows.append(parts + ("",) * (columns - len(parts)))
    return rows


def digest_files(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def entry(phrase: str, *value: str) -> Entry:
    return Entry(phrase, tuple(value), case_sensitive=any(c.isupper() for c in phrase))
