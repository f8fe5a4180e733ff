"""Drawing a fresh blind DPV mention sample and merging its annotators' labels (``tests/fixtures/dpv-sample``).

A sample is drawn from the (kind, site, start, end) spans a run ties to practices, leaving out every span of the
earlier samples, with a seeded generator: per kind ``per_kind`` spans, then all rows shuffled together and numbered.
The rows in drawn order are split between annotators, who see the mention and its context but not the prediction.
Their gold files (id, gold, alternatives, note) are merged back into a sample file in the format ``load_sample``
reads (the same columns as fresh6.tsv).
"""

from __future__ import annotations

import csv
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pp_graph.errors import DataFileError
from pp_graph.vocab.dpv import compact

Span = tuple[str, str, int, int]  # kind, site, start, end
KINDS = ("data", "purpose")
LABEL_COLUMNS = ("id", "kind", "site", "start", "end", "mention", "context")  # what an annotator sees
PREDICTION_COLUMNS = ("id", "kind", "site", "start", "end", "mention", "predicted", "context")
SAMPLE_COLUMNS = ("id", "kind", "site", "start", "end", "mention", "gold", "alternatives", "note", "context")
GOLD_COLUMNS = ("id", "gold", "alternatives")  # an annotator's file; a "note" column is kept when present


@dataclass(frozen=True)
class Drawn:
    id: str
    kind: str
    site: str
    start: int
    end: int
    mention: str
    predicted: str  # compact DPV concept the run gave (never shown to an annotator)
    context: str  # the mention marked [[…]] with about `reach` characters each side, whitespace collapsed


def earlier_spans(folder: Path) -> set[Span]:
    """Every span of every sample file in ``folder`` (any .tsv with kind, site, start and end columns)."""
    seen: set[Span] = set()
    for path in sorted(folder.glob("*.tsv")):
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                if row.get("site") and row.get("start"):
                    seen.add((row["kind"], row["site"], int(row["start"]), int(row["end"])))
    return seen


def context(text: str, start: int, end: int, reach: int = 250) -> str:
    marked = text[max(0, start - reach) : start] + "[[" + text[start:end] + "]]" + text[end : end + reach]
    return " ".join(marked.split())


def draw(
    predictions: Mapping[Span, str],
    texts: Mapping[str, str],
    seen: set[Span],
    seed: str,
    per_kind: int,
    prefix: str,
    reach: int = 250,
) -> list[Drawn]:
    """``per_kind`` spans of each kind not in ``seen``, drawn and shuffled by a generator seeded with ``seed``,
    numbered ``<prefix>000`` on in drawn order (fresh6's procedure)."""
    rng = random.Random(seed)
    picked: list[tuple[Span, str]] = []
    for kind in KINDS:
        keys = sorted(k for k in predictions if k[0] == kind and k not in seen)
        if len(keys) < per_kind:
            raise DataFileError(f"only {len(keys)} unseen {kind} spans to draw {per_kind} from")
        picked += [(k, predictions[k]) for k in rng.sample(keys, per_kind)]
    rng.shuffle(picked)
    out = []
    for i, ((kind, site, s, e), concept) in enumerate(picked):
        t = texts[site]
        out.append(Drawn(f"{prefix}{i:03d}", kind, site, s, e, t[s:e], compact(concept), context(t, s, e, reach)))
    return out


def write_tsv(path: Path, columns: Sequence[str], rows: Iterable[Mapping[str, object]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, list(columns), delimiter="\t", extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def read_drawn(path: Path) -> list[Drawn]:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    missing = [c for c in PREDICTION_COLUMNS if rows and c not in rows[0]]
    if missing:
        raise DataFileError(f"{path.name}: no column {', '.join(missing)}")
    return [
        Drawn(r["id"], r["kind"], r["site"], int(r["start"]), int(r["end"]), r["mention"], r["predicted"], r["context"])
        for r in rows
    ]


def _gold_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows or any(c not in rows[0] for c in GOLD_COLUMNS):
        raise DataFileError(f"{path}: needs the tab-separated columns {', '.join(GOLD_COLUMNS)} and at least one row")
    return rows


def merge(drawn: Sequence[Drawn], gold_files: Sequence[Path]) -> list[dict[str, str]]:
    """The sample rows (SAMPLE_COLUMNS, in drawn order) from the annotators' gold files: every drawn id labelled
    exactly once, no unknown id. Alternatives may be separated by commas or spaces; they are written comma-separated."""
    by_id = {d.id: d for d in drawn}
    labels: dict[str, dict[str, str]] = {}
    for path in gold_files:
        for row in _gold_rows(path):
            i = row["id"]
            if i not in by_id:
                raise DataFileError(f"{path}: id {i!r} was not drawn")
            if i in labels:
                raise DataFileError(f"{path}: id {i!r} is labelled twice")
            labels[i] = row
    if missing := [d.id for d in drawn if d.id not in labels]:
        raise DataFileError(f"no gold label for {len(missing)} drawn ids ({', '.join(missing[:5])}…)")
    out = []
    for d in drawn:
        g = labels[d.id]
        alternatives = ",".join(a for a in re.split(r"[,\s]+", g["alternatives"].strip()) if a)
        out.append(
            {
                "id": d.id,
                "kind": d.kind,
                "site": d.site,
                "start": str(d.start),
                "end": str(d.end),
                "mention": d.mention,
                "gold": g["gold"].strip(),
                "alternatives": alternatives,
                "note": " ".join((g.get("note") or "").split()),
                "context": d.context,
            }
        )
    return out
