"""Graph files: the supported suffixes and discovery under files/folders (shared by the stores and SHACL)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from pp_graph.errors import InputError

# Suffix (lower case) → rdflib format name; pyoxigraph formats are looked up by the same suffixes.
GRAPH_SUFFIXES = {".trig": "trig", ".ttl": "turtle", ".nq": "nquads", ".nt": "ntriples", ".jsonld": "json-ld"}


def graph_suffix(path: Path) -> str:
    """The file's suffix, lower case; InputError naming the file when it is not a graph file."""
    suffix = path.suffix.lower()
    if suffix not in GRAPH_SUFFIXES:
        raise InputError(
            str(path), f"unsupported graph file type {path.suffix!r}; expected one of {', '.join(GRAPH_SUFFIXES)}"
        )
    return suffix


def graph_files(paths: Iterable[Path | str]) -> list[Path]:
    """Graph files under the given files/folders: folders searched recursively (sorted), files checked."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(f for f in sorted(p.rglob("*")) if f.is_file() and f.suffix.lower() in GRAPH_SUFFIXES)
        elif p.is_file():
            graph_suffix(p)
            out.append(p)
        else:
            raise InputError(str(p), "no such file or folder")
    return out


def no_graph_files(paths: Iterable[Path]) -> str:
    """The message for inputs that hold no graph file, listing the suffixes that count."""
    return f"no graph files ({', '.join(GRAPH_SUFFIXES)}) under {', '.join(map(str, paths))}"


def parse_failure(path: Path | str, e: BaseException, fmt: str) -> InputError:
    """The typed error for a graph file the RDF parser gave up on, naming the file: a syntax error, an I/O error,
    or memory — pyoxigraph's parser stops at a single token (a literal or IRI) over 16 MiB with a MemoryError."""
    if isinstance(e, MemoryError):
        detail = str(e) or "out of memory"
        return InputError(
            str(path), f"is too large to parse ({detail}); a single literal or IRI over 16 MiB cannot be loaded"
        )
    if isinstance(e, OSError):
        return InputError(str(path), f"cannot be read ({e.strerror or e})")
    return InputError(str(path), f"is not valid {fmt}: {e}")
