"""A learned layer for the GDPR transparency requirements, trained by the user (``pp-graph train gdpr``).

Per requirement a logistic regression over a line's words (TF-IDF, 1-2 grams), the words of the heading above it,
of the lines before and after it and, for a list item, of the lead-in line above its list (a statement often spans
a lead-in and its items), and the transparency rules' verdicts on the line (one flag per requirement). Each
requirement has a mode, chosen on out-of-fold scores over the training documents: ``rules`` (the classifier is not
used), ``union`` (it adds the lines scoring at least the threshold to the rules' lines) or ``confirm`` (it also
removes the rules' affirming lines scoring below it). Stored like the OPP-115 layer, without pickle:
``manifest.json`` (labels, modes, thresholds, settings, versions, training documents, dataset digest, file digests,
model digest), ``vectorizers.json`` and ``weights.npy``; every file is checked against the manifest before use.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pp_graph.errors import ModelError
from pp_graph.extract.learned.model import file_digest, manifest_digest
from pp_graph.model import PolicyExtraction, RequirementMention, SegmentExtraction, Span

FORMAT = "pp-graph-transparency-learned/2"  # 2: context blocks (before, after, lead)
OLDER_FORMATS = ("pp-graph-transparency-learned/1",)  # their weights do not fit these features: train again
MANIFEST, VECTORIZERS, WEIGHTS = "manifest.json", "vectorizers.json", "weights.npy"
MODES = ("rules", "union", "confirm")
_CONTEXT = {"ngram_range": [1, 1], "min_df": 2, "sublinear_tf": True}
# Feature blocks (each a field of Line) and their column scales: the heading's words count half, a neighbour's a
# quarter, a rule verdict twice a word (scales chosen out of fold on the training split).
FEATURES: dict[str, dict[str, Any]] = {
    "text": {"ngram_range": [1, 2], "min_df": 2, "sublinear_tf": True, "max_features": 30000},
    "heading": _CONTEXT,
    "before": _CONTEXT,
    "after": _CONTEXT,
    "lead": _CONTEXT,
}
SCALE = {"text": 1.0, "heading": 0.5, "before": 0.25, "after": 0.25, "lead": 0.25, "rules": 2.0}
ITEM = re.compile(r"\s*(?:[-*+•]|\d{1,3}[.)])\s")  # a list item's marker, as the policy wrote it
C = 4.0  # inverse regularisation of each logistic regression (liblinear)


@dataclass(frozen=True, slots=True)
class Line:
    """What the classifier sees of one line: its text, the heading above it, the requirements the rules found
    and its context."""

    text: str
    heading: str
    rules: frozenset[str]  # requirement ids
    before: str = ""  # the previous line of the policy
    after: str = ""  # the next line
    lead: str = ""  # for a list item: the last line above it that is neither an item nor a heading
    is_heading: bool = False  # the graph gets no learned statement on a heading line


@dataclass(frozen=True, slots=True)
class Choice:
    requirement: str  # id in data/rules/gdpr-transparency.toml
    mode: str
    threshold: float


def lines_of(results: Sequence[SegmentExtraction]) -> list[Line]:
    """One Line per result, in policy order (the context needs the neighbours)."""
    texts = [res.segment.text for res in results]
    out, lead = [], ""
    for i, res in enumerate(results):
        seg = res.segment
        item = bool(ITEM.match(seg.text))
        head = seg.heading_path[-1] if seg.heading_path else ""
        context = {
            "before": texts[i - 1] if i else "",
            "after": texts[i + 1] if i + 1 < len(texts) else "",
            "lead": lead if item and not seg.is_heading else "",
        }
        out.append(
            Line(
                seg.text, head, frozenset(m.requirement for m in res.requirements), **context, is_heading=seg.is_heading
            )
        )
        if seg.is_heading:
            lead = ""
        elif not item:
            lead = seg.text
    return out


def _vectorizer(block: str, state: dict[str, Any] | None = None) -> Any:
    """A new vectorizer of ``block``, or the stored one (None: the block had no word in two lines)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    cfg = {**FEATURES[block], "ngram_range": tuple(FEATURES[block]["ngram_range"])}
    if state is None:
        return TfidfVectorizer(**cfg)
    if not state["vocabulary"]:
        return None
    v = TfidfVectorizer(**{**cfg, "vocabulary": state["vocabulary"]})
    v.idf_ = np.asarray(state["idf"], dtype=np.float64)
    return v


