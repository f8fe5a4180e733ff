from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.errors import InputError
from pp_graph.load import load_policy, segment, site_from_name
from pp_graph.load.sources import policy_from_text


def test_site_from_file_name() -> None:
    assert site_from_name(Path("github.com.md")) == "github.com"
    assert site_from_name(Path("bbc.co.uk.html")) == "bbc.co.uk"
    assert site_from_name(Path("Example.ORG.txt")) == "example.org"


def test_segments_keep_offsets_and_heading_path() -> None:
    text = "# Title\n\nIntro line.\n\n## Data\n  We collect email.  \nSub\n---\nUnder sub.\n"
    p = policy_from_text(text, "example.com")
    segs = segment(p)
    for s in segs:
        assert p.text[s.start : s.end] == s.text
    by_text = {s.text: s for s in segs}
    assert by_text["We collect email."].heading_path == ("Title", "Data")
    assert by_text["Under sub."].heading_path == ("Title", "Sub")
    assert by_text["Sub"].is_heading and by_text["# Title"].is_heading
    assert "---" not in by_text  # setext underline is not a segment
    assert [s.index for s in segs] == list(range(len(segs)))


def test_horizontal_rule_is_not_a_segment() -> None:
    segs = segment(policy_from_text("Line one.\n\n***\n\nLine two.\n", "example.com"))
    assert [s.text for s in segs] == ["Line one.", "Line two."]


def test_html_keeps_headings_and_lists_drops_scripts_and_nav(tmp_path: Path) -> None:
    f = tmp_path / "shop.example.html"
    f.write_text(
        "<html><head><script>var tracking = 1;</script><style>p{}</style></head><body>"
        "<nav>Home | Menu</nav><h2>What we collect</h2><ul><li>Your email address</li></ul>"
        "<p>We use it to contact you.</p></body></html>",
        encoding="utf-8",
    )
    p = load_policy(f)
    assert p.site == "shop.example" and p.media_type == "text/html"
    assert "tracking" not in p.text and "Menu" not in p.text
    segs = segment(p)
    item = next(s for s in segs if "email address" in s.text)
    assert item.heading_path == ("What we collect",)


@pytest.mark.parametrize(
    ("name", "content", "problem"),
    [
        ("empty.example.md", b"   \n\n", "is empty"),
        ("binary.example.txt", b"\x89PNG\x00\x00data", "binary"),
        ("latin.example.md", "Caf\u00e9 policy".encode("latin-1"), "not valid UTF-8"),
        ("policy.example.pdf", b"%PDF-1.4", "is not a readable PDF"),
        ("policy.example.docx", b"PK\x03\x04", "unsupported file type"),
    ],
)
def test_bad_input_names_file_and_problem(tmp_path: Path, name: str, content: bytes, problem: str) -> None:
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(InputError) as e:
        load_policy(f)
    assert name in str(e.value) and problem in str(e.value)


def test_site_must_be_a_domain(tmp_path: Path) -> None:
    f = tmp_path / "README.md"
    f.write_text("We collect your email.", encoding="utf-8")
    with pytest.raises(InputError, match="not a domain"):
        load_policy(f)
    assert load_policy(f, site="example.com").site == "example.com"


def test_crlf_is_normalised(tmp_path: Path) -> None:
    f = tmp_path / "a.example.txt"
    f.write_bytes(b"Line one.\r\nLine two.\r\n")
    p = load_policy(f)
    assert "\r" not in p.text
    assert [s.text for s in segment(p)] == ["Line one.", "Line two."]


def test_data_file_errors_name_the_file(tmp_path: Path) -> None:
    from pp_graph.datafiles import tsv_lines
    from pp_graph.errors import DataFileError

    f = tmp_path / "table.tsv"
    f.write_text("# comment\n\nphrase\tpd:Name\n", encoding="utf-8")
    assert list(tsv_lines(f)) == [(3, ["phrase", "pd:Name"], "phrase\tpd:Name")]
    f.write_bytes(b"\xff\xfe bad")
    with pytest.raises(DataFileError, match=r"table\.tsv: not valid UTF-8"):
        list(tsv_lines(f))
    with pytest.raises(DataFileError, match=r"missing\.tsv: cannot be read"):
        list(tsv_lines(tmp_path / "missing.tsv"))


def test_html_without_visible_text_is_an_error_from_a_string_too() -> None:
    with pytest.raises(InputError, match="HTML has no visible text"):
        policy_from_text("<html><script>var x = 1;</script></html>", "example.org", media_type="text/html")
