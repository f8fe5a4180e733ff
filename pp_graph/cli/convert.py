"""pp-graph convert / validate."""

from __future__ import annotations

import json
import signal
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from pp_graph.cli.common import EXIT_ERROR, CLIError, backend_option, emit, err, format_option, handle_errors, table
from pp_graph.graph.serialize import FORMATS

_SHORT = {
    "first-party-collection-use": "1st",
    "third-party-collection-use": "3rd-coll",
    "third-party-sharing-disclosure": "share",
    "data-storage-retention-deletion": "retain",
    "data-security-protection": "secure",
}


def _backend_options(model: str | None, config: Path | None, extra: tuple[str, ...], **flags: Any) -> dict[str, Any]:
    opts: dict[str, Any] = {k: v for k, v in flags.items() if v is not None}
    if model:
        opts["model"] = model
    if config:
        opts["config"] = str(config)
    for item in extra:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: expected KEY=VALUE", param_hint="--option")
        opts[key.replace("-", "_")] = value
    return opts


def _inputs(
    inputs: tuple[str, ...], site: str | None, folder: Path, allow_private: bool = False, render: bool = False
) -> list[Path]:
    """Files and folders as they are; each http(s) URL fetched (or rendered in Chromium) into ``folder`` as
    ``<site>.md``."""
    from urllib.parse import urlsplit

    from pp_graph.load.sources import check_site
    from pp_graph.urls import shown_url

    fetch_policy = _fetcher(inputs, render)
    out = []
    for item in inputs:
        if not item.startswith(("http://", "https://")):
            out.append(Path(item))
            continue
        got = fetch_policy(item, allow_private=allow_private)
        host = (urlsplit(got.final_url).hostname or "").removeprefix("www.")
        name = check_site(site or host, item)
        target = folder / f"{name}.md"
        target.write_text(got.text, encoding="utf-8")
        err(f"fetched {shown_url(item)} ({got.source_type}, {len(got.text):,} characters) as {name}")
        out.append(target)
    return out


