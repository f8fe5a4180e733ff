"""convert/track --render: a page whose policy text a script writes is read after the script ran, in the system's
Chromium, with the fetcher's safety (the page's own requests to internal addresses refused, redirects checked).

The servers bind 127.0.0.1 and 127.0.0.2 (both loopback). To stand for a public site, 127.0.0.1 is treated as
public in the tests of the page's own requests (``internal_kind`` patched); 127.0.0.2 stays the internal target."""

from __future__ import annotations

import ipaddress
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner
from local_http import Quiet, rebinding_resolver, reply, serve

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.load import fetch
from pp_graph.load.render import CHROMIUM_ENV, MissingBrowser, chromium_path, render_policy

pytestmark = [
    pytest.mark.slow,  # a browser per test: `make test-slow`, to keep `make test` within its time
    pytest.mark.skipif(
        shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
        reason="--render needs the system's Chromium (Debian package chromium), which is not installed",
    ),
]

POLICY = (
    "We collect your email address and your postal address to deliver your orders. "
    "We share your email address with our payment provider to process payments. "
    "We keep your order history for five years."
)
# The static page says nothing about data; the script writes the policy (as single-page apps do).
PAGE = (
    "<!doctype html><html><head><title>Privacy</title></head><body><main id='app'><h1>Privacy</h1>"
    "<p>Loading the page, please wait.</p></main><script>"
    "document.getElementById('app').innerHTML = '<h1>Privacy policy</h1><p>' + "
    + json.dumps(POLICY)
    + " + '</p>';</script></body></html>"
).encode()


class Handler(Quiet):
    routes: ClassVar[dict[str, tuple[int, bytes, str]]] = {}
    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(f"{self.server.server_address[0]}{self.path}")
        status, body, ctype = self.routes.get(self.path, (404, b"no", "text/plain"))
        reply(self, status, ctype, body)


@pytest.fixture
def ports() -> Iterator[tuple[int, int]]:
    outer, inner = serve("127.0.0.1", Handler), serve("127.0.0.2", Handler)
    a, b = next(outer), next(inner)
    Handler.asked = []
    Handler.routes = {"/privacy": (200, PAGE, "text/html"), "/robots.txt": (404, b"", "text/plain")}
    yield a, b
    for gen in (outer, inner):
        next(gen, None)


