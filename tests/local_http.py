"""A throw-away HTTP server on a loopback address for the fetch and render tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Quiet(BaseHTTPRequestHandler):
    """A handler that logs nothing (the test output stays readable)."""

    def log_message(self, *args: object) -> None:
        pass


def reply(handler: BaseHTTPRequestHandler, status: int, ctype: str, body: bytes) -> None:
    """Answer a request: ``body`` as the content, or for a redirect (301, 302, 307) the ``Location`` it names."""
    handler.send_response(status)
    if status in (301, 302, 307):
        handler.send_header("Location", body.decode())
        body = b""
    handler.send_header("Content-Type", ctype)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def serve(host: str, handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    """A generator: the first ``next`` starts the server and gives its port, the second stops it."""
    httpd = ThreadingHTTPServer((host, 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def rebinding_resolver(monkeypatch: object, host: str, port: int, answers: list[str]) -> None:
    """Make ``host`` resolve to each of ``answers`` in turn, then to the last one for good (DNS rebinding): the
    fetcher's check sees the first address, the connection a later one. Other hosts resolve as usual."""
    import socket

    real = socket.getaddrinfo
    queue = iter(answers)
    last = answers[-1]

    def resolve(name: str, *args: object, **kwargs: object) -> list:  # type: ignore[type-arg]
        if name != host:
            return real(name, *args, **kwargs)  # type: ignore[arg-type]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(queue, last), port))]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)  # type: ignore[attr-defined]
