"""Fetch a policy over HTTP(S): robots.txt honoured, a user agent, timeouts, redirects and a size limit.

Only public hosts are fetched: before the first request and after every redirect the host is resolved and every address
it has is checked; loopback, private, link-local (cloud metadata), multicast, unspecified and reserved addresses are
refused unless ``allow_private`` is given, whatever spelling names them (``0x7f000001``, ``2130706433``, ``[::1]``,
``[::ffff:127.0.0.1]``), and the connected socket's address is checked again before the body is read (a host may resolve
differently at connect time: DNS rebinding). A fetch also has an overall deadline, so a server trickling bytes cannot
hold it beyond ``deadline`` seconds (plus at most one read timeout).

HTML pages take the loader's one HTML path (``pp_graph.load.html.html_text``: the main content, the full page
when the extractor lost policy text); PDF policies are read with pypdf. The result is plain text
or markdown ready for :func:`pp_graph.load.sources.policy_from_text`.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpx2 as httpx  # the HTTP client the openai package already brings

from pp_graph.errors import InputError
from pp_graph.load.html import html_text
from pp_graph.load.pdf import pdf_text
from pp_graph.version import __version__

USER_AGENT = f"pp-graph/{__version__} (privacy-policy research; honours robots.txt)"
MAX_BYTES = 10 * 1024 * 1024
TIMEOUT = 20.0
MAX_REDIRECTS = 5
DEADLINE = 60.0  # seconds for the whole fetch: robots.txt, redirects and body
BINARY_TYPES = frozenset({"image", "audio", "video", "font"})  # media types whose body is never a policy's text
ALLOW_PRIVATE_HINT = "pass --allow-private to fetch from your own machine or network"


@dataclass(frozen=True)
class Fetched:
    url: str  # as asked
    final_url: str  # after redirects
    media_type: str  # what the text is now: text/markdown or text/plain
    source_type: str  # what the server sent: text/html, application/pdf, text/plain …
    text: str
    fetched_at: str  # ISO 8601 UTC


def http_client(timeout: float) -> httpx.Client:
    # Redirects are followed by hand (``_get``), so that every hop's host is checked before it is asked.
    return httpx.Client(headers={"User-Agent": USER_AGENT}, timeout=timeout, follow_redirects=False)


def check_url(url: str) -> None:
    """InputError unless ``url`` is an http(s) URL with a host and, if it names one, a valid port."""
    try:  # urlsplit refuses unbalanced brackets, .port a port that is not 0–65535: both as ValueError
        parts = urlsplit(url)
        parts.port  # noqa: B018 (read for its check)
    except ValueError as e:
        raise InputError(url, f"not a valid URL ({e})") from e
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(url, "not an http(s) URL")


def internal_kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What makes an address non-public (loopback, private, …), or None for a public one."""
    mapped = getattr(ip, "ipv4_mapped", None) or getattr(ip, "sixtofour", None)
    if mapped is not None:
        return internal_kind(mapped)
    for kind in ("loopback", "unspecified", "link_local", "multicast", "private", "reserved"):
        if getattr(ip, f"is_{kind}"):
            return kind.replace("_", "-")
    return None if ip.is_global else "non-public"


def refuse_internal(url: str, address: str, said: str) -> None:
    """InputError "<said> <ip>, a <kind> address; refused" unless ``address`` (a zone id allowed) is public."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    kind = internal_kind(ip)
    if kind is not None:
        raise InputError(url, f"{said} {ip}, a {kind} address; refused ({ALLOW_PRIVATE_HINT})")


def check_host(url: str) -> None:
    """InputError unless every address the URL's host resolves to is public."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        infos = socket.getaddrinfo(
            host, parts.port or (443 if parts.scheme == "https" else 80), type=socket.SOCK_STREAM
        )
    except (socket.gaierror, UnicodeError) as e:
        raise InputError(url, f"cannot be fetched: host {host!r} does not resolve ({e})") from e
    for info in infos:
        refuse_internal(url, str(info[4][0]), f"host {host!r} is")


