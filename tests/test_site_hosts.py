"""Sites are parsed as HTTP clients parse them (issue 28 §4): a malformed destination borrows no policy and is
denied, and only the parsed host is recorded (user information in a URL never reaches a record or the ledger)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.plane import Field
from pp_graph.plane import demo as demo_mod
from pp_graph.plane.keys import PlaneKeys
from pp_graph.sites import SiteError, parse_site

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CANARY = "s3cr3t-CANARY-9f2"
ACTION = ["--data", "pd:EmailAddress", "--purpose", "dpv:ServiceProvision", "--recipient", "first_party"]
MALFORMED = [
    "http://evil.com\\.github.com/",
    "http://evil.com\\@github.com/",
    "evil.com;.github.com",
    "evil.com .github.com",
    "https:\\\\evil.com\\github.com",
    "evil.com\t.github.com",
    "http://evil.com%2f.github.com/",
    "http://github.com:99999/",
    "mailto:someone@github.com",
    "http://[::1]/",
    "",
]


@pytest.fixture(scope="module")
def github_graph(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gh")
    res = CliRunner().invoke(main, ["convert", str(EXAMPLES / "github.com.md"), "-o", str(out / "g")])
    assert res.exit_code == 0, res.output
    return out / "g"


def _risk(graph: Path, site: str) -> dict[str, object]:
    res = CliRunner().invoke(main, ["risk", "--graph", str(graph), "--site", site, *ACTION])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    record: dict[str, object] = json.loads(res.stdout)
    return record


@pytest.mark.parametrize(
    ("site", "host"),
    [
        ("github.com", "github.com"),
        ("https://user:pw@www.GitHub.com:443/x?y#z", "github.com"),
        ("github.com:8443", "github.com"),
        ("GitHub.com.", "github.com"),
        ("https://www.Bücher.de/privacy", "xn--bcher-kva.de"),
        ("http://evil.com#@github.com", "evil.com"),  # the fragment starts at '#': the host is evil.com
        ("http://evil.com?@github.com", "evil.com"),
        ("https://a@b@gist.github.com/", "gist.github.com"),  # user information ends at the last '@'
    ],
)
def test_hosts_are_split_as_http_clients_split_them(site: str, host: str) -> None:
    assert parse_site(site) == host


@pytest.mark.parametrize("site", MALFORMED)
def test_malformed_sites_are_refused(site: str) -> None:
    with pytest.raises(SiteError):
        parse_site(site)


def test_the_real_site_is_allowed(github_graph: Path) -> None:
    d = _risk(github_graph, "https://www.github.com/settings")
    assert d["decision"] == "allow" and d["site"] == "github.com"
    assert d["policy"] is not None


@pytest.mark.parametrize("site", MALFORMED[:5])
def test_a_malformed_site_borrows_no_policy_and_is_denied(github_graph: Path, site: str) -> None:
    d = _risk(github_graph, site)
    assert d["decision"] == "deny"
    assert d["policy"] is None and d["site"] is None
    assert any(r["rule"] == "invalid site → deny" for r in d["rules"])  # type: ignore[attr-defined,index]
    assert any("site refused" in r for r in d["reasons"])  # type: ignore[attr-defined]


def test_a_malformed_site_in_a_batch_is_denied(github_graph: Path, tmp_path: Path) -> None:
    actions = tmp_path / "a.jsonl"
    sites = [s for s in MALFORMED if s]
    lines = [{"site": s, "data": "pd:EmailAddress", "recipient": "first_party"} for s in sites]
    actions.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["risk", "--graph", str(github_graph), "--batch", str(actions)])
    records = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(records) == len(sites)
    assert all(r["decision"] == "deny" and r["site"] is None and r["policy"] is None for r in records)


def test_credentials_in_a_site_url_never_reach_the_record(github_graph: Path) -> None:
    d = _risk(github_graph, f"https://user:{CANARY}@github.com/x")
    assert d["site"] == "github.com" and d["decision"] == "allow"
    assert CANARY not in json.dumps(d)
    bad = _risk(github_graph, f"https://user:{CANARY}@evil.com;.github.com/")
    assert bad["decision"] == "deny" and CANARY not in json.dumps(bad)


def test_credentials_in_a_site_url_never_reach_the_ledger(tmp_path: Path) -> None:
    db = tmp_path / "agent.db"
    plane = demo_mod.demo_plane(db, PlaneKeys(bytes(range(32))), demo_mod.Clock())
    fields = [Field("case_id", "C-9", "internal"), Field("summary", "printer jammed", "internal")]
    plane.egress("ticket.create", fields, site=f"https://ops:{CANARY}@no-policy.example/hook")
    bad = plane.egress("ticket.create", fields, site=f"https://ops:{CANARY}@evil.example\\@no-policy.example/")
    plane.close()
    assert {d.action for d in bad.decisions} <= {"deny", "omit"}  # a malformed site is denied, never allowed
    for f in tmp_path.iterdir():
        assert CANARY.encode() not in f.read_bytes(), f.name


def test_the_what_if_page_denies_a_malformed_site_and_shows_no_credentials(fixture_graphs: Path) -> None:
    from pp_graph.query.corpus import Corpus
    from pp_graph.serve.app import create_app

    client = create_app(Corpus.open([fixture_graphs])).test_client()
    form = {"data": "pd:EmailAddress", "purpose": "dpv:ServiceProvision", "recipient": "first_party"}
    good = client.post("/whatif", data={**form, "site": f"https://u:{CANARY}@tinyshop.example/x"})
    page = good.get_data(as_text=True)
    assert good.status_code == 200 and CANARY not in page
    assert 'class="decision d-deny"' not in page and "site refused" not in page
    for site in ("http://evil.com\\.tinyshop.example/", "evil.com;.tinyshop.example"):
        page = client.post("/whatif", data={**form, "site": site}).get_data(as_text=True)
        assert 'class="decision d-deny"' in page and "site refused" in page


def test_credentials_in_a_site_url_never_reach_the_guard_record(github_graph: Path) -> None:
    site = f"https://user:{CANARY}@github.com/x"
    res = CliRunner().invoke(main, ["guard", "--graph", str(github_graph), "--site", site, *ACTION, "--format", "json"])
    assert res.exit_code == 0, res.output
    assert CANARY not in res.output and '"github.com"' in res.output
