"""pp-graph odrl: evaluate an ODRL request against a policy (FORCE compliance report), run conformance cases,
compare a user's ODRL preferences with every site's exported ODRL policy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pp_graph.cli.common import emit, handle_errors


@click.group("odrl")
def odrl() -> None:
    """ODRL 2.2 request evaluation with compliance reports (FORCE Compliance Report Model)."""


@odrl.command("evaluate")
@click.option("--policy", "policy", type=click.Path(path_type=Path), required=True, help="ODRL policy (Turtle).")
@click.option("--request", "request", type=click.Path(path_type=Path), required=True, help="ODRL request (Turtle).")
@click.option("--sotw", type=click.Path(path_type=Path), help="State of the world: current time, memberships, duties.")
@click.option("--policy-iri", help="The policy to evaluate when the file holds several.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "ttl"]), default="table", show_default=True)
@handle_errors
def evaluate_cmd(policy: Path, request: Path, sotw: Path | None, policy_iri: str | None, fmt: str) -> None:
    """Evaluate REQUEST against POLICY. Exit 0 permitted, 1 anything else (prohibited, not permitted,
    undetermined, not applicable), 2 bad input."""
    from rdflib import URIRef

    from pp_graph.odrl import evaluate, rows, to_dict, to_turtle
    from pp_graph.odrl.terms import PERMITTED

    rep = evaluate(policy, request, sotw, URIRef(policy_iri) if policy_iri else None)
    if fmt == "ttl":
        click.echo(to_turtle(rep), nl=False)
    elif fmt == "json":
        click.echo(json.dumps(to_dict(rep), indent=1, ensure_ascii=False))
    else:
        emit(rows(rep), "table", ["item", "state", "detail"])
    sys.exit(0 if rep.verdict == PERMITTED else 1)


@odrl.command("conformance")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@handle_errors
def conformance_cmd(folder: Path, fmt: str) -> None:
    """Run every test case under FOLDER (test_cases/, policies/, requests/, sotw/): pass/fail per case by rule
    activation, premise satisfaction and duty deontic states. Exit 0 when all pass, 1 otherwise."""
    from pp_graph.odrl.conformance import run, summary

    results = run(folder)
    table_rows = [
        {
            "case": r.case,
            "activation": "pass" if r.activation else "FAIL",
            "premises": "pass" if r.premises else "FAIL",
            "duties": {True: "pass", False: "FAIL", None: "-"}[r.duties],
            "result": "pass" if r.passed else "FAIL",
            "notes": "; ".join(r.problems),
        }
        for r in results
    ]
    emit(table_rows, fmt, ["case", "activation", "premises", "duties", "result", "notes"])
    if fmt == "table":
        click.echo(summary(results))
    sys.exit(0 if all(r.passed for r in results) else 1)


@odrl.command("preferences")
@click.argument("prefs", type=click.Path(path_type=Path))
@click.option(
    "--graph",
    "graphs",
    type=click.Path(path_type=Path),
    multiple=True,
    required=True,
    help="Policy graphs (dir/files).",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table", show_default=True)
@handle_errors
def preferences_cmd(prefs: Path, graphs: tuple[Path, ...], fmt: str) -> None:
    """Check every practice each site states (its exported ODRL policy) against PREFS, your own ODRL policy of
    what you allow. One row per site practice; exit 1 when any practice is not permitted by PREFS."""
    from dataclasses import asdict

    from pp_graph.odrl.preferences import check_preferences

    rows = check_preferences(prefs, graphs)
    cols = ["site", "action", "target", "recipient", "purposes", "verdict", "decided_by", "practice"]
    emit([asdict(r) for r in rows], fmt, cols if fmt != "json" else None)
    if fmt == "table":
        bad = sum(r.conflict for r in rows)
        click.echo(f"{len(rows)} site practices: {len(rows) - bad} permitted by your preferences, {bad} not")
    sys.exit(1 if any(r.conflict for r in rows) else 0)


commands = [odrl]