def _fit_blocks(lines: Sequence[Line]) -> dict[str, Any]:
    """Each block's vectorizer fitted on the lines; a context block without a word in two lines (a policy with no
    list) is None and adds no column. The text block has words or the training fails (ValueError)."""
    vecs: dict[str, Any] = {}
    for b in FEATURES:
        v = _vectorizer(b)
        try:
            vecs[b] = v.fit([getattr(ln, b) for ln in lines])
        except ValueError:
            if b == "text":
                raise
            vecs[b] = None
    return vecs


class TransparencyModel:
    """Fitted vectorizers, one row of weights per requirement (last column: intercept) and the per-requirement
    choices; ``apply`` adds the learned statements to an extraction and drops the vetoed ones."""

    def __init__(self, requirements: Sequence[str], vectorizers: dict[str, Any], weights: np.ndarray) -> None:
        self.requirements = list(requirements)
        self.vectorizers = vectorizers
        self.weights = weights
        self.choices: dict[str, Choice] = {r: Choice(r, "rules", 1.0) for r in requirements}
        self.digest = ""
        self.manifest: dict[str, Any] = {}

    @classmethod
    def fit(cls, lines: Sequence[Line], y: np.ndarray, requirements: Sequence[str]) -> TransparencyModel:
        """Fit on ``lines`` with gold ``y`` (lines × requirements, 0/1)."""
        from sklearn.linear_model import LogisticRegression

        model = cls(requirements, _fit_blocks(lines), np.zeros((0, 0)))
        x = model.matrix(lines)
        rows = []
        for k in range(len(requirements)):
            col = y[:, k]
            if col.min() == col.max():  # never (or always) seen: a constant, not a fit
                rows.append(np.r_[np.zeros(x.shape[1]), -20.0 if col.max() == 0 else 20.0])
                continue
            clf = LogisticRegression(C=C, solver="liblinear", max_iter=1000, class_weight="balanced")
            clf.fit(x, col)
            rows.append(np.r_[clf.coef_[0], clf.intercept_[0]])
        model.weights = np.vstack(rows)
        return model

    def matrix(self, lines: Sequence[Line]) -> Any:
        from scipy.sparse import csr_matrix, hstack

        flags = np.array([[r in ln.rules for r in self.requirements] for ln in lines], dtype=float)
        blocks = [
            csr_matrix((len(lines), 0)) if v is None else v.transform([getattr(ln, b) for ln in lines]) * SCALE[b]
            for b, v in self.vectorizers.items()
        ]
        blocks.append(csr_matrix(flags.reshape(len(lines), len(self.requirements)) * SCALE["rules"]))
        return csr_matrix(hstack(blocks))

    def scores(self, lines: Sequence[Line]) -> np.ndarray:
        """(lines, requirements) probabilities of the logistic regressions."""
        if not lines:
            return np.zeros((0, len(self.requirements)))
        z = self.matrix(lines) @ self.weights[:, :-1].T + self.weights[:, -1]
        return 1.0 / (1.0 + np.exp(-np.asarray(z)))

    def apply(self, ex: PolicyExtraction) -> None:
        """Per line and requirement with a mode other than ``rules``: add a statement (the whole line as evidence,
        with the score and this model's digest) when the score reaches the threshold and the rules found none;
        in ``confirm`` mode drop the rules' affirming statements scoring below it."""
        s = self.scores(lines_of(ex.results))
        for i, res in enumerate(ex.results):
            seg = res.segment
            for k, rid in enumerate(self.requirements):
                ch = self.choices[rid]
                if ch.mode == "rules":
                    continue
                score = float(s[i, k])
                if score < ch.threshold:
                    if ch.mode == "confirm":
                        res.requirements[:] = [m for m in res.requirements if m.requirement != rid or not m.performed]
                elif not seg.is_heading and all(m.requirement != rid for m in res.requirements):
                    span = Span(seg.start, seg.end, seg.text)
                    res.requirements.append(
                        RequirementMention(span, rid, True, f"{rid}/learned", (), round(score, 4), self.digest)
                    )

    # ---- storage ----

    def save(self, out_dir: Path, meta: dict[str, Any]) -> dict[str, Any]:
        """Write the model folder; returns its manifest (with the digest every learned statement carries)."""
        import sklearn

        from pp_graph.version import __version__

        out_dir.mkdir(parents=True, exist_ok=True)
        state = {
            b: {"vocabulary": {t: int(i) for t, i in sorted(v.vocabulary_.items())}, "idf": [float(x) for x in v.idf_]}
            if v is not None
            else {"vocabulary": {}, "idf": []}
            for b, v in self.vectorizers.items()
        }
        (out_dir / VECTORIZERS).write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        with open(out_dir / WEIGHTS, "wb") as fh:
            np.save(fh, self.weights.astype(np.float64), allow_pickle=False)
        body = {
            "format": FORMAT,
            "requirements": self.requirements,
            "choices": {r: {"mode": c.mode, "threshold": c.threshold} for r, c in self.choices.items()},
            **_settings(),
            "versions": {"pp-graph": __version__, "scikit-learn": sklearn.__version__, "numpy": np.__version__},
            "files": {f: file_digest(out_dir / f) for f in (VECTORIZERS, WEIGHTS)},
            **meta,
        }
        self.digest = manifest_digest(body)
        self.manifest = {**body, "model_digest": self.digest}
        tmp = out_dir / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(self.manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(out_dir / MANIFEST)
        return self.manifest


def _settings() -> dict[str, Any]:
    return {"features": FEATURES, "scale": SCALE, "classifier": "logistic-regression", "C": C}


def _read_manifest(model_dir: Path) -> dict[str, Any]:
    path = model_dir / MANIFEST
    if not path.is_file():
        raise ModelError(f"{model_dir}: not a transparency model folder (no {MANIFEST}; run `pp-graph train gdpr`)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ModelError(f"{path}: unreadable manifest ({e})") from e
    if isinstance(manifest, dict) and manifest.get("format") in OLDER_FORMATS:
        raise ModelError(
            f"{path}: format {manifest['format']!r} was trained by an older pp-graph (this one reads {FORMAT!r}); "
            "run `pp-graph train gdpr` again"
        )
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        got = manifest.get("format") if isinstance(manifest, dict) else None
        raise ModelError(f"{path}: format {got!r}, expected {FORMAT!r} (a model of `pp-graph train gdpr`)")
    if manifest_digest(manifest) != manifest.get("model_digest"):
        raise ModelError(f"{path}: manifest does not match its model digest (edited or corrupted)")
    if any(manifest.get(k) != json.loads(json.dumps(v)) for k, v in _settings().items()):
        raise ModelError(f"{path}: trained with other feature settings than this pp-graph's; train it again")
    for name, want in manifest["files"].items():
        f = model_dir / name
        if not f.is_file() or file_digest(f) != want:
            raise ModelError(f"{f}: missing or changed since training (digest differs from the manifest)")
    return manifest


def load_transparency_model(model_dir: Path) -> TransparencyModel:
    """Read a model folder after checking every file against its manifest (ModelError otherwise)."""
    from pp_graph.comply.rules import rules

    manifest = _read_manifest(model_dir)
    # The rules' verdicts are features: other rules would feed the weights inputs they were not fitted on.
    if manifest.get("rules_version") != rules().version:
        raise ModelError(
            f"{model_dir}: trained with transparency rules {manifest.get('rules_version')!r}, these are "
            f"{rules().version!r}; run `pp-graph train gdpr` again"
        )
    known = {r.id for r in rules().requirements}
    reqs = manifest["requirements"]
    if not set(reqs) <= known:
        raise ModelError(f"{model_dir}: requirements unknown to these rules: {', '.join(sorted(set(reqs) - known))}")
    state = json.loads((model_dir / VECTORIZERS).read_text(encoding="utf-8"))
    with open(model_dir / WEIGHTS, "rb") as fh:
        weights = np.load(fh, allow_pickle=False)
    model = TransparencyModel(reqs, {b: _vectorizer(b, state[b]) for b in FEATURES}, weights)
    width = sum(len(state[b]["vocabulary"]) for b in FEATURES) + len(reqs) + 1
    if weights.shape != (len(reqs), width) or any(c["mode"] not in MODES for c in manifest["choices"].values()):
        raise ModelError(f"{model_dir}: weights, requirements and choices disagree")
    model.choices = {r: Choice(r, c["mode"], float(c["threshold"])) for r, c in manifest["choices"].items()}
    model.digest, model.manifest = manifest["model_digest"], manifest
    return model
