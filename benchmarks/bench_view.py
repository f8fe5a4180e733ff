"""Report and browser-UI speed on the real 40-policy corpus, and the site list with 1,000 synthetic sites.

Prints: the report's size and build time; the server-side render time of the largest policy page (first view,
which runs its queries, and a repeat, served from the view cache); the site list with 1,000 small synthetic
sites. Targets (issue 16): the largest policy ≤ 500 ms server-side, the 1,000-site list ≤ 300 ms.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _shared import CORPUS, ROOT, corpus_files, target

from pp_graph.batch import convert_batch
from pp_graph.query.corpus import Corpus
from pp_graph.report.html import build_report
from pp_graph.serve.app import create_app

SYNTHETIC_SITES = 1000


def _ms(fn, repeat: int = 5) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times[0], statistics.median(times[1:]) if repeat > 1 else times[0]


def corpus_figures(work: Path) -> int:
    out = work / "corpus"
    t0 = time.perf_counter()
    convert_batch(corpus_files(), out, jobs=2)
    print(f"converted {len(corpus_files())} policies in {time.perf_counter() - t0:.1f} s")
    t0 = time.perf_counter()
    corpus = Corpus.open([out])
    print(f"corpus opened (store + DPV) in {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    html = build_report(corpus)
    print(
        f"report: {len(html.encode()) / 1024:.0f} KiB, {html.count('<svg')} charts, built in "
        f"{time.perf_counter() - t0:.2f} s"
    )
    client = create_app(corpus).test_client()
    big = max(corpus.policies, key=lambda s: s.characters)
    first, again = _ms(lambda: client.get(f"/site/{big.site}"))
    size = len(client.get(f"/site/{big.site}").data)
    print(
        f"largest policy {big.site}: {big.characters:,} characters, {big.total} practices, page {size / 1024:.0f} KiB;"
        f" render first {first:.0f} ms, cached median {again:.0f} ms"
    )
    return target("largest policy page ≤ 500 ms server-side on first view", first <= 500)


def synthetic_sites(work: Path) -> int:
    """1,000 copies of a small converted policy, each under its own domain."""
    src = work / "small"
    convert_batch([ROOT / "tests" / "fixtures" / "policies" / "tinyshop.example.md"], src, jobs=1)
    trig = (src / "tinyshop.example.trig").read_text(encoding="utf-8")
    many = work / "many"
    many.mkdir()
    for i in range(SYNTHETIC_SITES):
        site = f"site{i:04d}.example"
        (many / f"{site}.trig").write_text(re.sub(r"tinyshop\.example", site, trig), encoding="utf-8")
    corpus = Corpus.open([many])
    client = create_app(corpus).test_client()
    first, again = _ms(lambda: client.get("/"))
    assert client.get("/").data.count(b'class="card"') == SYNTHETIC_SITES
    print(f"site list with {SYNTHETIC_SITES} sites: first {first:.0f} ms, then median {again:.0f} ms")
    return target(f"site list with {SYNTHETIC_SITES} sites ≤ 300 ms", again <= 300)


def main() -> int:
    if not CORPUS.is_dir():
        print("../shared/corpus/policies is not available")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        return corpus_figures(work) | synthetic_sites(work)


if __name__ == "__main__":
    sys.exit(main())
