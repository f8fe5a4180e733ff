"""ODRL 2.2 request evaluation with compliance reports in the FORCE Compliance Report Model.

``evaluate(policy, request, state)`` reads an ODRL policy, an ODRL request and (optionally) a state of the
world, and returns a PolicyReport: a rule report per rule with attempt and activation states, premise reports
(target, party, action, constraint) with satisfaction states, duties with performance and deontic states.
"""

from __future__ import annotations

from pp_graph.odrl.api import evaluate, evaluate_parsed, load_graph
from pp_graph.odrl.report import PolicyReport, PremiseReport, RuleReport
from pp_graph.odrl.serialize import rows, to_dict, to_graph, to_turtle

__all__ = [
    "PolicyReport",
    "PremiseReport",
    "RuleReport",
    "evaluate",
    "evaluate_parsed",
    "load_graph",
    "rows",
    "to_dict",
    "to_graph",
    "to_turtle",
]
