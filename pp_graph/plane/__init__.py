"""The privacy data plane: typed fields, contract projections per boundary, scoped memory with TTL and a
verifiable decision ledger (hash chain + RFC 6962 Merkle tree + signed checkpoints), in one SQLite file.

Layers: fields → contracts → text (free text through the anonymizer) → projection (uses risk for site
tightening) → merkle → ledger, memory → api.
"""

from pp_graph.plane.api import DataPlane, EgressDenied
from pp_graph.plane.contracts import Contract, Contracts, FieldRule
from pp_graph.plane.fields import Field, PrivacyClass
from pp_graph.plane.projection import Projection
from pp_graph.plane.text import AnonymizerText, TextRewrite

__all__ = [
    "AnonymizerText",
    "Contract",
    "Contracts",
    "DataPlane",
    "EgressDenied",
    "Field",
    "FieldRule",
    "PrivacyClass",
    "Projection",
    "TextRewrite",
]
