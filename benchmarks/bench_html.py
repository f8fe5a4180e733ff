"""HTML to text: which extractor keeps a policy's text and drops a page's navigation, and how fast.

Two inputs with a known source text:

- the corpus's markdown policies (``../shared/corpus/policies``) rendered to HTML with the ``markdown`` package and
  set in two page shells: one with semantic ``<nav>``/``<header>``/``<footer>`` elements, one built of ``<div>``s
  only (a menu, a cookie banner, a sidebar of related links, a footer), as saved pages and fetched pages come;
- the OPP-115 policies' sanitised HTML (``../shared/datasets/opp115``: main content only, segments split by
  ``|||``), whose source text is the segments' text.

For each extractor: word recall (the share of the source's words, counted with multiplicity, found in the output)
and precision (the share of the output's words that are the source's), the share of the source's headings that
are heading lines of the output (segments inherit practices from their headings), the share of the shell's
boilerplate lines found in the output (lower is better) and the time per page. Extractors: ``full_page``
(BeautifulSoup drops script, style, nav, header, footer and form elements; html2text writes the rest),
``main_content`` (trafilatura's main-content extraction) and ``html_text`` (the one path the loader uses: the main
content, the full page when the extractor finds nothing, keeps under 80% of the full page's words or none of its
headings).
Timings are wall-clock on a shared machine: noisy.
"""

from __future__ import annotations

import argparse
import html
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from _shared import OPP115, corpus_files, target

from pp_graph.load.html import full_page_text, html_text, main_content_text

# Lines of a page's chrome. Each is looked for in the output (case and blanks folded).
BOILERPLATE = (
    "Skip to main content",
    "Products and pricing for teams",
    "Sign in to your account",
    "Create a free account today",
    "We use cookies to improve your experience on our site",
    "Accept all cookies",
    "Manage cookie preferences",
    "Related articles you may like",
    "How to reset your password in three steps",
    "Ten tips for a faster checkout",
    "Subscribe to our newsletter for weekly updates",
    "Careers at our company",
    "Investor relations and press room",
    "All rights reserved worldwide",
)

SEMANTIC_SHELL = """<!doctype html><html><head><title>Privacy</title><style>body{{font:14px sans-serif}}</style>
<script>window.analytics = {{track: function() {{}}}};</script></head><body>
<header><a href="#main">{0}</a><nav><ul><li><a href="/p">{1}</a></li><li><a href="/s">{2}</a></li>
<li><a href="/j">{3}</a></li></ul></nav></header>
<div class="cookie-banner"><p>{4}</p><button>{5}</button><button>{6}</button></div>
<main id="main"><article>{body}</article></main>
<aside><h3>{7}</h3><ul><li><a href="/a">{8}</a></li><li><a href="/b">{9}</a></li></ul></aside>
<footer><form><label>{10}</label><input name="e"></form><ul><li>{11}</li><li>{12}</li></ul><p>{13}</p></footer>
</body></html>"""

DIV_SHELL = """<html><head><title>Privacy</title></head><body>
<div id="top"><div class="skip"><a href="#c">{0}</a></div><div class="menu"><a href="/p">{1}</a> |
<a href="/s">{2}</a> | <a href="/j">{3}</a></div></div>
<div id="consent" class="banner"><span>{4}</span> <a href="#y">{5}</a> <a href="#m">{6}</a></div>
<div id="wrap"><div id="c" class="content">{body}</div>
<div class="sidebar"><div class="title">{7}</div><div><a href="/a">{8}</a></div><div><a href="/b">{9}</a></div>
</div></div>
<div id="bottom"><div class="newsletter">{10}</div><div class="links"><a href="/c">{11}</a> <a href="/i">{12}</a>
</div><div class="copy">{13}</div></div>
</body></html>"""

EXTRACTORS: dict[str, Callable[[str], str]] = {
    "full_page": full_page_text,
    "main_content": main_content_text,
    "html_text": html_text,
}
_WORD = re.compile(r"\w+")
_TAG = re.compile(r"<[^>]+>")
_HEADING = re.compile(r"(?m)^#{1,6}\s+(.*)$")
Page = tuple[str, str, str, list[str]]  # name, page HTML, source text, source headings


