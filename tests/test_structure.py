"""Structural rules read from the source with the standard library only (ast): what crosses a module is public.

A module may use its own underscore names freely; it may not import another module's (``from x import _y``) nor
reach into one (``x._y`` where ``x`` is an imported module). Dunder names (``__version__``) are public.
Add a package to PACKAGES once it keeps the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["pp_graph/extract", "pp_graph/anonymize"]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module an ImportFrom reads from, with a relative import resolved against ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def _is_module(dotted: str, root: Path) -> bool:
    path = root.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _module_aliases(tree: ast.Module, module: str, is_package: bool, root: Path) -> dict[str, str]:
    """Local names bound to a module: ``import a.b as x``, ``import a`` and ``from a import b`` (b a module)."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            for a in node.names:
                if _is_module(f"{source}.{a.name}", root):
                    aliases[a.asname or a.name] = f"{source}.{a.name}"
    return aliases


def private_uses(path: Path, root: Path = ROOT) -> list[str]:
    """Each underscore name ``path`` takes from another module, as ``file:line: module._name``."""
    module = _module_name(path, root)
    is_package = path.name == "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    where = path.relative_to(root).as_posix()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, is_package)
            found += [f"{where}:{node.lineno}: {source}.{a.name}" for a in node.names if _private(a.name)]
    aliases = _module_aliases(tree, module, is_package, root)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name):
            target = aliases.get(node.value.id)
            if target is not None and target != module:
                found.append(f"{where}:{node.lineno}: {target}.{node.attr}")
    return sorted(set(found))


def package_violations(package: str, root: Path = ROOT) -> list[str]:
    return [v for f in sorted((root / package).rglob("*.py")) for v in private_uses(f, root)]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_underscore_name_crosses_a_module(package: str) -> None:
    assert package_violations(package) == []


def test_the_check_finds_each_way_of_taking_a_private_name(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("_x = 1\nX = 2\n__version__ = '1'\n")
    (pkg / "sub" / "b.py").write_text(
        "import pkg.a as alias\nfrom pkg import a\nfrom pkg.a import _x, X, __version__\nfrom .. import a as rel\n"
        "from ..a import _x as y\nimport re\n\n"
        "print(alias._x, a._x, a.X, rel._x, re._compile, _local)\n_local = 1\n"
    )
    found = package_violations("pkg", tmp_path)
    assert found == [
        "pkg/sub/b.py:3: pkg.a._x",
        "pkg/sub/b.py:5: pkg.a._x",
        "pkg/sub/b.py:8: pkg.a._x",
        "pkg/sub/b.py:8: re._compile",
    ]
    (pkg / "a.py").write_text("_x = 1\nprint(_x)\n")  # a module's own underscore names are its business
    (pkg / "sub" / "b.py").write_text("from pkg.a import X\n")
    assert package_violations("pkg", tmp_path) == []
