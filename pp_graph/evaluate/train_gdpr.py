"""Train the transparency learned layer on the GDPR transparency dataset's train split (``pp-graph train gdpr``).

The documents of the fixed test split (data/splits/gdpr-transparency.toml) are left out unless the user asks for
them (then no test figure of that model means anything); the manifest records the documents trained on, a digest
of the dataset files read, the rules version and the choices' out-of-fold figures.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from pp_graph.errors import InputError
from pp_graph.evaluate.gdpr import SPLIT_FILE, GdprDoc, read_doc, test_ids, unknown_labels
from pp_graph.evaluate.learn_gdpr import FOLDS, choose, nested_predict, out_of_fold, passages, score
from pp_graph.extract.learned.transparency import TransparencyModel

MIN_DOCUMENTS = 2  # grouped folds need documents on both sides


def dataset_files(root: Path) -> list[Path]:
    """The dataset's ``<id>.json`` files: in ROOT or in ROOT/policies."""
    if not root.is_dir():
        raise InputError(str(root), "no such dataset folder")
    folder = root / "policies" if (root / "policies").is_dir() else root
    files = sorted(folder.glob("*.json"))
    if not files:
        raise InputError(str(root), "no <document id>.json files (expected the GDPR transparency dataset)")
    return files


def select(files: list[Path], include_test: bool) -> tuple[list[Path], list[str]]:
    """(the files trained on, the ids of the test split left out)."""
    test = test_ids()
    held = [f.stem for f in files if f.stem in test]
    chosen = files if include_test else [f for f in files if f.stem not in test]
    if len(chosen) < MIN_DOCUMENTS:
        raise InputError(
            str(files[0].parent),
            f"{len(chosen)} training document(s) outside the test split ({len(held)} in it): need {MIN_DOCUMENTS}; "
            "--include-test trains on test documents too (then do not evaluate on test)",
        )
    return chosen, held


def check_labels(root: Path, docs: list[GdprDoc]) -> None:
    """A label the rules do not know (another dataset, or another version of it) would be dropped from the gold
    without a word, and a dataset without annotations trains a model that never fires: both refused."""
    from pp_graph.comply.rules import rules

    known = [r.label for r in rules().requirements]
    unknown = unknown_labels(docs, known)
    if unknown:
        label, doc = next(iter(unknown.items()))
        more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
        raise InputError(
            f"{doc}.json", f"requirement {label!r}{more} is not a label of the transparency rules ({', '.join(known)})"
        )
    if not any(d.labels() for d in docs):
        raise InputError(str(root), f"none of the {len(docs)} training documents has an annotation: nothing to learn")


def dataset_digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + hashlib.sha256(f.read_bytes()).digest())
    return "sha256:" + h.hexdigest()[:16]


def train_gdpr(root: Path, out_dir: Path, folds: int = FOLDS, include_test: bool = False) -> dict[str, Any]:
    """Fit on the chosen documents, choose each requirement's mode and threshold out of fold, write the model."""
    from pp_graph.comply.rules import rules

    t0 = time.perf_counter()
    files, held = select(dataset_files(root), include_test)
    docs = [read_doc(f) for f in files]
    check_labels(root, docs)
    p = passages(docs)
    reqs = [r.id for r in rules().requirements]
    k = min(folds, len(docs))
    try:
        oof = out_of_fold(p, folds=k)
        choices = choose(p, oof, reqs)
        model = TransparencyModel.fit(p.lines, p.gold, reqs)
    except ValueError as e:  # scikit-learn: too few lines, or no word in two of them, to make features from
        raise InputError(str(root), f"too little text to train on ({len(p.lines)} lines): {e}") from e
    model.choices = {c.requirement: c for c in choices}
    r_per, (_, _, r_pass) = score(p, p.rules)
    l_per, (_, _, l_pass) = score(p, nested_predict(p, oof, reqs, k))  # scores and choices both out of fold
    meta = {
        "trained_on": {
            "documents": [f.stem for f in files],
            "dataset_digest": dataset_digest(files),
            "split_file_digest": hashlib.sha256(SPLIT_FILE.read_bytes()).hexdigest()[:16],
            "test_documents_included": include_test,
            "test_documents_left_out": len(held) if not include_test else 0,
            "lines": len(p.lines),
        },
        "rules_version": rules().version,
        "folds": k,
        "out_of_fold": {
            "rules_document_macro_f1": round(sum(r_per) / len(r_per), 4),
            "combined_document_macro_f1": round(sum(l_per) / len(l_per), 4),
            "rules_line_micro_f1": round(r_pass, 4),
            "combined_line_micro_f1": round(l_pass, 4),
            "per_requirement": {
                rid: {"rules": round(r, 4), "combined": round(c, 4)}
                for rid, r, c in zip(reqs, r_per, l_per, strict=True)
            },
        },
    }
    manifest = model.save(out_dir, meta)
    manifest["train_seconds"] = round(time.perf_counter() - t0, 1)
    return manifest