def heading_key(line: str) -> str:
    return " ".join(_WORD.findall(html.unescape(_TAG.sub(" ", line)).lower()))


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in _WORD.findall(text))


def fidelity(source: str, output: str) -> tuple[int, int, int]:
    """(source words found in the output, source words, output words), words counted with multiplicity."""
    src, out = words(source), words(output)
    return sum((src & out).values()), sum(src.values()), sum(out.values())


def leaked(output: str) -> int:
    folded = " ".join(output.lower().split())
    return sum(line.lower() in folded for line in BOILERPLATE)


def corpus_pages(files: Iterable[Path]) -> list[Page]:
    """(name, page HTML, source text, source headings) for each markdown policy in each shell."""
    import markdown

    out = []
    for f in files:
        md = f.read_text(encoding="utf-8")
        body = markdown.markdown(md, extensions=["tables"])
        source = html.unescape(_TAG.sub(" ", body))
        heads = [heading_key(markdown.markdown(h)) for h in _HEADING.findall(md)]
        for shell_name, shell in (("semantic", SEMANTIC_SHELL), ("divs", DIV_SHELL)):
            out.append((f"{shell_name}:{f.name}", shell.format(*BOILERPLATE, body=body), source, heads))
    return out


def opp115_pages(folder: Path) -> list[Page]:
    out = []
    for f in sorted((folder / "sanitized_policies").glob("*.html")):
        page = f.read_text(encoding="utf-8", errors="replace")
        source = html.unescape(_TAG.sub(" ", page.replace("|||", "\n")))
        out.append((f"opp115:{f.name}", f"<html><body>{page.replace('|||', '<br>')}</body></html>", source, []))
    return out


def measure(pages: list[Page], extract: Callable[[str], str], shells: bool) -> dict[str, float]:
    found = total = produced = leaks = heads = heads_kept = 0
    worst = 1.0
    t0 = time.perf_counter()
    outputs = [extract(page) for _, page, _, _ in pages]
    seconds = time.perf_counter() - t0
    for (_, _, source, source_heads), text in zip(pages, outputs, strict=True):
        f, t, p = fidelity(source, text)
        found, total, produced = found + f, total + t, produced + p
        worst = min(worst, f / t if t else 1.0)
        leaks += leaked(text) if shells else 0
        kept = {heading_key(h) for h in _HEADING.findall(text)}
        heads, heads_kept = heads + len(source_heads), heads_kept + sum(h in kept for h in source_heads)
    return {
        "recall": found / total,
        "precision": found / produced if produced else 0.0,
        "worst_recall": worst,
        "headings": heads_kept / heads if heads else float("nan"),
        "boilerplate": leaks / (len(BOILERPLATE) * len(pages)) if shells else float("nan"),
        "ms_per_page": 1000 * seconds / len(pages),
    }


def report(title: str, pages: list[Page], shells: bool) -> dict[str, dict[str, float]]:
    print(f"\n{title}: {len(pages)} pages")
    print(
        f"{'extractor':<14}{'recall':>8}{'precision':>11}{'worst recall':>14}{'headings':>10}{'boilerplate':>13}"
        f"{'ms/page':>9}"
    )
    rows = {}
    for name, extract in EXTRACTORS.items():
        r = rows[name] = measure(pages, extract, shells)
        print(
            f"{name:<14}{r['recall']:>8.3f}{r['precision']:>11.3f}{r['worst_recall']:>14.3f}{r['headings']:>10.3f}"
            f"{r['boilerplate']:>13.3f}{r['ms_per_page']:>9.1f}"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="at most this many corpus policies (0: all)")
    args = ap.parse_args(argv)
    files = corpus_files()
    if not files:
        print("../shared/corpus/policies is not available; set PP_GRAPH_SHARED")
        return 1
    files = files[: args.limit] if args.limit else files
    shells = report("corpus policies in page shells", corpus_pages(files), shells=True)
    if (OPP115 / "sanitized_policies").is_dir():
        report("OPP-115 sanitised policies (no page shell)", opp115_pages(OPP115), shells=False)
    chosen = shells["html_text"]
    return target(
        "the loader's path keeps ≥ 95% of the policy words and ≤ 10% of the chrome lines",
        chosen["recall"] >= 0.95 and chosen["boilerplate"] <= 0.1,
    )


if __name__ == "__main__":
    sys.exit(main())
