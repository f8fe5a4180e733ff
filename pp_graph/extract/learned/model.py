"""Segment classifiers (TF-IDF + a linear SVM, one per label) stored without pickle.

A model folder holds ``manifest.json`` (labels, thresholds, feature settings, versions, training-data digest,
file digests and the model digest), ``vectorizers.json`` (vocabularies and idf weights) and ``weights.npy``
(one row of coefficients per label). Loading reads JSON and a plain numpy array (``allow_pickle=False``), and
checks every file against the manifest's digests first, so a changed or foreign file is refused, not run.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from pp_graph.errors import ModelError
from pp_graph.extract.learned.features import Unit, units
from pp_graph.model import InferredClass, PolicyExtraction

# 3: per-choice f1/rules_f1/support/chosen_on (was cv_f1/cv_rules_f1/cv_support), split.choose_on/sources (was
# choices_on), cv_report, in_sample per report row. Readers of those keys would fail on an older manifest.
FORMAT = "pp-graph-learned/3"
OLDER_FORMATS = ("pp-graph-learned/1", "pp-graph-learned/2")
MANIFEST, VECTORIZERS, WEIGHTS = "manifest.json", "vectorizers.json", "weights.npy"
KINDS = ("practice", "data", "purpose")
MODES = ("rules", "union", "learned")  # per label: keep the rules, add the classifier, or let it decide
# Feature blocks: (Unit field, TfidfVectorizer settings). Rule tokens are binary flags, not weighted words.
# Measured on grouped CV over train (5 folds by policy, best mode per label), never on test: the paragraph block
# lifted purposes 0.64 → 0.70 and data 0.57 → 0.62; its character n-grams another +0.01 on both (line-level
# character n-grams added nothing); sentence embeddings (MiniLM) helped only the classifier alone on practices and
# cost ~10 lines/s on these 2 cores, so they are not used.
FEATURES: dict[str, dict[str, Any]] = {
    "text": {"ngram_range": [1, 2], "min_df": 2, "sublinear_tf": True, "max_features": 60000},
    "para": {"ngram_range": [1, 2], "min_df": 2, "sublinear_tf": True, "max_features": 60000},
    "para_chars": {
        "analyzer": "char_wb",
        "ngram_range": [2, 5],
        "min_df": 3,
        "sublinear_tf": True,
        "max_features": 100000,
    },
    "context": {"ngram_range": [1, 1], "min_df": 2, "sublinear_tf": True, "max_features": 20000},
    "rules": {"token_pattern": r"\S+", "lowercase": False, "use_idf": False, "binary": True, "norm": None},
}
# Each block's column scale. The rules were written on the train split, so on train their decisions are better
# than on unseen policies (0.85 vs 0.73 practice macro-F1) and any fit trusts them too much; a smaller scale is a
# stronger penalty on their weights. Fixed a priori (no split can tune it without the same bias).
BLOCK_SCALE = {"text": 1.0, "para": 1.0, "para_chars": 1.0, "context": 1.0, "rules": 0.3}
FIELD = {"para_chars": "para"}  # the Unit field a block reads (default: the block's name)


def _column(data: Sequence[Unit], block: str) -> list[str]:
    return [getattr(u, FIELD.get(block, block)) for u in data]


C = 0.1  # inverse regularisation of every per-label linear SVM (liblinear; on grouped CV ≈ LR at C=1, 10x faster)


@dataclass(frozen=True)
class Label:
    """One classifier output: what it emits, which rule outputs count for it, and how it is combined."""

    name: str
    kind: str
    concept: str  # emitted as InferredClass.concept
    members: tuple[str, ...]  # rule outputs (practice types or DPV IRIs) that name this label
    threshold: float = 0.5
    mode: str = "union"


def _vectorizer(block: str, state: dict[str, Any] | None = None) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer

    cfg = dict(FEATURES[block])
    cfg["ngram_range"] = tuple(cfg.get("ngram_range", (1, 1)))
    if state is None:
        return TfidfVectorizer(**cfg)
    v = TfidfVectorizer(**{**cfg, "vocabulary": state["vocabulary"]})
    if "idf" in state:
        v.idf_ = np.asarray(state["idf"], dtype=np.float64)
    else:  # flags only: with a fixed vocabulary, fitting learns nothing but marks the vectorizer ready
        v.fit([""])
    return v


UNHASHED = ("model_digest", "train_seconds")  # how long training took does not change the model


def manifest_digest(manifest: dict[str, Any]) -> str:
    body = {k: v for k, v in manifest.items() if k not in UNHASHED}
    return "sha256:" + hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class LearnedModel:
    """Fitted vectorizers + per-label weights; ``annotate`` adds InferredClass items to an extraction."""

    def __init__(self, labels: Sequence[Label], vectorizers: dict[str, Any], weights: np.ndarray, digest: str = ""):
        self.labels = list(labels)
        self.vectorizers = vectorizers
        self.weights = weights  # (labels, features + 1): the last column is the intercept
        self.digest = digest
        self.manifest: dict[str, Any] = {}

    # ---- fitting ----

    @classmethod
    def fit(
        cls, data: Sequence[Unit], y: np.ndarray, labels: Sequence[Label], known: np.ndarray | None = None
    ) -> LearnedModel:
        """Fit the vectorizers on ``data`` and one linear SVM per label (column of ``y``); with ``known`` (same
        shape as ``y``), each label's SVM sees only the units where it is True (a label some data does not
        annotate is left unknown there, not taken as negative)."""
        from sklearn.svm import LinearSVC

        vecs = {b: _vectorizer(b) for b in FEATURES}
        for b, v in vecs.items():
            v.fit(_column(data, b))
        model = cls(labels, vecs, np.zeros((0, 0)))
        x = model.matrix(data)
        rows = []
        for j in range(len(labels)):
            keep = np.arange(len(data)) if known is None else np.flatnonzero(known[:, j])
            col = y[keep, j]
            if col.size == 0 or col.min() == col.max():  # a label never (or always) seen: a constant, not a fit
                rows.append(np.r_[np.zeros(x.shape[1]), -20.0 if col.size == 0 or col.max() == 0 else 20.0])
                continue
            svm = LinearSVC(C=C, class_weight="balanced", random_state=0, max_iter=5000)
            svm.fit(x if known is None else x[keep], col)
            rows.append(np.r_[svm.coef_[0], svm.intercept_[0]])
        model.weights = np.vstack(rows)
        return model

    def matrix(self, data: Sequence[Unit]) -> Any:
        from scipy.sparse import csr_matrix, hstack

        blocks = []
        for b in FEATURES:
            # Each distinct text once: every line of a paragraph carries the same paragraph text.
            col = _column(data, b)
            distinct = sorted(set(col))
            row = {t: i for i, t in enumerate(distinct)}
            x = self.vectorizers[b].transform(distinct)[[row[t] for t in col]]
            blocks.append(x * BLOCK_SCALE[b])
        return csr_matrix(hstack(blocks))

    def scores(self, data: Sequence[Unit]) -> np.ndarray:
        """(units, labels) scores in (0, 1): the SVM margin through a logistic (0.5 = on the margin), not a
        calibrated probability; thresholds are chosen on this scale."""
        if not data:
            return np.zeros((0, len(self.labels)))
        x = self.matrix(data)
        z = x @ self.weights[:, :-1].T + self.weights[:, -1]
        return 1.0 / (1.0 + np.exp(-np.asarray(z)))

    # ---- use ----

    def annotate(self, ex: PolicyExtraction) -> None:
        """Add an InferredClass to each segment for each label whose score reaches its threshold (mode ≠ rules)."""
        s = self.scores(units(ex))
        for i, res in enumerate(ex.results):
            for j, lab in enumerate(self.labels):
                if lab.mode != "rules" and s[i, j] >= lab.threshold:
                    res.inferred.append(InferredClass(lab.kind, lab.concept, round(float(s[i, j]), 4), self.digest))

    def with_choices(self, choices: dict[str, tuple[str, float]]) -> LearnedModel:
        """The same model with (mode, threshold) per label name."""
        labels = [replace(lab, mode=choices[lab.name][0], threshold=choices[lab.name][1]) for lab in self.labels]
        out = LearnedModel(labels, self.vectorizers, self.weights, self.digest)
        out.manifest = self.manifest
        return out

    # ---- storage ----

    def save(self, out_dir: Path, meta: dict[str, Any]) -> dict[str, Any]:
        """Write the model folder; returns the manifest (with the model digest every InferredClass carries)."""
        import sklearn

        from pp_graph.version import __version__

        out_dir.mkdir(parents=True, exist_ok=True)
        state = {}
        for b, v in self.vectorizers.items():
            st: dict[str, Any] = {"vocabulary": {k: int(i) for k, i in sorted(v.vocabulary_.items())}}
            if getattr(v, "use_idf", False):
                st["idf"] = [float(x) for x in v.idf_]
            state[b] = st
        (out_dir / VECTORIZERS).write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        with open(out_dir / WEIGHTS, "wb") as fh:
            np.save(fh, self.weights.astype(np.float64), allow_pickle=False)
        files = {f: file_digest(out_dir / f) for f in (VECTORIZERS, WEIGHTS)}
        labels = [asdict(lab) | {"members": list(lab.members)} for lab in self.labels]
        body = {
            "format": FORMAT,
            "labels": labels,
            **_settings(),
            "versions": {"pp-graph": __version__, "scikit-learn": sklearn.__version__, "numpy": np.__version__},
            "files": files,
            **meta,
        }
        self.digest = manifest_digest(body)
        manifest = {**body, "model_digest": self.digest}
        tmp = out_dir / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(out_dir / MANIFEST)
        self.manifest = manifest
        return manifest

    @classmethod
    def load(cls, model_dir: Path) -> LearnedModel:
        """Read a model folder after checking every file against the manifest (refuses anything else)."""
        man_path = model_dir / MANIFEST
        if not man_path.is_file():
            raise ModelError(f"{model_dir}: not a learned model folder (no {MANIFEST}; run `pp-graph train` first)")
        try:
            manifest = json.loads(man_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise ModelError(f"{man_path}: unreadable manifest ({e})") from e
        if manifest.get("format") in OLDER_FORMATS:
            raise ModelError(
                f"{man_path}: format {manifest['format']!r} was trained by an older pp-graph "
                f"(this one reads {FORMAT!r}); run `pp-graph train` again"
            )
        if manifest.get("format") != FORMAT:
            raise ModelError(f"{man_path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
        if manifest_digest(manifest) != manifest.get("model_digest"):
            raise ModelError(f"{man_path}: manifest does not match its model digest (edited or corrupted)")
        for name, want in manifest["files"].items():
            f = model_dir / name
            if not f.is_file() or file_digest(f) != want:
                raise ModelError(f"{f}: missing or changed since training (digest differs from the manifest)")
        _check_settings(man_path, manifest)
        state = json.loads((model_dir / VECTORIZERS).read_text(encoding="utf-8"))
        with open(model_dir / WEIGHTS, "rb") as fh:
            weights = np.load(fh, allow_pickle=False)
        labels = [Label(**{**d, "members": tuple(d["members"])}) for d in manifest["labels"]]
        if weights.shape[0] != len(labels) or any(lab.mode not in MODES for lab in labels):
            raise ModelError(f"{model_dir}: weights and labels disagree")
        model = cls(labels, {b: _vectorizer(b, state[b]) for b in FEATURES}, weights, manifest["model_digest"])
        model.manifest = manifest
        return model


def _settings() -> dict[str, Any]:
    """The feature and classifier settings the code rebuilds a loaded model with (as saved in the manifest)."""
    return {"features": FEATURES, "block_scale": BLOCK_SCALE, "block_field": FIELD, "classifier": "linear-svm", "C": C}


def _check_settings(man_path: Path, manifest: dict[str, Any]) -> None:
    # load() builds the vectorizers and the feature matrix from the code's settings, not the manifest's: a model
    # trained with others would score differently under the same digest, so it is refused (train it again).
    for key, want in _settings().items():
        got = manifest.get(key)
        if got != json.loads(json.dumps(want)):  # compared as they round-trip through JSON (tuples → lists)
            raise ModelError(
                f"{man_path}: feature setting {key} differs from this pp-graph's "
                f"(model {got!r}, code {want!r}); run `pp-graph train` again"
            )


def load_model(model_dir: Path) -> LearnedModel:
    return LearnedModel.load(model_dir)
