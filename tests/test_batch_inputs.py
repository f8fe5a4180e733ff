"""Odd inputs and outputs of a batch: permissions, encodings, domains, hidden files, names, limits, progress."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.batch import convert_batch
from pp_graph.cli import main
from pp_graph.load.sources import load_policy
from pp_graph.sites import site_host

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "policies"
TEXT = (FIXTURES / "tinyshop.example.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_outputs_follow_the_umask(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        rep = convert_batch([FIXTURES / "tinyshop.example.md"], tmp_path / "o")
    finally:
        os.umask(old)
    assert rep.ok
    for p in (tmp_path / "o").iterdir():
        assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~umask, p.name


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_a_bom_are_read(tmp_path: Path, codec: str) -> None:
    raw = TEXT.encode(codec)
    if codec == "utf-16-be":
        raw = b"\xfe\xff" + raw
    path = tmp_path / "tinyshop.example.md"
    path.write_bytes(raw)
    assert load_policy(path).text == load_policy(FIXTURES / "tinyshop.example.md").text


def test_internationalised_domains_become_punycode_everywhere(tmp_path: Path) -> None:
    src = tmp_path / "bücher.example.md"
    src.write_text(TEXT, encoding="utf-8")
    rep = convert_batch([tmp_path], tmp_path / "o")
    assert rep.ok, rep.files
    assert rep.files[0].site == "xn--bcher-kva.example"
    graph = (tmp_path / "o" / "xn--bcher-kva.example.trig").read_text()
    assert "<urn:pp-graph:site:xn--bcher-kva.example>" in graph
    assert site_host("https://www.Bücher.Example/privacy?x=1") == "xn--bcher-kva.example"


def test_convert_site_takes_what_risk_takes(tmp_path: Path) -> None:
    src = tmp_path / "policy.md"
    src.write_text(TEXT, encoding="utf-8")
    res = CliRunner().invoke(
        main, ["convert", str(src), "--site", "https://www.Shop.Example/privacy", "-o", str(tmp_path / "o")]
    )
    assert res.exit_code == 0, res.output
    assert (tmp_path / "o" / "shop.example.trig").exists()


def test_a_bad_site_option_does_not_say_pass_site(tmp_path: Path) -> None:
    src = tmp_path / "policy.md"
    src.write_text(TEXT, encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(src), "--site", "not a site", "-o", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert "'not a site' is not a domain name" in res.output and "--site DOMAIN" not in res.output
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o")])
    assert "or give --site DOMAIN" in res.output  # the name came from the file: then the hint helps


@pytest.mark.parametrize("command", ["comply", "contradictions", "cost"])
def test_commands_that_convert_texts_take_site_for_a_file_not_named_after_it(tmp_path: Path, command: str) -> None:
    # They refused policy.md and hinted at `convert --site`, an option of another command.
    src = tmp_path / "policy.md"
    src.write_text(TEXT, encoding="utf-8")
    res = CliRunner().invoke(main, [command, str(src)])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "policy.md: site 'policy' is not a domain name" in res.output
    assert "name the file after its site (e.g. github.com.md), or give --site DOMAIN" in res.output
    res = CliRunner().invoke(main, [command, str(src), "--site", "shop.example", "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    if command != "cost":
        assert json.loads(res.output)["policies"][0]["site"] == "shop.example"


@pytest.mark.parametrize("command", ["comply", "contradictions", "cost"])
def test_site_names_one_policy_text(tmp_path: Path, command: str) -> None:
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text(TEXT, encoding="utf-8")
    res = CliRunner().invoke(main, [command, str(tmp_path / "a.md"), str(tmp_path / "b.md"), "--site", "x.example"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "--site names the site of one policy text, got 2" in res.output


def test_hidden_and_appledouble_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    src = tmp_path / "in"
    shutil.copytree(FIXTURES, src)
    (src / "._tinyshop.example.md").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")
    (src / ".draft.example.md").write_text(TEXT, encoding="utf-8")
    (src / ".git").mkdir()
    (src / ".git" / "old.example.md").write_text(TEXT, encoding="utf-8")
    rep = convert_batch([src], tmp_path / "o")
    assert rep.ok
    status = {f.source: (f.status, f.error) for f in rep.files if f.status != "converted"}
    assert status["._tinyshop.example.md"][0] == "skipped"
    assert "AppleDouble" in (status["._tinyshop.example.md"][1] or "")
    assert status[".draft.example.md"] == ("skipped", ".draft.example.md: hidden file; skipped")
    assert not any("old.example" in s for s in status)


def test_failures_are_printed_once_by_their_path_under_the_input(tmp_path: Path) -> None:
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "github.com.md").write_text(TEXT, encoding="utf-8")
    (src / "sub" / "github.com.md").write_text(TEXT + "\nMore.\n", encoding="utf-8")
    (src / "sub" / "empty.example.md").write_text(" ", encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o")])
    assert res.exit_code == 1
    assert res.output.count("sub/empty.example.md: is empty") == 1
    assert res.output.count("sub/github.com.md: same site github.com as github.com.md") == 1


def test_size_limit_names_the_file_and_how_to_raise_it(tmp_path: Path) -> None:
    src = tmp_path / "big.example.md"
    src.write_text(TEXT * 30, encoding="utf-8")  # 13.6 kB
    res = CliRunner().invoke(main, ["convert", str(src), "--max-size", "0.01", "-o", str(tmp_path / "o"), "--json"])
    assert res.exit_code == 1
    report = json.loads(res.stdout)
    err = report["files"][0]["error"]
    assert err == (
        f"{src}: is 0.0136 MB, over the size limit of 0.01 MB; "
        "if it really is one policy, raise the limit (--max-size 1)"
    )
    assert not (tmp_path / "o" / "big.example.trig").exists()


def test_seconds_include_writing_and_steps_are_reported(tmp_path: Path) -> None:
    steps: list[tuple[str, str]] = []
    rep = convert_batch(
        [FIXTURES / "tinyshop.example.md"], tmp_path / "o", fmt="nq", on_step=lambda f, s, i, n: steps.append((f, s))
    )
    report = rep.files[0].report
    assert 0 < report["write_seconds"] <= report["seconds"]
    names = [s for _, s in steps]
    # reading and building the graph are steps of their own: on a policy of megabytes they take seconds too
    assert names[:2] == ["reading", "data"] and "relations" in names and names[-2:] == ["graph", "write"]
    assert {f for f, _ in steps} == {str(FIXTURES / "tinyshop.example.md")}
