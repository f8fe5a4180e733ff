"""pp-graph diff / history: what changed between policy versions, by meaning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pp_graph.cli.common import RegistryOption, emit, format_option, handle_errors, printable

_FORMATS = click.Choice(["table", "json", "csv", "markdown"])


def _known_laws() -> list[str]:
    from pp_graph.comply.laws import known_laws

    return known_laws()


def _row(c: Any) -> dict[str, Any]:
    d = c.to_dict()
    ev = (d["evidence_new"] or d["evidence_old"] or [{}])[0]
    skip = ("kind", "type", "data", "evidence_old", "evidence_new", "severity", "severity_reason")
    what = {k: v for k, v in d.items() if k not in skip}
    for flag in ("negated", "from_heading"):
        if what.get(flag) is False:
            del what[flag]  # only say so when it is the case
    return {
        "severity": d["severity"],
        "change": d["kind"],
        "type": d["type"] or "",
        "data": d["data"] or "",
        "details": ", ".join(f"{k}={v}" for k, v in what.items() if v not in ([], None, "")),
        "evidence": f"[{ev.get('start')}–{ev.get('end')}] {str(ev.get('text', ''))[:90]}" if ev else "",
    }


def extractor_note(diff: Any) -> str:
    """What differs between the extractors of the two graphs, and what it means for the changes listed."""
    a, b = diff.extractor["from"], diff.extractor["to"]
    parts = [
        f"{k} {a.get(k) or '-'} → {b.get(k) or '-'}"
        for k in ("extractor", "model", "segmenter")
        if a.get(k) != b.get(k)
    ]
    if not parts:
        parts = ["lexicons/prompts changed"]
    cause = (
        "the text is the same, so every change listed comes from the extractor"
        if (diff.old.digest == diff.new.digest)
        else "changes listed can come from the extractor as well as from the text; convert both again to compare"
    )
    return f"extractor changed ({'; '.join(parts)}): {cause}"


def _label(version: Any) -> str:
    """A compared version as the user knows it: its date, else the file it was converted from, else its key."""
    return str(version.valid_from or version.source or version.key)


def _markdown(diff: Any) -> str:
    d = diff.to_dict()
    lines = [f"# {d['site']}: {_label(diff.old)} → {_label(diff.new)}", ""]
    if diff.extractor_changed:
        lines += [f"> {extractor_note(diff)}", ""]
    for part in ("added", "removed", "changed"):
        lines.append(f"## {part.capitalize()} ({len(d[part])})")
        for c in getattr(diff, part):
            r = _row(c)
            lines.append(f"- [{r['severity']}] **{r['change']}** {r['type']} `{r['data']}` {r['details']}".rstrip())
            for side in ("old", "new"):
                for e in getattr(c, side)[:1]:
                    lines.append(f"  - {side} [{e.start}–{e.end}]: {e.text[:200]}")
        lines.append("")
    return "\n".join(lines)


def _print(diff: Any, fmt: str) -> None:
    if fmt == "json":
        click.echo(json.dumps(diff.to_dict(), indent=1, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(printable(_markdown(diff)))
    else:
        rows = [_row(c) for c in diff.added + diff.removed + diff.changed]
        if fmt == "table":
            old, new = diff.old, diff.new
            click.echo(
                f"{diff.site}: {_label(old)} → {_label(new)}; "
                f"text {'changed' if old.digest != new.digest else 'unchanged'}; "
                f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed"
            )
        if diff.extractor_changed:
            click.echo(f"note: {extractor_note(diff)}", err=True)
        emit(rows, fmt, ["severity", "change", "type", "data", "details", "evidence"])


@click.command(name="diff")
@click.argument("first")
@click.argument("second", required=False)
@click.option("--graph", "graph", type=click.Path(exists=True, path_type=Path), help="Folder of dated policy graphs.")
@click.option("--from", "date_from", metavar="DATE", help="The version in force on this date (YYYY-MM-DD).")
@click.option("--to", "date_to", metavar="DATE", help="The version in force on this date (default: the newest).")
@click.option("--site", help="With two policy files: their site (default: from the file names).")
@click.option("--format", "fmt", type=_FORMATS, default="table", show_default=True, help="Output format.")
@click.option(
    "--fail-on",
    type=click.Choice(["low", "medium", "high"]),
    help="Exit 1 only when a change of this severity or worse happened (for CI); 0 otherwise.",
)
@handle_errors
def diff_cmd(
    first: str,
    second: str | None,
    graph: Path | None,
    date_from: str | None,
    date_to: str | None,
    site: str | None,
    fmt: str,
    fail_on: str | None,
) -> None:
    """What changed in meaning between two versions: SITE --graph DIR --from D --to D, or OLD NEW (two files).

    Each change has a severity (low, medium, high: data/versions/severity.toml). Exit 0 when nothing changed in
    meaning, 1 when something did (with --fail-on LEVEL: only when a change of that severity or worse did), 2 on
    error.
    """
    from pp_graph.errors import ConfigError, InputError
    from pp_graph.versions.compare import diff_files, diff_site

    if second is not None:
        if graph or date_from or date_to:
            raise ConfigError("two files are converted and compared as they are: give no --graph, --from or --to")
        for arg in (first, second):
            if arg.startswith(("http://", "https://")):  # else read as a missing file named after the URL
                raise InputError(arg, "a URL; diff compares two policy files (fetch pages with pp-graph track)")
        d = diff_files(Path(first), Path(second), site)
    else:
        if graph is None:
            raise ConfigError("give --graph DIR (dated graphs of the site) or two policy files")
        d = diff_site(graph, first, date_from, date_to)
    _print(d, fmt)
    if fail_on is not None:
        from pp_graph.versions.severity import at_least

        changes = d.added + d.removed + d.changed
        raise SystemExit(1 if any(at_least(c.severity[0], fail_on) for c in changes) else 0)
    raise SystemExit(0 if d.empty else 1)


@click.command()
@click.argument("site")
@click.option(
    "--graph",
    "graph",
    type=click.Path(exists=True, path_type=Path),
    required=True,
    help="Folder of dated policy graphs.",
)
@click.option("--format", "fmt", type=_FORMATS, default="table", show_default=True, help="Output format.")
@click.option(
    "--law",
    cls=RegistryOption,
    names=_known_laws,
    help="Also the checklist of this law per version, and the requirements lost (high) or gained (low): {names}.",
)
@handle_errors
def history(site: str, graph: Path, fmt: str, law: str | None) -> None:
    """The timeline of a site's policy: every version, which practices appeared, changed or vanished, and the
    highest severity of those changes (with --law: which of the law's requirements each version addresses)."""
    from pp_graph.query.corpus import Corpus
    from pp_graph.versions.diff import history as site_history
    from pp_graph.versions.requirements import law_history
    from pp_graph.versions.timeline import checklist_rows, timeline_json, timeline_markdown, timeline_rows

    c = Corpus.open([graph])
    points = site_history(c, site)
    by_law = law_history(c, site, law) if law else None
    if fmt == "json":
        click.echo(json.dumps(timeline_json(points, by_law), indent=1, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo(printable(timeline_markdown(points[0].version.site, points, by_law)))
    else:
        emit(timeline_rows(points, by_law), fmt)
        if by_law and fmt == "table":
            click.echo("")
            emit(checklist_rows(by_law), fmt)


@click.command()
@click.argument("sites_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The archive: <out>/<domain>/<YYYYMMDDTHHMMSSZ>.md, one file per version.",
)
@format_option()
@click.option(
    "--allow-private",
    is_flag=True,
    help="Fetch from loopback and private addresses too (refused by default, also after a redirect).",
)
@click.option(
    "--render",
    is_flag=True,
    help="Load each page in a headless Chromium and keep the text after its scripts ran; needs the render extra "
    "and the system's chromium.",
)
@handle_errors
def track(sites_file: Path, out: Path, fmt: str, allow_private: bool, render: bool) -> None:
    """Fetch each site's policy (SITES_FILE: TOML) and keep a new dated version when its text changed.

    Exit 0 when every site was fetched, 1 when some failed (the others are kept).
    """
    import functools

    from pp_graph.load.fetch import fetch_policy
    from pp_graph.versions.track import track as run

    fetch: Any = fetch_policy
    if render:
        from pp_graph.load.render import check_render_ready, render_policy

        check_render_ready()  # a missing browser is one clear error, not one failure per site
        fetch = render_policy
    results = run(sites_file, out, functools.partial(fetch, allow_private=allow_private))
    emit([r.to_dict() for r in results], fmt, ["site", "status", "file", "error"])
    raise SystemExit(1 if any(r.status == "failed" for r in results) else 0)


commands = [diff_cmd, history, track]