def _fetcher(inputs: tuple[str, ...], render: bool) -> Any:
    """fetch_policy, or render_policy for --render (checked to be usable before any page is asked for)."""
    if not render:
        from pp_graph.load.fetch import fetch_policy

        return fetch_policy
    if not any(i.startswith(("http://", "https://")) for i in inputs):
        raise click.UsageError("--render loads web pages: give it an http(s) URL")
    from pp_graph.load.render import check_render_ready, render_policy

    check_render_ready()
    return render_policy


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (kill, a CI timeout) stops the batch as Ctrl-C does: workers ended, finished files kept."""

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@click.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("outputs"),
    show_default=True,
    help="Folder for the graphs and per-file reports.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(FORMATS)),
    default="trig",
    show_default=True,
    help="Serialisation of each policy graph.",
)
@click.option("--site", help="Domain of the policy's site (single file only); default: the file name.")
@click.option(
    "--date",
    "date",
    metavar="DATE",
    help="The version's date (YYYY-MM-DD, UTC; single file): a dated graph <site>@<date>. "
    "Files named <domain>/<YYYYMMDDTHHMMSSZ>.md are dated by their name.",
)
@backend_option()
@click.option(
    "--model",
    help="llm backend: the LLM model name. offline backend: a learned-model folder from `pp-graph train` "
    "(its classes are added beside the rules as inferred evidence).",
)
@click.option(
    "--gdpr-model",
    type=click.Path(path_type=Path),
    help="A transparency model folder from `pp-graph train gdpr`: its statements are added beside the rules' "
    "(any backend).",
)
@click.option(
    "--config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="TOML file with backend settings (per-stage models, concurrency, budget).",
)
@click.option(
    "--prefilter/--no-prefilter",
    default=None,
    help="llm backend: skip segments the offline extractor finds practice-free.",
)
@click.option("--budget", type=float, help="llm backend: stop before spending more than this many dollars.")
@click.option("--no-cache", is_flag=True, default=None, help="llm backend: do not read or write the response cache.")
@click.option("--option", "extra", multiple=True, metavar="KEY=VALUE", help="Further backend option.")
@click.option(
    "--executor",
    type=click.Choice(["process", "dask"]),
    default="process",
    show_default=True,
    help="Where conversions run: local processes (--jobs), or a Dask cluster (--scheduler).",
)
@click.option("--scheduler", metavar="ADDRESS", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="Parallel workers.")
@click.option("--force", is_flag=True, help="Convert again even when input and settings are unchanged.")
@click.option(
    "--max-size",
    type=click.FloatRange(min=0),
    default=10,
    show_default=True,
    metavar="MB",
    help="Refuse policy files larger than this many megabytes (0: no limit).",
)
@click.option(
    "--rule-ids",
    is_flag=True,
    help="offline backend: write ppg:rule on each practice and mention (the ids of the rules that made, changed "
    "or linked it; part of the settings digest).",
)
@click.option(
    "--allow-private",
    is_flag=True,
    help="Fetch URLs from loopback and private addresses too (refused by default, also after a redirect).",
)
@click.option(
    "--render",
    is_flag=True,
    help="Load URLs in a headless Chromium and read the page after its scripts ran (pages whose text a script "
    "writes); needs the render extra and the system's chromium.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the batch report as JSON on stdout.")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when a terminal).")
@handle_errors
def convert(
    inputs: tuple[str, ...],
    out_dir: Path,
    fmt: str,
    site: str | None,
    date: str | None,
    backend: str,
    model: str | None,
    gdpr_model: Path | None,
    config: Path | None,
    prefilter: bool | None,
    budget: float | None,
    no_cache: bool | None,
    extra: tuple[str, ...],
    executor: str,
    scheduler: str | None,
    jobs: int,
    force: bool,
    max_size: float,
    rule_ids: bool,
    allow_private: bool,
    render: bool,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Convert policy files or folders (.txt, .md, .html, .pdf) into one graph per policy."""
    from tqdm import tqdm

    from pp_graph.batch import convert_batch
    from pp_graph.load.versions import parse_date

    options = _convert_options(backend, model, config, extra, prefilter, budget, no_cache, rule_ids)
    if gdpr_model:
        options["gdpr_model"] = str(gdpr_model)
    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=None, unit="policy", disable=not show, file=sys.stderr, dynamic_ncols=True)

    def done(r: Any) -> None:
        bar.update(1)
        bar.set_postfix_str(r.source[-40:])
        if r.status in {"failed", "skipped"}:  # said once, as it happens, by its path under the input
            bar.write(f"{r.status}: {r.error}", file=sys.stderr)
        for w in r.report.get("warnings", []) if r.status == "converted" else []:
            bar.write(f"warning: {r.source}: {w}", file=sys.stderr)

    def step(source: str, name: str, i: int, n: int) -> None:
        bar.set_postfix_str(f"{source[-40:]}: {name} {i}/{n}" if n else f"{source[-40:]}: {name}")

    fetched = tempfile.TemporaryDirectory(prefix="pp-graph-fetch-")
    try:
        paths = _inputs(inputs, site, Path(fetched.name), allow_private, render)
        with _terminate_as_interrupt():
            report = convert_batch(
                paths,
                out_dir,
                fmt=fmt,
                backend=backend,
                options=options,
                jobs=jobs,
                force=force,
                site=site,
                valid_from=parse_date(date) if date else None,
                executor=executor,
                scheduler=scheduler,
                max_bytes=int(max_size * 1_000_000) or None,
                on_done=done,
                on_total=lambda n: bar.reset(total=n),
                on_step=step if show else None,
            )
    except KeyboardInterrupt:
        bar.close()
        err(f"interrupted: the files finished so far are in {out_dir}; run the same command again to resume")
        sys.exit(130)
    finally:
        bar.close()
        fetched.cleanup()
    _print_report(report, out_dir, as_json)
    if not report.ok:
        sys.exit(1)


def _convert_options(
    backend: str,
    model: str | None,
    config: Path | None,
    extra: tuple[str, ...],
    prefilter: bool | None,
    budget: float | None,
    no_cache: bool | None,
    rule_ids: bool,
) -> dict[str, Any]:
    """The backend options of `convert`: --model names a learned-model folder for the offline backend, the LLM
    model for the llm backend; --rule-ids is the offline backend's only."""
    learned = model if backend == "offline" else None
    options = _backend_options(
        None if learned else model,
        config,
        extra,
        prefilter=prefilter,
        budget=budget,
        no_cache=True if no_cache else None,
    )
    if rule_ids:
        if backend != "offline":
            raise click.UsageError("--rule-ids names the offline extractor's rules: use it with --backend offline")
        options["rule_ids"] = True
    if learned:
        options["learned"] = learned
    return options


