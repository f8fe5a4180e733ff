"""`python -m pp_graph.cli`: the same as the pp-graph command."""

from pp_graph.cli import run

run()
