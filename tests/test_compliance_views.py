"""The compliance surfaces: the checklist on a policy's UI page (evidence lines linked and marked), the corpus table
(UI and report), severities on the versions view, `history --law`, readable query cells, and a crawl of every
internal link of the UI (no 404, no 500, every #anchor present on its page)."""

from __future__ import annotations

import itertools
import json
import re
from collections import deque
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pyoxigraph as ox
import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.comply.checklist import checklist
from pp_graph.comply.facts import graph_file_facts, store_facts
from pp_graph.comply.laws import get_law
from pp_graph.graph.namespaces import PPG
from pp_graph.query.corpus import Corpus
from pp_graph.report.html import build_report
from pp_graph.serve.app import create_app

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SITE = "shop.example"
# The dated site: partial → complete → partial again (requirements gained, then lost).
VERSIONS = (("20220101T000000Z", "partial"), ("20230101T000000Z", "complete"), ("20240101T000000Z", "partial"))
LABELS = [it.label for it in get_law("gdpr").items]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("compliance")
    src = root / "src"
    (src / SITE).mkdir(parents=True)
    for stamp, name in VERSIONS:
        text = (FIXTURES / "comply" / f"{name}.example.md").read_text(encoding="utf-8")
        (src / SITE / f"{stamp}.md").write_text(text, encoding="utf-8")
    for name in ("complete", "partial"):
        (src / f"{name}.example.md").write_text(
            (FIXTURES / "comply" / f"{name}.example.md").read_text(encoding="utf-8"), encoding="utf-8"
        )
    (src / "tinyshop.example.md").write_text(
        (FIXTURES / "policies" / "tinyshop.example.md").read_text(encoding="utf-8"), encoding="utf-8"
    )
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(root / "out")])
    assert res.exit_code == 0, res.output
    return root / "out"


@pytest.fixture(scope="module")
def corpus(graphs: Path) -> Corpus:
    return Corpus.open([graphs])


@pytest.fixture(scope="module")
def client(corpus: Corpus):  # type: ignore[no-untyped-def]
    return create_app(corpus).test_client()


