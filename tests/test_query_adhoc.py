"""Your own .rq files: headers optional, SERVICE refused unless allowed (found by lexing, not by the word), a time
limit on the embedded store and on a server, and Ctrl-C stops a running query without a traceback."""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.deadline import with_deadline
from pp_graph.errors import DataFileError, QueryTimeout
from pp_graph.query.runner import parse
from pp_graph.query.service import services
from pp_graph.store.embedded import open_store

MINI = Path(__file__).parent / "fixtures" / "graphs" / "mini.trig"
ROOT = Path(__file__).parent.parent
SLOW = (
    "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?x . ?b ?q ?y . ?c ?r ?z "
    "FILTER(STRLEN(CONCAT(STR(?x), STR(?y), STR(?z))) > 100000) }\n"
)


class _Endpoint(http.server.BaseHTTPRequestHandler):
    """A SPARQL endpoint on loopback that records what reaches it: ASK is true, SELECT sleeps ``delay`` seconds."""

    seen: ClassVar[list[str]] = []
    delay = 0.0

    def _answer(self, query: str) -> None:
        type(self).seen.append(query)
        if query.lstrip().upper().startswith(("PREFIX", "ASK")) and "ASK" in query.upper():
            body: dict[str, Any] = {"head": {}, "boolean": True}
        else:
            time.sleep(type(self).delay)
            body = {"head": {"vars": ["s"]}, "results": {"bindings": []}}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(OSError):  # the client gave up (timeout): nothing to answer
            self.wfile.write(data)

    def do_GET(self) -> None:
        from urllib.parse import parse_qs, urlparse

        self._answer(parse_qs(urlparse(self.path).query).get("query", [""])[0])

    def do_POST(self) -> None:
        from urllib.parse import parse_qs

        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
        self._answer(parse_qs(raw).get("query", [raw])[0])

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def endpoint() -> Iterator[tuple[str, type[_Endpoint]]]:
    handler = type("Handler", (_Endpoint,), {"seen": [], "delay": 0.0})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


# -- SERVICE --

NOT_SERVICE = [
    "# SERVICE <http://x/> in a comment\nSELECT * WHERE { ?s ?p ?o }",
    'SELECT * WHERE { ?s ?p "SERVICE <http://x/> { }" }',
    "SELECT * WHERE { ?s ?p '''\nSERVICE <http://x/> {}\n''' }",
    "PREFIX service: <http://x/> PREFIX ex: <http://y/>\n"
    "SELECT ?service WHERE { ?s service:p ?service ; ex:service ?o }",
    "PREFIX ex: <http://y/> SELECT * WHERE { ?s ex:a.SERVICE ?o . ?s <http://x/SERVICE> ?o }",
    "SELECT $service WHERE { ?s ?p $service }",
]
SERVICE = [
    ("SELECT * WHERE { SERVICE <http://e/> { ?s ?p ?o } }", "<http://e/>"),
    ("SELECT * WHERE { ?s ?p ?o .SeRvIcE SILENT <http://e/> { ?s ?q ?r } }", "<http://e/>"),
    ("SELECT * WHERE { \\u0053ERVICE <http://e/> { ?s ?p ?o } }", "<http://e/>"),  # §19.2 escapes come first
    ("PREFIX ex: <http://e/> SELECT * WHERE { OPTIONAL { service ex:sparql { ?s ?p ?o } } }", "ex:sparql"),
    ("SELECT * WHERE { VALUES ?e { <http://e/> } SERVICE ?e { ?s ?p ?o } }", "?e"),
]


@pytest.mark.parametrize("text", NOT_SERVICE)
def test_the_word_service_elsewhere_is_not_a_call(text: str) -> None:
    assert services(text) == ()
    assert _rdflib_services(text) == 0


@pytest.mark.parametrize(("text", "where"), SERVICE)
def test_service_calls_are_found(text: str, where: str) -> None:
    assert services(text) == (where,)
    if "\\u" not in text:  # rdflib's parser does not apply §19.2 escapes
        assert _rdflib_services(text) == 1


def _rdflib_services(text: str) -> int:
    """The number of SERVICE patterns in rdflib's parse tree (an independent SPARQL parser)."""
    from rdflib.plugins.sparql.parser import parseQuery
    from rdflib.plugins.sparql.parserutils import CompValue

    def walk(node: Any) -> int:
        if isinstance(node, CompValue):
            return (node.name == "ServiceGraphPattern") + sum(walk(v) for v in node.values())
        if isinstance(node, list | tuple) or type(node).__name__ == "ParseResults":
            return sum(walk(v) for v in node)
        return 0

    return walk(parseQuery(text))


