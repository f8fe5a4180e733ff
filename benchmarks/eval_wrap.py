"""Wrap agreement (make eval): the corpus as published vs re-wrapped at 60, 72 and 100 columns.

Each policy is re-wrapped (paragraph lines and list items; headings, tables and list markers kept, see
pp_graph.evaluate.wrap), both versions are converted with the offline backend, and their statements (practice
type, polarity, data class) are matched as multisets per policy. Target: statement F1 >= 0.95 at each width.
Also prints the statement counts and the PDF figure: five corpus policies printed to PDF (fpdf2), read back with
the project's PDF loader (pypdf), against their markdown. Exit 1 when a target is missed.

    python benchmarks/eval_wrap.py [--widths 60,72,100] [--sites github.com,zoom.us] [--pdf-sites github.com]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from _shared import corpus_files, target

from pp_graph.evaluate.pdf_print import markdown_to_pdf
from pp_graph.evaluate.wrap import Statement, agreement, rewrap, statements
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.load.sources import load_policy, policy_from_text
from pp_graph.model import Policy

TARGET = 0.95
PDF_SITES = ("bbc.co.uk", "github.com", "mozilla.org", "spotify.com", "zoom.us")  # the five


def _facts(policy: Policy, backend: object) -> Counter[Statement]:
    return statements(extract(policy, backend))  # type: ignore[arg-type]


def _micro(pairs: list[tuple[Counter[Statement], Counter[Statement]]]) -> tuple[float, float, float, int, int]:
    both = sum(sum((a & b).values()) for a, b in pairs)
    na = sum(sum(a.values()) for a, _ in pairs)
    nb = sum(sum(b.values()) for _, b in pairs)
    p, r = (both / nb if nb else 1.0), (both / na if na else 1.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0), na, nb


def wrap_figures(files: list[Path], widths: list[int]) -> int:
    backend = get_backend("offline")
    published = {}
    t0 = time.perf_counter()
    for f in files:
        published[f] = (load_policy(f), _facts(load_policy(f), backend))
    failed = 0
    print(f"{len(files)} policies; statements as published: {sum(sum(c.values()) for _, c in published.values()):,}")
    for w in widths:
        pairs = []
        worst: list[tuple[float, str]] = []
        for pol, gold in published.values():
            wrapped = policy_from_text(rewrap(pol.text, w), pol.site, pol.source_name, pol.media_type)
            got = _facts(wrapped, backend)
            pairs.append((gold, got))
            worst.append((agreement(gold, got)[2], pol.site))
        p, r, f1, na, nb = _micro(pairs)
        low = ", ".join(f"{s} {x:.3f}" for x, s in sorted(worst)[:3])
        print(f"width {w:3d}: statements {na:,} vs {nb:,}  P {p:.3f}  R {r:.3f}  F1 {f1:.3f}  (lowest: {low})")
        failed |= target(f"statement F1 at {w} columns >= {TARGET}", f1 >= TARGET)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return failed


def pdf_figure(paths: list[Path]) -> int:
    """Each policy printed to PDF and read back: the share of its markdown's statements found again (pooled)."""
    backend = get_backend("offline")
    pairs = []
    for path in paths:
        pol = load_policy(path)
        gold = _facts(pol, backend)
        with tempfile.TemporaryDirectory() as tmp:
            pdf = Path(tmp) / f"{pol.site}.pdf"
            pdf.write_bytes(markdown_to_pdf(pol.text))
            got = _facts(load_policy(pdf), backend)
        p, r, _ = agreement(gold, got)
        n_gold, n_got = sum(gold.values()), sum(got.values())
        print(f"PDF {pol.site}: statements {n_gold:,} vs {n_got:,}; found again {r:.3f}, P {p:.3f}")
        pairs.append((gold, got))
    p, r, _, na, nb = _micro(pairs)
    print(
        f"PDF, {len(pairs)} policies: statements {na:,} (markdown) vs {nb:,} (PDF text); found again {r:.3f}, P {p:.3f}"
    )
    return target(f"PDF keeps >= {TARGET} of the markdown's statements", r >= TARGET)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--widths", default="60,72,100")
    ap.add_argument("--sites", help="comma-separated sites (default: the whole corpus)")
    ap.add_argument(
        "--pdf-sites", default=",".join(PDF_SITES), help="the policies printed to PDF, comma-separated ('' to skip)"
    )
    args = ap.parse_args()
    files = corpus_files()
    if not files:
        print("corpus not found; skipped")
        return 0
    if args.sites:
        wanted = set(args.sites.split(","))
        files = [f for f in files if f.name.rsplit(".", 1)[0] in wanted]
    failed = wrap_figures(files, [int(w) for w in args.widths.split(",")])
    pdf = [f for f in corpus_files() if f.name.rsplit(".", 1)[0] in args.pdf_sites.split(",")]
    if pdf:
        failed |= pdf_figure(pdf)
    return failed


if __name__ == "__main__":
    sys.exit(main())
