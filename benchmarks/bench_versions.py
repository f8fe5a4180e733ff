"""Policy versions: convert all 181 dated versions of five policies and diff every consecutive pair.

Prints the conversion and diff times, and per service the number of consecutive pairs whose text changed and
whose meaning changed (and how many of those rest only on heading-inherited practices). Target (issue 17): all
versions converted and every pair diffed in ≤ 2 minutes on 2 cores.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from _shared import SHARED, target

from pp_graph.batch import convert_batch
from pp_graph.query.corpus import Corpus
from pp_graph.versions.diff import history

VERSIONS = SHARED / "corpus" / "versions"


def main() -> int:
    if not VERSIONS.is_dir():
        print("../shared/corpus/versions is not available")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        t0 = time.perf_counter()
        rep = convert_batch([VERSIONS], out, jobs=2)
        t_conv = time.perf_counter() - t0
        failed = [f for f in rep.files if f.status == "failed"]
        converted = sum(f.status == "converted" for f in rep.files)
        print(f"converted {converted} versions in {t_conv:.1f} s ({len(failed)} failed)")
        t1 = time.perf_counter()
        corpus = Corpus.open([out])
        pairs = 0
        print(f"{'service':<14}{'versions':>9}{'pairs':>7}{'text':>6}{'meaning':>9}{'heading-only':>14}")
        for site in corpus.sites:
            points = history(corpus, site)[1:]
            pairs += len(points)
            text = sum(p.diff.old.digest != p.diff.new.digest for p in points if p.diff)
            meaning = [p for p in points if p.diff and not p.diff.empty]
            heading = sum(
                all(c.from_heading for c in p.diff.added + p.diff.removed + p.diff.changed if c.type)
                for p in meaning
                if p.diff
            )
            print(f"{site:<14}{len(points) + 1:>9}{len(points):>7}{text:>6}{len(meaning):>9}{heading:>14}")
        t_diff = time.perf_counter() - t1
        total = time.perf_counter() - t0
        print(f"diffed {pairs} consecutive pairs in {t_diff:.1f} s (store load included); total {total:.1f} s")
        return target("all versions converted and every pair diffed in ≤ 120 s", total <= 120 and not failed)


if __name__ == "__main__":
    sys.exit(main())
