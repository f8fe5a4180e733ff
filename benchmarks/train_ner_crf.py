"""Train the anonymizer's sequence model (pp_graph.anonymize.crf) on the DEVELOPMENT half of the public synthetic
PII benchmark (MIT; seeded split by template, seed 13) — the held-out half is never read here.

    python benchmarks/train_ner_crf.py --cv       # 2-fold cross-validation by template inside the dev half
                                                  # (per fold micro, per-type F1 means, pooled per-type P/R/F1)
    python benchmarks/train_ner_crf.py --write    # train on the whole dev half, write data/anonymize/ner-crf/
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _pii  # noqa: E402

from pp_graph.anonymize import crf  # noqa: E402
from pp_graph.anonymize.recognizers import ner_entities, recognize, rule_entities  # noqa: E402

NER_FEATURES = True  # the spaCy pipeline's labels are features

PARAMS = {"c1": 1.0, "c2": 0.05, "max_iterations": 150, "feature.possible_transitions": True}


def _xy(samples: list[_pii.Sample]) -> list[tuple[list[dict[str, Any]], list[str]]]:
    out = []
    for s in samples:
        toks = crf.tokens(s.text)
        rules = [(x.type, x.start, x.end) for x in rule_entities(s.text)]
        gold = [x for x in s.spans if x[0] in crf.CRF_TYPES]
        ner = crf.rule_labels(toks, [(x.type, x.start, x.end) for x in ner_entities(s.text)]) if NER_FEATURES else None
        rule, y = crf.rule_labels(toks, rules), crf.bio(toks, gold)
        for a, b in crf.sentences(s.text, toks):  # one sequence per sentence, as the model is applied
            out.append((crf.features(s.text, toks[a:b], rule[a:b], ner[a:b] if ner else None), y[a:b]))
    return out


def train(samples: list[_pii.Sample], out_dir: Path, params: dict[str, Any] | None = None) -> dict[str, Any]:
    import pycrfsuite

    tr = pycrfsuite.Trainer(verbose=False)
    for x, y in _xy(samples):
        tr.append(x, y)
    p = {**PARAMS, **(params or {})}
    tr.set_params(p)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / crf.MODEL_FILE
    tr.train(str(path))
    prov = {
        "model": "linear-chain CRF (python-crfsuite, L-BFGS)",
        "digest": crf.file_digest(path),
        "features_version": crf.FEATURES_VERSION,
        "ner_pipeline": crf.ner_pipeline(),
        "lexicons": crf.lexicons(),
        "labels": sorted(crf.CRF_TYPES),
        "params": p,
        "training_data": _pii.training_data(samples),
    }
    (out_dir / "PROVENANCE.json").write_text(json.dumps(prov, indent=2) + "\n", encoding="utf-8")
    return prov


def _confusion(samples: list[_pii.Sample], mode: str, acc: Counter[tuple[str, str]]) -> None:
    for s in samples:
        pred = [(e.type, e.start, e.end) for e in recognize(s.text, mode=mode)]
        toks = list(_pii.TOKEN.finditer(s.text))
        for m, g, p in zip(toks, _pii._labels(s.text, s.spans), _pii._labels(s.text, pred), strict=True):
            if g != p:
                acc[(g, p)] += 1
                EXAMPLES.setdefault((g, p), []).append(f"{s.template}:{m.group(0)}")


EXAMPLES: dict[tuple[str, str], list[str]] = {}


def folds(dev: list[_pii.Sample]) -> list[set[int]]:
    """The two CV folds of the dev half: its templates, seeded shuffle, alternately dealt (no template in both)."""
    templates = sorted({s.template for s in dev})
    random.Random(_pii.SEED).shuffle(templates)
    return [set(templates[::2]), set(templates[1::2])]


def cv(
    dev: list[_pii.Sample],
    modes: list[str],
    params: dict[str, Any] | None = None,
    confusion: Counter[tuple[str, str]] | None = None,
) -> None:
    tot: dict[str, list[dict[str, dict[str, float]]]] = {m: [] for m in modes}
    pooled: dict[str, dict[str, list[tuple[str, int, int]]]] = {m: {} for m in modes}  # text -> fold prediction
    orig = crf.MODEL_DIR
    for k, fold in enumerate(folds(dev)):
        tr = [s for s in dev if s.template not in fold]
        te = [s for s in dev if s.template in fold]
        with tempfile.TemporaryDirectory() as tmp:
            train(tr, Path(tmp), params)
            crf.MODEL_DIR = Path(tmp)
            if confusion is not None:
                _confusion(te, modes[0], confusion)
            for m in modes:
                for s in te:
                    pooled[m][s.text] = [(e.type, e.start, e.end) for e in recognize(s.text, mode=m)]
                r = _pii.token_prf(te, pooled[m].__getitem__)
                tot[m].append(r)
                print(f"fold {k} ({len(te)} sents) {m:10} micro {r['micro']}")
            crf.MODEL_DIR = orig
    _pii.print_cv_means(tot, modes)
    for m in modes:  # both folds' predictions scored together: P/R/F1 per type
        for t, v in _pii.token_prf(dev, pooled[m].__getitem__).items():
            print(f"CV pooled {m:8} {t:18} P {v['P']:.3f}  R {v['R']:.3f}  F1 {v['F1']:.3f}  tokens {v['support']}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--confusion", action="store_true", help="token confusions of the first mode (dev folds)")
    ap.add_argument("--modes", default="hybrid,crf,spacy")
    ap.add_argument("--params", default="{}", help="JSON crfsuite parameters over the defaults")
    a = ap.parse_args()
    dev, _ = _pii.split(_pii.load())  # the held-out half is not used
    params = json.loads(a.params)
    if a.cv:
        conf: Counter[tuple[str, str]] | None = Counter() if a.confusion else None
        cv(dev, a.modes.split(","), params, conf)
        for (g, p), n in (conf or Counter()).most_common(25):
            print(f"{g:15} -> {p:15} {n:5}  {EXAMPLES[(g, p)][:14]}")
    if a.write:
        print(json.dumps(train(dev, crf.MODEL_DIR, params), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
