"""pp-graph report / serve: see the graph (a one-file HTML report; a local read-only browser UI)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from pp_graph.cli.common import detection_warm_up, err, handle_errors
from pp_graph.extras import need

_paths = click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))


@click.command()
@_paths
@click.option(
    "-o",
    "--output",
    "out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("report.html"),
    show_default=True,
    help="The HTML file to write (one file, no network needed to open it).",
)
@click.option(
    "--ledger",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A data plane's ledger: add a disclosure-coverage section (what crossed, against the policies in force).",
)
@handle_errors
def report(paths: tuple[Path, ...], out: Path, ledger: Path | None) -> None:
    """A self-contained HTML report over policy graphs: summary, top classes, sharing, retention, negations, the
    GDPR checklist per policy and across sites, the changes between versions with their severities, and with
    ``--ledger`` the disclosure coverage of what a data plane sent."""
    from pp_graph.query.corpus import Corpus
    from pp_graph.report.html import build_report, write_report

    t0 = time.perf_counter()
    corpus = Corpus.open(paths)
    judged = None
    if ledger is not None:
        from pp_graph.coverage import coverage

        judged = coverage(ledger, paths)  # verifies the ledger first: a broken chain refuses, naming the entry
    size = write_report(build_report(corpus, judged), out)
    click.echo(f"{out}: {size / 1024:.0f} KiB, {len(corpus.sites)} sites, {time.perf_counter() - t0:.1f} s")


@click.command()
@_paths
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port on 127.0.0.1 (0: a free one, printed).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the UI in the default browser, where there is one.")
@handle_errors
def serve(paths: tuple[Path, ...], port: int, open_browser: bool) -> None:
    """Browse sites, policies and practices, run named queries and risk what-ifs, on 127.0.0.1 (Ctrl-C stops)."""
    need("ui", "the browser UI (serve)")
    from pp_graph.query.corpus import Corpus
    from pp_graph.serve.app import create_app
    from pp_graph.serve.server import make_server, stop

    click.echo(f"pp-graph UI: loading the graphs in {', '.join(str(p) for p in paths)} …", err=True)
    corpus = Corpus.open(paths)
    app = create_app(corpus)
    server = make_server(app, port)
    detection_warm_up(app.config["engine"].ner_mode)()  # at start-up: a what-if with a text detects (the guard)
    url = f"http://127.0.0.1:{server.effective_port}/"
    click.echo(f"pp-graph UI: {url}  ({len(corpus.sites)} sites; Ctrl-C stops)", err=False)
    if open_browser:
        import webbrowser

        if not webbrowser.open(url):
            err("no browser to open here; open the address above yourself")
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        stop(server)
    err("stopped")


commands = [report, serve]
