"""Draw a fresh blind DPV mention sample, or merge its annotators' gold files into the sample file.

  draw_dpv_sample.py draw NAME GRAPHS LABEL_DIR [--prefix y] [--per-kind 150]
      GRAPHS: a folder of the corpus converted by the extractor to measure. Draws per kind from the spans it ties to
      practices, leaving out every span of tests/fixtures/dpv-sample/*.tsv, seeded with NAME; writes
      tests/fixtures/dpv-sample/NAME-predictions.tsv (with the predictions) and LABEL_DIR/to-label-L.tsv (the first
      half in drawn order) and to-label-M.tsv (the rest), without predictions, plus a copy of LABELLER-NOTES.md.
  draw_dpv_sample.py merge NAME GOLD_L GOLD_M
      Writes tests/fixtures/dpv-sample/NAME.tsv from the drawn rows and the annotators' gold files (id, gold,
      alternatives[, note]), which eval_dpv_sample.py then scores.
Exit 2 on bad input.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from dataclasses import asdict
from pathlib import Path

from _shared import corpus_files
from eval_dpv_sample import predictions

from pp_graph.errors import InputError, PPGraphError
from pp_graph.evaluate.dpv_draw import (
    LABEL_COLUMNS,
    PREDICTION_COLUMNS,
    SAMPLE_COLUMNS,
    draw,
    earlier_spans,
    merge,
    read_drawn,
    write_tsv,
)
from pp_graph.evaluate.dpv_sample import SAMPLE, load_sample
from pp_graph.load.sources import load_policy

FIXTURES = SAMPLE.parent


def _draw(args: argparse.Namespace) -> None:
    out = FIXTURES / f"{args.name}-predictions.tsv"
    if out.exists():
        raise InputError(str(out), "exists: a sample is drawn once (remove it to draw again)")
    found = predictions(Path(args.graphs))
    if not found:
        raise InputError(args.graphs, "its graphs tie no data or purpose mention to a practice")
    texts = {p.site: p.text for p in (load_policy(f) for f in corpus_files())}
    rows = draw(found, texts, earlier_spans(FIXTURES), args.name, args.per_kind, args.prefix)
    write_tsv(out, PREDICTION_COLUMNS, (asdict(r) for r in rows))
    label = Path(args.label_dir)
    label.mkdir(parents=True, exist_ok=True)
    half = len(rows) // 2
    for who, part in (("L", rows[:half]), ("M", rows[half:])):
        write_tsv(label / f"to-label-{who}.tsv", LABEL_COLUMNS, (asdict(r) for r in part))
    shutil.copy(FIXTURES / "LABELLER-NOTES.md", label / "LABELLER-NOTES.md")
    print(f"{len(rows)} rows drawn: {out.name}; {label}/to-label-L.tsv ({half}), to-label-M.tsv ({len(rows) - half})")


def _merge(args: argparse.Namespace) -> None:
    drawn = read_drawn(FIXTURES / f"{args.name}-predictions.tsv")
    out = FIXTURES / f"{args.name}.tsv"
    write_tsv(out, SAMPLE_COLUMNS, merge(drawn, [Path(g) for g in args.gold]))
    try:
        n = len(load_sample(out))  # every gold and alternative must be a DPV concept of the row's kind
    except PPGraphError:
        out.unlink()  # a sample file that does not load is not left for eval_dpv_sample to fail on
        raise
    print(f"{out.name}: {n} labelled rows (concepts checked against DPV)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("name")
    d.add_argument("graphs")
    d.add_argument("label_dir")
    d.add_argument("--prefix", default="y")
    d.add_argument("--per-kind", type=int, default=150)
    m = sub.add_parser("merge")
    m.add_argument("name")
    m.add_argument("gold", nargs="+")
    args = ap.parse_args(argv)
    try:
        (_draw if args.cmd == "draw" else _merge)(args)
    except (PPGraphError, OSError) as e:
        print(f"draw_dpv_sample: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
