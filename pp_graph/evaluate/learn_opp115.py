"""Train the learned layer on OPP-115: fit on train minus dev, choose per-label mode and threshold on dev, refit.

Units are pp-graph segments (lines); a line takes the gold labels of the OPP-115 segment it lies in. A segment's
score for a label is the highest score of its lines, as an OPP-115 prediction is the union over its lines. For each
label the dev subset decides between the rules alone, rules plus classifier, or the classifier alone (with the rule
decisions among its features), and the threshold. The test split is never read here.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pp_graph.evaluate.metrics import name_labels
from pp_graph.evaluate.opp115 import (
    DATA_ATTRIBUTE,
    DEV_FILE,
    PURPOSE_ATTRIBUTE,
    SPLIT_FILE,
    Annotation,
    Mapping,
    OppPolicy,
    load_corpus,
    load_dev,
    load_mapping,
    opp_segment_of,
    predictions,
    site_for,
    split_ids,
)
from pp_graph.extract.learned.features import Unit, units
from pp_graph.extract.learned.model import Label, LearnedModel
from pp_graph.model import Policy
from pp_graph.vocab.dpv import expand

# A label with fewer gold segments on dev keeps the rules: a threshold fitted to one or two segments is noise
# (with one dev segment of survey data the classifier was let loose at a threshold of 0.075).
MIN_DEV_SUPPORT = 5
THRESHOLDS = tuple(round(0.05 + 0.025 * i, 3) for i in range(37))  # 0.05 … 0.95


def labels_of(mapping: Mapping) -> list[Label]:
    """The classifier's labels: the scored OPP-115 categories, data labels and purpose labels."""
    out = [
        Label(cat, "practice", max(t.value for t in types), tuple(sorted(t.value for t in types)))
        for cat, types in sorted(mapping.practice_types().items())
    ]
    for attr, kind in ((DATA_ATTRIBUTE, "data"), (PURPOSE_ATTRIBUTE, "purpose")):
        for name, concepts in mapping.labels(attr).items():
            out.append(Label(name, kind, expand(name.split()[0]), tuple(sorted(concepts))))
    return out


@dataclass
class Prepared:
    """One policy run through the rules: its units, the OPP-115 segment of each, gold and rule labels per segment."""

    policy_id: str
    units: list[Unit]
    unit_segment: list[int]  # -1: the line lies between OPP-115 segments
    gold: list[set[str]]
    rules: list[set[str]]


def _attribute_labels(mapping: Mapping, attr: str) -> Callable[[Annotation], list[str]]:
    def labs(a: Annotation) -> list[str]:
        return [t for k, v in a.values if k == attr and (t := mapping.target(k, v)) is not None]

    return labs


def prepare(pol: OppPolicy, mapping: Mapping, labels: list[Label], backend: Any) -> Prepared:
    from pp_graph.extract.pipeline import extract
    from pp_graph.vocab.dpv import vocabulary

    text, bounds = pol.text_and_offsets()
    ex = extract(Policy(site_for(pol), text, f"opp115-{pol.policy_id}.txt", "text/plain"), backend)
    seg_of = [opp_segment_of(bounds, r.segment.start) for r in ex.results]
    cats = mapping.practice_types()
    g_cat = pol.gold(lambda a: [a.category.lower()] if a.category.lower() in cats else [])
    gold = [set(g) for g in g_cat]
    for attr in (DATA_ATTRIBUTE, PURPOSE_ATTRIBUTE):
        for k, labs in enumerate(pol.gold(_attribute_labels(mapping, attr))):
            gold[k] |= labs
    anc = vocabulary().ancestors
    data_labels, purpose_labels = mapping.labels(DATA_ATTRIBUTE), mapping.labels(PURPOSE_ATTRIBUTE)
    rules: list[set[str]] = []
    for pr in predictions(pol, ex, bounds):
        found = {c for c, types in cats.items() if types & pr["practices"]}
        found |= name_labels(sorted(pr["data"]), data_labels, anc, False)[0]
        found |= name_labels(sorted(pr["purposes"]), purpose_labels, anc, False)[0]
        rules.append(found)
    return Prepared(pol.policy_id, units(ex), [-1 if k is None else k for k in seg_of], gold, rules)


