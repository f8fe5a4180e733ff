"""One HTML-to-text path for files and fetched pages: the main content, the full page when the extractor lost text."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.load import html as html_mod
from pp_graph.load.html import full_page_text, html_text
from pp_graph.load.sources import load_policy

POLICY = """<h1>Privacy notice</h1>
<p>This notice explains which personal data the shop collects when you order, why it needs them and how long it
keeps them. It applies to the web shop and to orders placed by telephone.</p>
<h2>What we collect</h2>
<ul><li>Your name and the postal address you give us when you order.</li>
<li>Your email address, to send the order confirmation and the tracking number.</li>
<li>The items you ordered and the amount you paid, for our accounts.</li></ul>
<h2>How long we keep it</h2>
<p>We keep order records for six years after the order, as the tax rules require, and delete your account data two
years after your last order unless you ask us to delete it earlier.</p>
<h2>Your rights</h2>
<p>You may ask for a copy of the data we hold about you, have it corrected or deleted, and object to its use for
marketing at any time by writing to the address at the end of this notice.</p>"""

# Page chrome built of plain <div>s, as many saved pages are: no <nav>, <header> or <footer> to drop by name.
DIV_PAGE = f"""<html><body>
<div class="top"><div class="menu"><a href="/a">Shop all departments</a> | <a href="/b">Gift cards and vouchers</a>
</div></div>
<div class="consent"><span>This site uses cookies to remember your basket between visits</span>
<a href="#ok">Accept all cookies</a></div>
<div class="page"><div class="content">{POLICY}</div>
<div class="side"><div><a href="/x">Ten ideas for a garden party</a></div><div><a href="/y">Our spring catalogue
is out now</a></div></div></div>
<div class="bottom"><div><a href="/j">Work with us in the warehouse</a></div></div>
</body></html>"""


def test_a_file_drops_chrome_built_of_divs(tmp_path: Path) -> None:
    f = tmp_path / "shop.example.html"
    f.write_text(DIV_PAGE, encoding="utf-8")
    text = load_policy(f).text
    assert "We keep order records for six years" in text and "## What we collect" in text
    for chrome in ("Accept all cookies", "Gift cards and vouchers", "garden party", "warehouse"):
        assert chrome not in text
    assert "Accept all cookies" in full_page_text(DIV_PAGE)  # the full-page conversion alone keeps it


def test_files_and_fetched_pages_take_the_same_path(tmp_path: Path) -> None:
    from pp_graph.load import fetch, render, sources

    assert fetch.html_text is sources.html_text is render.html_text is html_text
    f = tmp_path / "shop.example.html"
    f.write_text(DIV_PAGE, encoding="utf-8")
    assert load_policy(f).text == html_text(DIV_PAGE)


def test_the_full_page_is_used_when_the_extractor_loses_text(monkeypatch: pytest.MonkeyPatch) -> None:
    page = f"<html><body>{POLICY}</body></html>"
    full = full_page_text(page)
    assert html_text(page) != full  # the main content, normally
    kept = "## What we collect\n\n- Your name and the postal address you give us when you order.\n"
    monkeypatch.setattr(html_mod, "main_content_text", lambda html: kept)
    assert html_text(page) == full  # a quarter of the words: sections were lost
    monkeypatch.setattr(html_mod, "main_content_text", lambda html: "")
    assert html_text(page) == full


def test_the_full_page_is_used_when_the_extractor_drops_every_heading(monkeypatch: pytest.MonkeyPatch) -> None:
    page = f"<html><body>{POLICY}</body></html>"
    plain = full_page_text(page).replace("#", "")
    monkeypatch.setattr(html_mod, "main_content_text", lambda html: plain)
    assert html_text(page) == full_page_text(page)
