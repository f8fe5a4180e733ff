"""pp-graph contradictions: lines of a policy that deny a practice another line states."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pp_graph.cli.common import (
    CLIError,
    converting_backend_option,
    format_option,
    policy_paths,
    printable,
    text_site_option,
)
from pp_graph.report.formats import FORMATS


@click.command()
@policy_paths
@format_option(choices=FORMATS)
@converting_backend_option
@text_site_option
@click.option("--broader", is_flag=True, help="Also report an affirmation of a broader category than the denied one.")
def contradictions(paths: tuple[Path, ...], fmt: str, backend: str, site: str | None, broader: bool) -> None:
    """Find self-contradictions: one line denies collecting, using, sharing, selling or retaining some data, another
    states it for the same or a narrower DPV category, and no exception, condition, other party or de-identified
    data reconciles them.

    PATHS are policy texts (converted on the fly) or converted graphs (.trig files, or folders written by
    `pp-graph convert`). Lines are 1-based in the policy text (null when only a graph is given).
    Exit 0 none found, 1 some found, 2 error."""
    from pp_graph.contradict import find
    from pp_graph.contradict.report import REPORT
    from pp_graph.errors import PPGraphError

    try:
        results = find(paths, backend, broader, site)
    except PPGraphError as e:
        raise CLIError(str(e)) from e
    text = REPORT.render(fmt, results)
    # table and markdown quote policy lines: their control characters never reach the terminal
    click.echo(text if fmt in ("json", "csv") else printable(text), nl=False)
    sys.exit(1 if any(p.contradictions for p in results) else 0)


commands = [contradictions]
