"""The shared TOML data-file loader: each problem is a DataFileError naming the file (and the entry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.errors import DataFileError
from pp_graph.model import PracticeType
from pp_graph.rulefiles import dpv_concept, example_tables, member, need, pattern, read_toml, unique_ids, versioned


def test_read_toml_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match=r"^gone\.toml: cannot be read \("):
        read_toml(tmp_path / "gone.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("x = [", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"^bad\.toml: not valid TOML \("):
        read_toml(bad)
    bad.write_bytes(b'x = "\xff"')
    with pytest.raises(DataFileError, match=r"^bad\.toml: not valid TOML \("):
        read_toml(bad)
    bad.write_text('version = "1"\n[[rule]]\nid = "a"\n', encoding="utf-8")
    assert read_toml(bad) == {"version": "1", "rule": [{"id": "a"}]}


def test_entry_checks_name_the_entry() -> None:
    where = "f.toml: rule 2 (x)"
    assert need({"n": 3}, "n", int, where) == 3
    with pytest.raises(DataFileError, match=r"^f\.toml: rule 2 \(x\): 'n' is missing or not a str$"):
        need({"n": 3}, "n", str, where)
    assert pattern("We\\s+SELL", where).search("we sell")
    with pytest.raises(DataFileError, match="pattern '\\(x' is not a valid regular expression"):
        pattern("(x", where)
    assert member(PracticeType, "do-not-track", where) is PracticeType.DO_NOT_TRACK
    with pytest.raises(DataFileError, match=r"'gossip' is not one of .*do-not-track"):
        member(PracticeType, "gossip", where)
    assert dpv_concept("dpv:Purpose", where) == "https://w3id.org/dpv#Purpose"
    with pytest.raises(DataFileError, match="concept 'dpv:NoSuchThing' is not defined in the vendored DPV"):
        dpv_concept("dpv:NoSuchThing", where)
    with pytest.raises(DataFileError, match="'nope:X' is not a DPV term"):
        dpv_concept("nope:X", where)
    unique_ids(["a", "b"], "f.toml", "rule")
    with pytest.raises(DataFileError, match=r"^f\.toml: rule ids repeat$"):
        unique_ids(["a", "b", "a"], "f.toml", "rule")


def test_examples_are_typed_tables() -> None:
    ok = [{"text": "a", "found": True, "extra": 1}]
    assert example_tables(ok, "w", {"text": str, "found": bool}) == ok
    for bad in (None, "text", [["a"]]):
        with pytest.raises(DataFileError, match=r"^w: needs examples, a list of tables$"):
            example_tables(bad, "w", {"text": str})
    with pytest.raises(DataFileError, match=r"^w: 'found' is missing or not a bool$"):
        example_tables([{"text": "a", "found": "yes"}], "w", {"text": str, "found": bool})


def test_versioned_changes_with_the_content() -> None:
    a, b = versioned("3", b"x = 1"), versioned("3", b"x = 2")
    assert a.startswith("3+") and len(a) == 2 + 12 and a != b and a == versioned("3", b"x = 1")
