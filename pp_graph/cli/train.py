"""pp-graph train opp115: fit the learned layer that `convert --model DIR` uses beside the rules."""

from __future__ import annotations

from pathlib import Path

import click

from pp_graph.cli.common import emit, format_option, handle_errors
from pp_graph.extras import need

train = click.Group("train", help="Train the learned layer on annotated policies (the model stays yours).")


@train.command("opp115")
@click.argument("root", type=click.Path(path_type=Path, file_okay=False))
@click.option("-o", "--output", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True)
@click.option(
    "--folds",
    type=click.IntRange(2, 20),
    default=5,
    show_default=True,
    help="Grouped (by policy) cross-validation folds whose out-of-fold scores choose the mode and threshold of the "
    "kinds chosen on CV (unused, and not recorded, with --choose-on dev).",
)
@click.option(
    "--choose-on",
    "where",
    type=click.Choice(["kind", "dev", "cv"]),
    default="kind",
    show_default=True,
    help="Where each label's mode and threshold are chosen: kind = practice categories on the dev subset, data "
    "and purposes on grouped CV; dev or cv = every label there.",
)
@click.option(
    "--fit-on",
    type=click.Choice(["train", "fit"]),
    default="train",
    show_default=True,
    help="The policies the final weights are fitted on: all of train, or train without the dev subset (then "
    "`evaluate opp115 --split dev --model` is out of sample for the weights).",
)
@format_option()
@handle_errors
def opp115_cmd(root: Path, out_dir: Path, folds: int, where: str, fit_on: str, fmt: str) -> None:
    """Train on the OPP-115 train split (ROOT holds sanitized_policies/ and annotations/); never reads test."""
    need("learned", "training the learned layer")
    from pp_graph.evaluate.learn_opp115 import train_opp115

    man = train_opp115(root, out_dir, folds=folds, choose_where=None if where == "kind" else where, fit_on=fit_on)
    cv = man["cv_report"] or {}
    rows = [
        {
            "label": name,
            **{k: c[k] for k in ("mode", "threshold", "chosen_on", "support")},
            "dev_f1": man["dev_report"][name]["f1"],
            "dev_rules_f1": man["dev_report"][name]["rules_f1"],
            "cv_f1": cv[name]["f1"] if cv else None,
            "cv_rules_f1": cv[name]["rules_f1"] if cv else None,
        }
        for name, c in man["choices"].items()
    ]
    emit(rows, fmt)
    if fmt == "table":
        click.echo(
            f"\nmodel {man['model_digest']} → {out_dir} ({man['dataset']['policies']} train policies, "
            f"{man['train_seconds']} s); OPP-115 is licensed for research only: do not share this model"
        )


commands = [train]
