"""The README (or a page of docs/) documents every command, so the docs cannot drift from the CLI."""

from __future__ import annotations

from pathlib import Path

from pp_graph.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))


def test_every_command_is_in_the_readme() -> None:
    missing = [name for name in main.commands if f"pp-graph {name}" not in README + PAGES]
    assert not missing, f"commands not documented in README.md or docs/: {missing}"


def test_quick_start_is_the_two_make_commands() -> None:
    quick = README.split("## Quick start", 1)[1].split("##", 1)[0]
    assert quick.index("make demo") < quick.index("make test")


def test_front_door_is_lazy_and_callable() -> None:
    import subprocess
    import sys

    code = (
        "import sys, pp_graph.cli, pp_graph.batch; assert 'rdflib' not in sys.modules, 'rdflib imported eagerly'; "
        "import pp_graph.api, pp_graph; assert callable(pp_graph.convert) and callable(pp_graph.convert_text)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
