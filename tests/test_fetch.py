"""Fetching and tracking policies, against a local HTTP server on 127.0.0.1 (no test reaches the internet): so
these fetches pass allow_private / --allow-private, which test_fetch_private.py shows is needed."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner
from local_http import Quiet, reply

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.load.fetch import USER_AGENT, fetch_policy
from pp_graph.versions.track import load_sites, track

POLICY_HTML = """<!doctype html><html><head><title>Privacy</title></head><body>
<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/cart">Cart</a> Sign in</nav>
<div class="cookie-banner">We use cookies. Accept all?</div>
<main><article><h1>Tinyshop Privacy Notice</h1>
<h2>Information we collect</h2>
<p>We collect your email address when you create an account. We use your postal address to deliver your orders.</p>
<h2>How we share information</h2>
<p>We share your name with service providers to process payments. We do not sell your personal information.</p>
<h2>Retention</h2><p>We retain order records for 7 years to comply with legal obligations.</p>
</article></main>
<footer>© Tinyshop · Imprint · Careers · Press · Follow us</footer></body></html>"""


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF with a text layer (Helvetica), written by hand so the tests need no PDF writer."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode("latin-1")
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


class Site(Quiet):
    pages: ClassVar[dict[str, tuple[int, str, bytes]]] = {}
    agents: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.agents.append(self.headers.get("User-Agent", ""))
        status, ctype, body = self.pages.get(self.path, (404, "text/plain", b"not found"))
        reply(self, status, ctype, body)


@pytest.fixture
def server() -> Iterator[str]:
    Site.pages = {
        "/privacy": (200, "text/html; charset=utf-8", POLICY_HTML.encode()),
        "/old-privacy": (301, "text/html", b"/privacy"),
        "/bad-redirect": (302, "text/html", b"http://[::1:bad/"),
        "/logo.png": (200, "image/png", b"\x89PNG\r\n\x1a\n" + bytes(64)),
        "/blob": (200, "text/html; charset=utf-8", bytes(range(256))),
        "/policy.pdf": (200, "application/pdf", tiny_pdf("We collect your email address to send receipts.")),
        "/big": (200, "text/plain", b"x" * 5000),
        "/secret/privacy": (200, "text/html", POLICY_HTML.encode()),
        "/robots.txt": (200, "text/plain", b"User-agent: *\nDisallow: /secret/\n"),
    }
    Site.agents = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_html_keeps_the_main_content_only(server: str) -> None:
    got = fetch_policy(f"{server}/old-privacy", allow_private=True)  # a redirect, followed
    assert got.final_url.endswith("/privacy") and got.source_type == "text/html"
    assert "We collect your email address" in got.text and "7 years" in got.text
    assert "Careers" not in got.text and "Cart" not in got.text
    assert USER_AGENT in Site.agents


def test_pdf_policies_are_read(server: str) -> None:
    got = fetch_policy(f"{server}/policy.pdf", allow_private=True)
    assert got.source_type == "application/pdf" and "We collect your email address" in got.text


def test_robots_size_status_and_scheme_give_clear_errors(server: str) -> None:
    with pytest.raises(InputError, match=r"robots\.txt disallows"):
        fetch_policy(f"{server}/secret/privacy", allow_private=True)
    with pytest.raises(InputError, match="over the limit"):
        fetch_policy(f"{server}/big", max_bytes=1000, allow_private=True)
    with pytest.raises(InputError, match="HTTP 404"):
        fetch_policy(f"{server}/nosuch", allow_private=True)
    with pytest.raises(InputError, match="not an http"):
        fetch_policy("ftp://127.0.0.1/x", allow_private=True)
    with pytest.raises(InputError, match="cannot be fetched"):
        fetch_policy("http://127.0.0.1:9/privacy", timeout=2, allow_private=True)  # nothing listens on the discard port


def test_malformed_urls_and_redirects_are_input_errors(server: str, tmp_path: Path) -> None:
    # Each was a ValueError traceback from urllib: unbalanced brackets, a port out of range or not a number.
    for url in ("http://[::1:bad/", "http://127.0.0.1:99999/privacy", "http://127.0.0.1:abc/privacy"):
        with pytest.raises(InputError, match="not a valid URL") as e:
            fetch_policy(url, allow_private=True)
        assert e.value.source == url
    with pytest.raises(InputError, match=r"redirects to 'http://\[::1:bad/', which is not a valid URL"):
        fetch_policy(f"{server}/bad-redirect", allow_private=True)
    r = CliRunner().invoke(main, ["convert", f"{server}/bad-redirect", "-o", str(tmp_path), "--allow-private"])
    assert r.exit_code == 2 and "bad-redirect: redirects to" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["convert", "http://example.com:99999/", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "99999/: not a valid URL" in r.output


def test_a_binary_answer_is_refused_naming_the_url(server: str, tmp_path: Path) -> None:
    # Was saved as <site>.md in a temporary folder, then refused naming that temporary file (exit 1).
    for path, kind in (("/logo.png", "image/png"), ("/blob", "text/html")):
        with pytest.raises(InputError, match=f"is {kind}, not a policy page") as e:
            fetch_policy(f"{server}{path}", allow_private=True)
        assert e.value.source == f"{server}{path}"
    r = CliRunner().invoke(main, ["convert", f"{server}/logo.png", "-o", str(tmp_path), "--allow-private"])
    assert r.exit_code == 2 and f"{server}/logo.png: is image/png, not a policy page" in r.output, r.output


def test_track_keeps_a_version_only_when_the_text_changed(server: str, tmp_path: Path) -> None:
    sites = tmp_path / "sites.toml"
    sites.write_text(f'[sites."tinyshop.example"]\nurl = "{server}/privacy"\n', encoding="utf-8")
    out = tmp_path / "versions"
    fetch = functools.partial(fetch_policy, allow_private=True)
    (first,) = track(sites, out, fetch)
    assert first.status == "new" and first.file and (out / first.file).is_file()
    (again,) = track(sites, out, fetch)
    assert again.status == "unchanged" and again.file == first.file
    changed = POLICY_HTML.replace("7 years", "10 years")
    Site.pages["/privacy"] = (200, "text/html", changed.encode())
    import time

    time.sleep(1.1)  # versions are stamped to the second
    (third,) = track(sites, out, fetch)
    assert third.status == "changed" and third.file != first.file
    assert "10 years" in (out / str(third.file)).read_text(encoding="utf-8")
    assert len(list((out / "tinyshop.example").glob("*.md"))) == 2


def test_track_command_reports_failures_and_keeps_the_rest(server: str, tmp_path: Path) -> None:
    sites = tmp_path / "sites.toml"
    sites.write_text(
        f'[sites."tinyshop.example"]\nurl = "{server}/privacy"\n[sites."gone.example"]\nurl = "{server}/nosuch"\n',
        encoding="utf-8",
    )
    res = CliRunner().invoke(
        main, ["track", str(sites), "-o", str(tmp_path / "v"), "--format", "csv", "--allow-private"]
    )
    assert res.exit_code == 1
    assert "gone.example,failed" in res.output and "tinyshop.example,new" in res.output
    conv = CliRunner().invoke(main, ["convert", str(tmp_path / "v"), "-o", str(tmp_path / "g")])
    assert conv.exit_code == 0, conv.output  # the archive converts as dated versions
    assert len(list((tmp_path / "g").glob("tinyshop.example@*.trig"))) == 1


def test_sites_file_errors_name_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "s.toml"
    bad.write_text('[sites."x.example"]\nurl = "http://a"\nevery = "day"\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"sites\.x\.example: unknown key"):
        load_sites(bad)
    bad.write_text("[sites\n", encoding="utf-8")
    with pytest.raises(InputError, match="not valid TOML"):
        load_sites(bad)


def test_convert_takes_a_url(server: str, tmp_path: Path) -> None:
    res = CliRunner().invoke(
        main, ["convert", f"{server}/privacy", "--site", "tinyshop.example", "-o", str(tmp_path), "--allow-private"]
    )
    assert res.exit_code == 0, res.output
    assert (tmp_path / "tinyshop.example.trig").is_file()
    bad = CliRunner().invoke(main, ["convert", f"{server}/nosuch", "-o", str(tmp_path), "--allow-private"])
    assert bad.exit_code == 2 and "HTTP 404" in bad.output and "Traceback" not in bad.output
