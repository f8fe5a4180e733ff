"""The small core works without the extras, and a feature whose extra is missing says which one to install.

The optional modules are made unimportable in a subprocess (a meta-path finder installed by sitecustomize), so the
test runs in the full development environment and still sees what a core-only install would."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pp_graph.extras import EXTRAS, MissingExtra, import_optional, missing, need

ROOT = Path(__file__).resolve().parents[1]
BLOCKER = """
import sys
BLOCKED = {blocked!r}
class _Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Blocker())
"""


@pytest.fixture(scope="module")
def core_only(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A working folder and an environment in which every extra's modules are missing."""
    work = tmp_path_factory.mktemp("core")
    blocker = work / "blocker"
    blocker.mkdir()
    blocked = sorted({m for mods in EXTRAS.values() for m in mods})
    (blocker / "sitecustomize.py").write_text(BLOCKER.format(blocked=blocked))
    shutil.copy(ROOT / "examples" / "github.com.md", work / "github.com.md")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)])}
    return work, env


def _cli(work: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "pp_graph.cli", *args]
    return subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=300)


def test_the_core_converts_validates_queries_and_exports_without_any_extra(core_only: tuple[Path, dict]) -> None:
    work, env = core_only
    probe = subprocess.run(
        [sys.executable, "-c", "import importlib.util as u; print(u.find_spec('spacy'))"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "No module named 'spacy'" in probe.stderr  # the blocker is in force
    for args in (
        ("convert", "github.com.md", "-o", "out"),
        ("validate", "out"),
        ("query", "stats-totals", "out"),
        ("export", "odrl", "out", "-o", "odrl"),
    ):
        r = _cli(work, env, *args)
        assert r.returncode == 0, (args, r.stderr[-2000:])
        assert "Traceback" not in r.stderr
    assert (work / "odrl" / "github.com.odrl.ttl").is_file()


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("report", "out", "-o", "report.html"), "report"),
        (("serve", "out", "--port", "0"), "ui"),
        (
            (
                "risk",
                "--site",
                "github.com",
                "--text",
                "Mail jane@example.org",
                "--purpose",
                "dpv:Marketing",
                "--graph",
                "out",
            ),
            "anonymize",
        ),
        (
            (
                "convert",
                "github.com.md",
                "-o",
                "out-llm",
                "--backend",
                "llm",
                "--model",
                "m",
                "--option",
                "base_url=http://127.0.0.1:9/v1",
            ),
            "llm",
        ),
        (("convert", "http://127.0.0.1:9/privacy", "--render", "--allow-private", "-o", "out-render"), "render"),
    ],
)
def test_a_missing_extra_is_named_with_its_install_line(
    core_only: tuple[Path, dict], args: tuple[str, ...], extra: str
) -> None:
    work, env = core_only
    if not (work / "out").is_dir():
        assert _cli(work, env, "convert", "github.com.md", "-o", "out").returncode == 0
    r = _cli(work, env, *args)
    assert r.returncode != 0
    assert "Traceback" not in r.stderr + r.stdout
    assert f"pip install 'pp-graph[{extra}]'" in r.stderr + r.stdout


def test_the_extras_table_matches_the_packaging_metadata() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name in EXTRAS:
        assert name in extras, name
    core = " ".join(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]).lower()
    for mods in EXTRAS.values():  # no extra's package is a core dependency
        for m in mods:
            assert not re.search(rf"\b{m.replace('_', '[-_]')}\b", core), m
    all_line = " ".join(extras["all"])
    assert all(name in all_line for name in EXTRAS)


def test_import_optional_names_the_extra() -> None:
    assert import_optional("json", "llm", "x").dumps([]) == "[]"
    with pytest.raises(MissingExtra, match=r"the thing needs pp-graph's optional 'ui' part \(no_such_module_xyz"):
        import_optional("no_such_module_xyz", "ui", "the thing")
    assert missing("report") == []  # the development environment has every extra
    need("report", "charts")
