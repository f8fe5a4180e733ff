"""Mention precision (and sample recall) of the offline extractor on the labelled modern-corpus sample.

Converts the 40-policy corpus into a temporary folder (or reads the graphs of a folder given as argument), then
scores every sampled span the run ties to a practice. Target (issue 12): precision ≥ 0.85 for data and purposes, on
the whole sample, on each half of it (split by policy: rules are written against the "work" half, the "check"
half is only scored) and on the five fresh samples (each drawn and labelled blind before the next round of rules
was written; fresh4 and fresh5, 300 per kind drawn from the current rules' output, and fresh6, 150 per kind drawn
after issue 25's rounds, were scored before rules were written against them; fresh7, drawn after the DPV round that
used fresh..fresh6 as development data, fresh8, drawn after the purpose round written against fresh..fresh7, and
fresh9, drawn after the data round written against fresh..fresh8, and fresh10, 200 per kind drawn after the second
data round written against fresh..fresh9, are scored once their labelled files exist).
Exit 1 when a target is missed.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from _shared import corpus_files, target

from pp_graph.batch import convert_batch
from pp_graph.errors import InputError, PPGraphError
from pp_graph.evaluate.dpv_sample import (
    AGREEMENT,
    FRESH2,
    HALVES,
    agreement,
    labelled_fresh_samples,
    load_sample,
    score,
)
from pp_graph.store.embedded import open_store

TARGET = 0.85  # issue 12
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


def _main() -> int:
    sample = load_sample()
    groups = [("whole", sample, None), *((h, sample, h) for h in HALVES)]
    fresh2, second = load_sample(FRESH2), load_sample(AGREEMENT)
    for name, path in labelled_fresh_samples():  # fresh7 once its labelled file exists
        groups.append((name, fresh2 if path == FRESH2 else load_sample(path), None))
        if path == FRESH2:
            groups.append(("fresh2, second annotator's labels", second, None))
    for a in agreement(fresh2, second).values():
        print(f"fresh2 annotator agreement, {a.kind}: same concept {a.same}/{a.rows}, accepted {a.accepted}/{a.rows}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tmp)
        if len(sys.argv) <= 1:
            convert_batch(corpus_files(), folder, jobs=2)
        found = predictions(folder)
    if not found:  # an empty folder would score every sample as "nothing predicted": say so instead
        raise InputError(
            str(folder), "its graphs tie no data or purpose mention to a practice (convert the corpus into it)"
        )
    ok = True
    for name, mentions, half in groups:
        print(f"== {name} sample" + ("" if half else f" ({len(mentions)} mentions)"))
        for kind, s in score(mentions, found, half).items():
            print(
                f"{kind:8} sample {s.sample}  still predicted {s.predicted}  precision {s.precision:.3f}  "
                f"sample recall {s.recall:.3f} ({s.found}/{s.gold_mentions})"
            )
            print(
                "   most frequent wrong classes (predicted → gold):",
                ", ".join(f"{p} → {g} ×{n}" for (p, g), n in s.confusions.most_common(6)),
            )
            ok &= s.precision >= TARGET
    return target(f"mention precision ≥ {TARGET} for data and purposes, whole, halves, fresh samples", ok)


def main() -> int:
    try:
        return _main()
    except PPGraphError as e:
        print(f"eval_dpv_sample: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
