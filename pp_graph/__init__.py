"""pp-graph: privacy policies → a validated, DPV-grounded Pr2Graph knowledge graph."""

from pp_graph.convert import Conversion, PolicyReport, convert, convert_text

__version__ = "0.1.0"
__all__ = ["Conversion", "PolicyReport", "__version__", "convert", "convert_text"]
