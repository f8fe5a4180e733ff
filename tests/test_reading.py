"""How a policy is read (pp_graph.load.reading): units, markup, the map back to the text, bad input."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

from click.testing import CliRunner

from pp_graph.api import convert_text
from pp_graph.cli import main
from pp_graph.load.reading import MAX_UNIT, read
from pp_graph.load.segment import segment
from pp_graph.load.sources import policy_from_text
from pp_graph.model import Policy


def reading(text: str) -> str:
    return read(Policy("example.com", text, "example.com.md", "text/markdown")).policy.text


def test_hard_wrapped_paragraph_is_one_segment_with_exact_offsets() -> None:
    text = (
        "## Sharing\n\nWe share your email address and purchase history with our advertising partners so that "
        "they can show you\n"
        "personalized ads.\n\nWe do not sell your data.\n"
    )
    p = policy_from_text(text, "example.com")
    segs = segment(p)
    assert [s.text for s in segs] == [
        "## Sharing",
        "We share your email address and purchase history with our advertising partners so that they can show "
        "you\npersonalized ads.",
        "We do not sell your data.",
    ]
    assert all(p.text[s.start : s.end] == s.text for s in segs)
    assert segs[2].start == text.index("We do not")
    # read as one sentence: the purpose is the sharing's
    ex = convert_text(text, "example.com").extraction
    share = next(r for r in ex.results if r.practices)
    assert share.segment == ex.segments[1]
    assert [c.concept for c in share.purposes] == ["https://w3id.org/dpv#PersonalisedAdvertising"]


def test_one_line_per_paragraph_is_never_joined() -> None:
    # Lines of every length, no blank lines between: no shared wrap width, so each line stays a unit.
    lines = [
        "We collect your name.",
        "We collect your e-mail address when you sign up for an account with us and confirm it.",
        "We share your data with payment processors to take payments.",
        "We keep it for as long as your account exists and then for a further thirty days.",
    ]
    assert reading("\n".join(lines) + "\n") == "\n".join(lines) + "\n"


def test_list_items_headings_and_tables_stay_units() -> None:
    text = (
        "We use your information to:\n\n*   send you newsletters about new books that we think you\n"
        "    will like;\n*   detect fraud.\n\n| Data | Purpose |\n| --- | --- |\n| Email | Newsletters |\n"
    )
    assert reading(text).split("\n") == [
        "We use your information to:",
        "",
        "* send you newsletters about new books that we think you will like;",
        "* detect fraud.",
        "",
        "| Data | Purpose |",
        "| --- | --- |",
        "| Email | Newsletters |",
        "",
    ]


def test_a_dash_or_number_after_a_forced_break_continues_the_sentence() -> None:
    sentence = (
        "We process your personal data to (i) provide the service and take payments from you and (ii) develop, "
        "test and improve our products - when you ask us to - and to send you offers about products that you "
        "might like, and to (iii) keep our services safe for everyone who uses them."
    )
    wrapped = textwrap.fill(sentence, 44, break_on_hyphens=False)
    assert "\n(ii) develop" in wrapped and "\n- when you" in wrapped
    assert reading(wrapped + "\n") == sentence + "\n"
    # a real list stays a list
    assert reading("Two things:\n\n1. one\n2. two\n- three\n").count("\n") == 5


def test_markup_removed_and_mapped_back() -> None:
    text = (
        "You can request **access to**, _erasure of_ and [updates to](https://example.com/a_b) your data "
        "at AT&amp;T or<br>by mail.\n"
    )
    r = read(Policy("example.com", text, "example.com.md", "text/markdown"))
    assert r.policy.text == "You can request access to, erasure of and updates to your data at AT&T or by mail.\n"
    a = r.policy.text.index("access to, erasure")
    start, end = r.source_span(a, a + len("access to, erasure of"))
    assert text[start:end] == "access to**, _erasure of"
    amp = r.policy.text.index("&")
    assert text[slice(*r.source_span(amp, amp + 1))] == "&amp;"


def test_bold_title_line_keeps_its_markers() -> None:
    assert reading("**A) Information We Collect.**\n\nWe **do not** sell.\n") == (
        "**A) Information We Collect.**\n\nWe do not sell.\n"
    )


def test_setext_heading_inside_a_list_item() -> None:
    segs = segment(policy_from_text("2.  1\\. Data We Collect\n    ----------\n\nWe collect your name.\n", "a.com"))
    assert segs[0].is_heading and segs[1].heading_path == ("2. 1. Data We Collect",)


def _run_on(size: int) -> str:
    """``size`` characters of words without punctuation or line breaks (our own vocabulary)."""
    rnd = random.Random(7)
    words = [
        "the",
        "of",
        "and",
        "to",
        "a",
        "in",
        "that",
        "is",
        "for",
        "it",
        "as",
        "with",
        "be",
        "on",
        "not",
        "this",
        "are",
        "by",
        "or",
        "from",
        "at",
        "which",
        "but",
        "have",
        "an",
        "they",
        "you",
        "information",
        "service",
        "we",
        "our",
        "your",
        "may",
        "use",
        "account",
        "data",
        "settings",
        "collect",
        "share",
        "partners",
        "time",
        "days",
    ]
    out, n = [], 0
    while n < size:
        w = rnd.choice(words)
        out.append(w)
        n += len(w) + 1
    return " ".join(out)


def test_unstructured_run_converts_in_windows_with_a_warning() -> None:
    text = _run_on(200_000)
    conv = convert_text(text, "example.com")
    ex = conv.extraction
    assert conv.report.warnings and "without paragraph or sentence breaks" in conv.report.warnings[0]
    assert ex.warnings == conv.report.warnings
    assert len(ex.segments) > 200_000 // MAX_UNIT
    assert all(len(s.text) <= MAX_UNIT for s in ex.segments)
    assert ex.segments[0].start == 0 and ex.segments[-1].end == len(text)
    ex.check_grounding()


def test_cli_prints_the_warning(tmp_path: Path) -> None:
    src = tmp_path / "run.example.md"
    src.write_text(_run_on(20_000), encoding="utf-8")
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(tmp_path / "o")])
    assert res.exit_code == 0, res.output
    warning = next(line for line in res.output.splitlines() if line.startswith("warning: "))
    assert "run.example.md: a run of 20," in warning and "windows" in warning
