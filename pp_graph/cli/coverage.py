"""pp-graph coverage: what the plane's ledger shows crossed to each site, against what the site's policy said then."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from pp_graph.cli.common import emit, graph_option, handle_errors

COLUMNS = ["site", "category", "purpose", "action", "calls", "first", "last", "version", "verdict", "match", "evidence"]


def _rows(report: Any) -> list[dict[str, Any]]:
    rows = []
    for f in report.flows:
        r = f.to_dict()
        e = f.evidence
        r["evidence"] = "" if e is None else f"[{e['start']}-{e['end']}] {e['text'][:80]}"
        rows.append(r)
    return rows


def _markdown(rows: list[dict[str, Any]], counts: dict[str, int]) -> str:
    def cell(v: Any) -> str:
        return str("" if v is None else v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in COLUMNS) + " |" for r in rows]
    lines.append("")
    lines.append(", ".join(f"{n} {v}" for v, n in counts.items()) + " flow(s)")
    return "\n".join(lines)


@click.command("coverage")
@click.option(
    "--ledger",
    "db",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The data plane's database (its ledger is verified first).",
)
@graph_option("Policy graph files or folders, dated versions included (repeatable).")
@click.option(
    "--checkpoint",
    type=click.File("r"),
    help="A signed checkpoint (pp-graph ledger checkpoint) the ledger must have grown from.",
)
@click.option("--trusted-key", help="Public key (hex) the checkpoint must be signed with.")
@click.option(
    "--key-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The plane key file: the checkpoint must be signed with its key (a ledger from another key is refused).",
)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "markdown", "csv"]), default="table")
@handle_errors
def coverage(
    db: Path, graphs: tuple[Path, ...], checkpoint: Any, trusted_key: str | None, key_file: Path | None, fmt: str
) -> None:
    """Join what crossed each boundary (site × DPV category × purpose × action, with counts and first/last time)
    with the site's policy version in force at each call: stated (with the policy line), denied by the policy (a
    negated practice covers it), or silent.

    Exit 0 when every flow is stated, 1 when any is denied or silent, 2 on an error — among them a ledger whose
    chain or tree does not verify, or whose checkpoint is signed by another key (the first bad entry is named).
    """
    from pp_graph.coverage import coverage as run
    from pp_graph.errors import LedgerError

    cp = None
    if checkpoint is not None:
        try:
            cp = json.load(checkpoint)
        except ValueError as e:
            raise LedgerError(f"{checkpoint.name}: not a JSON checkpoint ({e})") from e
    if key_file is not None:
        from pp_graph.plane.keys import load_keys

        if cp is None:
            raise LedgerError("--key-file checks the checkpoint's signature: give --checkpoint too")
        own = load_keys(key_file=key_file).public_key_hex
        if trusted_key is not None and trusted_key != own:
            raise LedgerError("--trusted-key and --key-file name different keys")
        trusted_key = own
    report = run(db, graphs, checkpoint=cp, trusted_key=trusted_key)
    if fmt == "json":
        click.echo(json.dumps(report.to_dict(), indent=1, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(_markdown(_rows(report), report.counts))
    else:
        emit(_rows(report), fmt, COLUMNS)
        if fmt == "table":
            click.echo(", ".join(f"{n} {v}" for v, n in report.counts.items()) + " flow(s)", err=True)
    if not report.ok:
        sys.exit(1)


commands = [coverage]