def test_service_is_refused_unless_allowed(tmp_path: Path, endpoint: tuple[str, type[_Endpoint]]) -> None:
    url, handler = endpoint
    rq = tmp_path / "fed.rq"
    rq.write_text(f"SELECT * WHERE {{ SERVICE <{url}/sparql> {{ ?s ?p ?o }} }}\n")
    r = CliRunner().invoke(main, ["query", str(rq), str(MINI)])
    assert r.exit_code == 2 and "fed.rq: the query calls SERVICE" in r.output and "--allow-service" in r.output
    assert handler.seen == []  # not even the syntax check reached out
    decoy = tmp_path / "decoy.rq"
    decoy.write_text(f'# SERVICE <{url}/sparql>\nSELECT ?x WHERE {{ BIND("SERVICE <{url}/>" AS ?x) }}\n')
    r = CliRunner().invoke(main, ["query", str(decoy), str(MINI), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert handler.seen == []
    r = CliRunner().invoke(main, ["query", str(rq), str(MINI), "--allow-service", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert handler.seen and "?s ?p ?o" in handler.seen[0]


def test_the_library_may_not_call_service(tmp_path: Path) -> None:
    lib = tmp_path / "fed.rq"
    lib.write_text("# name: fed\n# purpose: x\nSELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }\n")
    with pytest.raises(DataFileError, match="may not call SERVICE"):
        parse(lib)


# -- headers --


def test_headers_are_optional_for_your_own_files(tmp_path: Path) -> None:
    bare = tmp_path / "count-graphs.rq"
    bare.write_text(
        "SELECT (COUNT(DISTINCT ?g) AS ?graphs) WHERE { GRAPH ?g { ?g a <urn:pp-analyze:core#PrivacyPolicy> } }\n"
    )
    r = CliRunner().invoke(main, ["query", str(bare), str(MINI), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == [{"graphs": 3}]
    with_param = tmp_path / "of-site.rq"
    with_param.write_text(
        "# param site (domain): the site\n"
        "PREFIX pr2g: <urn:pp-analyze:core#>\n"
        "SELECT ?site (COUNT(?x) AS ?n) WHERE { GRAPH ?g { ?g pr2g:for/pr2g:hasDomain ?site ; "
        "pr2g:hasDataPractice ?x } } GROUP BY ?site\n"
    )
    r = CliRunner().invoke(main, ["query", str(with_param), str(MINI), "-p", "site=shop.example", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)[0]["n"] > 0
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "bare.rq").write_text(bare.read_text())
    with pytest.raises(DataFileError, match="lacks '# name"):
        parse(lib / "bare.rq")


# -- time limits and Ctrl-C --


def _cli(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pp_graph.cli", "query", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_the_embedded_store_stops_at_the_time_limit(tmp_path: Path) -> None:
    rq = tmp_path / "slow.rq"
    rq.write_text(SLOW)
    t = time.monotonic()
    p = _cli(str(rq), str(MINI), "--timeout", "1")
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2, err
    assert "query slow: stopped after the time limit of 1 s" in err and "Traceback" not in err
    assert time.monotonic() - t < 30


def test_ctrl_c_stops_a_running_query(tmp_path: Path) -> None:
    rq = tmp_path / "slow.rq"
    rq.write_text(SLOW)
    p = _cli(str(rq), str(MINI), "--timeout", "600")
    tasks = Path(f"/proc/{p.pid}/task")
    for _ in range(300):  # the command has started its query worker (imports done): at least two threads
        if p.poll() is not None or (tasks.is_dir() and len(list(tasks.iterdir())) >= 2):
            break
        time.sleep(0.1)
    time.sleep(2)  # loading done, the query running
    assert p.poll() is None
    t = time.monotonic()
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 130, err
    assert "interrupted: the query was stopped" in err and "Traceback" not in err
    assert time.monotonic() - t < 5


def test_a_server_query_stops_at_the_time_limit(tmp_path: Path, endpoint: tuple[str, type[_Endpoint]]) -> None:
    url, handler = endpoint
    handler.delay = 8.0
    rq = tmp_path / "mine.rq"
    rq.write_text("SELECT ?s WHERE { GRAPH ?g { ?s ?p ?o } } LIMIT 1\n")
    t = time.monotonic()
    r = CliRunner().invoke(main, ["query", str(rq), "--endpoint", url, "--timeout", "1"])
    assert r.exit_code == 2, r.output
    assert "time limit" in r.output or "timed out" in r.output, r.output
    assert time.monotonic() - t < 5


def _in_a_thread(fn: Any) -> Any:
    """The least a deadline can cost: the call in a fresh thread, joined (the baseline of the overhead test)."""
    box: dict[str, Any] = {}
    worker = threading.Thread(target=lambda: box.setdefault("value", fn()), daemon=True)
    worker.start()
    worker.join()
    return box["value"]


def test_deadline_overhead_is_small() -> None:
    """A small query through the deadline's worker thread costs little more than in a bare thread: medians of
    interleaved runs in this process, so a loaded machine slows both alike (an absolute bound of 2 ms was flaky
    under load). Here the guarded call takes about 1.1× the bare thread; waiting for a poll, or a process, would be
    many times it."""
    store = open_store([MINI], dpv=False)
    q = "SELECT ?g WHERE { GRAPH ?g { ?g a <urn:pp-analyze:core#PrivacyPolicy> } }"
    bare, guarded = [], []
    for _ in range(200):
        t = time.perf_counter()
        _in_a_thread(lambda: store.query(q))
        bare.append(time.perf_counter() - t)
        t = time.perf_counter()
        with_deadline(lambda: store.query(q), 60, "q")
        guarded.append(time.perf_counter() - t)
    medians = statistics.median(guarded), statistics.median(bare)
    assert medians[0] < 3 * medians[1], medians


def test_a_deadline_returns_when_the_work_ends_not_at_the_next_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not a timing comparison: with the wait between Ctrl-C checks made 5 s, a call that ends at once must still
    return at once (the waiter is woken by the work, it does not sleep a slice)."""
    from pp_graph import deadline

    monkeypatch.setattr(deadline, "_SLICE", 5.0)
    t = time.monotonic()
    assert with_deadline(lambda: 42, 60, "q") == 42
    assert time.monotonic() - t < 2.5
    with pytest.raises(QueryTimeout, match=r"stopped after the time limit of 0\.2 s"):
        with_deadline(lambda: time.sleep(2), 0.2, "q")
    with pytest.raises(ZeroDivisionError):
        with_deadline(lambda: 1 / 0, 5, "q")


def test_a_folder_without_graph_files_is_an_error_not_zero_rows(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    (tmp_path / "empty").mkdir()
    r = CliRunner().invoke(main, ["query", "stats-totals", str(tmp_path / "empty")])
    assert r.exit_code == 2 and "no graph files" in r.output


@pytest.mark.parametrize(
    ("option", "url"),
    [("--endpoint", "http://[::1:bad/"), ("--endpoint", "http://127.0.0.1:99999"), ("--query-url", "http://h:x/q")],
)
def test_a_malformed_server_url_exits_2_naming_it(option: str, url: str) -> None:
    # urllib's ValueError (unbalanced brackets, a bad port) was a traceback.
    args = ["query", "top-purposes", option, url]
    if option != "--endpoint":
        args += ["--endpoint", "http://127.0.0.1:9"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"{option} {url!r}: not a valid URL" in r.output, r.output


def test_store_option_refuses_a_foreign_or_empty_folder(tmp_path: Path) -> None:
    # A folder of other files got the store's files written among them; a new (or mistyped) one answered
    # "(no rows)" or zero policies with exit 0.
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_bytes(b"\xff\xd8")
    r = CliRunner().invoke(main, ["query", "stats-totals", "--store", str(other)])
    assert r.exit_code == 2 and "holds other files and is no store" in r.output, r.output
    assert [p.name for p in other.iterdir()] == ["cat.jpg"]
    r = CliRunner().invoke(main, ["query", "stats-totals", "--store", str(tmp_path / "new")])
    assert r.exit_code == 2 and f"--store {tmp_path / 'new'}: holds no policy graphs" in r.output, r.output
    loaded = CliRunner().invoke(
        main, ["query", "stats-totals", str(MINI), "--store", str(tmp_path / "new"), "--format", "json"]
    )
    r = CliRunner().invoke(main, ["query", "stats-totals", "--store", str(tmp_path / "new"), "--format", "json"])
    assert r.exit_code == 0 and json.loads(r.output) == json.loads(loaded.output), r.output  # then it answers
    assert json.loads(r.output)[0]["policies"] > 0
