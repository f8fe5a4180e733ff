"""Every shell and Python example of the README and the docs site runs, so the documentation cannot drift.

A fenced ```bash, ```console or ```python block is run; one that cannot run in a test (a server, the network, an LLM
endpoint, a dataset that is not in the repository) carries `<!-- no-test: REASON -->` on the line before its fence.
The blocks of one page run in order in one temporary folder holding a copy of examples/ and the examples converted
to out/ (what "Getting started" does first), with `pp-graph` on the PATH running this checkout.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUNNABLE = {"bash", "console", "python"}
SHELL_LIKE = {"sh", "shell", "zsh"}  # write these as bash or console, so they run
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,})(?P<lang>[\w+-]*)[^\n]*$")
NO_TEST = re.compile(r"^\s*<!--\s*no-test:(?P<reason>.*?)-->\s*$")
TIMEOUT = 300


@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    code: str
    skip: str | None  # the reason given in <!-- no-test: … -->, "" when the marker has none

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a markdown page, with the no-test marker before each, if any."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks = m["indent"], m["ticks"]
        end = i + 1
        while end < len(lines) and lines[end].strip() != ticks:
            end += 1
        body = [ln[len(indent) :] if ln.startswith(indent) else ln for ln in lines[i + 1 : end]]
        prev = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = NO_TEST.match(prev)
        skip = marker["reason"].strip() if marker else None
        found.append(Block(page, i + 1, m["lang"].lower(), "\n".join(body) + "\n", skip))
        i = end + 1
    return found


def console_commands(code: str) -> str:
    """The commands of a console block: lines after `$ `, with their backslash continuations."""
    out, cont = [], False
    for line in code.splitlines():
        if cont or line.startswith("$ "):
            text = line if cont else line[2:]
            out.append(text)
            cont = text.rstrip().endswith("\\")
    return "\n".join(out) + "\n"


def all_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page)]


def test_pages_have_examples_and_the_parser_finds_them() -> None:
    langs = {b.lang for b in all_blocks()}
    assert {"bash", "python"} <= langs
    assert console_commands("$ pp-graph a \\\n  --b\nout\n$ ls\nfile\n") == "pp-graph a \\\n  --b\nls\n"


def test_every_skipped_block_says_why() -> None:
    bad = [b.where() for b in all_blocks() if b.skip is not None and not b.skip]
    assert not bad, f"<!-- no-test: --> without a reason at {bad}"


def test_no_unmarked_shell_block_escapes_the_tests() -> None:
    bad = [b.where() for b in all_blocks() if b.lang in SHELL_LIKE and b.skip is None]
    assert not bad, f"shell examples fenced as sh/shell are not run: fence them as bash or console at {bad}"


def test_skip_markers_sit_on_runnable_blocks() -> None:
    bad = [b.where() for b in all_blocks() if b.skip is not None and b.lang not in RUNNABLE | SHELL_LIKE]
    assert not bad, f"no-test marker before a block that would not run anyway at {bad}"


@pytest.fixture(scope="session")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled examples converted once, as `pp-graph convert examples/ -o out/` does in Getting started."""
    from click.testing import CliRunner

    from pp_graph.cli import main

    out = tmp_path_factory.mktemp("docs-out") / "out"
    res = CliRunner().invoke(main, ["convert", str(ROOT / "examples"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


def shell_env(tmp: Path) -> dict[str, str]:
    """`pp-graph` on the PATH running this checkout; no LLM keys or endpoints from the caller's environment."""
    bindir = tmp / ".bin"
    bindir.mkdir()
    shim = bindir / "pp-graph"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pp_graph.cli "$@"\n', encoding="utf-8")
    shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PP_GRAPH_"))}
    env["PATH"] = os.pathsep.join([str(bindir), str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env["HOME"] = str(tmp / ".home")
    return env


def run_block(block: Block, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    if block.lang == "python":
        argv = [sys.executable, "-c", block.code]
    else:
        code = console_commands(block.code) if block.lang == "console" else block.code
        argv = ["bash", "-e", "-o", "pipefail", "-c", code]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)


PAGES_WITH_EXAMPLES = [p for p in PAGES if any(b.lang in RUNNABLE and b.skip is None for b in blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_page_examples_run(page: Path, converted: Path, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(converted, tmp_path / "out")
    env = shell_env(tmp_path)
    for block in blocks(page):
        if block.lang not in RUNNABLE or block.skip is not None:
            continue
        t = time.perf_counter()
        res = run_block(block, tmp_path, env)
        took = time.perf_counter() - t
        assert res.returncode == 0, (
            f"example at {block.where()} exited {res.returncode} after {took:.1f} s\n--- code\n{block.code}"
            f"--- stdout\n{res.stdout[-3000:]}\n--- stderr\n{res.stderr[-3000:]}"
        )
