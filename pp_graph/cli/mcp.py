"""pp-graph mcp: the policy graph, the risk engine and the anonymizer as an MCP server (stdio or streamable HTTP)."""

from __future__ import annotations

from pathlib import Path

import click

from pp_graph.cli.common import CLIError, graph_option, handle_errors, ner_mode_option


@click.command("mcp")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: the client starts this command and talks over stdin/stdout; http: streamable HTTP at /mcp.",
)
@graph_option()
@click.option(
    "--ledger",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Data-plane database: every call is appended to its ledger (tool, site, categories, decision; no text).",
)
@click.option("--principal", default="mcp-client", show_default=True, help="Who the ledger records as the caller.")
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: address to bind.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP: port.")
@ner_mode_option("the detection of personal data in check_egress and anonymize texts.")
@handle_errors
def mcp(
    transport: str,
    graphs: tuple[Path, ...],
    ledger: Path | None,
    principal: str,
    host: str,
    port: int,
    ner_mode: str | None,
) -> None:
    """Serve check_egress, anonymize, policy_facts and named_query (and each policy as policy://SITE) over MCP.

    Needs the optional `mcp` package (pip install 'pp-graph[mcp]'). Logs go to stderr; with stdio, stdout carries
    the protocol only.
    """
    try:
        import mcp as _sdk  # noqa: F401
    except ImportError:
        raise CLIError("the MCP server needs the mcp package: pip install 'pp-graph[mcp]'") from None
    from pp_graph.mcpserver.server import serve

    if transport == "http" and not _loopback(host):
        click.echo(
            f"warning: --host {host}: the MCP server is reachable from other machines and has no authentication; "
            "anyone who can connect can call its tools (and add to --ledger). Bind 127.0.0.1, or put it behind a "
            "proxy that authenticates.",
            err=True,
        )
    serve(graphs, transport=transport, host=host, port=port, ledger=ledger, principal=principal, ner_mode=ner_mode)


def _loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only: localhost or a loopback address (a host name could
    resolve to anything, so it counts as reachable)."""
    import ipaddress

    if host.strip().lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


commands = [mcp]
