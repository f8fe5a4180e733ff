"""Fetching refuses the local machine and private networks (issue 28 §4): at the start and after every redirect,
whatever spelling names the address, unless allowed; and a server trickling bytes meets an overall deadline.

The servers bind 127.0.0.1 and 127.0.0.2 (both loopback). To stand for a public site, 127.0.0.1 is treated as
public in the redirect tests (``internal_kind`` patched); 127.0.0.2 stays what it is, the internal target."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner
from local_http import Quiet, rebinding_resolver, reply, serve

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.load import fetch
from pp_graph.load.fetch import fetch_policy

PAGE = b"<html><body><main><h1>Privacy</h1><p>We collect your email address to send receipts.</p></main></body></html>"
INTERNAL = b"<html><body><main><p>INTERNAL-ADMIN-PAGE token 42</p></main></body></html>"


class Handler(Quiet):
    routes: ClassVar[dict[str, tuple[int, bytes]]] = {}

    def do_GET(self) -> None:
        if self.path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            for _ in range(200):  # 40 s if nobody stops reading
                try:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.2)
            return
        status, body = self.routes.get(self.path, (404, b"no"))
        reply(self, status, "text/html", body)


@pytest.fixture
def ports() -> Iterator[tuple[int, int]]:
    outer, inner = serve("127.0.0.1", Handler), serve("127.0.0.2", Handler)
    a, b = next(outer), next(inner)
    Handler.routes = {"/privacy": (200, PAGE), "/robots.txt": (404, b""), "/internal": (200, INTERNAL)}
    yield a, b
    for gen in (outer, inner):
        next(gen, None)


@pytest.fixture
def public_127_0_0_1(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fetch.internal_kind

    def kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
        return None if str(ip) == "127.0.0.1" else real(ip)

    monkeypatch.setattr(fetch, "internal_kind", kind)


def test_loopback_is_refused_unless_allowed(ports: tuple[int, int]) -> None:
    a, _ = ports
    with pytest.raises(InputError, match=r"127\.0\.0\.1, a loopback address; refused \(pass --allow-private"):
        fetch_policy(f"http://127.0.0.1:{a}/privacy")
    assert "receipts" in fetch_policy(f"http://127.0.0.1:{a}/privacy", allow_private=True).text


@pytest.mark.parametrize(
    "target",
    [
        "http://127.0.0.2:{b}/internal",
        "http://2130706434:{b}/internal",  # 127.0.0.2 as one decimal number
        "http://0x7f000002:{b}/internal",  # … in hexadecimal
        "http://127.2:{b}/internal",  # … in the short dotted form
        "http://[::1]:{b}/internal",
        "http://[::ffff:127.0.0.2]:{b}/internal",  # IPv4-mapped IPv6
        "http://10.1.2.3/internal",
        "http://169.254.169.254/latest/meta-data/",  # cloud metadata
        "http://0.0.0.0:{b}/internal",
    ],
)
def test_a_redirect_to_an_internal_address_is_refused(
    ports: tuple[int, int], public_127_0_0_1: None, target: str
) -> None:
    a, b = ports
    Handler.routes["/go"] = (302, target.format(b=b).encode())
    with pytest.raises(InputError, match="address; refused") as e:
        fetch_policy(f"http://127.0.0.1:{a}/go")
    assert "INTERNAL" not in str(e.value)


def test_the_redirect_is_followed_when_allowed(ports: tuple[int, int], public_127_0_0_1: None) -> None:
    a, b = ports
    Handler.routes["/go"] = (302, f"http://127.0.0.2:{b}/internal".encode())
    got = fetch_policy(f"http://127.0.0.1:{a}/go", allow_private=True)
    assert "INTERNAL-ADMIN-PAGE" in got.text and got.final_url.endswith("/internal")


def test_convert_and_track_refuse_and_say_how_to_allow(ports: tuple[int, int], tmp_path: Path) -> None:
    a, _ = ports
    res = CliRunner().invoke(main, ["convert", f"http://127.0.0.1:{a}/privacy", "-o", str(tmp_path / "o")])
    assert res.exit_code == 2 and "--allow-private" in res.output and "Traceback" not in res.output
    sites = tmp_path / "sites.toml"
    sites.write_text(f'[sites."tinyshop.example"]\nurl = "http://127.0.0.1:{a}/privacy"\n', encoding="utf-8")
    res = CliRunner().invoke(main, ["track", str(sites), "-o", str(tmp_path / "v"), "--format", "csv"])
    assert res.exit_code == 1 and "loopback address; refused" in res.output
    ok = CliRunner().invoke(main, ["track", str(sites), "-o", str(tmp_path / "v"), "--allow-private"])
    assert ok.exit_code == 0, ok.output


def test_a_trickling_server_meets_the_overall_deadline(ports: tuple[int, int]) -> None:
    a, _ = ports
    t0 = time.monotonic()
    with pytest.raises(InputError, match=r"took longer than 1\.5 s in all"):
        fetch_policy(f"http://127.0.0.1:{a}/trickle", allow_private=True, timeout=5, deadline=1.5)
    assert time.monotonic() - t0 < 4


def test_a_host_that_resolves_to_loopback_at_connect_time_is_refused(
    ports: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the host is public when checked and loopback when the connection is made."""
    _, b = ports
    # the check sees a public address, the connection loopback
    rebinding_resolver(monkeypatch, "rebind.test", b, ["93.184.216.34", "127.0.0.2"])
    with pytest.raises(InputError, match=r"connected to 127\.0\.0\.2, a loopback address; refused") as e:
        fetch_policy(f"http://rebind.test:{b}/internal", robots=False)
    assert "INTERNAL" not in str(e.value)
