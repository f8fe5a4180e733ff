"""`serve` under abuse, on a real server on 127.0.0.1: body and text limits checked before any work, time budgets
that stop a page's or a query's work, long policies paged, slow sockets holding no thread, idle connections
closed, and a malformed chunked body answered 400."""

from __future__ import annotations

import http.client
import logging
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pp_graph.query.corpus import Corpus
from pp_graph.serve import app as app_mod
from pp_graph.serve.app import MAX_WHATIF_TEXT, create_app
from pp_graph.serve.server import make_server, stop


@pytest.fixture(scope="module")
def corpus(fixture_graphs: Path) -> Corpus:
    return Corpus.open([fixture_graphs])


class Running:
    def __init__(self, app: Any, idle_seconds: float = 15) -> None:
        self.server = make_server(app, 0, idle_seconds=idle_seconds)
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            r = conn.getresponse()
            return r.status, r.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def raw(self, data: bytes, wait: float = 10) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=wait) as s:
            s.sendall(data)
            return s.recv(65536)

    def close(self) -> None:
        stop(self.server)
        self.thread.join(10)


@pytest.fixture
def running(corpus: Corpus) -> Iterator[Running]:
    r = Running(create_app(corpus), idle_seconds=2)
    try:
        yield r
    finally:
        r.close()


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_a_large_body_is_refused_before_it_is_read(running: Running) -> None:
    with socket.create_connection(("127.0.0.1", running.port), timeout=10) as s:
        head = (
            "POST /whatif HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {100 * 1024 * 1024}\r\n\r\n"
        )
        t = time.monotonic()
        s.sendall(head.encode() + b"text=" + b"a" * 1000)  # 100 MB announced, never sent
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert time.monotonic() - t < 3


def test_a_long_text_is_refused_before_detection(running: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(app_mod, "_decide", lambda *a: calls.append(1))
    text = "write to jane.roe@example.org " * (MAX_WHATIF_TEXT // 25)
    body = urllib.parse.urlencode({"site": "tinyshop.example", "text": text}).encode()
    t = time.monotonic()
    status, page = running.request("POST", "/whatif", body, FORM)
    assert status == 413 and f"at most {MAX_WHATIF_TEXT:,}" in page
    assert calls == [] and time.monotonic() - t < 2


def test_a_malformed_chunked_body_is_a_400(running: Running, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    answer = running.raw(
        b"POST /whatif HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz-not-hex\r\ntext=hello\r\n0\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 400"), answer[:100]
    assert "Traceback" not in caplog.text
    assert running.request("GET", "/health")[0] == 200  # the server goes on


def test_slow_sockets_hold_no_thread_and_idle_ones_are_closed(running: Running) -> None:
    before = threading.active_count()
    socks = []
    try:
        for _ in range(150):
            s = socket.create_connection(("127.0.0.1", running.port), timeout=20)
            s.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
            socks.append(s)
        time.sleep(0.5)
        assert threading.active_count() <= before + 2  # werkzeug's server had one thread per socket
        t = time.monotonic()
        assert running.request("GET", "/health")[0] == 200  # a real client is still served at once
        assert time.monotonic() - t < 2
        t = time.monotonic()
        assert socks[0].recv(1024) == b""  # closed by the server after 2 s of silence
        assert time.monotonic() - t < 10
    finally:
        for s in socks:
            s.close()


def test_a_page_past_its_budget_stops_its_work(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[int] = []
    real = app_mod.card
    monkeypatch.setattr(app_mod, "card", lambda *a: made.append(1) or real(*a))
    r = Running(create_app(corpus, page_seconds=1e-9, query_seconds=1e-9))
    try:
        status, page = r.request("GET", "/site/tinyshop.example")
        assert status == 504 and "the page of tinyshop.example: stopped after the time limit" in page
        status, page = r.request("GET", "/queries/top-data-classes")
        assert status == 504 and "query top-data-classes: stopped" in page
        time.sleep(0.5)
        assert made == []  # nothing went on rendering behind the answer
    finally:
        r.close()


def test_a_long_policy_is_paged(corpus: Corpus, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_mod, "PAGE_LINES", 2)
    r = Running(create_app(corpus))
    try:
        status, page = r.request("GET", "/site/tinyshop.example")
        total = len(corpus.view(corpus.find("tinyshop.example")).segments)
        assert total > 4
        assert status == 200 and f"Showing lines 1–2 of {total}." in page
        assert page.count('class="seg"') == 2 and "from=2" in page
        status, page = r.request("GET", "/site/tinyshop.example?from=2")
        assert f"Showing lines 3–4 of {total}." in page and page.count('class="seg"') == 2
        assert "from=0" in page and "from=4" in page
    finally:
        r.close()


def test_stopping_with_a_request_running_lets_it_finish_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """waitress's close() alone, with a request still running, logged "Exception when servicing … Bad file
    descriptor" and the client got nothing."""

    def slow(environ: dict[str, Any], start: Any) -> list[bytes]:
        time.sleep(1.0)
        start("200 OK", [("Content-Type", "text/plain")])
        return [b"done"]

    r = Running(slow)
    answers: list[Any] = []
    client = threading.Thread(target=lambda: answers.append(r.request("GET", "/")))
    with caplog.at_level(logging.INFO, logger="waitress"):
        client.start()
        time.sleep(0.3)  # the request is running
        r.close()
        client.join(10)
    assert "Traceback" not in caplog.text and "Exception when servicing" not in caplog.text, caplog.text
    assert [a[0] for a in answers] == [200], answers  # the running request is answered
