"""The public synthetic PII benchmark: loading, the seeded dev/test split by template, token-level P/R/F1."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.anonymize.crf import file_digest

DATASET = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets" / "pii-synth" / "synth_dataset_v2.json"
SEED = 13
# The benchmark's labels → ours (the same names without the suffixes).
TYPE_MAP = {"EMAIL_ADDRESS": "EMAIL_ADDRESS", "ZIP_CODE": "ZIP_CODE", "DOMAIN_NAME": "DOMAIN_NAME"}
TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Sample:
    text: str
    spans: tuple[tuple[str, int, int], ...]  # (type, start, end)
    template: int


def load(path: Path | None = None) -> list[Sample]:
    p = path or DATASET
    if not p.is_file():  # a clear message, not a traceback, where the shared datasets are not beside the checkout
        raise SystemExit(f"{p}: no such file; the anonymizer benchmarks read the synthetic PII dataset from there")
    rows = json.loads(p.read_text(encoding="utf-8"))
    return [
        Sample(
            r["full_text"],
            tuple((s["entity_type"], s["start_position"], s["end_position"]) for s in r["spans"]),
            int(r.get("template_id", -1)),
        )
        for r in rows
    ]


def split(samples: list[Sample], seed: int = SEED) -> tuple[list[Sample], list[Sample]]:
    """Half the templates (seeded) for development, the other half held out: no template is in both."""
    templates = sorted({s.template for s in samples})
    random.Random(seed).shuffle(templates)
    dev = set(templates[: len(templates) // 2])
    return [s for s in samples if s.template in dev], [s for s in samples if s.template not in dev]


def _labels(text: str, spans: Iterable[tuple[str, int, int]]) -> list[str]:
    out = []
    spans = list(spans)
    for m in TOKEN.finditer(text):
        lab = "O"
        for t, s, e in spans:
            if m.start() < e and m.end() > s:
                lab = t
                break
        out.append(lab)
    return out


def token_prf(
    samples: list[Sample], predict: Callable[[str], list[tuple[str, int, int]]], types: Iterable[str] | None = None
) -> dict[str, dict[str, float]]:
    """Token-level precision/recall/F1 per type and micro over all (the benchmark's own evaluation unit)."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    keep = set(types) if types is not None else None
    for s in samples:
        gold = _labels(s.text, [x for x in s.spans if keep is None or x[0] in keep])
        pred = _labels(s.text, [x for x in predict(s.text) if keep is None or x[0] in keep])
        for g, p in zip(gold, pred, strict=True):
            if g != "O" and g == p:
                tp[g] += 1
            else:
                if p != "O":
                    fp[p] += 1
                if g != "O":
                    fn[g] += 1
    out: dict[str, dict[str, float]] = {}
    for t in sorted(set(tp) | set(fp) | set(fn)):
        out[t] = _prf(tp[t], fp[t], fn[t])
    out["micro"] = _prf(sum(tp.values()), sum(fp.values()), sum(fn.values()))
    return out


def _prf(tp: int, fp: int, fn: int) -> dict[str, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"P": round(p, 3), "R": round(r, 3), "F1": round(f, 3), "support": tp + fn}


def print_cv_means(folds: dict[str, list[dict[str, Any]]], modes: Iterable[str]) -> None:
    """Per mode, each type's F1 averaged over the two CV folds (what train_ner_crf and train_ner_minilm --cv print)."""
    for m in modes:
        types = sorted({t for r in folds[m] for t in r})
        f1 = {t: round(sum(r.get(t, {}).get("F1", 0.0) for r in folds[m]) / 2, 3) for t in types}
        print(f"CV mean F1 {m}: {f1}")


def training_data(samples: list[Sample]) -> dict[str, Any]:
    """What a model's PROVENANCE.json says of the sentences it was trained on."""
    return {
        "name": "pii-synth (synth_dataset_v2.json, MIT, Microsoft Corporation)",
        "file_digest": file_digest(DATASET),
        "part": f"development half of the seeded split by template (seed {SEED})",
        "sentences": len(samples),
        "templates": len({s.template for s in samples}),
    }
