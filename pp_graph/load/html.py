"""HTML to text: the one path policy files and fetched pages both take (``html_text``).

``main_content_text`` keeps a page's main content (trafilatura drops navigation, menus, cookie banners, sidebars
and footers, whatever elements they are built of); ``full_page_text`` converts the whole page less its script,
style, nav, header, footer and form elements (BeautifulSoup and html2text). ``html_text`` takes the main content
and falls back to the full page when the extractor finds none. ``benchmarks/bench_html.py`` measured the choice.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")


def full_page_text(html: str) -> str:
    """HTML → markdown-like text: headings and list items kept; scripts, styles, navigation dropped."""
    import html2text
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "noscript", "nav", "header", "footer", "template", "svg", "form"]):
        tag.decompose()
    conv = html2text.HTML2Text()
    conv.body_width = 0  # one paragraph = one line, as segmentation expects
    conv.ignore_images = True
    conv.ignore_links = True
    conv.ignore_emphasis = True
    text = conv.handle(str(soup))
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def main_content_text(html: str) -> str:
    """The page's main content as markdown ("" when the extractor finds none)."""
    import trafilatura

    text = trafilatura.extract(
        html,
        output_format="markdown",
        include_links=False,
        include_images=False,
        include_tables=True,
        include_comments=False,
        favor_recall=True,
        deduplicate=False,
    )
    return text.strip() + "\n" if text and text.strip() else ""


# The extractor drops a page's chrome (5% or less of a policy page's words in the benchmark's shells) but at times
# whole sections of the policy too (OPP-115: up to 48% of its words). Under this share of the full page's words,
# the main content is taken to have lost policy text and the full page is used instead.
MIN_MAIN_SHARE = 0.8
_HEADING = re.compile(r"(?m)^#{1,6} ")


def html_text(html: str) -> str:
    """The page's main content; the full page when the extractor finds none, keeps under ``MIN_MAIN_SHARE`` of the
    full page's words (it dropped sections of the policy, not just the page's chrome) or keeps none of its headings
    (on a short page it gives plain text, and segments would lose their heading paths)."""
    main = main_content_text(html)
    full = full_page_text(html)
    if len(_WORD.findall(main)) < MIN_MAIN_SHARE * len(_WORD.findall(full)):
        return full
    if _HEADING.search(full) and not _HEADING.search(main):
        return full
    return main
