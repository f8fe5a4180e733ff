"""pp-graph train: fit the learned layers (opp115: `convert --model DIR`; gdpr: `comply --model DIR`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from pp_graph.cli.common import emit, format_option, handle_errors
from pp_graph.extras import need

F = TypeVar("F", bound=Callable[..., Any])


def _trainer_inputs(folds_help: str) -> Callable[[F], F]:
    """ROOT, -o/--output and --folds as every trainer takes them (``folds_help``: what its folds choose)."""
    options = [
        click.argument("root", type=click.Path(path_type=Path, file_okay=False)),
        click.option("-o", "--output", "out_dir", type=click.Path(path_type=Path, file_okay=False), required=True),
        click.option("--folds", type=click.IntRange(2, 20), default=5, show_default=True, help=folds_help),
    ]

    def apply(fn: F) -> F:
        for option in reversed(options):  # the first listed is the outermost decorator, as when stacked by hand
            fn = option(fn)
        return fn

    return apply


train = click.Group("train", help="Train the learned layer on annotated policies (the model stays yours).")


@train.command("opp115")
@_trainer_inputs(
    "Grouped (by policy) cross-validation folds whose out-of-fold scores choose the mode and threshold of the "
    "kinds chosen on CV (unused, and not recorded, with --choose-on dev)."
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


@train.command("gdpr")
@_trainer_inputs("Grouped (by policy) folds whose out-of-fold scores choose each requirement's mode and threshold.")
@click.option(
    "--include-test",
    is_flag=True,
    help="Also train on the documents of the fixed test split (left out by default; a model trained on them "
    "must not be evaluated on test).",
)
@format_option()
@handle_errors
def gdpr_cmd(root: Path, out_dir: Path, folds: int, include_test: bool, fmt: str) -> None:
    """Train the transparency layer on the GDPR transparency dataset (ROOT holds its <id>.json files, or a
    policies/ folder of them); the test split's documents are left out unless --include-test."""
    need("learned", "training the learned layer")
    from pp_graph.evaluate.train_gdpr import train_gdpr

    man = train_gdpr(root, out_dir, folds=folds, include_test=include_test)
    oof = man["out_of_fold"]["per_requirement"]
    rows = [
        {"requirement": r, **c, "oof_rules_f1": oof[r]["rules"], "oof_combined_f1": oof[r]["combined"]}
        for r, c in man["choices"].items()
    ]
    emit(rows, fmt)
    if fmt == "table":
        t, o = man["trained_on"], man["out_of_fold"]
        click.echo(
            f"\nmodel {man['model_digest']} → {out_dir} ({len(t['documents'])} documents, "
            f"{t['test_documents_left_out']} of the test split left out, {man['train_seconds']} s); out of fold: "
            f"document macro-F1 rules {o['rules_document_macro_f1']} → {o['combined_document_macro_f1']}, "
            f"line micro-F1 {o['rules_line_micro_f1']} → {o['combined_line_micro_f1']}; "
            "the dataset allows models for your own use only: do not share this model"
        )


commands = [train]