@pytest.fixture
def public_127_0_0_1(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fetch.internal_kind

    def kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
        return None if str(ip) == "127.0.0.1" else real(ip)

    monkeypatch.setattr(fetch, "internal_kind", kind)


def _practices(out: Path, *args: str) -> dict[str, int]:
    res = CliRunner().invoke(main, ["convert", *args, "-o", str(out), "--json", "--site", "shop.example"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert len(report["files"]) == 1
    return dict(report["files"][0]["report"]["practices"])


def test_the_policy_a_script_writes_is_converted_only_with_render(ports: tuple[int, int], tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{ports[0]}/privacy"
    plain = _practices(tmp_path / "plain", url, "--allow-private")
    rendered = _practices(tmp_path / "rendered", url, "--allow-private", "--render")
    assert sum(plain.values()) == 0, plain  # the static HTML holds no policy text
    assert rendered.get("first-party-collection-use", 0) >= 1, rendered
    assert rendered.get("third-party-sharing-disclosure", 0) >= 1, rendered
    graph = next((tmp_path / "rendered").glob("*.trig")).read_text(encoding="utf-8")
    assert "payment provider" in graph


def test_render_refuses_loopback_unless_allowed(ports: tuple[int, int], tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{ports[0]}/privacy"
    res = CliRunner().invoke(main, ["convert", url, "--render", "-o", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    assert "loopback address; refused (pass --allow-private" in res.output and "Traceback" not in res.output
    assert not Handler.asked  # refused before any request


def test_the_pages_own_requests_to_internal_addresses_are_refused(
    ports: tuple[int, int], public_127_0_0_1: None
) -> None:
    a, b = ports
    secret = b"document.body.insertAdjacentHTML('beforeend', '<p>INTERNAL-ADMIN-PAGE token 42</p>');"
    Handler.routes["/admin.js"] = (200, secret, "text/javascript")
    page = PAGE.replace(b"</body>", f"<script src='http://127.0.0.2:{b}/admin.js'></script></body>".encode())
    Handler.routes["/mixed"] = (200, page, "text/html")
    got = render_policy(f"http://127.0.0.1:{a}/mixed")
    assert "payment provider" in got.text and "INTERNAL" not in got.text
    assert not any(x.startswith("127.0.0.2") for x in Handler.asked), Handler.asked
    allowed = render_policy(f"http://127.0.0.1:{a}/mixed", allow_private=True)
    assert "INTERNAL-ADMIN-PAGE" in allowed.text


def test_a_redirect_to_an_internal_address_is_refused(ports: tuple[int, int], public_127_0_0_1: None) -> None:
    a, b = ports
    Handler.routes["/internal"] = (200, b"<html><body><p>INTERNAL-ADMIN-PAGE</p></body></html>", "text/html")
    Handler.routes["/go"] = (302, f"http://0x7f000002:{b}/internal".encode(), "text/html")
    with pytest.raises(InputError, match="loopback address; refused"):
        render_policy(f"http://127.0.0.1:{a}/go")
    assert not any(x.startswith("127.0.0.2") for x in Handler.asked), Handler.asked
    Handler.routes["/hop"] = (302, b"/privacy", "text/html")  # a redirect within the site is followed
    got = render_policy(f"http://127.0.0.1:{a}/hop")
    assert got.final_url.endswith("/privacy") and "payment provider" in got.text


def test_the_size_limit_and_a_non_html_page(ports: tuple[int, int]) -> None:
    a, _ = ports
    with pytest.raises(InputError, match="over the limit of 100 bytes"):
        render_policy(f"http://127.0.0.1:{a}/privacy", allow_private=True, max_bytes=100)
    Handler.routes["/p.pdf"] = (200, b"%PDF-1.4 not really", "application/pdf")
    with pytest.raises(InputError, match="application/pdf, not an HTML page: convert it without --render"):
        render_policy(f"http://127.0.0.1:{a}/p.pdf", allow_private=True)


def test_a_missing_browser_is_named_with_what_to_install(
    ports: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CHROMIUM_ENV, str(tmp_path / "no-such-browser"))
    with pytest.raises(MissingBrowser, match="is not an executable Chromium"):
        chromium_path()
    monkeypatch.delenv(CHROMIUM_ENV)
    monkeypatch.setenv("PATH", str(tmp_path))
    sites = tmp_path / "sites.toml"
    sites.write_text(f'[sites."shop.example"]\nurl = "http://127.0.0.1:{ports[0]}/privacy"\n', encoding="utf-8")
    for args in (
        ["convert", f"http://127.0.0.1:{ports[0]}/privacy", "--render", "-o", str(tmp_path / "o")],
        ["track", str(sites), "-o", str(tmp_path / "v"), "--render", "--allow-private"],
    ):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2, res.output
        assert "apt-get install chromium" in res.output and "Traceback" not in res.output
    assert not Handler.asked


def test_track_renders_each_site(ports: tuple[int, int], tmp_path: Path) -> None:
    sites = tmp_path / "sites.toml"
    sites.write_text(f'[sites."shop.example"]\nurl = "http://127.0.0.1:{ports[0]}/privacy"\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["track", str(sites), "-o", str(tmp_path / "v"), "--render", "--allow-private"])
    assert res.exit_code == 0, res.output
    (kept,) = (tmp_path / "v" / "shop.example").glob("*.md")
    assert "payment provider" in kept.read_text(encoding="utf-8")


def test_a_script_host_that_resolves_to_loopback_at_connect_time_is_refused(
    ports: tuple[int, int], public_127_0_0_1: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the script's host is public when checked and loopback when the request is sent."""
    a, b = ports
    # the check sees a public address, the connection loopback
    rebinding_resolver(monkeypatch, "rebind.test", b, ["93.184.216.34", "127.0.0.2"])
    # the page's requests go through this process's checked path (so through this resolver), not the browser's
    secret = b"document.body.insertAdjacentHTML('beforeend', '<p>INTERNAL-ADMIN-PAGE token 42</p>');"
    Handler.routes["/admin.js"] = (200, secret, "text/javascript")
    page = PAGE.replace(b"</body>", f"<script src='http://rebind.test:{b}/admin.js'></script></body>".encode())
    Handler.routes["/rebind"] = (200, page, "text/html")
    got = render_policy(f"http://127.0.0.1:{a}/rebind")
    assert "payment provider" in got.text and "INTERNAL" not in got.text
    rebinding_resolver(monkeypatch, "rebind.test", b, ["127.0.0.2"])  # no check with --allow-private: loopback at once
    allowed = render_policy(f"http://127.0.0.1:{a}/rebind", allow_private=True)
    assert "INTERNAL-ADMIN-PAGE" in allowed.text
