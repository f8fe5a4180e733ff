"""The README and docs/ document every command, so the docs cannot drift from the CLI."""

from __future__ import annotations

from pathlib import Path

from pp_graph.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# The user documentation: the README and the pages of docs/ (the site includes both).
DOCS = README + "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))


def test_every_command_is_documented() -> None:
    missing = [name for name in main.commands if f"pp-graph {name}" not in DOCS]
    assert not missing, f"commands documented neither in README.md nor in docs/*.md: {missing}"


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


def test_readme_links_resolve() -> None:
    import re

    root = Path(__file__).resolve().parents[1]
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [t for t in targets if "://" not in t]
    assert local, "the README links to no documentation page"
    missing = [t for t in local if not (root / t).is_file()]
    assert not missing, f"README links to missing files: {missing}"


def test_readme_stays_short() -> None:
    assert len(README.encode("utf-8")) <= 12 * 1024, "the README is a front door; move details to docs/"


def test_the_readme_lists_every_user_extra() -> None:
    # `render` was left out of the README's list when it was added to pyproject.toml.
    import re
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    user = set(extras) - {"dev", "docs", "neural"}  # for developers and benchmarks, not users
    line = README.split("\nExtras: ", 1)[1].split("\n\n", 1)[0]
    assert set(re.findall(r"`(\w+)`", line)) >= user
