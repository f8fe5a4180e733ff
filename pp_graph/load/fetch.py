"""Fetch a policy over HTTP(S): robots.txt honoured, a user agent, timeouts, redirects and a size limit.

HTML pages keep their main content only (trafilatura drops navigation, footers and cookie banners; our own
HTML loader is the fallback when it finds nothing); PDF policies are read with pypdf. The result is plain text
or markdown ready for :func:`pp_graph.load.sources.policy_from_text`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import httpx2 as httpx  # the HTTP client the openai package already brings

from pp_graph import __version__
from pp_graph.errors import InputError
from pp_graph.load.pdf import pdf_text

USER_AGENT = f"pp-graph/{__version__} (privacy-policy research; honours robots.txt)"
MAX_BYTES = 10 * 1024 * 1024
TIMEOUT = 20.0
MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Fetched:
    url: str  # as asked
    final_url: str  # after redirects
    media_type: str  # what the text is now: text/markdown or text/plain
    source_type: str  # what the server sent: text/html, application/pdf, text/plain …
    text: str
    fetched_at: str  # ISO 8601 UTC


def _client(timeout: float) -> httpx.Client:
    return httpx.Client(
        headers={"User-Agent": USER_AGENT},
        timeout=timeout,
        follow_redirects=True,
        max_redirects=MAX_REDIRECTS,
    )


def _check_url(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError(url, "not an http(s) URL")


def _allowed(client: httpx.Client, url: str) -> bool:
    """robots.txt of the URL's origin; a missing one (404) allows everything, an unreachable one too."""
    robots_url = urljoin(url, "/robots.txt")
    try:
        r = client.get(robots_url)
    except httpx.HTTPError:
        return True
    if r.status_code >= 400:
        return True
    rp = RobotFileParser()
    rp.parse(r.text.splitlines())
    return rp.can_fetch(USER_AGENT, url)


def _body(client: httpx.Client, url: str, max_bytes: int) -> tuple[httpx.Response, bytes]:
    try:
        with client.stream("GET", url) as r:
            if r.status_code >= 400:
                raise InputError(url, f"the server answered HTTP {r.status_code}")
            declared = int(r.headers.get("content-length") or 0)
            if declared > max_bytes:
                raise InputError(url, f"is {declared:,} bytes, over the limit of {max_bytes:,}")
            chunks, size = [], 0
            for chunk in r.iter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise InputError(url, f"is over the limit of {max_bytes:,} bytes")
                chunks.append(chunk)
            return r, b"".join(chunks)
    except httpx.TooManyRedirects as e:
        raise InputError(url, f"more than {MAX_REDIRECTS} redirects") from e
    except httpx.TimeoutException as e:
        raise InputError(url, "timed out") from e
    except httpx.HTTPError as e:
        raise InputError(url, f"cannot be fetched ({type(e).__name__}: {e})") from e


def html_main_text(html: str) -> str:
    """The page's main content as markdown; our full-page loader when the extractor finds none."""
    import trafilatura

    text = trafilatura.extract(
        html,
        output_format="markdown",
        include_links=False,
        include_images=False,
        include_tables=True,
        include_comments=False,
        favor_recall=True,
        deduplicate=False,
    )
    if text and text.strip():
        return text.strip() + "\n"
    from pp_graph.load.sources import html_to_text

    return html_to_text(html)


def fetch_policy(
    url: str,
    *,
    timeout: float = TIMEOUT,
    max_bytes: int = MAX_BYTES,
    robots: bool = True,
    client: httpx.Client | None = None,
) -> Fetched:
    """Fetch one policy page; InputError naming the URL for every way it can fail."""
    _check_url(url)
    own = client is None
    c = client or _client(timeout)
    try:
        if robots and not _allowed(c, url):
            raise InputError(url, "robots.txt disallows fetching it for our user agent")
        r, data = _body(c, url, max_bytes)
    finally:
        if own:
            c.close()
    ctype = (r.headers.get("content-type") or "").split(";")[0].strip().lower()
    final = str(r.url)
    if ctype == "application/pdf" or data[:5] == b"%PDF-":
        text, media, source = pdf_text(data, url), "text/plain", "application/pdf"
    else:
        decoded = data.decode(r.encoding or "utf-8", errors="replace")
        if ctype in ("text/html", "application/xhtml+xml") or decoded.lstrip()[:1] == "<":
            text, media, source = html_main_text(decoded), "text/markdown", ctype or "text/html"
        else:
            text, media, source = decoded, "text/markdown", ctype or "text/plain"
    if not text.strip():
        raise InputError(url, "has no text")
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Fetched(url, final, media, source, text, now)
