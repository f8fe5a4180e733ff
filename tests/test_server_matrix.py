"""Every named query gives the embedded store's answers on real SPARQL servers (issue: any SPARQL 1.1 server).

The matrix: embedded pyoxigraph, ``oxigraph serve`` plain (default graph is its own graph, as a user
starts it), ``oxigraph serve --union-default-graph``, and Virtuoso 7 (graph CRUD with digest auth).
Each server starts once per session (tests/sparql_servers.py) and gets the same graphs by
``RemoteStore.push``; a missing binary skips its column.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sparql_servers import KINDS, VIRTUOSO_PASSWORD, VIRTUOSO_USER, ServerPool

from pp_graph.query.runner import available, load_query
from pp_graph.store.embedded import DPV_GRAPH, EmbeddedStore, open_store
from pp_graph.store.remote import RemoteError, RemoteStore

GRAPHS = Path(__file__).resolve().parent / "fixtures" / "graphs"
MATRIX = [GRAPHS / "mini.trig", GRAPHS / "edge.trig"]
SHOP = "urn:pp-graph:policy:shop.example:aaaaaaaaaaaaaaaa"
EDGE = "urn:pp-graph:policy:edge.example:eeeeeeeeeeeeeeee"
PARAMS: dict[str, list[dict[str, str]]] = {
    "top-data-classes": [{}, {"under": "pd:Contact"}, {"under": "pd:PhysicalAddress"}],
    "top-purposes": [{}, {"under": "dpv:Marketing"}, {"under": "dpv:Advertising"}],
    "practices-of-site": [
        {"site": "shop.example"},
        {"site": "shop.example", "under": "pd:Contact"},
        {"site": "edge.example"},
        {"site": "edge.example", "under": "pd:Location"},
    ],
    "sites-sharing": [{"data": "pd:Contact"}, {"data": "pd:PhysicalAddress"}, {"data": "pd:Location"}],
    "shares-for-advertising": [{}, {"under": "pd:PhysicalAddress"}],
    "retention": [{}, {"under": "pd:Financial"}, {"under": "pd:AccountIdentifier"}],
    "missing-practice-type": [
        {"practice": "data-storage-retention-deletion"},
        {"practice": "third-party-sharing-disclosure"},
        {"practice": "third-party-sharing-disclosure", "under": "pd:TelephoneNumber"},
        {"practice": "first-party-collection-use"},
    ],
    "stats-totals": [{}],
    "stats-practices": [{}],
    "export-policy": [{"policy": SHOP}, {"policy": EDGE}],
    "export-practices": [{"policy": SHOP}, {"policy": EDGE}],
    "export-practice-lines": [{"policy": SHOP}, {"policy": EDGE}],
    "export-parties": [{"policy": SHOP}, {"policy": EDGE}],
    "risk-practices": [{"policy": SHOP}, {"policy": EDGE}],
    "risk-transparency": [{"policy": SHOP}, {"policy": EDGE}],
    "risk-site-policies": [{"domain": "shop.example"}, {"domain": "edge.example"}],
    "risk-graph-triples": [{"policy": EDGE}],
    "inferred-classes": [{}],
    "view-policies": [{}],
    "view-segments": [{"policy": SHOP}, {"policy": EDGE}],
    "view-practices": [{"policy": SHOP}, {"policy": EDGE}],
    "view-practice-links": [{"policy": SHOP}, {"policy": EDGE}],
    "view-mentions": [{"policy": SHOP}, {"policy": EDGE}],
    "view-policy-statements": [{}],
    "view-sharing": [{}],
    "view-negated": [{}],
    "view-site-top-data": [{}],
    "user-choices": [{}],
    "storage-places": [{}],
    "site-statements": [{}],
    "view-practice-details": [{"policy": SHOP}, {"policy": EDGE}],
    "risk-category-coverage": [
        {"policy": SHOP, "category": "pd:Contact"},
        {"policy": SHOP, "category": "pd:Name"},
        {"policy": EDGE, "category": "pd:PhysicalAddress"},
    ],
}
REMOTE = [k for k in KINDS if k != "embedded"]


def remote_store(pool: ServerPool, kind: str) -> RemoteStore:
    base = pool.get(kind).base
    if kind.startswith("virtuoso"):
        return RemoteStore(base, server="virtuoso", user=VIRTUOSO_USER, password=VIRTUOSO_PASSWORD)
    return RemoteStore(base)


_PUSHED: dict[str, Any] = {}


@pytest.fixture(scope="session")
def embedded() -> EmbeddedStore:
    return open_store(MATRIX)


@pytest.fixture
def matrix(sparql_pool: ServerPool) -> Any:
    """kind → a store holding MATRIX and DPV; each server is pushed once (plain Oxigraph by SPARQL Update)."""

    def get(kind: str) -> Any:
        if kind not in _PUSHED:
            store = remote_store(sparql_pool, kind)
            report = store.push(MATRIX, method="update" if kind == "oxigraph" else "auto")
            _PUSHED[kind] = (store, report)
        return _PUSHED[kind][0]

    return get


def normalised(rows: list[dict[str, Any]]) -> list[tuple[tuple[str, str], ...]]:
    return sorted(tuple(sorted((k, repr(v)) for k, v in r.items())) for r in rows)


def test_every_named_query_is_in_the_matrix() -> None:
    assert set(PARAMS) == set(available())


@pytest.mark.parametrize("kind", REMOTE)
@pytest.mark.parametrize("name", sorted(PARAMS))
def test_server_answers_equal_embedded(matrix: Any, embedded: EmbeddedStore, kind: str, name: str) -> None:
    remote = matrix(kind)
    q = load_query(name)
    ordered = "ORDER BY" in q.text.upper()
    for params in PARAMS[name]:
        a, b = q.run(embedded, params), q.run(remote, params)
        assert normalised(b) == normalised(a), (kind, name, params)
        if ordered:  # the named queries order totally: the same sequence on every engine
            assert b == a, (kind, name, params, "order differs")
    assert any(q.run(embedded, p) for p in PARAMS[name]), f"{name}: no parameter set has rows; the test shows nothing"


@pytest.mark.parametrize("kind", REMOTE)
def test_booleans_and_durations_are_read_by_value(matrix: Any, kind: str) -> None:
    rows = {
        r["practice"].rsplit("/", 1)[1]: r
        for r in load_query("practices-of-site").run(matrix(kind), {"site": "edge.example"})
    }
    assert rows["2-0"]["negated"] is True and rows["1-0"]["negated"] is False
    assert (rows["3-0"]["retention"], rows["3-1"]["retention"]) == ("P30D", "P1Y6M")


COUNT_BLANKS = (
    f"SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE {{ GRAPH <{DPV_GRAPH.value}> "
    "{ { ?b ?p ?o } UNION { ?s ?p ?b } FILTER (isBlank(?b)) } }"
)


@pytest.mark.parametrize("kind", REMOTE)
def test_push_keeps_blank_nodes_of_each_file_apart(matrix: Any, embedded: EmbeddedStore, kind: str) -> None:
    # The DPV files reuse blank node labels; merged, 172 nodes became 137.
    assert matrix(kind).query(COUNT_BLANKS) == embedded.query(COUNT_BLANKS) == [{"n": 172}]


@pytest.mark.parametrize("kind", REMOTE)
def test_push_reports_method_and_distinct_triples(matrix: Any, embedded: EmbeddedStore, kind: str) -> None:
    matrix(kind)
    report = _PUSHED[kind][1]
    assert report.method == ("update" if kind == "oxigraph" else "gsp")
    in_graph = embedded.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{EDGE}> {{ ?s ?p ?o }} }}")[0]["n"]
    assert report.graphs[EDGE] == in_graph  # the repeated line is one triple, sent and counted once
    assert matrix(kind).query(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{EDGE}> {{ ?s ?p ?o }} }}")[0]["n"] == in_graph


@pytest.mark.parametrize("kind", ["oxigraph-union", "virtuoso"])
def test_push_by_update_replaces_and_keeps_blank_nodes(matrix: Any, embedded: EmbeddedStore, kind: str) -> None:
    store = matrix(kind)  # pushed by the Graph Store Protocol first
    count = f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{EDGE}> {{ ?s ?p ?o }} }}"
    before = store.query(count)
    report = store.push(MATRIX, method="update")  # chunks: DPV's blank-node groups must not be split
    assert report.method == "update" and report.url.endswith("/update" if kind != "virtuoso" else "/sparql-auth")
    assert store.query(count) == before
    assert store.query(COUNT_BLANKS) == embedded.query(COUNT_BLANKS)
    for name, params in (("retention", {}), ("practices-of-site", {"site": "edge.example"})):
        q = load_query(name)  # durations (Virtuoso refuses them in INSERT DATA) and booleans survive
        assert q.run(store, params) == q.run(embedded, params)


def test_virtuoso_without_credentials_is_a_clear_error(sparql_pool: ServerPool) -> None:
    store = RemoteStore(sparql_pool.get("virtuoso").base, server="virtuoso")
    with pytest.raises(RemoteError, match=r"HTTP 401 \(authentication required"):
        store.push([GRAPHS / "edge.trig"], dpv=False)


def test_a_server_without_policy_graphs_is_an_error_not_empty_rows(sparql_pool: ServerPool) -> None:
    store = RemoteStore(sparql_pool.get("oxigraph-empty").base)
    with pytest.raises(RemoteError, match="holds no policy graph"):
        store.check_dataset()
    store.push([GRAPHS / "edge.trig"], dpv=False)
    with pytest.raises(RemoteError, match="no DPV graph"):
        store.check_dataset()
    store.check_dataset(needs_dpv=False)


def test_cli_push_then_query_on_plain_oxigraph_and_virtuoso(sparql_pool: ServerPool, monkeypatch: Any) -> None:
    """The README's recipe: push, then query and stats, on a plain server and on Virtuoso."""
    from click.testing import CliRunner

    from pp_graph.cli import main

    monkeypatch.setenv("PP_GRAPH_SPARQL_PASSWORD", VIRTUOSO_PASSWORD)
    for kind, extra in (("oxigraph-cli", []), ("virtuoso", ["--server", "virtuoso", "--user", VIRTUOSO_USER])):
        base = ["--endpoint", sparql_pool.get(kind).base, *extra]
        res = CliRunner().invoke(main, ["push", *map(str, MATRIX), *base])
        assert res.exit_code == 0, res.output
        assert "pushed 4 policy graph(s)" in res.output and "by Graph Store Protocol PUT" in res.output
        assert VIRTUOSO_PASSWORD + " " not in res.output
        res = CliRunner().invoke(
            main, ["query", "practices-of-site", "-p", "site=Edge.Example", *base, "--format", "json"]
        )
        assert res.exit_code == 0, res.output
        assert '"negated": true' in res.output and '"P1Y6M"' in res.output
        res = CliRunner().invoke(main, ["stats", *base, "--format", "json"])
        assert res.exit_code == 0 and '"policies": 4' in res.output and '"practices": 0' not in res.output


