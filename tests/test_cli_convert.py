"""The convert and validate commands as a user runs them (exit codes, JSON report)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from pp_graph.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "policies"


def test_convert_single_file_with_site_and_format(tmp_path: Path) -> None:
    src = tmp_path / "policy.md"
    shutil.copy(FIXTURES / "tinyshop.example.md", src)
    res = CliRunner().invoke(
        main,
        [
            "convert",
            str(src),
            "--site",
            "shop.example",
            "--format",
            "nq",
            "-o",
            str(tmp_path / "o"),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["converted"] == 1 and report["files"][0]["site"] == "shop.example"
    assert "<urn:pp-graph:policy:shop.example:" in (tmp_path / "o" / "shop.example.nq").read_text()


def test_convert_exit_code_1_when_a_file_fails(tmp_path: Path) -> None:
    src = tmp_path / "in"
    shutil.copytree(FIXTURES, src)
    (src / "empty.example.txt").write_text("", encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o")])
    assert res.exit_code == 1
    assert "empty.example.txt: is empty" in res.output
    assert (tmp_path / "o" / "tinyshop.example.trig").exists()  # the rest was converted


def test_convert_missing_input_is_exit_2(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["convert", str(tmp_path / "nope"), "-o", str(tmp_path / "o")])
    assert res.exit_code == 2 and "no such file or folder" in res.output


def test_bad_option_value_is_exit_2(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["convert", str(FIXTURES), "--backend", "nope", "-o", str(tmp_path)])
    assert res.exit_code == 2 and "unknown backend 'nope'" in res.output
