"""The HTML report and the browser UI in-process (Flask's test client); real-browser flows: test_browser.py."""

from __future__ import annotations

import json
import os
import re
from html import escape
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.query.corpus import Corpus
from pp_graph.report.highlight import Mark, pieces, to_html
from pp_graph.report.html import build_report, collect, write_report
from pp_graph.serve.app import create_app

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HOSTILE = ("<script>window.__xss = 1</script>", '"><img src=x onerror="window.__xss=2">')


@pytest.fixture(scope="module")
def corpus(fixture_graphs: Path) -> Corpus:
    return Corpus.open([fixture_graphs])


@pytest.fixture(scope="module")
def client(corpus: Corpus):  # type: ignore[no-untyped-def]
    return create_app(corpus).test_client()


# -- highlighting --


def test_pieces_cover_the_line_and_cut_at_every_boundary() -> None:
    text = "We share your email address with partners."
    marks = [
        Mark(110, 115, "p-1", "share", "trigger"),
        Mark(116, 134, "p-1", "share", "data"),
        Mark(122, 134, "p-2", "collect", "data"),
    ]
    parts = pieces(text, 107, marks)
    assert "".join(p.text for p in parts) == text
    assert [p.text for p in parts if p.marks] == ["share", "your e", "mail address"]
    assert parts[-2].practices == ["p-1", "p-2"] and parts[1].roles == ["trigger"]
    for p in parts:  # offsets are the policy's: the piece is the text at them
        assert text[p.start - 107 : p.end - 107] == p.text


def test_spans_outside_the_line_are_clipped_or_ignored() -> None:
    parts = pieces("abcdef", 10, [Mark(8, 12, "p", "t", "data"), Mark(30, 40, "q", "t", "data")])
    assert [(p.text, bool(p.marks)) for p in parts] == [("ab", True), ("cdef", False)]


def test_highlight_html_escapes_policy_text() -> None:
    html = to_html(pieces(HOSTILE[0], 0, [Mark(0, 8, "p-1", "x", "trigger")]))
    assert "<script>" not in html and "&lt;script&gt;" in html


# -- corpus --


def test_corpus_reads_sites_practices_and_evidence_offsets(corpus: Corpus, fixture_graphs: Path) -> None:
    assert set(corpus.sites) == {"hostile.example", "lists.example", "tinyshop.example"}
    s = corpus.find("TinyShop.Example ")  # sites are found whatever their case and spacing
    assert s.practices and s.total == sum(s.practices.values())
    view = corpus.view(s)
    text = (FIXTURES / "policies" / "tinyshop.example.md").read_text(encoding="utf-8")
    for seg in view.segments:
        assert text[seg.start : seg.end] == seg.text
    share = [p for p in view.practices if p.type == "third-party-sharing-disclosure" and not p.negated]
    assert share and any(ln.role == "receiver" for ln in share[0].links)
    for p in view.practices:
        for span in p.spans():
            assert text[span.start : span.end] == span.text
    assert any(p.negated for p in view.practices)  # "We do not sell your personal information."


