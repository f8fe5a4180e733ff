"""Symbolic links in an input folder that cannot be read as policies (loops, missing targets, links to folders)
are listed as skipped with the reason, never silently left out (issue 28 §4)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.load.sources import policy_files, skip_reason

pytestmark = pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "in"
    (d / "sub").mkdir(parents=True)
    (d / "shop.example.md").write_text("We collect your email address to send receipts.\n", encoding="utf-8")
    (d / "self.example.md").symlink_to("self.example.md")  # a link to itself
    (d / "b.example.md").symlink_to("c.example.md")  # two links pointing at each other
    (d / "c.example.md").symlink_to("b.example.md")
    (d / "gone.example.md").symlink_to("nowhere.md")
    (d / "sub" / "up").symlink_to("..")  # a folder link back to its parent
    return d


def test_links_are_listed_as_skipped_with_the_reason(folder: Path) -> None:
    policies, skipped = policy_files([folder])
    assert [p.name for p in policies] == ["shop.example.md"]
    reasons = {p.relative_to(folder).as_posix(): skip_reason(p) for p in skipped}
    assert reasons["self.example.md"] == reasons["b.example.md"] == reasons["c.example.md"]
    assert "symbolic link loop" in str(reasons["self.example.md"])
    assert "broken symbolic link" in str(reasons["gone.example.md"])
    assert "symbolic link loop" in str(reasons["sub/up"]) and "contains it" in str(reasons["sub/up"])


def test_convert_reports_each_link(folder: Path, tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["convert", str(folder), "-o", str(tmp_path / "o"), "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    files = {f["source"]: f for f in report["files"]}
    for name in ("self.example.md", "b.example.md", "c.example.md", "gone.example.md", "sub/up"):
        assert files[name]["status"] == "skipped" and "symbolic link" in files[name]["error"], name
    assert files["shop.example.md"]["status"] == "converted"
