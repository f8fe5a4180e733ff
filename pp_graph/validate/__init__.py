"""SHACL validation of policy graphs against ontologies/pr2graph-shapes.ttl (see :mod:`.shacl`)."""

from pp_graph.graph.files import GRAPH_SUFFIXES, graph_files
from pp_graph.validate.shacl import (
    FileValidation,
    UnsupportedShapes,
    ValidationReport,
    ValidationResult,
    typing_graph,
    validate,
    validate_each,
    validate_files,
)

__all__ = [
    "GRAPH_SUFFIXES",
    "FileValidation",
    "UnsupportedShapes",
    "ValidationReport",
    "ValidationResult",
    "graph_files",
    "typing_graph",
    "validate",
    "validate_each",
    "validate_files",
]
