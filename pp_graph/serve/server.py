"""The UI's HTTP server: waitress, bounded.

werkzeug's threaded server starts a thread per connection, so 500 slow sockets held 503 threads, and a malformed
chunked body ended in a 500 with a traceback. waitress reads requests asynchronously and hands only complete ones
to a fixed pool of worker threads; it closes connections idle past ``IDLE_SECONDS``, refuses bodies and headers
past their limits (413/431 before the application runs) and answers a malformed body with 400.
"""

from __future__ import annotations

from typing import Any

from pp_graph.errors import ConfigError

WORKERS = 4  # threads that run the application; slow or idle sockets never hold one
CONNECTIONS = 1000  # open connections at once (an idle one costs a descriptor, no thread); more wait in the backlog
IDLE_SECONDS = 10  # a connection that sends nothing for this long is closed (header and keep-alive timeout)
MAX_HEADER_BYTES = 32 * 1024
GRACE_SECONDS = 5.0  # on stop, how long running requests may take to finish
MAX_BODY_BYTES = 512 * 1024  # the what-if's form: its text (20,000 characters) percent-encoded, and the rest


def make_server(app: Any, port: int, *, idle_seconds: float = IDLE_SECONDS, workers: int = WORKERS) -> Any:
    """A server on 127.0.0.1:``port`` (0: a free one; ``.effective_port`` tells which); ``.run()`` serves until
    :func:`stop`. ConfigError when the port cannot be bound."""
    from waitress.server import create_server

    _enough_descriptors(CONNECTIONS + 64)
    try:
        return create_server(
            app,
            host="127.0.0.1",
            port=port,
            threads=workers,
            connection_limit=CONNECTIONS,
            channel_timeout=idle_seconds,
            cleanup_interval=max(1, min(idle_seconds / 2, 10)),  # how often idle connections are looked for
            max_request_header_size=MAX_HEADER_BYTES,
            max_request_body_size=MAX_BODY_BYTES,
            asyncore_use_poll=True,  # poll, not select: no limit of 1,024 descriptors
            expose_tracebacks=False,
            ident="pp-graph",
        )
    except OSError as e:
        raise ConfigError(f"--port {port}: cannot listen on 127.0.0.1 ({e.strerror or e}); try --port 0") from e


def stop(server: Any, grace: float = GRACE_SECONDS) -> None:
    """Stop ``server`` (from any thread): requests already running get ``grace`` seconds to finish, queued ones are
    cancelled, then the sockets close. waitress's own ``close()`` closes the wake-up pipe first, so a request still
    running when it is called ends in a traceback ("Bad file descriptor") instead of its answer."""
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=grace)
    server.close()


def _enough_descriptors(n: int) -> None:
    """Raise the soft limit on open files towards ``n`` (never above the hard limit), so the connection limit, not
    the descriptor limit, is what a flood of sockets meets."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < n:
        resource.setrlimit(resource.RLIMIT_NOFILE, (n if hard == resource.RLIM_INFINITY else min(n, hard), hard))