def test_corpus_errors_name_what_is_missing(corpus: Corpus, tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nosuch\.example"):
        corpus.find("nosuch.example")
    with pytest.raises(InputError, match="no graph files"):
        Corpus.open([tmp_path])


# -- report --


def test_report_is_one_self_contained_file(corpus: Corpus, tmp_path: Path) -> None:
    html = build_report(corpus)
    assert html.count("<svg") >= 3
    # Nothing is fetched: no external script, style, image or font.
    assert not re.search(r"""<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:)?//""", html)
    assert "<link" not in html and "<script src" not in html
    for text in HOSTILE:
        assert text not in html  # the hostile lines are shown (negated practice), escaped
    assert "&lt;svg onload=" in html
    old = os.umask(0o022)
    try:
        size = write_report(html, tmp_path / "r.html")
    finally:
        os.umask(old)
    assert size == len(html.encode()) and (tmp_path / "r.html").stat().st_mode & 0o777 == 0o644


def test_report_tables_come_from_the_graphs(corpus: Corpus) -> None:
    data = collect(corpus)
    assert data.summary["sites"] == 3 and data.summary["practices"] == sum(s.total for s in corpus.policies)
    assert any(r["data"].endswith("#EmailAddress") for r in data.top_data)
    shop = next(r for r in data.sharing if r["site"] == "tinyshop.example")
    assert shop["kinds"]  # "We share your email address with service providers"
    assert {r["site"] for r in data.negated} >= {"tinyshop.example", "hostile.example"}
    assert any(r["site"] == "tinyshop.example" for r in data.retention)


def test_report_command_writes_and_reports_size(fixture_graphs: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    res = CliRunner().invoke(main, ["report", str(fixture_graphs), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "KiB" in res.output and out.read_text(encoding="utf-8").startswith("<!doctype html>")
    bad = CliRunner().invoke(main, ["report", str(fixture_graphs), "-o", str(tmp_path / "missing" / "r.html")])
    assert bad.exit_code == 2 and "is not a folder" in bad.output and "Traceback" not in bad.output


# -- UI pages --


def test_sites_list_and_search(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/").get_data(as_text=True)
    assert "tinyshop.example" in page and "lists.example" in page
    page = client.get("/?q=tiny").get_data(as_text=True)
    assert "tinyshop.example" in page and 'data-site="lists.example"' not in page


def test_policy_page_highlights_evidence_and_links_to_its_practice(client, corpus: Corpus) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/site/tinyshop.example").get_data(as_text=True)
    view = corpus.view(corpus.find("tinyshop.example"))
    p = next(x for x in view.practices if x.type == "third-party-sharing-disclosure" and not x.negated)
    assert f'id="{p.id}"' in page  # the card, reachable without script
    assert re.search(rf'<a class="hl[^"]*" href="#{p.id}"[^>]*data-start="{p.trigger.start}"', page)
    assert "dpv:" in page or "pd:" in page
    assert p.provenance["extractor"] in page


def test_policy_page_escapes_hostile_text(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/site/hostile.example").get_data(as_text=True)
    for text in HOSTILE:
        assert text not in page
    assert "&lt;script&gt;window.__xss = 1&lt;/script&gt;" in page


def test_named_query_form_runs_with_a_parameter_and_downloads(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/queries").get_data(as_text=True)
    assert "sites-sharing" in page and "view-segments" not in page  # internal queries are not offered
    page = client.get("/queries/sites-sharing?data=pd:Contact&run=1").get_data(as_text=True)
    assert "tinyshop.example" in page
    rows = json.loads(client.get("/queries/sites-sharing?data=pd:Contact&run=1&format=json").get_data())
    assert any(r["site"] == "tinyshop.example" for r in rows)
    csv = client.get("/queries/sites-sharing?data=pd:Contact&run=1&format=csv").get_data(as_text=True)
    assert csv.splitlines()[0] == "site,dataClasses,receivers,practices" and "tinyshop.example" in csv


def test_query_csv_download_is_the_cli_csv(client) -> None:  # type: ignore[no-untyped-def]
    from pp_graph.report.formats import csv_text

    rows = json.loads(client.get("/queries/sites-sharing?data=pd:Contact&run=1&format=json").get_data())
    got = client.get("/queries/sites-sharing?data=pd:Contact&run=1&format=csv").get_data(as_text=True)
    cols = list(rows[0])
    want = csv_text(cols, ([("|".join(v) if isinstance(v, list) else v) for v in r.values()] for r in rows))
    assert got == want and "\r" not in got  # one CSV writer: the same cell safety, "\n" line ends


def test_bad_parameters_give_an_error_page_not_empty_rows(client) -> None:  # type: ignore[no-untyped-def]
    r = client.get("/queries/sites-sharing?data=not%20an%20iri&run=1")
    assert r.status_code == 400 and "data" in r.get_data(as_text=True)
    assert client.get("/site/nosuch.example").status_code == 400
    assert client.get("/queries/nosuch").status_code == 404


def test_a_missing_parameter_names_the_form_field_not_a_cli_flag(client) -> None:  # type: ignore[no-untyped-def]
    r = client.get("/queries/sites-sharing?run=1")
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and "missing parameter &#39;data&#39;" in page, page[-800:]
    assert "--param" not in page and "fill in the data field" in page


def test_whatif_decides_and_shows_evidence(client) -> None:  # type: ignore[no-untyped-def]
    form = {
        "site": "tinyshop.example",
        "data": "pd:EmailAddress",
        "purpose": "dpv:Marketing",
        "recipient": "advertising",
        "basis": "background",
        "text": "mail me at canary-4711@example.org",
    }
    page = client.post("/whatif", data=form).get_data(as_text=True)
    assert re.search(r'class="decision d-(allow|transform|deny)"', page)
    assert "S_eff" in page and "in the policy</a>" in page


def test_read_only_and_loopback_only(client) -> None:  # type: ignore[no-untyped-def]
    for method in ("put", "delete", "patch"):
        assert getattr(client, method)("/site/tinyshop.example").status_code == 405
    assert client.post("/").status_code == 405
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 403
    r = client.get("/")
    assert "default-src 'none'" in r.headers["Content-Security-Policy"]


def test_negated_practices_are_marked_in_the_text(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/site/tinyshop.example").get_data(as_text=True)
    assert re.search(r'<a class="hl[^"]*negated[^"]*"[^>]*>sell</a>', page)


def test_versions_of_a_site_are_listed_and_browsable(tmp_path: Path) -> None:
    text = (FIXTURES / "policies" / "tinyshop.example.md").read_text(encoding="utf-8")
    (tmp_path / "v1").mkdir()
    (tmp_path / "v2").mkdir()
    (tmp_path / "v1" / "tinyshop.example.md").write_text(text, encoding="utf-8")
    (tmp_path / "v2" / "tinyshop.example.md").write_text(
        text + "\nWe share your location with advertisers.\n", encoding="utf-8"
    )
    for v in ("v1", "v2"):
        res = CliRunner().invoke(main, ["convert", str(tmp_path / v), "-o", str(tmp_path / "out" / v)])
        assert res.exit_code == 0, res.output
    corpus = Corpus.open([tmp_path / "out"])
    versions = corpus.sites["tinyshop.example"]
    assert len(versions) == 2 and versions[0].digest != versions[1].digest
    client = create_app(corpus).test_client()
    page = client.get("/site/tinyshop.example").get_data(as_text=True)
    assert "Versions" in page and f"version={versions[0].key}" in page
    old = client.get(f"/site/tinyshop.example?version={versions[0].key}").get_data(as_text=True)
    assert "advertisers" in page and "advertisers" not in old
    assert client.get("/site/tinyshop.example?version=nosuch").status_code == 400


def test_serve_command_prints_its_address_and_stops_on_ctrl_c(fixture_graphs: Path) -> None:
    import signal
    import sys
    import urllib.request

    from interactive import serving

    with serving([sys.executable, "-m", "pp_graph.cli", "serve", str(fixture_graphs), "--port", "0"]) as (proc, url):
        with urllib.request.urlopen(url + "health", timeout=30) as r:
            assert json.loads(r.read()) == {"sites": 3, "policies": 3}
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0


def test_whatif_shows_the_text_that_would_leave(client) -> None:  # type: ignore[no-untyped-def]
    base = {"site": "tinyshop.example", "data": "", "basis": ""}
    cases = [  # (recipient, purpose, text) → the guard's three outcomes
        ("advertising", "dpv:Marketing", "Mail Jane Roe at canary-4711@example.org"),
        ("service_provider", "dpv:Marketing", "Mail Jane Roe at canary-4711@example.org about order 1234."),
        ("data_broker", "dpv:Advertising", "card 4111 1111 1111 1111"),
    ]
    seen = []
    for recipient, purpose, text in cases:
        page = client.post("/whatif", data={**base, "recipient": recipient, "purpose": purpose, "text": text})
        html = page.get_data(as_text=True)
        verdict = re.search(r'class="decision d-(allow|transform|deny)"', html).group(1)  # type: ignore[union-attr]
        released = re.search(r'<pre class="released" id="released">(.*?)</pre>', html, re.S)
        seen.append(verdict)
        if verdict == "transform":
            assert released and "canary-4711" not in released.group(1) and 'id="levels"' in html
        elif verdict == "allow":
            assert released and released.group(1) == escape(text)
        else:
            assert released is None and "nothing (denied)" in html
    assert seen == ["transform", "allow", "deny"]