def _targets(preps: list[Prepared], labels: list[Label]) -> tuple[list[Unit], np.ndarray]:
    xs: list[Unit] = []
    rows: list[list[int]] = []
    for p in preps:
        for u, k in zip(p.units, p.unit_segment, strict=True):
            if k >= 0:
                xs.append(u)
                rows.append([int(lab.name in p.gold[k]) for lab in labels])
    return xs, np.asarray(rows, dtype=np.int64).reshape(len(rows), len(labels))


def segment_scores(model: LearnedModel, p: Prepared) -> np.ndarray:
    """(OPP-115 segments, labels): the highest line score inside each segment (0 for a segment with no line)."""
    out = np.zeros((len(p.gold), len(model.labels)))
    s = model.scores(p.units)
    for i, k in enumerate(p.unit_segment):
        if k >= 0:
            out[k] = np.maximum(out[k], s[i])
    return out


def _f1(tp: int, fp: int, fn: int) -> float:
    return 0.0 if tp == 0 else 2 * tp / (2 * tp + fp + fn)


def choose(model: LearnedModel, dev: list[Prepared]) -> dict[str, dict[str, Any]]:
    """Per label, the mode and threshold with the best F1 on dev (ties: the simpler mode, the higher threshold).

    Labels with fewer than MIN_DEV_SUPPORT gold segments on dev keep the rules."""
    scores = np.vstack([segment_scores(model, p) for p in dev])
    gold = [g for p in dev for g in p.gold]
    rules = [r for p in dev for r in p.rules]
    out: dict[str, dict[str, Any]] = {}
    for j, lab in enumerate(model.labels):
        g = np.array([lab.name in s for s in gold])
        r = np.array([lab.name in s for s in rules])
        best = ("rules", 0.5, _f1(int((g & r).sum()), int((~g & r).sum()), int((g & ~r).sum())))
        for mode in ("union", "learned") if g.sum() >= MIN_DEV_SUPPORT else ():
            for t in sorted(THRESHOLDS, reverse=True):
                pred = (scores[:, j] >= t) | (r if mode == "union" else False)
                f = _f1(int((g & pred).sum()), int((~g & pred).sum()), int((g & ~pred).sum()))
                if f > best[2] + 1e-9:
                    best = (mode, t, f)
        out[lab.name] = {
            "mode": best[0],
            "threshold": best[1],
            "dev_f1": round(best[2], 4),
            "dev_support": int(g.sum()),
        }
    return out


def data_digest(root: Path, policy_ids: set[str]) -> str:
    """sha256 over the policy and annotation files used, in name order (which data the model saw)."""
    h = hashlib.sha256()
    for sub in ("sanitized_policies", "annotations"):
        for f in sorted((root / sub).iterdir()):
            if f.name.partition("_")[0] in policy_ids:
                h.update(f"{sub}/{f.name}\0".encode())
                h.update(hashlib.sha256(f.read_bytes()).digest())
    return "sha256:" + h.hexdigest()


def train_opp115(
    root: Path,
    out_dir: Path,
    refit: bool = True,
    split_file: Path = SPLIT_FILE,
    dev_file: Path = DEV_FILE,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Train on the OPP-115 train split (choices on its dev subset), write the model folder, return the manifest."""
    from pp_graph.extract.registry import get_backend

    t0 = time.perf_counter()
    mapping = load_mapping()
    labels = labels_of(mapping)
    train_ids = split_ids("train", split_file, dev_file)
    dev_ids = set(load_dev(dev_file, split_file))
    backend = get_backend("offline")
    preps = []
    for pol in load_corpus(root, train_ids):
        if progress:
            progress(pol.policy_id)
        preps.append(prepare(pol, mapping, labels, backend))
    fit = [p for p in preps if p.policy_id not in dev_ids]
    dev = [p for p in preps if p.policy_id in dev_ids]
    model = LearnedModel.fit(*_targets(fit, labels), labels)
    choices = choose(model, dev)
    if refit:  # the thresholds stay those chosen on dev; the weights use all 65 train policies
        model = LearnedModel.fit(*_targets(preps, labels), labels)
    model = model.with_choices({k: (v["mode"], v["threshold"]) for k, v in choices.items()})
    meta = {
        "dataset": {"name": "opp115", "digest": data_digest(root, train_ids), "policies": len(preps)},
        "split": {
            "train": len(train_ids),
            "dev": sorted(dev_ids, key=int),
            "fit_on": "train" if refit else "train minus dev",
            "choices_on": "dev",
        },
        "dev_choices": choices,
        "train_seconds": round(time.perf_counter() - t0, 1),
    }
    return model.save(out_dir, meta)
