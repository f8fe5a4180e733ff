"""Train the learned layer on OPP-115: choose per-label mode and threshold, then fit on all of train.

Units are pp-graph segments (lines); a line takes the gold labels of the OPP-115 segment it lies in. A segment's
score for a label is the highest score of its lines, as an OPP-115 prediction is the union over its lines. For each
label the choice is between the rules alone, rules plus classifier, or the classifier alone (with the rule
decisions among its features), and the threshold.

Where each kind's choice is made (``CHOOSE_ON``, recorded per label in the manifest):
- practice categories: on the fixed development subset (``data/opp115-dev.tsv``), scored by a model fitted on the
  rest of train (the ``fit`` split): four labels with 12-191 gold segments each there.
- data and purpose labels: on out-of-fold scores of grouped k-fold CV over all of train (folds by policy). With
  21 labels, many with fewer than 10 gold segments on dev, choices made on half of dev and scored on the other
  half came out below those made on CV (dev: data 0.49-0.53 vs 0.551, purposes 0.62-0.69 vs 0.699;
  practice categories too, 0.81-0.86 vs 0.861, but the practice choice is made on dev by design: the fit split
  is the text the rules were written on).
``--choose-on dev`` or ``cv`` makes every choice there. Either way the weights are then fitted on all of train
and the dev subset is reported (scored by the model fitted without it; in sample, and marked ``in_sample``, for
the labels whose choice was made on it). The test split is never read here.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pp_graph.errors import InputError
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
from pp_graph.model import Policy, PracticeType
from pp_graph.vocab.dpv import expand

# A label with fewer gold segments (out of fold) keeps the rules: a threshold fitted to a handful of segments is noise.
MIN_SUPPORT = 10
MIN_DEV_SUPPORT = 5  # half that floor on the dev subset, which holds under a third of train's policies
THRESHOLDS = tuple(round(0.05 + 0.01 * i, 3) for i in range(91))  # 0.05 … 0.95 (SVM margins squash to ~0.2-0.8)
FOLDS = 5
SOURCES = ("dev", "cv")
FIT_ON = ("train", "fit")  # the weights: all of train, or train without dev (so that dev figures are out of sample)
CHOOSE_ON = {"practice": "dev", "data": "cv", "purpose": "cv"}  # by label kind (see the module docstring)


def labels_of(mapping: Mapping) -> list[Label]:
    """The classifier's labels: the scored OPP-115 categories, data labels and purpose labels."""
    # the class a label infers is a practice type (STORAGE_PLACE is a scored kind only, never written in a graph)
    types = {t.value for t in PracticeType}
    out = [
        Label(cat, "practice", max(kinds & types), tuple(sorted(kinds)))
        for cat, kinds in sorted(mapping.practice_types().items())
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


def targets(preps: list[Prepared], labels: list[Label]) -> tuple[list[Unit], np.ndarray]:
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


def _columns(labels: list[Label], preps: list[Prepared]) -> tuple[np.ndarray, np.ndarray]:
    """(segments, labels) booleans: gold, and what the rules predict."""
    gold = np.array([[lab.name in g for lab in labels] for p in preps for g in p.gold], dtype=bool)
    rules = np.array([[lab.name in r for lab in labels] for p in preps for r in p.rules], dtype=bool)
    return gold.reshape(-1, len(labels)), rules.reshape(-1, len(labels))


def _mode_f1(g: np.ndarray, r: np.ndarray, s: np.ndarray, mode: str, t: float) -> float:
    pred = r if mode == "rules" else (s >= t) | (r if mode == "union" else False)
    return _f1(int((g & pred).sum()), int((~g & pred).sum()), int((g & ~pred).sum()))


def choose(
    labels: list[Label], preps: list[Prepared], scores: np.ndarray, source: str = "cv", min_support: int = MIN_SUPPORT
) -> dict[str, dict[str, Any]]:
    """Per label, the mode and threshold with the best F1 on ``scores`` (segments of ``preps``, never seen by the
    model that scored them; ``source`` names them in the result).

    Ties go to the simpler mode and the higher threshold; labels with fewer than ``min_support`` gold segments
    keep the rules."""
    gold, rules = _columns(labels, preps)
    out: dict[str, dict[str, Any]] = {}
    for j, lab in enumerate(labels):
        g, r, s = gold[:, j], rules[:, j], scores[:, j]
        best = ("rules", 0.5, _mode_f1(g, r, s, "rules", 0.5))
        for mode in ("union", "learned") if g.sum() >= min_support else ():
            for t in sorted(THRESHOLDS, reverse=True):
                f = _mode_f1(g, r, s, mode, t)
                if f > best[2] + 1e-9:
                    best = (mode, t, f)
        out[lab.name] = {
            "mode": best[0],
            "threshold": best[1],
            "chosen_on": source,
            "f1": round(best[2], 4),
            "rules_f1": round(_mode_f1(g, r, s, "rules", 0.5), 4),
            "support": int(g.sum()),
        }
    return out


def report_on(
    labels: list[Label], preps: list[Prepared], scores: np.ndarray, choices: dict[str, dict[str, Any]], source: str
) -> dict[str, dict[str, Any]]:
    """Per label, F1 of the chosen configuration and of the rules alone on ``source``'s segments and scores;
    ``in_sample`` when the label's mode and threshold were chosen on those same scores."""
    gold, rules = _columns(labels, preps)
    out = {}
    for j, lab in enumerate(labels):
        c = choices[lab.name]
        g, r, s = gold[:, j], rules[:, j], scores[:, j]
        out[lab.name] = {
            "f1": round(_mode_f1(g, r, s, c["mode"], c["threshold"]), 4),
            "rules_f1": round(_mode_f1(g, r, s, "rules", 0.5), 4),
            "support": int(g.sum()),
            "in_sample": c["chosen_on"] == source,
        }
    return out


def fold_of(policy_ids: list[str], folds: int = FOLDS) -> dict[str, int]:
    """Fixed fold per policy: policies in sha256 order dealt round-robin (folds by policy, never by line)."""
    order = sorted(policy_ids, key=lambda p: hashlib.sha256(f"opp115-fold:{p}".encode()).hexdigest())
    return {p: i % folds for i, p in enumerate(order)}


def out_of_fold(preps: list[Prepared], labels: list[Label], folds: int = FOLDS) -> np.ndarray:
    """(all segments of ``preps`` in order, labels): each policy scored by a model fitted without its fold."""
    fold = fold_of([p.policy_id for p in preps], folds)
    parts: dict[str, np.ndarray] = {}
    for k in sorted(set(fold.values())):
        held = [p for p in preps if fold[p.policy_id] == k]
        model = LearnedModel.fit(*targets([p for p in preps if fold[p.policy_id] != k], labels), labels)
        parts.update({p.policy_id: segment_scores(model, p) for p in held})
    return np.vstack([parts[p.policy_id] for p in preps]).reshape(-1, len(labels))


def data_digest(root: Path, policy_ids: set[str]) -> str:
    """sha256 over the policy and annotation files used, in name order (which data the model saw)."""
    h = hashlib.sha256()
    for sub in ("sanitized_policies", "annotations"):
        for f in sorted((root / sub).iterdir()):
            if f.name.partition("_")[0] in policy_ids:
                h.update(f"{sub}/{f.name}\0".encode())
                h.update(hashlib.sha256(f.read_bytes()).digest())
    return "sha256:" + h.hexdigest()


def dev_scores(
    preps: list[Prepared], labels: list[Label], dev_ids: set[str], dev_file: Path = DEV_FILE
) -> tuple[list[Prepared], np.ndarray]:
    """The dev subset's policies and their segment scores from a model fitted on the rest of train only."""
    dev = [p for p in preps if p.policy_id in dev_ids]
    rest = [p for p in preps if p.policy_id not in dev_ids]
    if not dev or not rest:
        # Run under every --choose-on (the dev report is always made): the input at fault is the dev file.
        raise InputError(
            f"dev subset {dev_file.name}",
            f"{len(dev)} of the train policies are in it and {len(rest)} are not; both must hold policies",
        )
    model = LearnedModel.fit(*targets(rest, labels), labels)
    return dev, np.vstack([segment_scores(model, p) for p in dev]).reshape(-1, len(labels))


def choose_on(spec: str | dict[str, str] | None) -> dict[str, str]:
    """Label kind → where its choice is made: CHOOSE_ON, or one source for every kind."""
    if spec is None:
        return dict(CHOOSE_ON)
    where = dict.fromkeys(CHOOSE_ON, spec) if isinstance(spec, str) else dict(spec)
    bad = {k: v for k, v in where.items() if v not in SOURCES or k not in CHOOSE_ON}
    if bad or set(where) != set(CHOOSE_ON):
        raise InputError("--choose-on", f"expected one of {', '.join(SOURCES)} for each of {', '.join(CHOOSE_ON)}")
    return where


def make_choices(
    preps: list[Prepared], labels: list[Label], dev_ids: set[str], where: dict[str, str], folds: int, dev_file: Path
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], dict[str, dict[str, Any]] | None]:
    """Per label, its choice made where ``where`` says for its kind; the dev report (always) and the CV report
    (when any kind is chosen on CV, which costs ``folds`` more fits)."""
    dev, dev_s = dev_scores(preps, labels, dev_ids, dev_file)
    picked = {"dev": choose(labels, dev, dev_s, "dev", MIN_DEV_SUPPORT)}
    oof = None
    if "cv" in where.values():
        oof = out_of_fold(preps, labels, folds)
        picked["cv"] = choose(labels, preps, oof, "cv", MIN_SUPPORT)
    choices = {lab.name: picked[where[lab.kind]][lab.name] for lab in labels}
    cv_report = None if oof is None else report_on(labels, preps, oof, choices, "cv")
    return choices, report_on(labels, dev, dev_s, choices, "dev"), cv_report


