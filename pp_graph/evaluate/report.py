"""Plain-text tables and JSON for evaluation results."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pp_graph.evaluate.metrics import Interval, LabelScores, SegmentScores


def _fmt(x: object) -> str:
    if isinstance(x, float):
        return "  -  " if math.isnan(x) else f"{x:.3f}"
    return str(x)


def label_table(tasks: Mapping[str, LabelScores], per_label: str | None = None) -> str:
    """One row per task (macro/micro F1, paper's f1 / f1-n / f1-e); optionally per-label rows of one task."""
    head = ("task", "macro-F1", "micro-P", "micro-R", "micro-F1", "f1", "f1-n", "f1-e")
    rows: list[tuple[str, ...]] = []
    for name, sc in tasks.items():
        s = sc.summary()
        rows.append(
            (
                name,
                *(
                    _fmt(s[k])
                    for k in ("macro_f1", "micro_precision", "micro_recall", "micro_f1", "f1", "f1_n", "f1_e")
                ),
            )
        )
    out = _table(head, rows)
    if per_label and per_label in tasks:
        sc = tasks[per_label]
        prow = [
            (lab, _fmt(p.precision), _fmt(p.recall), _fmt(p.f1), str(p.n_gold), str(p.n_pred))
            for lab, p in sorted(sc.per_label.items())
        ]
        out += "\n\n" + _table((per_label, "P", "R", "F1", "gold", "pred"), prow)
    return out


def interval_line(what: str, iv: Interval) -> str:
    """One line for a bootstrap interval: 'practice categories macro-F1, 95% interval … 0.673–0.756'."""
    return (
        f"{what}, {iv.level:.0%} bootstrap interval over {iv.units} policies "
        f"({iv.resamples} resamples): {_fmt(iv.low)}–{_fmt(iv.high)}"
    )


def segment_table(tasks: Mapping[str, SegmentScores]) -> str:
    head = ("task", "P", "R", "micro-F1", "f1", "f1-n", "f1-e", "pred", "gold")
    rows = []
    for name, sc in tasks.items():
        s = sc.summary()
        rows.append(
            (name, *(_fmt(s[k]) for k in ("precision", "recall", "micro_f1", "f1", "f1_n", "f1_e", "n_pred", "n_gold")))
        )
    return _table(head, rows)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]

    def line(r: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))

    return "\n".join([line(head), "  ".join("-" * w for w in widths), *(line(r) for r in rows)])


def _clean(x: Any) -> Any:
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_clean(v) for v in x]
    return x


def write_json(path: Path, payload: Mapping[str, Any]) -> None:
    """Write a result as JSON (NaN → null so any JSON reader accepts it)."""
    from pp_graph.outfiles import atomic_write

    atomic_write(path, json.dumps(_clean(dict(payload)), indent=2, sort_keys=True) + "\n")
