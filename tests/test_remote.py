"""A real Oxigraph server on loopback: push, query, same answers as the embedded store."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pp_graph.errors import InputError
from pp_graph.query.runner import load_query
from pp_graph.store.embedded import open_store
from pp_graph.store.remote import RemoteStore, bind_values, serialize_term

MINI = Path(__file__).resolve().parent / "fixtures" / "graphs" / "mini.trig"
SHOP = "urn:pp-graph:policy:shop.example:aaaaaaaaaaaaaaaa"
PARAMS = {
    "top-data-classes": [{}, {"under": "pd:Contact"}],
    "top-purposes": [{}, {"under": "dpv:Marketing"}],
    "practices-of-site": [{"site": "shop.example"}, {"site": "shop.example", "under": "pd:Contact"}],
    "sites-sharing": [{"data": "pd:Contact"}, {"data": "pd:TelephoneNumber"}],
    "shares-for-advertising": [{}],
    "retention": [{}, {"under": "pd:Financial"}],
    "missing-practice-type": [
        {"practice": "data-storage-retention-deletion"},
        {"practice": "third-party-sharing-disclosure", "under": "pd:TelephoneNumber"},
    ],
    "stats-totals": [{}],
    "stats-practices": [{}],
    "export-policy": [{"policy": SHOP}],
    "export-practices": [{"policy": SHOP}],
    "export-parties": [{"policy": SHOP}],
    "risk-practices": [{"policy": SHOP}],
    "risk-transparency": [{"policy": SHOP}],
    "risk-site-policies": [{"domain": "shop.example"}],
    "risk-category-coverage": [{"policy": SHOP, "category": "pd:Contact"}, {"policy": SHOP, "category": "pd:Name"}],
}


def oxigraph_binary() -> str | None:
    """The `oxigraph` PyPI package installs its server binary next to the interpreter."""
    local = Path(sys.executable).parent / "oxigraph"
    return str(local) if local.exists() else shutil.which("oxigraph")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = oxigraph_binary()
    if binary is None:
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph)")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            binary,
            "serve",
            "--location",
            str(tmp_path_factory.mktemp("oxigraph")),
            "--bind",
            f"127.0.0.1:{port}",
            "--union-default-graph",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{url}/query?query=ASK%7B%7D", timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.stderr else ""
                    pytest.fail(f"oxigraph did not start: {err}")
                time.sleep(0.1)
        RemoteStore(url).push([MINI])
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_push_makes_one_graph_per_policy(server: str) -> None:
    assert RemoteStore(server).policies() == open_store([MINI]).policies()


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_server_answers_equal_embedded(server: str, name: str) -> None:
    embedded, remote = open_store([MINI]), RemoteStore(server)
    q = load_query(name)
    for params in PARAMS[name]:
        a, b = q.run(embedded, params), q.run(remote, params)
        assert a == b, (name, params)
    assert any(q.run(embedded, p) for p in PARAMS[name]) or name == "sites-sharing"


def test_malicious_value_changes_nothing(server: str) -> None:
    remote = RemoteStore(server)
    count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    before = remote.query(count)[0]["n"]
    evil = '"} DROP ALL ; {"'
    assert load_query("practices-of-site").run(remote, {"site": evil}) == []
    text = bind_values("SELECT ?site WHERE { ?x ?y ?site }", {"site": evil})
    assert 'VALUES (?site) { ("\\"} DROP ALL ; {\\"") }' in text  # one escaped literal, nothing else
    with pytest.raises(InputError):
        serialize_term("http://x/> } DROP ALL ; { <y")  # not an IRI
    with pytest.raises(InputError):
        load_query("sites-sharing").run(remote, {"data": "http://x> } DROP ALL { <y"})
    assert remote.query(count)[0]["n"] == before


def test_push_replaces_graphs(server: str, tmp_path: Path) -> None:
    remote = RemoteStore(server)
    count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    before = remote.query(count)[0]["n"]
    remote.push([MINI], dpv=False)  # PUT again: same graphs, no duplicates
    assert remote.query(count)[0]["n"] == before


def test_query_form_ignores_comment_words() -> None:
    from pp_graph.errors import InputError
    from pp_graph.store.remote import query_form

    assert query_form("# sites sharing email addresses; load_dpv first\nSELECT * WHERE { ?s ?p ?o }") == "SELECT"
    assert query_form('ASK { ?s ?p "DROP ALL" }') == "ASK"
    with pytest.raises(InputError, match="only SELECT and ASK"):
        query_form("# a comment\nDROP ALL")
