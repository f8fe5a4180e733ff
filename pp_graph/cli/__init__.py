"""The pp-graph command line: a thin click shell over the library.

Each module in COMMAND_MODULES exposes ``commands`` (a list of click commands); adding a command
family is one module plus one line here.
"""

from __future__ import annotations

import importlib

import click

from pp_graph.version import __version__

COMMAND_MODULES = [
    "convert",
    "explain",
    "evaluate",
    "risk",
    "anonymize",
    "llm",
    "query",
    "train",
    "plane",
    "audit",
    "view",
    "versions",
    "mcp",
    "coverage",
    "odrl",
    "comply",
    "contradictions",
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pp-graph")
def main() -> None:
    """Turn privacy policies into a validated, DPV-grounded knowledge graph (Pr2Graph)."""


def run(args: list[str] | None = None) -> None:
    """The console entry point (the pp-graph script, ``python -m pp_graph.cli``): the process is the CLI's, so
    detecting commands may freeze the heap after loading (see ``common.own_process``); ``main`` called in-process
    by a host (CliRunner) does not."""
    from pp_graph.cli.common import own_process

    own_process()
    main(args)


for _name in COMMAND_MODULES:
    for _cmd in importlib.import_module(f"pp_graph.cli.{_name}").commands:
        main.add_command(_cmd)