def train_opp115(
    root: Path,
    out_dir: Path,
    split_file: Path = SPLIT_FILE,
    dev_file: Path = DEV_FILE,
    progress: Callable[[str], None] | None = None,
    folds: int = FOLDS,
    choose_where: str | dict[str, str] | None = None,
    fit_on: str = "train",
) -> dict[str, Any]:
    """Train on the OPP-115 train split (each kind's choices where ``choose_where`` says, default CHOOSE_ON),
    fit the weights on ``fit_on`` (all of train, or train without dev) and write the model folder."""
    from pp_graph.extract.registry import get_backend

    if fit_on not in FIT_ON:
        raise InputError("--fit-on", f"unknown {fit_on!r}; use one of {', '.join(FIT_ON)}")
    t0 = time.perf_counter()
    where = choose_on(choose_where)
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
    try:
        choices, dev_report, cv_report = make_choices(preps, labels, dev_ids, where, folds, dev_file)
        fitted = preps if fit_on == "train" else [p for p in preps if p.policy_id not in dev_ids]
        model = LearnedModel.fit(*targets(fitted, labels), labels)
    except ValueError as e:  # scikit-learn: no word in enough segments to make features from (empty or binary texts)
        raise InputError(str(root), f"too little text to train on ({len(preps)} policies): {e}") from e
    model = model.with_choices({k: (v["mode"], v["threshold"]) for k, v in choices.items()})
    cv_source = {} if cv_report is None else {"cv": f"out-of-fold scores, {folds}-fold CV grouped by policy over train"}
    meta = {
        "dataset": {"name": "opp115", "digest": data_digest(root, train_ids), "policies": len(preps)},
        "split": {
            "train": len(train_ids),
            "dev": sorted(dev_ids, key=int),
            "fit_on": fit_on,
            "choose_on": where,
            # The fold count only where CV ran: without it --folds changes nothing, so neither does the digest.
            "sources": {"dev": "dev subset scored by a model fitted on the rest of train"} | cv_source,
            "folds": folds if cv_report is not None else None,
        },
        "choices": choices,
        "dev_report": dev_report,
        "cv_report": cv_report,
        "train_seconds": round(time.perf_counter() - t0, 1),
    }
    return model.save(out_dir, meta)
