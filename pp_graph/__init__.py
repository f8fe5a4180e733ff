"""pp-graph: privacy policies → a validated, DPV-grounded Pr2Graph knowledge graph."""

__version__ = "0.1.0"