@dataclass
class _Budget:
    """The fetch's overall deadline, shared by robots.txt, every redirect and the body."""

    seconds: float
    timeout: float
    started: float

    def left(self, url: str) -> float:
        rest = self.seconds - (time.monotonic() - self.started)
        if rest <= 0:
            raise InputError(url, f"timed out: the fetch took longer than {self.seconds:g} s in all")
        return min(self.timeout, rest)


def _get(client: httpx.Client, url: str, budget: _Budget, max_bytes: int, allow_private: bool) -> _Got:
    """GET with redirects followed by hand: each hop's URL and host checked first, the deadline kept."""
    first = url
    for _ in range(MAX_REDIRECTS + 1):
        check_url(url)
        if not allow_private:
            check_host(url)
        r, data = _body(client, url, budget, max_bytes, allow_private)
        if r.is_redirect and r.headers.get("location"):
            url = _redirect_target(url, r)
            continue
        return _Got(r, data)
    raise InputError(first, f"more than {MAX_REDIRECTS} redirects")


def _redirect_target(url: str, r: httpx.Response) -> str:
    """Where a redirect points; InputError naming the page when its Location is no URL at all."""
    location = r.headers["location"]
    try:
        return urljoin(str(r.url), location)
    except ValueError as e:
        raise InputError(url, f"redirects to {location!r}, which is not a valid URL ({e})") from e


@dataclass
class _Got:
    response: httpx.Response
    data: bytes


def _allowed(client: httpx.Client, url: str, budget: _Budget, allow_private: bool) -> bool:
    """robots.txt of the URL's origin; a missing one (404) allows everything, an unreachable one too."""
    robots_url = urljoin(url, "/robots.txt")
    try:
        got = _get(client, robots_url, budget, 512 * 1024, allow_private)
    except InputError:
        budget.left(url)  # a deadline passed while asking for robots.txt ends the fetch
        return True
    if got.response.status_code >= 400:
        return True
    rp = RobotFileParser()
    rp.parse(got.data.decode("utf-8", errors="replace").splitlines())
    return rp.can_fetch(USER_AGENT, url)


def robots_allows(
    url: str, *, allow_private: bool = False, timeout: float = TIMEOUT, deadline: float = DEADLINE
) -> bool:
    """Whether the URL's robots.txt lets our user agent fetch it (asked as :func:`fetch_policy` asks it)."""
    budget = _Budget(deadline, timeout, time.monotonic())
    with http_client(timeout) as c:
        return _allowed(c, url, budget, allow_private)


def check_peer(url: str, response: httpx.Response) -> None:
    """InputError unless the address the connection actually reached is public: the host may resolve to another
    address at connect time than when it was checked (DNS rebinding), so the check is repeated on the socket."""
    stream = response.extensions.get("network_stream")
    peer = stream.get_extra_info("server_addr") if stream is not None else None
    if not peer:
        raise InputError(url, "cannot be fetched: the connection's address is unknown, so it cannot be checked")
    refuse_internal(url, str(peer[0]), "connected to")


@dataclass
class Exchange:
    """One request's answer as :func:`exchange` read it: status, headers (without the transfer's own) and body."""

    status: int
    headers: dict[str, str]
    body: bytes


# Headers that describe the transfer, not the content: the body is handed on decoded and whole.
TRANSFER_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"})


