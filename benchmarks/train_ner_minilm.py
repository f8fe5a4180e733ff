"""Fine-tune the MiniLM token classifier (benchmarks/_minilm.py, not part of the library) on the DEVELOPMENT half
of the public synthetic PII benchmark (MIT; seeded split by template, seed 13) — the held-out half is never read
here.

    nice python benchmarks/train_ner_minilm.py --cv     # 2-fold CV by template in the dev half (the CRF's folds)
    nice python benchmarks/train_ner_minilm.py --write  # train on the whole dev half, write outputs/ner-minilm/

One CPU thread. The embeddings and the lower layers are frozen, so their outputs are computed once per window and
only the top layers, the shape embedding and the head are trained and stored (fp16).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _minilm as neural  # noqa: E402
import _pii  # noqa: E402
import train_ner_crf  # noqa: E402

from pp_graph.anonymize import crf, recognizers  # noqa: E402
from pp_graph.anonymize.recognizers import SOFT_TYPES, Entity, clip, hybrid, recognize, resolve  # noqa: E402

# The types the classifier fills in the combined mode (dev CV 0.853; 0.843 when it fills organisations too).
NEURAL_FILL = SOFT_TYPES - {"ORGANIZATION"}


def _spans(text: str, hard: list[Entity], priority: int) -> list[tuple[int, int, Entity]]:
    return [(priority, -(e - s), Entity(t, s, e, "minilm")) for t, s, e in clip(neural.predict(text), hard, text)]


def _neural(text: str, taken: list[Entity]) -> list[Entity]:
    """The classifier decides the soft types; structured pattern entities stay authoritative, soft ones fill."""
    hard = [x for x in taken if x.type not in SOFT_TYPES]
    soft = [(51, -(x.end - x.start), x) for x in taken if x.type in SOFT_TYPES]
    return resolve(soft, resolve(_spans(text, hard, 50), hard))


def _hybrid_neural(text: str, taken: list[Entity], fill: frozenset[str] = NEURAL_FILL) -> list[Entity]:
    """The hybrid answer, then the classifier's spans of the ``fill`` types where nothing was found."""
    out = hybrid(text, taken)
    model = [c for c in _spans(text, [x for x in out if x.type not in SOFT_TYPES], 57) if c[2].type in fill]
    return resolve(model, out)


def _neural_digest() -> str:
    return neural.detector_digest()


def _both_digest() -> str:
    """The CRF's models and the classifier's: the combined mode runs both."""
    parts = {"hybrid": recognizers.detector_digest("hybrid"), "minilm": neural.detector_digest()}
    return "sha256:" + hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


# Registered for this script only, each with the digest of the models it runs (records name them).
recognizers.register_mode("neural", _neural, _neural_digest)
recognizers.register_mode("hybrid+neural", _hybrid_neural, _both_digest)

SETTINGS: dict[str, Any] = {
    "top_layers": 2,
    "epochs": 12,
    "batch": 16,
    "lr_layers": 1e-4,
    "lr_head": 2e-3,
    "weight_decay": 0.01,
    "seed": 13,
}


def _examples(samples: list[_pii.Sample]) -> list[tuple[neural.Window, list[int]]]:
    out = []
    for s in samples:
        toks = crf.tokens(s.text)
        y = crf.bio(toks, [x for x in s.spans if x[0] in crf.CRF_TYPES])
        for w in neural.windows(s.text, toks):
            out.append((w, [neural.LABELS.index(y[i]) for i in w.words]))
    return out


def _batch(items: list[tuple[neural.Window, list[int]]]) -> tuple[Any, Any, Any, Any]:
    import torch

    n = max(len(w.ids) for w, _ in items)
    ids = torch.zeros(len(items), n, dtype=torch.long)
    att = torch.zeros(len(items), n, dtype=torch.long)
    shp = torch.zeros(len(items), n, dtype=torch.long)
    gold = torch.full((len(items), n), -100, dtype=torch.long)
    for r, (w, y) in enumerate(items):
        ids[r, : len(w.ids)] = torch.tensor(w.ids)
        att[r, : len(w.ids)] = 1
        shp[r, : len(w.ids)] = torch.tensor(w.shapes)
        gold[r, list(w.first)] = torch.tensor(y)
    return ids, att, shp, gold


