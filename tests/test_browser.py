"""What a person sees, in a real browser: Debian's chromium driven by Playwright against a server the tests start.

Skipped when chromium or Playwright is absent (`.ci/run` installs chromium). Screenshots are kept as test
artefacts under outputs/test-artifacts/ (git-ignored).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pp_graph.cli import main

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARTIFACTS = Path(__file__).resolve().parents[1] / "outputs" / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(fixture_graphs: Path) -> Iterator[str]:
    from pp_graph.query.corpus import Corpus
    from pp_graph.serve.app import create_app
    from pp_graph.serve.server import make_server, stop

    srv = make_server(create_app(Corpus.open([fixture_graphs])), 0)  # the server `pp-graph serve` runs
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.effective_port}"
    stop(srv)
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    ctx.close()


def _shot(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_report_file_opens_offline_with_charts(page: Any, fixture_graphs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert CliRunner().invoke(main, ["report", str(fixture_graphs), "-o", str(out)]).exit_code == 0
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    charts = page.locator(".chart svg")
    assert charts.count() >= 3
    box = charts.first.bounding_box()
    assert box and box["width"] > 200 and box["height"] > 50
    # Sorting a table by clicking its header reorders the rows.
    table = page.locator("#table-per-site")
    table.locator("th", has_text="total").click()
    table.locator("th", has_text="total").click()
    column = table.locator("thead th").all_inner_texts().index("total") + 1
    totals = [int(t) for t in table.locator(f"tbody tr td:nth-child({column})").all_inner_texts()]
    assert totals == sorted(totals, reverse=True)
    assert all(u.startswith("file:") for u in requests), requests  # nothing fetched from anywhere
    assert page.evaluate("window.__xss") is None and not page.errors
    _shot(page, "report")


def test_policy_page_click_a_highlight_shows_its_practice(page: Any, server: str) -> None:
    page.goto(f"{server}/site/tinyshop.example")
    hl = page.locator("a.hl.t-third-party-sharing-disclosure").first
    hl.click()
    panel = page.locator("#practice-panel")
    assert panel.is_visible()
    assert "third-party-sharing-disclosure" in panel.inner_text()
    assert "receiver" in panel.inner_text() and "provenance" in panel.inner_text()
    assert not page.errors
    _shot(page, "policy")


def test_policy_page_reads_without_javascript(browser: Any, server: str) -> None:
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(f"{server}/site/tinyshop.example")
    href = pg.locator("a.hl.t-third-party-sharing-disclosure").first.get_attribute("href")
    pg.locator("a.hl.t-third-party-sharing-disclosure").first.click()
    assert pg.locator(f"article{href}").is_visible()  # the card shows by :target, no script
    ctx.close()


def test_hostile_policy_text_never_executes(page: Any, server: str) -> None:
    page.goto(f"{server}/site/hostile.example")
    text = page.locator("#policy-text").inner_text()
    # Shown as text (fails if escaping is removed: the browser would parse it as markup instead).
    assert "<script>window.__xss = 1</script>" in text
    assert '"><img src=x onerror="window.__xss=2">' in text
    assert page.locator("#policy-text img, #policy-text script, #policy-text svg").count() == 0
    page.locator("a.hl").first.click()
    assert page.evaluate("window.__xss") is None and not page.errors
    _shot(page, "hostile")


def test_named_query_with_a_parameter(page: Any, server: str) -> None:
    page.goto(f"{server}/queries")
    page.locator("a", has_text="sites-sharing").click()
    page.fill("input[name=data]", "pd:Contact")
    page.click("#query-form button")
    page.locator("#results tbody tr").first.wait_for()  # the results page, not the form still on screen
    assert page.locator("#results tbody tr").count() >= 1
    assert "tinyshop.example" in page.locator("#results").inner_text()
    _shot(page, "query")


def test_risk_whatif_panel(page: Any, server: str) -> None:
    page.goto(f"{server}/whatif")
    page.select_option("select[name=site]", "tinyshop.example")
    page.fill("input[name=data]", "pd:EmailAddress")
    page.fill("input[name=purpose]", "dpv:Marketing")
    page.select_option("select[name=recipient]", "advertising")
    page.select_option("select[name=basis]", "background")
    page.click("#whatif-form button")
    decision = page.locator("#decision")
    assert decision.is_visible()
    assert page.locator("#decision h2").inner_text().split()[0] in ("allow", "transform", "deny")
    assert "R = L·S_eff·M_T" in decision.inner_text()
    _shot(page, "whatif")
