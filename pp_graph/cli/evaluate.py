"""pp-graph evaluate opp115 / brat: score an extraction backend against annotations."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from pp_graph.cli.common import backend_option, handle_errors
from pp_graph.extras import need

F = TypeVar("F", bound=Callable[..., Any])

evaluate = click.Group("evaluate", help="Measure extraction quality against annotated policies.")


def _options(model: str | None) -> dict[str, Any]:
    return {"model": model} if model else {}


def _scoring_options(json_help: str) -> Callable[[F], F]:
    """--backend (any registered backend), --model and --json, shared by every evaluate command."""

    def deco(fn: F) -> F:
        fn = click.option("--json", "json_out", type=click.Path(path_type=Path, dir_okay=False), help=json_help)(fn)
        fn = click.option(
            "--model",
            default=None,
            help="llm backend: the model name. offline backend: a learned-model folder from `pp-graph train`.",
        )(fn)
        return backend_option()(fn)

    return deco


@evaluate.command("opp115")
@click.argument("root", type=click.Path(path_type=Path, file_okay=False))
@click.option(
    "--split",
    type=click.Choice(["train", "test", "all", "dev", "fit"]),
    required=True,  # no default: the test split is read on purpose, never because a flag was forgotten
    help="Policies of the fixed split in data/opp115-split.tsv; dev = the development subset of train "
    "(data/opp115-dev.tsv), fit = train without dev.",
)
@click.option(
    "--by-rule",
    is_flag=True,
    help="Per offline rule: times fired, true and false positives on --split; most false positives first.",
)
@_scoring_options("Also write the scores (with per-label rows) as JSON.")
@handle_errors
def opp115_cmd(root: Path, split: str, by_rule: bool, backend: str, model: str | None, json_out: Path | None) -> None:
    """Segment-level scores on OPP-115 (ROOT holds sanitized_policies/ and annotations/)."""
    from pp_graph.evaluate.opp115 import evaluate_opp115
    from pp_graph.evaluate.report import interval_line, label_table, write_json

    if by_rule:
        _by_rule(root, split, backend, json_out)
        return

    learned = None
    if model and backend == "offline":
        need("learned", "the learned layer (--model)")
        from pp_graph.extract.learned.model import load_model

        learned, model = load_model(Path(model)), None
    res = evaluate_opp115(root, backend, split=split, learned=learned, **_options(model))
    config = f"backend {backend}" + (f" + learned model {learned.digest}" if learned else "")
    click.echo(f"OPP-115 {split} split: {res.policies} policies, {config}, {res.seconds:.1f} s")
    if learned is not None and (note := _in_sample(learned.manifest, split)):
        click.echo(note)
    click.echo(label_table(res.tasks(), per_label="practice categories"))
    interval = res.category_interval()
    click.echo(interval_line("practice categories macro-F1", interval))
    if json_out:
        write_json(
            json_out,
            {
                "dataset": "opp115",
                "split": split,
                "backend": backend,
                "model": model,
                "learned_model": learned.digest if learned else None,
                "policies": res.policies,
                "tasks": {
                    k: v.summary() | ({"macro_f1_interval": interval.summary()} if v is res.categories else {})
                    for k, v in res.tasks().items()
                },
            },
        )


# The splits whose policies each source saw: weights fitted on all of train or on train without dev (fit_on);
# choices made on the dev subset, or on CV over all of train.
_SEEN = {
    "train": ("train", "dev", "fit", "all"),
    "fit": ("train", "fit", "all"),
    "dev": ("train", "dev", "all"),
    "cv": ("train", "dev", "fit", "all"),
}


def _in_sample(manifest: dict[str, Any], split: str) -> str:
    """A note when the learned model's weights were fitted on, or its modes and thresholds chosen on, policies of
    ``split`` (those figures are in sample); names the label kinds whose choices saw them."""
    fit_on = manifest.get("split", {}).get("fit_on")
    where = manifest.get("split", {}).get("choose_on", {})
    parts = []
    if split in _SEEN.get(fit_on, ()):
        parts.append(f"its weights were fitted on them (fit_on {fit_on})")
    kinds_first = ("practice", "data", "purpose")  # the manifest's keys come sorted; name them in this order
    order = [*kinds_first, *sorted(set(where) - set(kinds_first))]
    kinds = [k for k in order if split in _SEEN.get(where.get(k, ""), ())]
    if kinds:
        on = ", ".join(sorted({where[k] for k in kinds}))
        parts.append(f"the modes and thresholds of {', '.join(kinds)} labels were chosen on them ({on})")
    if not parts:
        return ""
    return f"note: in sample on policies of the {split} split: " + "; ".join(parts)


def _by_rule(root: Path, split: str, backend: str, json_out: Path | None) -> None:
    from pp_graph.cli.common import CLIError, table
    from pp_graph.evaluate.by_rule import evaluate_by_rule
    from pp_graph.evaluate.report import write_json

    if backend != "offline":
        raise CLIError(f"--by-rule scores the offline extractor's rules; backend {backend!r} has none")
    rows = [s.row() for s in evaluate_by_rule(root, split)]
    click.echo(f"OPP-115 {split} split, offline rules (most false positives first):")
    click.echo(table(rows))
    if json_out:
        write_json(json_out, {"dataset": "opp115", "split": split, "backend": backend, "rules": rows})


@evaluate.command("brat")
@click.argument("folder", type=click.Path(path_type=Path, file_okay=False))
@_scoring_options("Also write the scores as JSON.")
@handle_errors
def brat_cmd(folder: Path, backend: str, model: str | None, json_out: Path | None) -> None:
    """Span-level scores on brat standoff annotations (.ann beside .txt) under FOLDER."""
    from pp_graph.evaluate.brat import evaluate_brat
    from pp_graph.evaluate.report import segment_table, write_json

    scores = evaluate_brat(folder, backend, **_options(model))
    click.echo(segment_table(scores))
    if json_out:
        write_json(
            json_out,
            {
                "dataset": "brat",
                "backend": backend,
                "model": model,
                "tasks": {k: v.summary() for k, v in scores.items()},
            },
        )


commands = [evaluate]