def _print_report(report: Any, out_dir: Path, as_json: bool) -> None:
    """The batch report: JSON, or a table of the files and the totals."""
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=1, sort_keys=True))
        return
    rows = []
    for f in report.files:
        r = f.report
        rows.append(
            {
                "file": f.source,
                "status": f.status,
                "segments": r.get("segments"),
                "language": _language_cell(r.get("language")),
                "practices": " ".join(f"{_SHORT.get(k, k)}={v}" for k, v in r.get("practices", {}).items()),
                "data": r.get("data_classes"),
                "purposes": r.get("purpose_classes"),
                "triples": r.get("triples"),
                "seconds": r.get("seconds"),
            }
        )
    click.echo(table(rows))
    tot = report.totals()
    click.echo(
        f"\n{tot['policies']} policies ({report.count('converted')} converted, {report.count('unchanged')} "
        f"unchanged, {report.count('failed')} failed, {report.count('skipped')} skipped) in "
        f"{report.seconds:.1f}s → {out_dir}; {tot['segments']} segments, {tot['triples']} triples"
    )
    click.echo("practices: " + ", ".join(f"{k}={v}" for k, v in tot["practices"].items()))


def _language_cell(lang: dict[str, Any] | None) -> str:
    """'de 0.97' (a '?' after a verdict too unsure to act on); '' for a report without one."""
    if not lang:
        return ""
    return f"{lang['code']} {lang['confidence']:.2f}{'' if lang.get('sure') else '?'}"


VALIDATE_COLUMNS = ["file", "conforms", "error", "graph", "severity", "focus", "path", "value", "shape", "component"]


def validation_rows(outcomes: Sequence[Any]) -> list[dict[str, Any]]:
    """CSV rows: one per SHACL result, one per conforming file, one per file that could not be read."""
    rows: list[dict[str, Any]] = []
    for o in outcomes:
        d = o.to_dict()
        base = {"file": d["file"], "conforms": d["conforms"], "error": d["error"]}
        results = d.get("results") or []
        rows.extend({**base, **r} for r in results)
        if not results:
            rows.append(base)
    return rows


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@format_option()
@click.option("--json", "as_json", is_flag=True, hidden=True, help="Deprecated: --format json.")
@click.option("--max-results", type=int, default=20, show_default=True, help="Results shown per file (table).")
@click.option(
    "--profile",
    metavar="NAME",
    help="Validate against a checklist profile instead of the graph shapes, e.g. gdpr-transparency: one violation "
    "per missing item, naming the requirement and its article.",
)
def validate(paths: tuple[Path, ...], fmt: str, as_json: bool, max_results: int, profile: str | None) -> None:
    """SHACL-validate graphs (files or folders); every file is reported, even after one that cannot be read.

    --format table: the results of each non-conforming file and a tally; json: every file with its results or
    its error; csv: one row per result (and per conforming or unreadable file).
    Exit 0 all conform, 1 some do not conform, 2 a file could not be read (or another error)."""
    from pp_graph.errors import PPGraphError
    from pp_graph.graph.files import no_graph_files
    from pp_graph.validate import graph_files, validate_each

    if as_json:
        err("note: --json is deprecated; use --format json")
        fmt = "json"
    try:
        files = graph_files(paths)
        if not files:
            raise PPGraphError(no_graph_files(paths))
        shapes = None
        if profile:
            from pp_graph.comply.shapes import profile_path

            shapes = profile_path(profile)
        outcomes = validate_each(files, shapes=shapes)
    except PPGraphError as e:
        raise CLIError(str(e)) from e
    failed = [o for o in outcomes if o.report is None]
    bad = [o for o in outcomes if o.report is not None and not o.report.conforms]
    if fmt == "json":
        click.echo(json.dumps([o.to_dict() for o in outcomes], indent=1))
    elif fmt == "csv":
        emit(validation_rows(outcomes), "csv", [*VALIDATE_COLUMNS, "message"])
    else:
        for o in bad:
            assert o.report is not None
            click.echo(f"{o.path}: {_result_counts(o.report)}")
            click.echo(o.report.text(limit=max_results))
        ok = len(outcomes) - len(bad) - len(failed)
        tail = f"; {len(failed)} could not be read" if failed else ""
        click.echo(f"{ok}/{len(outcomes)} files conform{tail}")
    for o in failed:
        err(f"Error: {o.error}")  # click's prefix, as for the errors that stop a command
    sys.exit(EXIT_ERROR if failed else (1 if bad else 0))


def _result_counts(report: Any) -> str:
    by = Counter(r.severity for r in report.results)
    return ", ".join(f"{n} {sev.lower()}{'s' if n != 1 else ''}" for sev, n in sorted(by.items()))


commands = [convert, validate]
