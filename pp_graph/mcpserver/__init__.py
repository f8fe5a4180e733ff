"""pp-graph over the Model Context Protocol: the policy graph, the risk engine and the anonymizer as MCP tools.

Layers: ``service`` (the tools as plain functions over a store, an engine and the ledger; no MCP import) →
``record`` (what a call writes to the data plane's ledger: names, categories, decisions, never a raw value) →
``server`` (the MCP server on the official SDK: JSON-Schema'd tools, one resource per policy, stdio or HTTP).
"""

from pp_graph.mcpserver.service import MAX_TEXT, PolicyService

__all__ = ["MAX_TEXT", "PolicyService"]