def train(samples: list[_pii.Sample], out_dir: Path, settings: dict[str, Any]) -> dict[str, Any]:
    import torch
    from safetensors.torch import save_file

    torch.set_num_threads(1)
    torch.manual_seed(settings["seed"])
    rng = random.Random(settings["seed"])
    model = neural.build(settings["top_layers"])
    torch.manual_seed(settings["seed"])
    torch.nn.init.normal_(model.head.weight, std=0.02)
    torch.nn.init.zeros_(model.head.bias)
    ex = _examples(samples)
    t0 = time.process_time()
    model.eval()
    cached = []  # the frozen part's output, once per batch of windows (sorted by length: little padding)
    ex.sort(key=lambda e: len(e[0].ids))
    with torch.no_grad():  # not inference_mode: these tensors feed the trained layers' backward pass
        for i in range(0, len(ex), settings["batch"]):
            ids, att, shp, gold = _batch(ex[i : i + settings["batch"]])
            cached.append((model.lower(ids, neural.additive_mask(att)).clone(), att, shp, gold))
    layers = [p for k, p in model.named_parameters() if p.requires_grad and k.startswith("layers.")]
    rest = [p for k, p in model.named_parameters() if p.requires_grad and not k.startswith("layers.")]
    opt = torch.optim.AdamW(
        [{"params": layers, "lr": settings["lr_layers"]}, {"params": rest, "lr": settings["lr_head"]}],
        weight_decay=settings["weight_decay"],
    )
    steps = settings["epochs"] * len(cached)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda k: max(0.0, 1 - k / steps) * min(1.0, (k + 1) / 20))
    model.train()
    model.embeddings.eval()
    for ep in range(settings["epochs"]):
        order = list(range(len(cached)))
        rng.shuffle(order)
        total = 0.0
        for b in order:
            h, att, shp, gold = cached[b]
            logits = model.upper(h, neural.additive_mask(att), shp)
            loss = torch.nn.functional.cross_entropy(logits.reshape(-1, len(neural.LABELS)), gold.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach())
        print(f"  epoch {ep + 1}: loss {total / len(cached):.4f}", flush=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / neural.MODEL_FILE
    save_file({k: v.detach().to(torch.float16).contiguous() for k, v in sorted(model.trained().items())}, str(path))
    prov = {
        "model": "MiniLM-L6-H384 token classifier (BIO), frozen embeddings and lower layers; stored: top layers, "
        "shape embedding, head (fp16)",
        "digest": neural.file_digest(path),
        "base": neural.base_info(),
        "labels": list(neural.LABELS),
        "settings": settings,
        "training_script": "benchmarks/train_ner_minilm.py",
        "train_cpu_seconds": round(time.process_time() - t0, 1),
        "training_data": {**_pii.training_data(samples), "windows": len(ex)},
    }
    (out_dir / "PROVENANCE.json").write_text(json.dumps(prov, indent=2) + "\n", encoding="utf-8")
    return prov


def cv(dev: list[_pii.Sample], modes: list[str], settings: dict[str, Any]) -> None:
    """The CRF's folds (train_ner_crf.cv): templates shuffled with the split's seed, alternate templates."""
    templates = sorted({s.template for s in dev})
    random.Random(_pii.SEED).shuffle(templates)
    folds = [set(templates[::2]), set(templates[1::2])]
    tot: dict[str, list[dict[str, dict[str, float]]]] = {m: [] for m in modes}
    orig = neural.MODEL_DIR, crf.MODEL_DIR
    for k, fold in enumerate(folds):
        tr = [s for s in dev if s.template not in fold]
        te = [s for s in dev if s.template in fold]
        with tempfile.TemporaryDirectory() as tmp:
            prov = train(tr, Path(tmp) / "minilm", settings)
            print(f"fold {k}: trained in {prov['train_cpu_seconds']} CPU s", flush=True)
            train_ner_crf.train(tr, Path(tmp) / "crf")  # the hybrid modes' CRF must not have seen this fold either
            neural.MODEL_DIR, crf.MODEL_DIR = Path(tmp) / "minilm", Path(tmp) / "crf"
            for m in modes:
                r = _pii.token_prf(te, lambda t, m=m: [(e.type, e.start, e.end) for e in recognize(t, mode=m)])
                tot[m].append(r)
                print(f"fold {k} ({len(te)} sents) {m:14} micro {r['micro']}", flush=True)
            neural.MODEL_DIR, crf.MODEL_DIR = orig
            neural.tagger.cache_clear()
    _pii.print_cv_means(tot, modes)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--modes", default="hybrid,neural,hybrid+neural")
    ap.add_argument(
        "--fill-without",
        default="",
        help="comma-separated types: also CV the combined mode filling every soft type but each ('none': all)",
    )
    ap.add_argument("--settings", default="{}", help="JSON over the default training settings")
    a = ap.parse_args()
    dev, _ = _pii.split(_pii.load())  # the held-out half is not used
    settings = {**SETTINGS, **json.loads(a.settings)}
    print(f"settings {json.dumps(settings, sort_keys=True)}")
    modes = a.modes.split(",")
    for t in filter(None, a.fill_without.split(",")):  # ablations: the combined mode without filling one type
        fill = frozenset(SOFT_TYPES - {t})
        run = functools.partial(_hybrid_neural, fill=fill)
        name = f"hybrid+neural-{t.lower()}"  # mode names are lowercase ASCII (records carry them)
        recognizers.register_mode(name, run, recognizers.mode_digest(name, _both_digest))
        modes.append(name)
    if a.cv:
        cv(dev, modes, settings)
    if a.write:
        print(json.dumps(train(dev, neural.MODEL_DIR, settings), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
