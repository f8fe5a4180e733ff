"""pp-graph comply: a law's transparency checklist per policy, with the lines that address each item."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pp_graph.cli.common import (
    CLIError,
    RegistryOption,
    converting_backend_option,
    err,
    format_option,
    policy_paths,
    printable,
    text_site_option,
)
from pp_graph.report.formats import FORMATS


def _known_laws() -> list[str]:
    from pp_graph.comply.laws import known_laws

    return known_laws()


@click.command()
@policy_paths
@click.option(
    "--law", default="gdpr", show_default=True, cls=RegistryOption, names=_known_laws, help="Checklist: {names}."
)
@format_option(choices=FORMATS)
@converting_backend_option
@text_site_option
@click.option(
    "--model",
    "model_dir",
    type=click.Path(path_type=Path),
    help="A transparency model folder from `pp-graph train gdpr`: its statements join the rules' in the texts "
    "converted on the fly (graph files keep what they were converted with).",
)
def comply(paths: tuple[Path, ...], law: str, fmt: str, backend: str, site: str | None, model_dir: Path | None) -> None:
    """Check policies against a law's transparency checklist (GDPR Art. 13/14 by default).

    PATHS are policy texts (converted on the fly) or converted graphs (.trig files, or folders written by
    `pp-graph convert`: read, never converted again). Each item is addressed, denied, missing or not applicable
    (with the reason); evidence lines carry character offsets into the policy text.
    Exit 0 every policy complete, 1 an item is missing somewhere, 2 error (unknown law, unreadable input, a graph
    converted before this feature: convert it again, a missing, changed or incompatible --model)."""
    from pp_graph.comply.checklist import StaleGraph, checklist
    from pp_graph.comply.inputs import gather
    from pp_graph.comply.laws import get_law
    from pp_graph.comply.report import REPORT
    from pp_graph.errors import PPGraphError

    try:
        spec = get_law(law)
        model = _model(model_dir) if model_dir else None
        results = [checklist(f, spec) for f in gather(paths, backend, model, site)]
    except (PPGraphError, StaleGraph) as e:
        raise CLIError(str(e)) from e
    if not spec.measured:
        err(f"note: the {spec.id} checklist is unmeasured: {spec.note}")
    for c in results:
        for w in c.warnings:
            err(f"warning: {w}")
    text = REPORT.render(fmt, results)
    # table and markdown quote policy lines: their control characters never reach the terminal
    click.echo(text if fmt in ("json", "csv") else printable(text), nl=False)
    sys.exit(0 if all(c.complete for c in results) else 1)


def _model(model_dir: Path) -> object:
    from pp_graph.extras import need

    need("learned", "the learned transparency layer (comply --model)")
    from pp_graph.extract.learned.transparency import load_transparency_model

    return load_transparency_model(model_dir)


commands = [comply]
