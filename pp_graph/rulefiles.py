"""Loading the project's TOML data files (rules, cues, laws, severities): the file read and parsed, an entry's fields,
patterns, enum values, DPV terms and examples checked, each error a DataFileError naming the file and the entry.

``where`` is the place an error names: the file's name, then the entry ("statements.toml: statement 3 (statement.x)").
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from pp_graph.errors import DataFileError, VocabularyError
from pp_graph.vocab.dpv import expand, vocabulary

E = TypeVar("E", bound=Enum)


def read_bytes(path: Path) -> bytes:
    """The file's bytes; DataFileError naming it when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as e:
        raise DataFileError(f"{path.name}: cannot be read ({e.strerror})") from e


def parse_toml(data: bytes, name: str) -> dict[str, Any]:
    """The TOML document in ``data`` (UTF-8); DataFileError naming the file ``name`` when it is not valid TOML."""
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise DataFileError(f"{name}: not valid TOML ({e})") from e


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML document of ``path``; DataFileError naming it when it cannot be read or parsed."""
    return parse_toml(read_bytes(path), path.name)


def versioned(version: str, data: bytes) -> str:
    """The version a graph records, "<version>+<content digest>": an edited file shows even at the same version."""
    return f"{version}+{hashlib.sha256(data).hexdigest()[:12]}"


def need(obj: dict[str, Any], key: str, kind: type, where: str) -> Any:
    """``obj[key]``, which must be a ``kind``."""
    value = obj.get(key)
    if not isinstance(value, kind):
        raise DataFileError(f"{where}: {key!r} is missing or not a {kind.__name__}")
    return value


def pattern(text: str, where: str) -> re.Pattern[str]:
    """``text`` compiled as a case-insensitive regular expression."""
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as e:
        raise DataFileError(f"{where}: pattern {text!r} is not a valid regular expression ({e})") from e


def strings(raw: dict[str, Any], key: str, where: str) -> list[str]:
    """``raw[key]``: a list of non-empty strings, empty when the key is absent."""
    values = raw.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) and v for v in values):
        raise DataFileError(f"{where}: {key!r} must be a list of non-empty strings")
    return values


def member(kind: type[E], value: str, where: str) -> E:
    """The member of the enum ``kind`` whose value is ``value``; the error lists the allowed values."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(m.value) for m in kind)
        raise DataFileError(f"{where}: {value!r} is not one of {allowed}") from None


def dpv_concept(term: str, where: str) -> str:
    """The full IRI of a CURIE (``dpv:Purpose``) that the vendored DPV defines."""
    try:
        iri = expand(term)
    except VocabularyError as e:
        raise DataFileError(f"{where}: {term!r} is not a DPV term ({e})") from e
    if iri not in vocabulary().labels:
        raise DataFileError(f"{where}: concept {term!r} is not defined in the vendored DPV")
    return iri


def unique_ids(ids: list[str], name: str, what: str) -> None:
    """No two entries share an id ("statements.toml: statement ids repeat")."""
    if len(set(ids)) != len(ids):
        raise DataFileError(f"{name}: {what} ids repeat")


def example_tables(raw: object, where: str, fields: dict[str, type]) -> list[dict[str, Any]]:
    """An entry's examples: a list of tables, each with ``fields`` of their types (other keys are the caller's)."""
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise DataFileError(f"{where}: needs examples, a list of tables")
    for e in raw:
        for key, kind in fields.items():
            need(e, key, kind, where)
    return raw
