"""A throw-away HTTP server on a loopback address for the fetch and render tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def serve(host: str, handler: type[BaseHTTPRequestHandler]) -> Iterator[int]:
    """A generator: the first ``next`` starts the server and gives its port, the second stops it."""
    httpd = ThreadingHTTPServer((host, 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()
