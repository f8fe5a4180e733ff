"""A URL's user information (``https://user:secret@host/…``) is never printed, stored or put in an error: history,
diff, track and convert show the URL without it, and a site given as such a URL names its host."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from local_http import Quiet, reply, serve

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.urls import shown_url, without_userinfo

V = Path(__file__).resolve().parent / "fixtures" / "versions"
SITE = "tinyshop.example"
SECRET = "s3cr3tpw"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"https://user:{SECRET}@example.com/p?q=1", "https://example.com/p?q=1"),
        (f"http://a@b:{SECRET}@example.com:8080", "http://example.com:8080"),  # the last '@' ends it
        (f"HTTPS:\\\\user:{SECRET}@example.com\\p", "HTTPS:\\\\example.com\\p"),
        ("https://example.com/a@b", "https://example.com/a@b"),  # an '@' in the path is no user information
        ("tinyshop.example@20220101T000000Z.trig", "tinyshop.example@20220101T000000Z.trig"),  # a file name
        ("C:\\x@y\\f.md", "C:\\x@y\\f.md"),  # a drive letter is no scheme
    ],
)
def test_shown_url(url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_urls_inside_a_message_and_input_errors() -> None:
    text = f"fetched https://u:{SECRET}@a.example/x, then redirected to 'http://v:{SECRET}@b.example/'"
    assert without_userinfo(text) == "fetched https://a.example/x, then redirected to 'http://b.example/'"
    e = InputError(f"https://u:{SECRET}@a.example/x", f"redirects to 'https://v:{SECRET}@b.example/'")
    assert SECRET not in str(e) and SECRET not in e.source
    assert str(e) == "https://a.example/x: redirects to 'https://b.example/'"


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("versions")
    src = root / "src" / SITE
    src.mkdir(parents=True)
    for stamp, name in (("20220101T000000Z", "base"), ("20230301T000000Z", "negation")):
        (src / f"{stamp}.md").write_text((V / f"{name}.md").read_text(encoding="utf-8"), encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(root / "src"), "-o", str(root / "out")])
    assert res.exit_code == 0, res.output
    return root / "out"


def test_history_and_diff_read_a_site_url_as_its_host_and_never_echo_its_credentials(dated: Path) -> None:
    url = f"https://user:{SECRET}@www.{SITE}/privacy"
    res = CliRunner().invoke(main, ["history", url, "--graph", str(dated), "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)
    assert [r["valid_from"][:4] for r in rows] == ["2022", "2023"] and all(SITE in r["policy"] for r in rows)
    res = CliRunner().invoke(main, ["diff", url, "--graph", str(dated), "--format", "json"])
    assert res.exit_code == 1 and json.loads(res.output)["site"] == SITE, res.output
    for command in (["history"], ["diff"], ["history", "--law", "gdpr"]):
        res = CliRunner().invoke(main, [command[0], f"https://user:{SECRET}@nosuch.example/p", "--graph", str(dated)])
        assert res.exit_code == 2, res.output
        assert SECRET not in res.output and "Traceback" not in res.output
        assert "Error: https://nosuch.example/p: no policy graph for this site" in res.output
    res = CliRunner().invoke(main, ["diff", url, f"https://user:{SECRET}@{SITE}/v2"])
    assert res.exit_code == 2 and SECRET not in res.output and "Traceback" not in res.output, res.output
    assert f"Error: https://www.{SITE}/privacy: a URL" in res.output


class _Policy(Quiet):
    def do_GET(self) -> None:
        body = b"<html><body><main><h1>Privacy</h1><p>We collect your email address.</p></main></body></html>"
        reply(self, 200 if self.path == "/privacy" else 404, "text/html; charset=utf-8", body)


@pytest.fixture
def server() -> Iterator[str]:
    running = serve("127.0.0.1", _Policy)
    yield f"127.0.0.1:{next(running)}"
    next(running, None)  # stops it


def test_track_and_convert_show_fetched_urls_without_credentials(server: str, tmp_path: Path) -> None:
    sites = tmp_path / "sites.toml"
    sites.write_text(
        f'[sites."{SITE}"]\nurl = "http://user:{SECRET}@{server}/privacy"\n'
        f'[sites."other.example"]\nurl = "http://user:{SECRET}@{server}/gone"\n',
        encoding="utf-8",
    )
    res = CliRunner().invoke(
        main, ["track", str(sites), "-o", str(tmp_path / "arch"), "--format", "json", "--allow-private"]
    )
    assert res.exit_code == 1, res.output  # the second site's page is missing
    rows = {r["site"]: r for r in json.loads(res.stdout)}
    assert rows[SITE]["status"] == "new" and rows[SITE]["url"] == f"http://{server}/privacy"
    assert rows["other.example"]["status"] == "failed" and rows["other.example"]["error"]
    assert SECRET not in res.output
    stored = b"".join(p.read_bytes() for p in (tmp_path / "arch").rglob("*") if p.is_file())
    assert SECRET.encode() not in stored
    ok = CliRunner().invoke(
        main,
        [
            "convert",
            f"http://user:{SECRET}@{server}/privacy",
            "-o",
            str(tmp_path / "g"),
            "--site",
            SITE,
            "--allow-private",
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert f"fetched http://{server}/privacy" in ok.output and SECRET not in ok.output
    graphs = b"".join(p.read_bytes() for p in (tmp_path / "g").rglob("*") if p.is_file())
    assert SECRET.encode() not in graphs
    bad = CliRunner().invoke(main, ["convert", f"http://user:{SECRET}@{server}/gone", "-o", str(tmp_path / "h")])
    assert bad.exit_code == 2 and SECRET not in bad.output and "Traceback" not in bad.output, bad.output
    assert f"http://{server}/gone" in bad.output
