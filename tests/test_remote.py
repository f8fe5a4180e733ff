"""A real Oxigraph server on loopback: push, replace, injection-safe binding (the matrix is test_server_matrix)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sparql_servers import ServerPool

from pp_graph.errors import InputError
from pp_graph.query.runner import load_query
from pp_graph.store.embedded import open_store
from pp_graph.store.remote import RemoteStore, bind_values, serialize_term

MINI = Path(__file__).resolve().parent / "fixtures" / "graphs" / "mini.trig"
SHOP = "urn:pp-graph:policy:shop.example:aaaaaaaaaaaaaaaa"


@pytest.fixture(scope="module")
def server(sparql_pool: ServerPool) -> str:
    url = sparql_pool.get("oxigraph-remote").base  # a plain `oxigraph serve` of its own
    RemoteStore(url).push([MINI])
    return url


def test_push_makes_one_graph_per_policy(server: str) -> None:
    assert RemoteStore(server).policies() == open_store([MINI]).policies()


def test_malicious_value_changes_nothing(server: str) -> None:
    remote = RemoteStore(server)
    count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"
    before = remote.query(count)[0]["n"]
    evil = '"} DROP ALL ; {"'
    assert remote.query("SELECT ?x WHERE { GRAPH ?g { ?x ?y ?site } }", {"site": evil}) == []
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
