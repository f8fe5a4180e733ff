"""A caller's RDF for ODRL, parsed by rdflib with ill-typed literals refused by name.

rdflib keeps a literal whose lexical form does not fit its datatype (``"abc"^^xsd:integer``) with no value, and logs
the failed conversion with a traceback that quotes the value on stderr. A constraint compared with such a literal
would be decided on nothing, so the input is refused instead, and the log record (a traceback in a user's terminal,
a caller's value in a server's log) is dropped.
"""

from __future__ import annotations

import logging
from typing import Any

from rdflib import Graph, Literal

from pp_graph.errors import InputError

_CONVERSION = "Failed to convert Literal lexical form"


class _NoConversionTraceback(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(_CONVERSION)


_FILTER = _NoConversionTraceback()


def parse_quietly(**parse_args: Any) -> Graph:
    """``Graph().parse(**parse_args)`` without rdflib's traceback for an ill-typed literal (see
    :func:`refuse_ill_typed`); parser errors are raised as they come, for the caller to word."""
    logging.getLogger("rdflib.term").addFilter(_FILTER)  # a logger keeps one copy of a filter however often added
    return Graph().parse(**parse_args)


def refuse_ill_typed(g: Graph, where: str) -> Graph:
    """``g``, or InputError naming ``where`` and the first literal whose lexical form does not fit its datatype."""
    bad = next((o for o in g.objects() if isinstance(o, Literal) and o.ill_typed), None)
    if bad is not None:
        kind = bad.datatype.n3(g.namespace_manager) if bad.datatype else "literal"
        raise InputError(where, f"the literal {str(bad)[:80]!r} is not a valid {kind}")
    return g
