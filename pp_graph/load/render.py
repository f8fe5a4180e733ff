"""Render a policy page whose text a script writes: Playwright driving the system's Chromium, headless.

The fetcher's safety holds: robots.txt is honoured; the page's host and the host of every request the page makes
(scripts, frames, XHR, each redirect hop) are checked as :func:`pp_graph.load.fetch.check_host` checks them, so
loopback, private, link-local and metadata addresses are refused unless ``allow_private``. Every request is sent by
:func:`pp_graph.load.fetch.exchange`, never by the browser, so the connected address is checked too; the whole render
has a deadline; what the page loads counts against a size limit. Images, media and fonts are never loaded (the text
needs none), nor are downloads, service workers and WebSockets. The rendered page's HTML then takes the fetcher's own
path to text (:func:`pp_graph.load.html.html_text`).

Playwright comes with the ``render`` extra; the browser is the system's (Debian/Ubuntu package ``chromium``, or the
binary named by ``PP_GRAPH_CHROMIUM``): Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

from pp_graph.errors import InputError, PPGraphError
from pp_graph.extras import import_optional
from pp_graph.load.fetch import (
    DEADLINE,
    MAX_BYTES,
    MAX_REDIRECTS,
    USER_AGENT,
    Fetched,
    check_host,
    check_url,
    exchange,
    http_client,
    robots_allows,
)
from pp_graph.load.html import html_text

CHROMIUM_ENV = "PP_GRAPH_CHROMIUM"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SKIPPED_TYPES = frozenset({"image", "media", "font"})  # never needed for the text
SETTLE = 5.0  # seconds at most to wait, after the load event, for the page's own requests to finish
FEATURE = "--render (JavaScript-rendered pages)"


class MissingBrowser(PPGraphError):
    """No Chromium to render pages with."""


def chromium_path() -> str:
    """The Chromium binary: ``$PP_GRAPH_CHROMIUM``, else the first of :data:`CHROMIUM_NAMES` on the PATH."""
    override = os.environ.get(CHROMIUM_ENV)
    if override:
        found = shutil.which(override)
        if found is None:
            raise MissingBrowser(f"{CHROMIUM_ENV}={override!r} is not an executable Chromium")
        return found
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise MissingBrowser(
        f"{FEATURE} needs a Chromium browser, and none is installed: install the system package "
        f"(Debian/Ubuntu: apt-get install chromium) or set {CHROMIUM_ENV} to the browser's path"
    )


def sync_api() -> Any:
    """Playwright's sync API, or MissingExtra naming the ``render`` extra."""
    return import_optional("playwright.sync_api", "render", FEATURE)


def check_render_ready() -> None:
    """Fail at once, before any page is asked for, when Playwright or Chromium is missing."""
    sync_api()
    chromium_path()


@dataclass
class _Guard:
    """Every request the page makes passes here: scheme, host, redirects and the size budget are checked."""

    allow_private: bool
    max_bytes: int
    ends: float  # time.monotonic() when the render must be over
    used: int = 0
    refused: list[str] = field(default_factory=list)  # why requests were refused, in order
    redirect: str | None = None  # where the main page redirected to (the next navigation)
    client: Any = None  # the fetcher's HTTP client: every request goes through its checked path
    _hosts: dict[tuple[str, int | None], str | None] = field(default_factory=dict)

    def left_ms(self) -> float:
        return max(self.ends - time.monotonic(), 0.0) * 1000

    def why_not(self, url: str) -> str | None:
        """None when the URL may be asked for; otherwise the reason it is refused."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            return f"{url}: a {parts.scheme}: URL; refused"
        if self.allow_private:
            return None
        key = (parts.hostname or "", parts.port)
        if key not in self._hosts:
            try:
                check_host(url)
                self._hosts[key] = None
            except InputError as e:
                self._hosts[key] = str(e)
        return self._hosts[key]

    def refuse(self, route: Any, reason: str) -> None:
        self.refused.append(reason)
        route.abort("blockedbyclient")

    def handle(self, route: Any) -> None:
        """Playwright's route handler: fetch the request ourselves, one redirect hop at a time."""
        request = route.request
        if request.resource_type in SKIPPED_TYPES:
            route.abort("blockedbyclient")
            return
        main = request.is_navigation_request() and request.frame.parent_frame is None
        url = request.url
        for _ in range(MAX_REDIRECTS + 1):
            reason = self.why_not(url)
            if reason is not None:
                self.refuse(route, reason)
                return
            try:
                got = exchange(
                    self.client,
                    (request.method, url, request.headers, request.post_data_buffer),
                    timeout=max(self.left_ms() / 1000, 0.001),
                    max_bytes=max(self.max_bytes - self.used, 0),
                    allow_private=self.allow_private,
                )
            except InputError as e:
                self.refuse(route, str(e))
                return
            location = got.headers.get("location")
            if 300 <= got.status < 400 and location:
                url = urljoin(url, location)
                if main:  # a fresh navigation, so the page's address is the redirect's (and it is checked)
                    self.redirect = url
                    route.fulfill(status=200, content_type="text/html", body="")
                    return
                continue
            self.used += len(got.body)
            route.fulfill(status=got.status, headers=got.headers, body=got.body)
            return
        self.refuse(route, f"{request.url}: more than {MAX_REDIRECTS} redirects")


