"""pp-graph: privacy policies → a validated, DPV-grounded Pr2Graph knowledge graph.

The front door (``convert``, ``convert_text``, ``Conversion``, ``PolicyReport``) lives in ``pp_graph.api``
and is loaded on first use, so commands that never convert (query, risk, cache…) don't import rdflib.
"""

from typing import TYPE_CHECKING, Any

from pp_graph.version import __version__

__all__ = ["Conversion", "PolicyReport", "__version__", "anonymize", "convert", "convert_text"]

if TYPE_CHECKING:
    from pp_graph.api import Conversion, PolicyReport, convert, convert_text


def __getattr__(name: str) -> Any:
    if name == "anonymize":  # pp_graph.anonymize(text, level=...) and the package pp_graph.anonymize both work
        import importlib

        return importlib.import_module("pp_graph.anonymize")
    if name in __all__:
        from pp_graph import api

        return getattr(api, name)
    raise AttributeError(f"module 'pp_graph' has no attribute {name!r}")
