"""The report speaks to people: labels instead of IRIs, wording as text, rights by name, periods in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pp_graph.batch import convert_batch
from pp_graph.query.corpus import Corpus, readable_label
from pp_graph.report.html import build_report, period_words

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def html(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("graphs")
    files = [ROOT / "examples" / n for n in ("github.com.md", "mozilla.org.md", "duckduckgo.com.md")]
    assert convert_batch(files, out).ok
    return build_report(Corpus.open([out]))


def _visible(html: str) -> str:
    body = re.sub(r"<(script|style|svg)[\s\S]*?</\1>", " ", html)
    return re.sub(r"<[^>]+>", " ", body)


def test_no_internal_iris_or_python_reprs_in_the_text(html: str) -> None:
    text = _visible(html)
    assert "urn:pp-graph:ontology#" not in text
    assert "['" not in text and "']" not in text
    assert "Service provider" in text or "Advertising" in text


def test_rights_are_named_with_their_article(html: str) -> None:
    assert re.search(r"Right (?:of|to) [A-Za-z ]+ \(Art\. \d+", _visible(html))


def test_labels_and_periods_in_words() -> None:
    assert readable_label("A15 Right of Access") == "Right of Access (Art. 15)"
    assert readable_label("Email Address") == "Email Address"
    assert period_words("P2Y") == "2 years" and period_words("P1Y6M") == "1 year 6 months"
    assert period_words("P1D") == "1 day" and period_words("later") == "later" and period_words(None) == ""


def test_markdown_markup_is_hidden_and_offsets_kept() -> None:
    from pp_graph.report.highlight import Mark, pieces, to_html

    text = "| **Deletion** | We [collect](#x) your **email**<br>* address \\. now |"
    start = 100 + text.index("email")
    html_out = to_html(pieces(text, 100, [Mark(start, start + 5, "p1", "first-party-collection-use", "data")]))
    assert "**" not in html_out and "](#x)" not in html_out and "&lt;br&gt;" not in html_out and "|" not in html_out
    assert "Deletion · We collect your" in html_out and "<br>• address . now" in html_out
    assert f'data-start="{start}" data-end="{start + 5}">email</a>' in html_out
    # the pieces still cover the text exactly: offsets are the policy's
    parts = pieces(text, 100, [])
    assert "".join(p.text for p in parts) == text and parts[0].start == 100 and parts[-1].end == 100 + len(text)