def test_cli_query_on_an_empty_server_is_an_error(sparql_pool: ServerPool) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    res = CliRunner().invoke(main, ["stats", "--endpoint", sparql_pool.get("oxigraph-nothing").base])
    assert res.exit_code == 2 and "holds no policy graph" in res.output and "Traceback" not in res.output


def test_auto_push_falls_back_to_update_and_says_so(sparql_pool: ServerPool) -> None:
    base = sparql_pool.get("oxigraph-fallback").base
    store = RemoteStore(base, store_url=f"{base}/no-graph-store-here")  # a URL that refuses PUT
    report = store.push([GRAPHS / "edge.trig"], dpv=False)
    assert report.method == "update" and report.url == f"{base}/update"
    assert "Graph Store Protocol refused" in report.note and "HTTP 404" in report.note
    assert store.policies() == [EDGE]
    with pytest.raises(RemoteError, match="HTTP 404"):
        RemoteStore(base, store_url=f"{base}/no-graph-store-here").push([GRAPHS / "edge.trig"], method="gsp")


@pytest.fixture(scope="session")
def corpus_graphs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three real policies converted by the offline backend (../shared/corpus)."""
    from click.testing import CliRunner

    from pp_graph.cli import main

    corpus = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "policies"
    if not corpus.is_dir():
        pytest.skip("../shared/corpus/policies is not available")
    out = tmp_path_factory.mktemp("corpus-graphs")
    files = [str(corpus / f"{site}.md") for site in CORPUS_SITES]
    res = CliRunner().invoke(main, ["convert", *files, "-o", str(out)])
    assert res.exit_code == 0, res.output
    return sorted(out.glob("*.trig"))


CORPUS_SITES = ("mozilla.org", "wordpress.org", "yahoo.com")  # the three shortest


@pytest.mark.slow
@pytest.mark.parametrize("kind", REMOTE)
def test_corpus_policies_give_the_same_answers(sparql_pool: ServerPool, corpus_graphs: list[Path], kind: str) -> None:
    """Real converted policies through every named query, on every server (its own server instance)."""
    embedded = open_store(corpus_graphs)
    server = remote_store(sparql_pool, f"{kind}-corpus")  # a server of its own: only these graphs
    server.push(corpus_graphs)
    policy = next(p for p in embedded.policies() if ":mozilla.org:" in p)
    subst = {SHOP: policy, EDGE: policy, "shop.example": "mozilla.org", "edge.example": "mozilla.org"}
    for name, sets in sorted(PARAMS.items()):
        q = load_query(name)
        for params in sets:
            p = {k: subst.get(v, v) for k, v in params.items()}
            a, b = q.run(embedded, p), q.run(server, p)
            assert normalised(b) == normalised(a), (kind, name, p)
            if "ORDER BY" in q.text.upper():
                assert b == a, (kind, name, p, "order differs")
