"""The same policy text gives the same facts in every shape it comes in: one line per paragraph, hard-wrapped at
any width, markdown with emphasis and links, HTML, the text layer of a PDF (docs/segments.md)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from pp_graph.evaluate.wrap import rewrap
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.load.sources import load_policy, policy_from_text
from pp_graph.model import PolicyExtraction

# Our own policy text: headings, a list under a lead-in, a sharing sentence with its purpose, a negation,
# retention periods and rights.
PARAGRAPHS = [
    "# Privacy Notice of Example Books",
    "Last updated: 3 March 2025",
    "## Information we collect",
    "When you create an account, we collect your name, your email address and your postal address. We also collect "
    "your IP address and device identifiers automatically when you visit our website, and we use cookies to "
    "remember your preferences.",
    "We use your information to:",
    "*   process your orders and deliver the books you buy;\n"
    "*   send you newsletters about new releases, if you subscribe to them;\n"
    "*   detect and prevent fraud on our website.",
    "## Sharing your information",
    "We share your email address and purchase history with our advertising partners so that they can show you "
    "personalized ads on other websites.",
    "We do not sell your personal information to data brokers.",
    "## How long we keep it",
    "We retain your order history for seven years to comply with tax laws, and we delete your account data within "
    "30 days after you close your account.",
    "## Your rights",
    "You have the right to access, correct and delete your personal data. To exercise these rights, please contact "
    "privacy@example.com.",
]
PLAIN = "\n\n".join(PARAGRAPHS) + "\n"

PD = "https://w3id.org/dpv#PersonalData"

# The same words with markup a web page or an editor adds: emphasis, links, a <br> inside a sentence.
MARKED = (
    PLAIN.replace("your email address and your postal", "your **email address** and your _postal")
    .replace("postal address.", "postal address_.")
    .replace("with our advertising partners", "with our [advertising partners](https://example.com/partners)")
    .replace("show you personalized", "show you<br>personalized")
    .replace("do not sell", "do **not** sell")
    .replace("access, correct and delete", "**access**, **correct** and [delete](#delete)")
)


def facts(ex: PolicyExtraction) -> Counter[tuple[object, ...]]:
    """Per practice: type, polarity, the data and purpose classes it links; and each attribute's kind and class."""
    out: Counter[tuple[object, ...]] = Counter()
    for res in ex.results:
        for i, p in enumerate(res.practices):
            linked = [r.entity for r in res.relations if r.practice == i]
            data = tuple(sorted(res.data[int(e[5:])].concept or "" for e in linked if e.startswith("data:")))
            purposes = tuple(sorted(res.purposes[int(e[8:])].concept or "" for e in linked if e.startswith("purpose:")))
            out[(p.type.value, p.negated, data, purposes)] += 1
        for a in res.attributes:
            out[(a.kind.value, a.concept)] += 1
    return out


@pytest.fixture(scope="module")
def backend() -> object:
    return get_backend("offline")


def convert(text: str, backend: object, media: str = "text/markdown") -> PolicyExtraction:
    ex = extract(policy_from_text(text, "example.com", "example.com.md", media), backend)  # type: ignore[arg-type]
    ex.check_grounding()  # every span is exact text of the policy as given
    return ex


@pytest.fixture(scope="module")
def expected(backend: object) -> Counter[tuple[object, ...]]:
    got = facts(convert(PLAIN, backend))
    # what the text says, so that "the same facts" is not "no facts"
    assert (
        got[
            (
                "third-party-sharing-disclosure",
                False,
                ("https://w3id.org/dpv/pd#EmailAddress", "https://w3id.org/dpv/pd#Purchase"),
                ("https://w3id.org/dpv#PersonalisedAdvertising",),
            )
        ]
        == 1
    )
    assert got[("third-party-sharing-disclosure", True, (PD,), ("https://w3id.org/dpv#SellDataToThirdParties",))] == 1
    assert sum(1 for k in got if k[0] == "first-party-collection-use") >= 4
    assert sum(1 for k in got if k[0] == "user_right") >= 2
    return got


