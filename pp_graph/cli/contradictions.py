"""pp-graph contradictions: lines of a policy that deny a practice another line states."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pp_graph.cli.common import EXIT_ERROR, err, printable

_FORMATS = click.Choice(["table", "json", "markdown", "csv"])


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=_FORMATS, default="table", show_default=True, help="Output format.")
@click.option("--backend", default="offline", show_default=True, help="Backend that converts texts on the fly.")
@click.option("--broader", is_flag=True, help="Also report an affirmation of a broader category than the denied one.")
def contradictions(paths: tuple[Path, ...], fmt: str, backend: str, broader: bool) -> None:
    """Find self-contradictions: one line denies collecting, using, sharing, selling or retaining some data, another
    states it for the same or a narrower DPV category, and no exception, condition, other party or de-identified
    data reconciles them.

    PATHS are policy texts (converted on the fly) or converted graphs (.trig files, or folders written by
    `pp-graph convert`). Lines are 1-based in the policy text (null when only a graph is given).
    Exit 0 none found, 1 some found, 2 error."""
    from pp_graph.contradict import find
    from pp_graph.contradict.report import to_csv, to_json, to_markdown, to_table
    from pp_graph.errors import PPGraphError

    try:
        results = find(paths, backend, broader)
    except PPGraphError as e:
        err(f"error: {e}")
        sys.exit(EXIT_ERROR)
    if fmt == "json":
        click.echo(json.dumps(to_json(results), indent=1, ensure_ascii=False))
    elif fmt == "csv":
        click.echo(to_csv(results), nl=False)
    elif fmt == "markdown":  # quotes policy lines: their control characters never reach the terminal
        click.echo(printable(to_markdown(results)))
    else:
        click.echo(printable(to_table(results)))
    sys.exit(1 if any(p.contradictions for p in results) else 0)


commands = [contradictions]
