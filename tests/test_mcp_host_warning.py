"""pp-graph mcp --transport http on an address other machines reach: a warning on stderr before serving (the
server has no authentication), none on loopback."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from pp_graph.cli import main

pytest.importorskip("mcp")

WARNING = "reachable from other machines"


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    from pp_graph.mcpserver import server

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(server, "serve", lambda graphs, **kw: calls.append(kw))
    return calls


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "mcp.example.org"])
def test_a_host_other_machines_reach_is_warned_about(host: str, served: list[dict[str, Any]]) -> None:
    r = CliRunner().invoke(main, ["mcp", "--transport", "http", "--host", host])
    assert r.exit_code == 0, r.output
    assert served and served[0]["host"] == host  # it still serves: binding widely is a choice, not an error
    assert WARNING in r.stderr and "no authentication" in r.stderr and host in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize(
    ("transport", "host"), [("http", "127.0.0.1"), ("http", "localhost"), ("http", "::1"), ("stdio", "0.0.0.0")]
)
def test_loopback_or_stdio_says_nothing(transport: str, host: str, served: list[dict[str, Any]]) -> None:
    r = CliRunner().invoke(main, ["mcp", "--transport", transport, "--host", host])
    assert r.exit_code == 0 and served, r.output
    assert WARNING not in r.stderr