@pytest.mark.parametrize("width", [30, 40, 60, 72, 100])
def test_hard_wrapped_at_any_width(backend: object, expected: Counter[tuple[object, ...]], width: int) -> None:
    wrapped = rewrap(PLAIN, width)
    assert all(len(line) <= width for line in wrapped.split("\n") if not line.startswith("#"))
    assert facts(convert(wrapped, backend)) == expected


def test_markup_breaks_no_trigger_mention_or_right(backend: object, expected: Counter[tuple[object, ...]]) -> None:
    assert facts(convert(MARKED, backend)) == expected
    assert facts(convert(rewrap(MARKED, 60), backend)) == expected


def test_link_text_counts_and_evidence_keeps_the_source_text(backend: object) -> None:
    ex = convert(MARKED, backend)
    parties = [p.span.text for r in ex.results for p in r.parties]
    assert "advertising partners" in parties  # the link's text, its address dropped
    seg = next(r.segment for r in ex.results if "personalized ads" in r.segment.text)
    # the segment is the sentence whole, as written (markup included); the extractor read it without the markup
    assert "show you<br>personalized" in seg.text == ex.policy.text[seg.start : seg.end]


def test_html(backend: object, expected: Counter[tuple[object, ...]]) -> None:
    html = ["<html><body>"]
    for para in PARAGRAPHS:
        if para.startswith("#"):
            level = len(para) - len(para.lstrip("#"))
            html.append(f"<h{level}>{para.lstrip('# ')}</h{level}>")
        elif para.startswith("*"):
            items = "".join(f"<li>{re.sub(r'^[*] +', '', li)}</li>" for li in para.split("\n"))
            html.append(f"<ul>{items}</ul>")
        else:
            html.append(f"<p>{para}</p>")
    html.append("</body></html>")
    assert facts(convert("\n".join(html), backend, "text/html")) == expected


def test_crlf_and_indented_continuations(backend: object, expected: Counter[tuple[object, ...]]) -> None:
    assert facts(convert(rewrap(PLAIN, 50).replace("\n", "\r\n"), backend)) == expected


def test_pdf_text_layer(backend: object, expected: Counter[tuple[object, ...]], tmp_path: Path) -> None:
    pytest.importorskip("fpdf")
    from pp_graph.evaluate.pdf_print import markdown_to_pdf

    pdf = tmp_path / "example.com.pdf"
    pdf.write_bytes(markdown_to_pdf(PLAIN))
    policy = load_policy(pdf)
    assert policy.media_type == "text/plain" and policy.site == "example.com"
    assert "\n" in policy.text.split("When you create", 1)[1].split("preferences", 1)[0]  # it is hard-wrapped
    # headings come back from the font size, so the sections are read as in markdown
    assert "\n# Privacy Notice of Example Books\n" in "\n" + policy.text and "\n## Your rights\n" in policy.text
    ex = extract(policy, backend)  # type: ignore[arg-type]
    ex.check_grounding()
    assert facts(ex) == expected


def test_pdf_layout_gives_nested_items_and_paragraph_breaks(tmp_path: Path) -> None:
    """A PDF's text layer has no indentation and no blank lines: a bullet set further right is a nested item, and
    a wider gap between lines is a paragraph break (the printer indents nested items as a browser does)."""
    pytest.importorskip("fpdf")
    from pp_graph.evaluate.pdf_print import markdown_to_pdf
    from pp_graph.load.pdf import pdf_text

    text = (
        "We receive the following from partners. This paragraph is long enough to wrap across two lines of the "
        "printed page at this font size, so its lines sit closer than the paragraphs do.\n\n"
        "Account owners may see:\n\n"
        "* Usage: how you use the service\n"
        "    * Participant list: your name and email address\n"
        "* Registration details\n"
    )
    read = pdf_text(markdown_to_pdf(text), "example.com.pdf")
    lines = read.split("\n")
    assert "  • Participant list: your name and email address" in lines, read
    assert "• Usage: how you use the service" in lines and "• Registration details" in lines
    first_break = lines.index("")  # the first paragraph's two lines stay together; the lead-in starts another
    assert lines[first_break + 1] == "Account owners may see:" and "wrap across" in " ".join(lines[:first_break])