def _navigate(page: Any, url: str, guard: _Guard, errors: Any) -> Any:
    """Go to ``url``, following the main page's redirects as new (checked) navigations; the final response."""
    for _ in range(MAX_REDIRECTS + 1):
        guard.redirect = None
        try:
            response = page.goto(url, wait_until="load", timeout=max(guard.left_ms(), 1))
        except errors.TimeoutError as e:
            raise InputError(url, f"timed out: rendering took longer than the deadline ({e.message})") from e
        except errors.Error as e:
            reason = guard.refused[-1] if guard.refused else e.message.splitlines()[0]
            raise InputError(url, f"cannot be rendered ({reason})") from e
        if guard.redirect is None:
            return response
        url = guard.redirect
    raise InputError(url, f"more than {MAX_REDIRECTS} redirects")


def _settle(page: Any, guard: _Guard, errors: Any) -> None:
    """Let the page's own requests finish (a script that fetches the text after load), within the deadline."""
    with contextlib.suppress(errors.TimeoutError):  # a page that keeps polling is read as it stands
        page.wait_for_load_state("networkidle", timeout=max(min(SETTLE * 1000, guard.left_ms()), 1))


def _rendered_html(url: str, guard: _Guard) -> tuple[str, str, str]:
    """The page's HTML after its scripts ran, its final address and the media type the server sent."""
    api = sync_api()
    errors = api  # its TimeoutError and Error
    args = ["--force-webrtc-ip-handling-policy=disable_non_proxied_udp", "--disable-background-networking"]
    with api.sync_playwright() as pw:
        try:
            browser = pw.chromium.launch(executable_path=chromium_path(), headless=True, args=args)
        except errors.Error as e:
            raise MissingBrowser(f"{FEATURE}: Chromium could not be started ({e.message.splitlines()[0]})") from e
        try:
            context = browser.new_context(user_agent=USER_AGENT, accept_downloads=False, service_workers="block")
            context.route("**/*", guard.handle)
            context.route_web_socket("**/*", lambda ws: ws.close())
            page = context.new_page()
            response = _navigate(page, url, guard, errors)
            ctype = (response.headers.get("content-type") if response else "") or "text/html"
            ctype = ctype.split(";")[0].strip().lower()
            if ctype not in ("text/html", "application/xhtml+xml"):
                raise InputError(url, f"is {ctype}, not an HTML page: convert it without --render")
            _settle(page, guard, errors)
            return page.content(), page.url, ctype
        finally:
            browser.close()


def render_policy(
    url: str,
    *,
    allow_private: bool = False,
    max_bytes: int = MAX_BYTES,
    deadline: float = DEADLINE,
    robots: bool = True,
) -> Fetched:
    """Render one policy page in Chromium and read its main content; InputError naming the URL for every way it
    can fail, MissingExtra / MissingBrowser when Playwright or Chromium is not installed."""
    check_url(url)
    check_render_ready()
    started = time.monotonic()
    if not allow_private:
        check_host(url)
    if robots and not robots_allows(url, allow_private=allow_private, deadline=deadline):
        raise InputError(url, "robots.txt disallows fetching it for our user agent")
    guard = _Guard(allow_private, max_bytes, started + deadline)
    with http_client(deadline) as guard.client:
        html, final, ctype = _rendered_html(url, guard)
    if len(html.encode("utf-8")) > max_bytes:
        raise InputError(url, f"the rendered page is over the limit of {max_bytes:,} bytes")
    text = html_text(html)
    if not text.strip():
        raise InputError(url, "has no text after rendering")
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Fetched(url, final, "text/markdown", ctype, text, now)


__all__ = ["MissingBrowser", "check_render_ready", "chromium_path", "render_policy"]