def exchange(
    client: httpx.Client,
    request: tuple[str, str, dict[str, str], bytes | None],
    *,
    timeout: float,
    max_bytes: int,
    allow_private: bool,
) -> Exchange:
    """One hop of ``(method, url, headers, body)``, no redirect followed, with the connected address checked before
    the body is read. The page renderer sends every request a page makes through here, so rendering and fetching
    share one checked network path."""
    method, url, headers, content = request
    sent = {k: v for k, v in headers.items() if k.lower() not in TRANSFER_HEADERS | {"host", "accept-encoding"}}
    try:
        with client.stream(method, url, headers=sent, content=content, timeout=timeout) as r:
            if not allow_private:
                check_peer(url, r)
            data = bytearray()
            for chunk in r.iter_bytes():
                data += chunk
                if len(data) > max_bytes:
                    raise InputError(url, f"is over the limit of {max_bytes:,} bytes")
            kept = {k: v for k, v in r.headers.items() if k.lower() not in TRANSFER_HEADERS}
            return Exchange(r.status_code, kept, bytes(data))
    except httpx.TimeoutException as e:
        raise InputError(url, "timed out") from e
    except httpx.HTTPError as e:
        raise InputError(url, f"cannot be fetched ({type(e).__name__}: {e})") from e


def _body(
    client: httpx.Client, url: str, budget: _Budget, max_bytes: int, allow_private: bool
) -> tuple[httpx.Response, bytes]:
    try:
        with client.stream("GET", url, timeout=budget.left(url)) as r:
            if not allow_private:
                check_peer(url, r)  # before a byte of the body is read
            if r.is_redirect:
                return r, b""
            if r.status_code >= 400:
                return r, b""
            declared = int(r.headers.get("content-length") or 0)
            if declared > max_bytes:
                raise InputError(url, f"is {declared:,} bytes, over the limit of {max_bytes:,}")
            chunks, size = [], 0
            for chunk in r.iter_bytes():
                budget.left(url)  # a server trickling bytes meets the overall deadline
                size += len(chunk)
                if size > max_bytes:
                    raise InputError(url, f"is over the limit of {max_bytes:,} bytes")
                chunks.append(chunk)
            return r, b"".join(chunks)
    except httpx.TimeoutException as e:
        raise InputError(url, "timed out") from e
    except httpx.HTTPError as e:
        raise InputError(url, f"cannot be fetched ({type(e).__name__}: {e})") from e


def fetch_policy(
    url: str,
    *,
    timeout: float = TIMEOUT,
    max_bytes: int = MAX_BYTES,
    robots: bool = True,
    client: httpx.Client | None = None,
    allow_private: bool = False,
    deadline: float = DEADLINE,
) -> Fetched:
    """Fetch one policy page; InputError naming the URL for every way it can fail. ``allow_private``: fetch from
    loopback and private addresses too; ``deadline``: seconds for the whole fetch; ``timeout``: for one read."""
    check_url(url)
    budget = _Budget(deadline, timeout, time.monotonic())
    own = client is None
    c = client or http_client(timeout)
    try:
        if robots and not _allowed(c, url, budget, allow_private):
            raise InputError(url, "robots.txt disallows fetching it for our user agent")
        got = _get(c, url, budget, max_bytes, allow_private)
    finally:
        if own:
            c.close()
    r, data = got.response, got.data
    if r.status_code >= 400:
        raise InputError(url, f"the server answered HTTP {r.status_code}")
    ctype = (r.headers.get("content-type") or "").split(";")[0].strip().lower()
    final = str(r.url)
    if ctype == "application/pdf" or data[:5] == b"%PDF-":
        text, media, source = pdf_text(data, url), "text/plain", "application/pdf"
    else:
        decoded = data.decode(r.encoding or "utf-8", errors="replace")
        if ctype.split("/")[0] in BINARY_TYPES or ctype == "application/octet-stream" or "\x00" in decoded:
            # refused here, naming the URL: the batch would refuse the saved file, naming a temporary path
            raise InputError(url, f"is {ctype or 'binary data'}, not a policy page (HTML, text or PDF)")
        if ctype in ("text/html", "application/xhtml+xml") or decoded.lstrip()[:1] == "<":
            text, media, source = html_text(decoded), "text/markdown", ctype or "text/html"
        else:
            text, media, source = decoded, "text/markdown", ctype or "text/plain"
    if not text.strip():
        raise InputError(url, "has no text")
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Fetched(url, final, media, source, text, now)
