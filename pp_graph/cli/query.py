"""pp-graph query / stats / push / export."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pp_graph.cli.common import emit, format_option, handle_errors
from pp_graph.errors import ConfigError, InputError

if TYPE_CHECKING:
    from pp_graph.export import Exporter

_paths = click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
_ENDPOINT_OPTIONS = [
    click.option(
        "--endpoint",
        metavar="URL",
        help="A SPARQL 1.1 server's base URL (e.g. http://127.0.0.1:7878) instead of files.",
    ),
    click.option(
        "--server",
        "server_kind",
        type=click.Choice(["oxigraph", "virtuoso", "fuseki"]),
        default="oxigraph",
        show_default=True,
        help="URL layout under --endpoint: oxigraph /query /update /store; virtuoso /sparql /sparql-auth "
        "/sparql-graph-crud-auth; fuseki /query /update /data.",
    ),
    click.option("--query-url", metavar="URL", help="SPARQL query URL (overrides the layout)."),
    click.option("--update-url", metavar="URL", help="SPARQL Update URL (overrides the layout)."),
    click.option("--store-url", metavar="URL", help="Graph Store Protocol URL (overrides the layout)."),
    click.option(
        "--user",
        envvar="PP_GRAPH_SPARQL_USER",
        metavar="NAME",
        help="User for basic or digest authentication (env PP_GRAPH_SPARQL_USER); the password is read "
        "from PP_GRAPH_SPARQL_PASSWORD, or asked for.",
    ),
]
_store = click.option(
    "--store",
    "store_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Persistent embedded store folder, reused between runs (unchanged files are skipped); with PATHS, "
    "queries answer over those files only.",
)


def _endpoint_options(fn: Any) -> Any:
    for option in reversed(_ENDPOINT_OPTIONS):
        fn = option(fn)
    return fn


def _remote(
    endpoint: str | None, server_kind: str, urls: dict[str, str | None], user: str | None, timeout: float = 60.0
) -> Any:
    import os

    from pp_graph.store.remote import PASSWORD_ENV, RemoteStore

    password = None
    if user:
        password = os.environ.get(PASSWORD_ENV)
        if password is None:
            password = click.prompt(f"password for {user}", hide_input=True, err=True)
    return RemoteStore(
        endpoint,
        query_url=urls.get("query_url"),
        store_url=urls.get("store_url"),
        update_url=urls.get("update_url"),
        server=server_kind,
        user=user,
        password=password,
        timeout=timeout,
    )


def _open(
    paths: tuple[Path, ...],
    store_dir: Path | None,
    remote: dict[str, Any],
    needs_dpv: bool = True,
    timeout: float = 60.0,
) -> Any:
    endpoint, query_url = remote.get("endpoint"), remote.get("query_url")
    if endpoint or query_url:
        if paths or store_dir:
            raise ConfigError(
                "--endpoint queries the server's graphs: give no PATHS or --store with it "
                "(load them first with pp-graph push)"
            )
        store = _remote(
            endpoint,
            remote["server_kind"],
            {"query_url": query_url, "update_url": remote.get("update_url"), "store_url": remote.get("store_url")},
            remote.get("user"),
            timeout,  # no single read from the server may outlast the query's limit
        )
        store.check_dataset(needs_dpv=needs_dpv)  # an empty dataset is an error, not "(no rows)"
        return store
    if not paths and store_dir is None:
        raise ConfigError("give graph files or folders (PATHS), --store DIR or --endpoint URL")
    from pp_graph.graph.files import GRAPH_SUFFIXES, graph_files
    from pp_graph.store.embedded import open_store

    if paths and store_dir is None and not graph_files(paths):  # zero rows would read as "no such practice"
        names = ", ".join(str(p) for p in paths)
        raise InputError(names, f"no graph files ({', '.join(sorted(GRAPH_SUFFIXES))}) there; convert policies first")
    if store_dir is not None:
        _check_store_dir(store_dir)
    store = open_store(paths, store_dir)
    if store_dir is not None and not paths and not store.policies():  # a new or mistyped folder: not "(no rows)"
        del store  # the folder's lock goes with the store, not with the traceback that would keep it
        raise InputError(f"--store {store_dir}", "holds no policy graphs; give graph files or folders (PATHS) to load")
    return store


def _check_store_dir(store_dir: Path) -> None:
    """A folder holding other files is not a store: the embedded store would write its own files among them."""
    if store_dir.is_dir() and any(store_dir.iterdir()) and not (store_dir / "CURRENT").is_file():
        raise InputError(
            f"--store {store_dir}", "holds other files and is no store; name a new or empty folder, or a store's"
        )


def _display(rows: list[dict[str, Any]], fmt: str) -> list[dict[str, Any]]:
    """Compact DPV IRIs and join lists for tables and CSV; JSON keeps full values."""
    if fmt == "json":
        return rows
    from pp_graph.vocab.dpv import compact

    def cell(v: Any) -> Any:
        if isinstance(v, list):
            return ", ".join(compact(str(x)) for x in v)
        if isinstance(v, str):
            return compact(v)
        return v

    return [{k: cell(v) for k, v in r.items()} for r in rows]


def _params(items: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{item!r}: expected NAME=VALUE", param_hint="--param")
        out[key] = value
    return out


@click.command()
@click.argument("name", required=False)
@_paths
@click.option(
    "-p",
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="Query parameter (repeatable); CURIEs such as pd:Contact are expanded.",
)
@_endpoint_options
@_store
@click.option("--limit", type=click.IntRange(min=1), help="Show at most this many rows.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="Stop the query after this long (embedded store and server alike); exit 2.",
)
@click.option(
    "--allow-service",
    is_flag=True,
    help="Let an .rq file's SERVICE clauses query other SPARQL endpoints over the network (refused by default).",
)
@click.option("--list", "list_queries", is_flag=True, help="List the named queries and their parameters.")
@format_option()
@handle_errors
def query(
    name: str | None,
    paths: tuple[Path, ...],
    params: tuple[str, ...],
    store_dir: Path | None,
    limit: int | None,
    timeout: float,
    allow_service: bool,
    list_queries: bool,
    fmt: str,
    **remote: Any,
) -> None:
    """Run a named query (queries/NAME.rq) or your own .rq file over graphs, a store or a SPARQL server.

    Ctrl-C stops a running query (exit 130).
    """
    from pp_graph.query.runner import load_all

    if list_queries or not name:
        rows = [
            {
                "query": q.name,
                "purpose": q.purpose,
                "params": ", ".join(f"{p.name}" + (f"={p.default}" if p.default else "") for p in q.params),
            }
            for q in load_all()
        ]
        emit(rows, fmt)
        return
    try:
        rows = _run_query(name, paths, _params(params), store_dir, remote, timeout, allow_service)
    except KeyboardInterrupt:
        click.echo("interrupted: the query was stopped", err=True)
        raise click.exceptions.Exit(130) from None
    emit(_display(rows[:limit] if limit else rows, fmt), fmt)


def _run_query(
    name: str,
    paths: tuple[Path, ...],
    values: dict[str, str],
    store_dir: Path | None,
    remote: dict[str, Any],
    timeout: float,
    allow_service: bool,
) -> list[dict[str, Any]]:
    from pp_graph.deadline import with_deadline
    from pp_graph.query.runner import load_query

    q = with_deadline(lambda: load_query(name), timeout, f"checking {name}")
    if q.services and not allow_service:
        raise ConfigError(
            f"{q.path.name}: the query calls SERVICE {', '.join(q.services)}, which sends requests to other "
            "endpoints; pass --allow-service to let it"
        )
    bound = q.bindings(values)  # fail on bad parameters before loading anything
    store = _open(paths, store_dir, remote, needs_dpv="urn:pp-graph:graph:dpv" in q.text, timeout=timeout)

    def run() -> list[dict[str, Any]]:
        q.check_store(store, bound)  # a site or policy the store does not hold is an error, not "(no rows)"
        return q.run_bound(store, bound)

    return with_deadline(run, timeout, f"query {q.name}")


@click.command()
@_paths
@_endpoint_options
@_store
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Also list the most mentioned data and purpose classes.",
)
@format_option()
@handle_errors
def stats(paths: tuple[Path, ...], store_dir: Path | None, top: int, fmt: str, **remote: Any) -> None:
    """Corpus summary as in the Pr2Graph paper: policies, triples, practices, data and purpose classes."""
    from pp_graph.query.stats import corpus_stats

    st = corpus_stats(_open(paths, store_dir, remote), top=top)
    if fmt == "json":
        emit([st.to_dict()], fmt)
        return
    emit(st.summary_rows(), fmt, columns=["measure", "value", "negated", "mentions"])
    if top and fmt == "table":
        for title, rows, key in (("data classes", st.top_data, "data"), ("purposes", st.top_purposes, "purpose")):
            click.echo(f"\ntop {title}:")
            emit(_display(rows, fmt), fmt, columns=[key, "label", "mentions", "policies"])


@click.command()
@_paths
@_endpoint_options
@click.option(
    "--method",
    type=click.Choice(["auto", "gsp", "update"]),
    default="auto",
    show_default=True,
    help="Graph Store Protocol PUT, SPARQL Update (DROP + INSERT in chunks), or auto: GSP, else Update.",
)
@click.option("--dpv/--no-dpv", default=True, show_default=True, help="Also upload DPV into urn:pp-graph:graph:dpv.")
@handle_errors
def push(paths: tuple[Path, ...], method: str, dpv: bool, **remote: Any) -> None:
    """Load policy graphs into a SPARQL server, one named graph per policy (each replaced, not merged)."""
    from pp_graph.graph.namespaces import POLICY_BASE

    if not paths:
        raise ConfigError("give graph files or folders to push")
    if not remote.get("endpoint") and not (remote.get("store_url") or remote.get("update_url")):
        raise ConfigError("give --endpoint URL (or --store-url / --update-url) to push to")
    urls = {k: remote.get(k) for k in ("query_url", "update_url", "store_url")}
    store = _remote(remote.get("endpoint"), remote["server_kind"], urls, remote.get("user"))
    report = store.push(paths, dpv=dpv, method=method)
    policies = [g for g in report.graphs if g.startswith(POLICY_BASE)]
    how = "Graph Store Protocol PUT" if report.method == "gsp" else "SPARQL Update"
    click.echo(
        f"pushed {len(policies)} policy graph(s), {sum(report.graphs.values())} distinct triples in all, "
        f"by {how} to {report.url}"
    )
    if report.note:
        click.echo(f"note: {report.note}", err=True)


@click.group()
def export() -> None:
    """Export policy graphs to other policy languages."""


def _export_command(exporter: Exporter) -> click.Command:
    name = exporter.name

    @handle_errors
    def run(paths: tuple[Path, ...], out: Path, store_dir: Path | None, validate: bool = False) -> None:
        from pp_graph.export import export_files, write_export

        written = write_export(name, export_files(name, paths, store_dir), out)
        files = list(written)
        click.echo(f"wrote {len(files)} file(s): {', '.join(map(str, files[:5]))}" + (" …" if len(files) > 5 else ""))
        if validate:
            check = exporter.load_validator()
            bad = 0
            for f, g in written.items():  # the graphs just written, not parsed back
                rep = check(g)
                if not rep.conforms:
                    bad += 1
                    click.echo(f"{f}: {len(rep.results)} violation(s)\n{rep.text}", err=True)
            click.echo(f"{len(files) - bad}/{len(files)} file(s) conform to the {name} shapes")
            if bad:
                raise SystemExit(1)

    options = [
        click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path)),
        click.option(
            "-o",
            "--output",
            "out",
            type=click.Path(path_type=Path),
            required=True,
            help="A .ttl file (all policies in one graph) or a folder (one file per policy).",
        ),
        _store,
    ]
    if exporter.validator:  # only exporters with a validator offer --validate
        options.append(click.option("--validate/--no-validate", default=False, help=exporter.validator_help))
    cmd: Any = run
    for option in reversed(options):
        cmd = option(cmd)
    return click.command(name=name, help=exporter.help)(cmd)


def _register_exporters() -> None:
    from pp_graph.export import EXPORTERS

    for e in EXPORTERS.values():
        export.add_command(_export_command(e))


_register_exporters()

commands = [query, stats, push, export]
