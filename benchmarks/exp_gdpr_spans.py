"""Experiment (issue 25 §4): does the GDPR transparency dataset's word-level spans help the OPP-115 learned layer?

The dataset's passages of its train split become extra training lines for the segment classifiers, labelled from
the annotations (never from the test split's documents, never scored):
- practice categories: Data Recipients → third-party sharing, Data Retention Period → data retention, Data
  Categories or Processing Purpose → first-party collection/use; the other categories are not annotated there, so
  those lines are left out of those labels' fits (a mask, not a negative);
- data and purpose labels: a rule mention lying inside a gold Data Categories / Processing Purpose span names its
  label; a passage without such a span is negative for every label of that kind; a passage whose spans the rules
  do not all map is left out of that kind's fits.

Protocol (OPP-115 train split only; its test split is never read): each configuration chooses mode and threshold
per label on out-of-fold scores of 5-fold CV grouped by policy over the ``fit`` split (train without the dev subset),
the extra lines added to every fold's training, never to its scoring; then fitted once on the fit split (+ extra)
and scored once on the dev subset. Configurations: ``none`` (the library's model), ``practice`` (extra lines for
practice labels only), ``all`` (practice, data and purpose labels).

    python benchmarks/exp_gdpr_spans.py GDPR_DIR [--opp115 DIR] [--cache FILE] [--configs none practice all]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from _shared import OPP115

from pp_graph.evaluate import learn_opp115 as lo
from pp_graph.evaluate.gdpr import read_doc, test_ids
from pp_graph.evaluate.metrics import name_labels
from pp_graph.evaluate.opp115 import DATA_ATTRIBUTE, PURPOSE_ATTRIBUTE, load_corpus, load_dev, load_mapping, split_ids
from pp_graph.extract.learned import model as lm
from pp_graph.extract.learned.features import Unit, units
from pp_graph.model import Policy

PRACTICE_OF = {  # OPP-115 category (lower case) → the requirements that mark it on a passage
    "third party sharing/collection": {"Data Recipients"},
    "data retention": {"Data Retention Period"},
    "first party collection/use": {"Data Categories", "Processing Purpose"},
}
SPAN_OF = {"data": "Data Categories", "purpose": "Processing Purpose"}


@dataclass
class Extra:
    units: list[Unit]
    y: np.ndarray  # (units, labels) 0/1
    known: np.ndarray  # (units, labels) bool: the label is known on this line (else left out of its fit)


def gold_spans(raw: list[dict], doc_text: str, passages: tuple) -> dict[tuple[int, str], list[tuple[int, int] | None]]:
    """Per (passage, requirement), the character spans of its values in the doc text (None: not found verbatim)."""
    out: dict[tuple[int, str], list[tuple[int, int] | None]] = {}
    bodies = [p for p in raw if " ".join(str(p.get("passage", "")).split())]
    for i, (p, (ps, pe)) in enumerate(zip(bodies, passages, strict=True)):
        line = doc_text[ps:pe]
        for a in p.get("annotations", []):
            v = " ".join(str(a.get("value", "")).split())
            k = line.find(v) if v else -1
            out.setdefault((i, a["requirement"]), []).append(None if k < 0 else (ps + k, ps + k + len(v)))
    return out


def extra_lines(path: Path, mapping, labels: list[lm.Label], backend) -> Extra:
    from pp_graph.extract.pipeline import extract
    from pp_graph.vocab.dpv import vocabulary

    doc = read_doc(path)
    raw = json.loads(path.read_text(encoding="utf-8"))
    spans = gold_spans(raw, doc.text, doc.passages)
    ex = extract(Policy(f"{doc.id}.example", doc.text, f"{doc.id}.md", "text/markdown"), backend)
    anc = vocabulary().ancestors
    kind_labels = {"data": mapping.labels(DATA_ATTRIBUTE), "purpose": mapping.labels(PURPOSE_ATTRIBUTE)}
    col = {lab.name: j for j, lab in enumerate(labels)}
    us, ys, ks = [], [], []
    for u, res in zip(units(ex), ex.results, strict=True):
        pi = next((i for i, (s, e) in enumerate(doc.passages) if s <= res.segment.start < e), None)
        if pi is None:
            continue
        y, known = np.zeros(len(labels), dtype=np.int64), np.zeros(len(labels), dtype=bool)
        for cat, reqs in PRACTICE_OF.items():
            known[col[cat]] = True
            y[col[cat]] = int(bool(reqs & doc.gold[pi]))
        for kind, req in SPAN_OF.items():
            inside = spans.get((pi, req), [])
            items = res.data if kind == "data" else res.purposes
            hits: set[str] = set()
            mapped = 0
            for sp in inside:
                got = {
                    c.concept
                    for c in items
                    if c.concept and sp is not None and c.span.start < sp[1] and sp[0] < c.span.end
                }
                names = name_labels(sorted(got), kind_labels[kind], anc, False)[0]
                mapped += bool(names)
                hits |= names
            if mapped < len(inside):
                continue  # a span the rules do not name: this kind stays unknown on the line
            for lab in labels:
                if lab.kind == kind:
                    known[col[lab.name]] = True
                    y[col[lab.name]] = int(lab.name in hits)
        us.append(u)
        ys.append(y)
        ks.append(known)
    return Extra(us, np.asarray(ys).reshape(-1, len(labels)), np.asarray(ks).reshape(-1, len(labels)))


def fit_with(preps: list[lo.Prepared], extra: Extra | None, labels: list[lm.Label]) -> lm.LearnedModel:
    xs, y = lo.targets(preps, labels)
    if extra is None:
        return lm.LearnedModel.fit(xs, y, labels)
    known = np.vstack([np.ones_like(y, dtype=bool), extra.known])
    return lm.LearnedModel.fit(xs + extra.units, np.vstack([y, extra.y]), labels, known)


def restrict(extra: Extra, labels: list[lm.Label], kinds: set[str]) -> Extra:
    """The extra lines with only the labels of ``kinds`` known."""
    keep = np.array([lab.kind in kinds for lab in labels])
    return Extra(extra.units, extra.y, extra.known & keep)


def run(fit: list[lo.Prepared], dev: list[lo.Prepared], extra: Extra | None, labels: list[lm.Label]) -> dict:
    fold = lo.fold_of([p.policy_id for p in fit])
    parts = {}
    for k in sorted(set(fold.values())):
        model = fit_with([p for p in fit if fold[p.policy_id] != k], extra, labels)
        parts.update({p.policy_id: lo.segment_scores(model, p) for p in fit if fold[p.policy_id] == k})
    oof = np.vstack([parts[p.policy_id] for p in fit]).reshape(-1, len(labels))
    choices = lo.choose(labels, fit, oof, "cv", lo.MIN_SUPPORT)
    cv = lo.report_on(labels, fit, oof, choices, "cv")
    final = fit_with(fit, extra, labels)
    dev_s = np.vstack([lo.segment_scores(final, p) for p in dev]).reshape(-1, len(labels))
    return {
        "choices": choices,
        "cv": cv,
        "dev": lo.report_on(labels, dev, dev_s, choices, "dev"),
        "counts": policy_counts(dev, dev_s, choices, labels),
    }


def policy_counts(dev: list[lo.Prepared], scores: np.ndarray, choices: dict, labels: list[lm.Label]) -> np.ndarray:
    """(dev policies, labels, tp/fp/fn) of the chosen configuration: what the paired bootstrap resamples."""
    out = np.zeros((len(dev), len(labels), 3))
    i = 0
    for n, p in enumerate(dev):
        for gold, rules in zip(p.gold, p.rules, strict=True):
            for j, lab in enumerate(labels):
                c = choices[lab.name]
                r = lab.name in rules
                pred = r if c["mode"] == "rules" else scores[i, j] >= c["threshold"] or (c["mode"] == "union" and r)
                g = lab.name in gold
                out[n, j] += (g and pred, pred and not g, g and not pred)
            i += 1
    return out


def bootstrap(a: np.ndarray, b: np.ndarray, cols: list[int], resamples: int = 2000) -> tuple[float, float, float]:
    """Paired bootstrap over dev policies of macro-F1(b) - macro-F1(a) over ``cols``: (2.5%, 97.5%, P(diff > 0))."""
    rng = np.random.default_rng(0)
    diffs = []
    for _ in range(resamples):
        pick = rng.integers(0, a.shape[0], a.shape[0])
        f = []
        for x in (a, b):
            tp, fp, fn = x[pick][:, cols].sum(axis=0).T
            f.append(np.mean(np.where(tp > 0, 2 * tp / np.maximum(2 * tp + fp + fn, 1), 0.0)))
        diffs.append(f[1] - f[0])
    d = np.array(diffs)
    return float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5)), float((d > 0).mean())


def macro(report: dict, labels: list[lm.Label], kind: str, key: str = "f1") -> float:
    vals = [report[lab.name][key] for lab in labels if lab.kind == kind and report[lab.name]["support"]]
    return float(np.mean(vals)) if vals else 0.0


def prepared(args: argparse.Namespace, mapping, labels, backend) -> tuple[list, list, Extra]:
    cache = Path(args.cache) if args.cache else None
    if cache and cache.is_file():
        with open(cache, "rb") as fh:
            return pickle.load(fh)
    dev_ids = set(load_dev())
    preps = [lo.prepare(p, mapping, labels, backend) for p in load_corpus(args.opp115, split_ids("train"))]
    held = test_ids()
    files = sorted(p for p in (args.gdpr / "policies").glob("*.json") if p.stem not in held)
    parts = [extra_lines(f, mapping, labels, backend) for f in files]
    extra = Extra(
        [u for e in parts for u in e.units], np.vstack([e.y for e in parts]), np.vstack([e.known for e in parts])
    )
    out = ([p for p in preps if p.policy_id not in dev_ids], [p for p in preps if p.policy_id in dev_ids], extra)
    if cache:
        with open(cache, "wb") as fh:
            pickle.dump(out, fh)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gdpr", type=Path, help="the GDPR transparency dataset folder (holds policies/)")
    ap.add_argument("--opp115", type=Path, default=OPP115)
    ap.add_argument("--cache", help="pickle of the prepared lines (written once, read after; not committed)")
    ap.add_argument("--configs", nargs="+", default=["none", "practice", "all"])
    args = ap.parse_args(argv)
    from pp_graph.extract.registry import get_backend

    mapping = load_mapping()
    labels = lo.labels_of(mapping)
    fit, dev, extra = prepared(args, mapping, labels, get_backend("offline"))
    print(f"fit {len(fit)} policies, dev {len(dev)}; extra lines {len(extra.units)}")
    for lab_kind in ("practice", "data", "purpose"):
        cols = [j for j, lab in enumerate(labels) if lab.kind == lab_kind]
        print(
            f"  extra {lab_kind}: known {int(extra.known[:, cols].any(axis=1).sum())} lines, "
            f"positives {int(extra.y[:, cols][extra.known[:, cols]].sum())}"
        )
    kinds = {"none": None, "practice": {"practice"}, "all": {"practice", "data", "purpose"}}
    results = {}
    for name in args.configs:
        t0 = time.perf_counter()
        ex = None if kinds[name] is None else restrict(extra, labels, kinds[name])
        results[name] = r = run(fit, dev, ex, labels)
        for kind in ("practice", "data", "purpose"):
            cv, dv = (macro(r[s], labels, kind) for s in ("cv", "dev"))
            cv_r, dv_r = (macro(r[s], labels, kind, "rules_f1") for s in ("cv", "dev"))
            print(
                f"{name:9s} {kind:9s} cv {cv:.3f} (rules {cv_r:.3f})  dev {dv:.3f} (rules {dv_r:.3f})"
                f"  [{time.perf_counter() - t0:.0f} s]"
            )
    base = results.get("none")
    for name, r in results.items():
        if base is None or name == "none":
            continue
        for kind in ("practice", "data", "purpose"):
            cols = [j for j, lab in enumerate(labels) if lab.kind == kind and base["dev"][lab.name]["support"]]
            lo_, hi, up = bootstrap(base["counts"], r["counts"], cols)
            print(
                f"{name} - none, {kind}: dev macro-F1 difference 95% interval [{lo_:+.3f}, {hi:+.3f}], P(>0) {up:.2f}"
            )
    print("per label, dev F1 (support):")
    for lab in labels:
        cells = "  ".join(
            f"{n}={results[n]['dev'][lab.name]['f1']:.3f}/{results[n]['choices'][lab.name]['mode'][0]}" for n in results
        )
        support = results[next(iter(results))]["dev"][lab.name]["support"]
        print(f"  {lab.kind:8s} {lab.name[:40]:40s} ({support:3d})  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