class _Page(HTMLParser):
    """Every href and every id of a page, and the attributes of each element with an id."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: dict[str, dict[str, str]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "href" in a:
            self.hrefs.append(a["href"])
        if "id" in a:
            self.ids[a["id"]] = a | {"tag": tag}


def parse(html: str) -> _Page:
    p = _Page()
    p.feed(html)
    return p


def _rows(page: str) -> dict[str, tuple[str, str]]:
    """Checklist rows: item id → (status, the row's HTML)."""
    return {
        m.group(1): (m.group(2), m.group(3))
        for m in re.finditer(r'<tr id="req-([a-z-]+)" data-status="([a-z ]+)">(.*?)</tr>', page, re.S)
    }


# -- the policy page's checklist --


def test_policy_page_checklist_matches_comply_and_links_each_evidence_line(client, graphs: Path) -> None:  # type: ignore[no-untyped-def]
    expected = checklist(graph_file_facts(graphs / "partial.example.trig")[0], get_law("gdpr"))
    page = client.get("/site/partial.example").get_data(as_text=True)
    rows = _rows(page)
    assert list(rows) == [r.item.id for r in expected.results]
    assert {k: s for k, (s, _) in rows.items()} == {r.item.id: r.status for r in expected.results}
    assert rows["third-country-transfers"][0] == "denied" and "outside the EEA" in rows["third-country-transfers"][1]
    assert rows["legal-basis"][0] == "missing" and "evidence-link" not in rows["legal-basis"][1]
    assert "no data protection officer" in rows["dpo-contact"][1]  # a not-applicable item gives its reason
    links = 0
    for r in expected.results:
        hrefs = re.findall(r'class="evidence-link" href="([^"]+)" title="([^"]*)"', rows[r.item.id][1])
        assert len(hrefs) == len(r.evidence)
        for (href, title), ev in zip(hrefs, r.evidence, strict=True):
            links += 1
            path, _, anchor = unescape(href).partition("#")
            target = parse(client.get(path).get_data(as_text=True))
            seg = target.ids[anchor]  # the linked line exists on the page linked
            assert "evidence" in seg["class"].split() and int(seg["data-start"]) == ev.start
            assert int(seg["data-end"]) == ev.end and unescape(title) == ev.text
    assert links >= 5
    # The evidence line links back to the items it is evidence of.
    assert re.search(r'<a class="req-badge s-denied" href="#req-third-country-transfers"', page)


def test_a_graph_converted_before_the_transparency_stage_says_so(corpus: Corpus, graphs: Path, tmp_path: Path) -> None:
    drop = {ox.NamedNode(str(PPG.transparencyRules)), ox.NamedNode(str(PPG.hasTransparencyStatement))}
    with open(graphs / "partial.example.trig", "rb") as fh:
        quads = [q for q in ox.parse(fh, format=ox.RdfFormat.TRIG) if q.predicate not in drop]
    with open(tmp_path / "old.trig", "wb") as out:
        ox.serialize(quads, out, format=ox.RdfFormat.TRIG)
    app = create_app(Corpus.open([tmp_path])).test_client()
    page = app.get("/site/partial.example")
    assert page.status_code == 200 and "convert it again" in page.get_data(as_text=True)
    table = app.get("/compliance").get_data(as_text=True)
    assert "convert it again" in table and 'id="corpus-table"' not in table


def test_store_facts_equal_the_graph_file_facts(corpus: Corpus, graphs: Path) -> None:
    for s in corpus.policies:
        a = store_facts(corpus.store.store, s.policy, s.file)
        (b,) = [f for f in graph_file_facts(graphs / s.file)]
        assert (a.site, a.rules_version, a.practices) == (b.site, b.rules_version, b.practices)
        assert a.statements == b.statements


# -- the corpus table --


def _corpus_table(html: str) -> tuple[list[str], dict[str, list[tuple[str, str, str]]]]:
    table = re.search(r'<table class="sortable corpus-table" id="corpus-table">(.*?)</table>', html, re.S)
    assert table, "no corpus table"
    head = re.findall(r'<th class="req" title="[^"]*">([^<]+)</th>', table.group(1))
    cells = {
        m.group(1): re.findall(r'<td class="s s-([a-z-]+)" title="[^"]+"><a href="([^"]+)">([^<]+)</a>', m.group(2))
        for m in re.finditer(r'<tr data-site="([^"]+)">(.*?)</tr>', table.group(1), re.S)
    }
    return head, cells


def test_compliance_page_is_a_sites_by_requirements_table(client, corpus: Corpus) -> None:  # type: ignore[no-untyped-def]
    html = client.get("/compliance").get_data(as_text=True)
    head, cells = _corpus_table(html)
    assert head == LABELS  # the checklist's requirement names, in its order
    assert set(cells) == set(corpus.sites)
    done = checklist(store_facts(corpus.store.store, *_newest(corpus, "complete.example")), get_law("gdpr"))
    symbol = {"addressed": "✓", "denied": "✗", "missing": "–", "not applicable": "n/a"}
    want = [(r.status.replace(" ", "-"), symbol[r.status]) for r in done.results]
    assert [(s, sym) for s, _, sym in cells["complete.example"]] == want
    assert any(s == "missing" for s, _, _ in cells["partial.example"])
    for status in ("addressed", "denied", "missing", "not applicable"):  # the legend names every symbol
        assert re.search(rf'<span class="s s-{status.replace(" ", "-")}">[^<]+</span> {status}:', html)
    href = cells["partial.example"][10][1]  # a cell links to that item on the policy's page
    path, _, anchor = unescape(href).partition("#")
    assert anchor == "req-third-country-transfers" and anchor in parse(client.get(path).get_data(as_text=True)).ids


def _newest(c: Corpus, site: str) -> tuple[str, str]:
    s = c.sites[site][-1]
    return s.policy, s.file


def test_report_has_the_corpus_table_checklists_and_version_severities(corpus: Corpus) -> None:
    html = build_report(corpus)
    head, cells = _corpus_table(html)
    assert head == LABELS and set(cells) == set(corpus.sites)
    ids = parse(html).ids
    for site, row in cells.items():
        assert len(row) == len(LABELS)
        for _, href, _ in row:  # every cell links to its item of that site's checklist, in the same file
            assert href.startswith("#") and href[1:] in ids
        assert f"checklist-{site.replace('.', '-')}" in ids
    ev = [i for i in ids if i.startswith("ev-partial-example-third-country-transfers-")]
    assert len(ev) == 1 and "We do not transfer your data outside the EEA." in html
    versions = re.search(r'<section class="r" id="versions">(.*?)</section>', html, re.S)
    assert versions and SITE in versions.group(1)
    assert re.search(r'<span class="sev sev-high">high</span> requirement-lost: Right to Access', versions.group(1))
    assert re.search(r'<span class="sev sev-low">low</span> requirement-gained: Right to Access', versions.group(1))


# -- the versions view --


def test_versions_view_shows_each_change_with_its_severity(client, corpus: Corpus) -> None:  # type: ignore[no-untyped-def]
    row = r'<tr><td><span class="sev sev-(\w+)">\w+</span></td><td>([a-z-]+)</td><td>([^<]*)</td>'
    page = client.get(f"/site/{SITE}").get_data(as_text=True)  # the newest version: what changed since the one before
    (step,) = re.findall(r'<details class="changes" open>(.*?)</details>', page, re.S)
    assert 'highest <span class="sev sev-high">high</span>' in step
    rows = re.findall(row, step)
    assert ("high", "requirement-lost", "Right to Access: addressed → missing") in rows
    assert ("high", "right-removed") in {(s, k) for s, k, _ in rows}
    levels = [s for s, _, _ in rows]
    assert levels == sorted(levels, key=["high", "medium", "low"].index)  # the highest first
    middle = corpus.sites[SITE][1].key
    page = client.get(f"/site/{SITE}?version={middle}").get_data(as_text=True)
    gained = [s for s, k, _ in re.findall(row, page) if k == "requirement-gained"]
    assert gained and set(gained) == {"low"}
    first = client.get(f"/site/{SITE}?version={corpus.sites[SITE][0].key}").get_data(as_text=True)
    assert '<details class="changes"' not in first  # nothing before the first version


# -- history --law --


def test_history_law_json_gives_statuses_and_requirement_changes(graphs: Path) -> None:
    res = CliRunner().invoke(main, ["history", SITE, "--graph", str(graphs), "--law", "gdpr", "--format", "json"])
    assert res.exit_code == 0, res.output
    points = json.loads(res.output)
    assert [p["valid_from"][:10] for p in points] == ["2022-01-01", "2023-01-01", "2024-01-01"]
    for p in points:
        assert p["law"] == "gdpr" and [r["label"] for r in p["requirements"]] == LABELS
        assert p["addressed"] == sum(r["status"] == "addressed" for r in p["requirements"])
    first, second, third = points
    assert first["requirement_changes"] == [] and first["severity"] == ""
    by = {c["requirement"]: c for c in second["requirement_changes"]}
    assert by["right-access"]["kind"] == "requirement-gained" and by["right-access"]["severity"] == "low"
    assert (by["right-access"]["from"], by["right-access"]["to"]) == ("missing", "addressed")
    assert by["right-access"]["evidence_new"] and not by["right-access"]["evidence_old"]
    lost = {c["requirement"]: c for c in third["requirement_changes"] if c["kind"] == "requirement-lost"}
    assert {"right-access", "legal-basis", "retention-period"} <= set(lost)
    assert {c["severity"] for c in lost.values()} == {"high"} and third["severity"] == "high"
    moved = {c["requirement"]: c for c in third["requirement_changes"] if c["kind"] == "requirement-status-changed"}
    transfers = moved["third-country-transfers"]
    assert transfers["to"] == "denied" and transfers["severity"] == "medium"
    for a, b in itertools.pairwise(points):  # every change is a status that differs
        was = {r["id"]: r["status"] for r in a["requirements"]}
        now = {r["id"]: r["status"] for r in b["requirements"]}
        assert {c["requirement"] for c in b["requirement_changes"]} == {k for k in now if now[k] != was[k]}


def test_history_law_table_markdown_csv_and_errors(graphs: Path) -> None:
    run = CliRunner().invoke
    table = run(main, ["history", SITE, "--graph", str(graphs), "--law", "gdpr"])
    assert table.exit_code == 0, table.output
    dates = r"\s+".join(f"{d}T00:00:00Z" for d in ("2022-01-01", "2023-01-01", "2024-01-01"))
    assert re.search(rf"^requirement\s+{dates}", table.output, re.M)
    assert re.search(r"^Right to Access\s+–\s+✓\s+–\s*$", table.output, re.M)
    assert re.search(r"^2024-01-01T00:00:00Z .* 5/21 .*Right to Access.* high\s*$", table.output, re.M)
    md = run(main, ["history", SITE, "--graph", str(graphs), "--law", "gdpr", "--format", "markdown"])
    assert "## 2024-01-01T00:00:00Z — high" in md.output and "## Checklist per version" in md.output
    assert "- [high] **requirement-lost** Right to Access: addressed → missing" in md.output
    csv = run(main, ["history", SITE, "--graph", str(graphs), "--law", "gdpr", "--format", "csv"])
    assert csv.output.splitlines()[0].endswith("addressed,lost,gained,severity")
    plain = run(main, ["history", SITE, "--graph", str(graphs), "--format", "json"])
    assert "requirements" not in json.loads(plain.output)[0]  # without --law: practices only
    bad = run(main, ["history", SITE, "--graph", str(graphs), "--law", "nolaw"])
    assert bad.exit_code == 2 and "nolaw" in bad.output and "Traceback" not in bad.output


# -- query results --


def test_query_cells_show_labels_and_truncate_with_the_full_value_on_hover(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/queries/top-data-classes?run=1").get_data(as_text=True)
    iri = "https://w3id.org/dpv/pd#EmailAddress"
    email = f'<td class="trunc" title="{iri}">Email Address <code>pd:EmailAddress</code></td>'
    assert email in page
    page = client.get("/queries/retention?run=1").get_data(as_text=True)
    cells = re.findall(r'<td class="trunc" title="([^"]+)">([^<]+)</td>', page)
    long = [(full, shown) for full, shown in cells if shown.endswith("…")]
    assert long, "no long value was cut"
    for full, shown in long:
        assert len(shown) <= 80 and unescape(full).startswith(unescape(shown[:-1]).rstrip())
    assert "urn:pp-graph:ontology#" not in re.sub(r'title="[^"]*"', "", page)  # no raw ontology IRI is shown


# -- every internal link resolves --


def test_every_internal_link_of_the_ui_resolves(client) -> None:  # type: ignore[no-untyped-def]
    seen: set[str] = set()
    queue = deque(["/"])
    checked = anchors = 0
    while queue:
        url = queue.popleft()
        r = client.get(url)
        assert r.status_code not in (404, 500), f"{url}: {r.status_code}"
        checked += 1
        if not r.content_type.startswith("text/html"):
            continue
        page = parse(r.get_data(as_text=True))
        for href in page.hrefs:
            full = urljoin(url, unescape(href))
            parts = urlsplit(full)
            if parts.scheme or parts.netloc:
                continue  # an outside address (a DPV concept's IRI)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if parts.fragment:
                target = page if path == url else parse(client.get(path).get_data(as_text=True))
                assert parts.fragment in target.ids, f"{url}: {href} points at no element"
                anchors += 1
            if path not in seen and (path.startswith(("/site/", "/compliance", "/queries")) or path == "/"):
                seen.add(path)
                queue.append(path)
    assert checked > 10 and anchors > 50
    assert any(u.startswith(f"/site/{SITE}?version=") for u in seen)  # older versions were crawled too
