"""pp-graph explain: which offline rules fired, vetoed or changed something in one segment, and why."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pp_graph.cli.common import emit, format_option, handle_errors, printable


@click.command("explain")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--line", type=int, default=None, help="1-based line of the policy text (after loading).")
@click.option("--offset", type=int, default=None, help="Character offset in the policy text (after loading).")
@click.option("--site", default=None, help="The policy's site, when the file is not named <domain>.<ext>.")
@format_option()
@handle_errors
def explain_cmd(file: Path, line: int | None, offset: int | None, site: str | None, fmt: str) -> None:
    """Print, for the segment at --line or --offset, every rule of the offline extractor that acted on it."""
    from pp_graph.extract.offline.explain import explain
    from pp_graph.load.sources import load_policy

    policy = load_policy(file, site=site)
    ex = explain(policy, line=line, offset=offset)
    rows = ex.rows()
    if fmt == "json":
        kept = [{"type": t, "negated": n, "trigger": w, "rules": list(r)} for t, n, w, r in ex.practices]
        seg = {"index": ex.segment.index, "start": ex.segment.start, "end": ex.segment.end, "text": ex.segment.text}
        mentions = [{"kind": k, "concept": c, "text": w, "rules": list(r)} for k, c, w, r in ex.mentions]
        out = {"segment": seg, "events": rows, "practices": kept, "mentions": mentions}
        click.echo(json.dumps(out, indent=1, ensure_ascii=False))
        return
    if fmt == "table":
        head = printable(ex.segment.text[:100], one_line=True)  # policy text: no control characters to the terminal
        click.echo(f"segment {ex.segment.index} [{ex.segment.start}:{ex.segment.end}]: {head}")
        for t, n, w, r in ex.practices:
            click.echo(f"  kept: {t}{' (negated)' if n else ''} at {w!r} by {' > '.join(r)}")
        if not ex.practices:
            click.echo("  kept: no practice")
        for k, c, w, r in ex.mentions:
            linked = "" if any(x.startswith("link.") for x in r) else " (tied to no practice)"
            click.echo(f"  mention: {k} {c} at {w!r} by {' > '.join(r)}{linked}")
    emit(rows, fmt, ["rule", "kind", "action", "start", "end", "practice", "note", "why"])


commands = [explain_cmd]
