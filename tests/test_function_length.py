"""The project's rule: no function over ~80 lines (a long one is split into named helpers)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 80


def _long_functions(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1  # the def line to the last, with docstring
                if lines > MAX_LINES:
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({lines} lines)")
    return out


def test_no_function_in_the_package_or_the_benchmarks_is_over_80_lines() -> None:
    long = _long_functions(ROOT / "pp_graph") + _long_functions(ROOT / "benchmarks")
    assert not long, "split these into named helpers:\n" + "\n".join(long)
