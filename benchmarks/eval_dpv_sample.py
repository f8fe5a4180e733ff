"""Mention precision (and sample recall) of the offline extractor on the labelled modern-corpus sample.

Converts the 40-policy corpus into a temporary folder (or reads the graphs of a folder given as argument), then
scores every sampled span the run ties to a practice. Target (issue 12): precision ≥ 0.85 for data and purposes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from _shared import corpus_files, target

from pp_graph.batch import convert_batch
from pp_graph.evaluate.dpv_sample import load_sample, score
from pp_graph.store.embedded import open_store

QUERY = """
PREFIX ppg: <urn:pp-graph:ontology#>
PREFIX pr2g: <urn:pp-analyze:core#>
SELECT DISTINCT ?site ?s ?e ?c ?kind WHERE {
  GRAPH ?policy {
    ?policy pr2g:for/pr2g:hasDomain ?site ; pr2g:hasDataPractice ?p .
    ?p ?prop ?c ; ppg:evidence ?m . ?m ppg:denotes ?c ; ppg:start ?s ; ppg:end ?e .
    VALUES (?prop ?kind) { (pr2g:data "data") (pr2g:purpose "purpose") }
  }
}"""


def predictions(folder: Path) -> dict[tuple[str, str, int, int], str]:
    rows = open_store([folder], dpv=False).query(QUERY)
    out: dict[tuple[str, str, int, int], str] = {}
    for r in sorted(rows, key=lambda r: (r["kind"], r["site"], r["s"], r["e"], r["c"])):
        out.setdefault((r["kind"], r["site"], int(r["s"]), int(r["e"])), r["c"])
    return out


def main() -> int:
    sample = load_sample()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp)
        if len(sys.argv) <= 1:
            convert_batch(corpus_files(), folder, jobs=2)
        scores = score(sample, predictions(folder))
    ok = True
    for kind, s in scores.items():
        print(
            f"{kind:8} sample {s.sample}  still predicted {s.predicted}  precision {s.precision:.3f}  "
            f"sample recall {s.recall:.3f} ({s.found}/{s.gold_mentions})"
        )
        print(
            "   most frequent wrong classes (predicted → gold):",
            ", ".join(f"{p} → {g} ×{n}" for (p, g), n in s.confusions.most_common(6)),
        )
        ok &= s.precision >= 0.85
    return target("mention precision ≥ 0.85 for data and purposes", ok)


if __name__ == "__main__":
    sys.exit(main())
