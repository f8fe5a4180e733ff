"""The anonymization levels measured by cross-validation inside the DEVELOPMENT half of the public synthetic PII
benchmark (MIT; seeded split by template, seed 13) — the held-out half is never read here.

For each of train_ner_crf's two template folds, the sequence model is trained on the other fold, the fold's
sentences are detected with it (the rest of the detector is fixed code), and rewritten at L1…L5. Privacy (gold values
gone, gold word tokens gone) and utility (non-PII tokens kept) use bench_anonymize's own scoring. This is the figure
to choose by: the shipped model was trained on the whole dev half, so in-sample dev figures over-rate it.

    python benchmarks/cv_anonymize.py                    # levels with the shipped sweep settings, CV on dev
    python benchmarks/cv_anonymize.py --curve            # also L3 under each sweep setting tried (the trade-off)
    python benchmarks/cv_anonymize.py --no-sweep         # the levels without the residual sweep
    python benchmarks/cv_anonymize.py --cache FILE       # keep the fold detections (keyed by what changes them)

Exit 1 when the L3 target (token privacy ≥ 0.97 with utility ≥ 0.85) is missed on dev CV, 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _pii  # noqa: E402
import bench_anonymize  # noqa: E402
import train_ner_crf  # noqa: E402

from pp_graph.anonymize import Entity, apply_level, crf, recognize  # noqa: E402
from pp_graph.anonymize.recognizers import DEFAULT_MODE, ner_modes  # noqa: E402
from pp_graph.anonymize.sweep import DEFAULT_SWEEP, NO_SWEEP, SweepSettings, sweep  # noqa: E402
from pp_graph.errors import ConfigError  # noqa: E402

Detections = dict[str, list[Entity]]


@contextmanager
def fold_model(train: list[_pii.Sample]) -> Iterator[None]:
    """The sequence model trained on ``train`` is the one ``recognize`` uses inside the block."""
    orig = crf.MODEL_DIR
    with tempfile.TemporaryDirectory() as tmp:
        train_ner_crf.train(train, Path(tmp))
        crf.MODEL_DIR = Path(tmp)
        try:
            yield
        finally:
            crf.MODEL_DIR = orig


def fold_detections(dev: list[_pii.Sample], mode: str) -> Detections:
    """Every dev sentence's entities, detected with the model of the fold it is not in."""
    out: Detections = {}
    for fold in train_ner_crf.folds(dev):
        with fold_model([s for s in dev if s.template not in fold]):
            for s in dev:
                if s.template in fold:
                    out[s.text] = recognize(s.text, mode=mode)
    return out


DETECTOR_FILES = (
    "crf.py",
    "gazetteer.py",
    "structure.py",
    "chunks.py",
    "categories.py",
    "pipeline.py",
    "modes.py",
    "resolve.py",
    "normalize.py",
    "emails.py",
    "credentials.py",
)


def detector_files(src: Path) -> list[str]:
    """The detector's source files under ``src`` (pp_graph/anonymize), the recognisers' package included."""
    return [*DETECTOR_FILES, *sorted(p.relative_to(src).as_posix() for p in (src / "recognizers").glob("*.py"))]


# Code outside the detector that changes the fold detections: the training and split scripts, the checksums
# the pattern recognisers validate with.
OTHER_FILES = (HERE / "train_ner_crf.py", HERE / "_pii.py", HERE.parent / "pp_graph" / "checksums.py")


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "absent"


def _cache_key(mode: str) -> str:
    """Everything that changes the fold detections: the data, the mode, the model's settings, the detector code,
    the training script and the versions of the libraries that train and run the models."""
    src = HERE.parent / "pp_graph" / "anonymize"
    code = {p: crf.file_digest(src / p) for p in detector_files(src)}
    code.update({p.name: crf.file_digest(p) for p in OTHER_FILES})
    parts = {
        "data": crf.file_digest(_pii.DATASET),
        "mode": mode,
        "params": train_ner_crf.PARAMS,
        "features": crf.FEATURES_VERSION,
        "code": code,
        "lists": crf.word_lists_digest(),
        "lexicons": crf.lexicons(),
        "ner": crf.ner_pipeline(),
        "libraries": {p: _version(p) for p in ("python-crfsuite", "spacy")},
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


class CacheError(Exception):
    """The cache file is not one this script wrote."""


def read_cache(path: Path) -> tuple[str, Detections]:
    """(key, detections) of a cache file; any other shape is a CacheError naming the file and the problem."""
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise CacheError(f"{path}: not a readable JSON cache ({e})") from None
    if (
        not isinstance(saved, dict)
        or not isinstance(saved.get("key"), str)
        or not isinstance(saved.get("entities"), dict)
    ):
        raise CacheError(f"{path}: expected {{'key': str, 'entities': {{text: [...]}}}}")
    out: Detections = {}
    for text, es in saved["entities"].items():
        if not isinstance(es, list) or not all(_entity_row(e) for e in es):
            raise CacheError(f"{path}: the entities of a text are not [type, start, end, recognizer] rows")
        out[text] = [Entity(*e) for e in es]
    return saved["key"], out


def _entity_row(e: object) -> bool:
    return (
        isinstance(e, list)
        and len(e) == 4
        and isinstance(e[0], str)
        and all(type(x) is int for x in e[1:3])
        and isinstance(e[3], str)
    )


def cached_detections(dev: list[_pii.Sample], mode: str, cache: Path | None) -> Detections:
    key = _cache_key(mode)
    if cache is not None and cache.is_file():
        saved = read_cache(cache)
        if saved[0] == key:
            return saved[1]
        print(f"{cache}: made by other code, data or settings: detecting again")
    ents = fold_detections(dev, mode)
    if cache is not None:
        body = {
            "key": key,
            "entities": {t: [[e.type, e.start, e.end, e.recognizer] for e in es] for t, es in ents.items()},
        }
        tmp = cache.with_suffix(cache.suffix + ".tmp")
        tmp.write_text(json.dumps(body), encoding="utf-8")
        tmp.replace(cache)  # atomic: a killed run leaves the old cache or none
    return ents


def score(samples: list[_pii.Sample], rewrite: Callable[[_pii.Sample], str]) -> dict[str, float]:
    """bench_anonymize's privacy (values, tokens), utility and guess rate, pooled over ``samples``."""
    acc = [0] * 6
    guessed = 0
    for s in samples:
        *parts, g = bench_anonymize._scores(s, rewrite(s))
        acc = [x + y for x, y in zip(acc, parts, strict=True)]
        guessed += g
    return {
        "priv_values": acc[0] / acc[1],
        "priv_tokens": acc[2] / acc[3],
        "utility": acc[4] / acc[5],
        "guess": guessed / len(samples),
    }


def _line(name: str, r: dict[str, float]) -> str:
    return f"| {name} | {r['priv_values']:.3f} | {r['priv_tokens']:.3f} | {r['utility']:.3f} | {r['guess']:.3f} |"


HEADER = "| {} | privacy (values) | privacy (tokens) | utility | guess rate |\n|---|---|---|---|---|"


def levels(dev: list[_pii.Sample], ents: Detections, settings: SweepSettings) -> dict[int, dict[str, float]]:
    rows = {}
    print(HEADER.format("level"))
    for lv in (1, 2, 3, 4, 5):
        rows[lv] = score(dev, lambda s, lv=lv: apply_level(s.text, ents[s.text], lv, residual=settings)[0])
        print(_line(f"L{lv}", rows[lv]))
    return rows


# The settings tried for the trade-off curve (L3): each row adds evidence to the one before or loosens a threshold.
def _off(rules: tuple[str, ...], lone_first_names: bool = True) -> SweepSettings:
    """A setting of the curve before sentence-initial runs are allowed."""
    return SweepSettings(rules=rules, lone_first_names=lone_first_names, sentence_initial=False)


_BASE = ("speaker", "listed-name", "initial", "number", "code", "capitalised-run")
CURVE: list[tuple[str, SweepSettings]] = [
    ("none", NO_SWEEP),
    ("names only", _off(rules=("listed-name",), lone_first_names=False)),
    ("+ lone sentence-initial first names", _off(rules=("listed-name",))),
    ("+ speaker, initials", _off(rules=("speaker", "listed-name", "initial"))),
    ("+ numbers (≥ 2 digits)", _off(rules=("speaker", "listed-name", "initial", "number"))),
    ("+ codes (≥ 4 chars)", _off(rules=("speaker", "listed-name", "initial", "number", "code"))),
    ("+ capitalised runs", _off(rules=_BASE)),
    ("+ lower-case-text names", _off(rules=(*_BASE, "lowercase-name"))),
    ("+ block lines", _off(rules=(*_BASE, "lowercase-name", "block-line"))),
    ("+ sentence-initial runs", SweepSettings(rules=(*_BASE, "lowercase-name", "block-line"), sentence_initial=True)),
    ("+ unknown words (sentence starts, lower-case texts)", DEFAULT_SWEEP),
    ("default (the row above)", DEFAULT_SWEEP),
    ("default, unknown lower-case words anywhere", DEFAULT_SWEEP.replace(unknown_anywhere=True)),
    ("default, numbers ≥ 1 digit", DEFAULT_SWEEP.replace(min_digits=1)),
    ("default, numbers ≥ 3 digits", DEFAULT_SWEEP.replace(min_digits=3)),
    ("default, codes ≥ 6 chars", DEFAULT_SWEEP.replace(min_code=6)),
]


def curve(dev: list[_pii.Sample], ents: Detections) -> None:
    print("\nL3 under each sweep setting (dev CV):\n")
    print(HEADER.format("sweep setting"))
    for name, st in CURVE:
        print(_line(name, score(dev, lambda s, st=st: apply_level(s.text, ents[s.text], 3, residual=st)[0])))


def _cpu_ms(dev: list[_pii.Sample], fn: Callable[[_pii.Sample], object]) -> list[float]:
    out = []
    for s in dev:
        c = time.process_time()
        fn(s)
        out.append((time.process_time() - c) * 1000)
    return sorted(out)


def sweep_cost(dev: list[_pii.Sample], ents: Detections, settings: SweepSettings) -> None:
    """CPU time per sentence of the sweep alone (its input: the detections) and of the whole L5 rewrite with and
    without it, over the dev sentences (the detection's own time: bench_anonymize.py --latency-only)."""
    rows = {
        "sweep alone": _cpu_ms(dev, lambda s: sweep(s.text, ents[s.text], settings)),
        "L5 rewrite": _cpu_ms(dev, lambda s: apply_level(s.text, ents[s.text], 5, residual=settings)),
        "L5 rewrite, no sweep": _cpu_ms(dev, lambda s: apply_level(s.text, ents[s.text], 5, residual=NO_SWEEP)),
    }
    print(f"\nCPU per sentence on {len(dev)} dev sentences:")
    for name, cpu in rows.items():
        print(f"  {name:22} mean {sum(cpu) / len(cpu):.3f} ms, p99 {cpu[int(0.99 * (len(cpu) - 1))]:.3f} ms")


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default=DEFAULT_MODE, help=f"the NER mode ({', '.join(ner_modes())})")
    ap.add_argument("--curve", action="store_true", help="L3 under each sweep setting tried")
    ap.add_argument("--no-sweep", action="store_true", help="the levels without the residual sweep")
    ap.add_argument("--cache", type=Path, help="a JSON file for the fold detections (reused when its key matches)")
    a = ap.parse_args()
    if a.mode not in ner_modes():
        raise ConfigError(f"--mode {a.mode!r} is not one of {', '.join(ner_modes())}")
    return a


def main() -> int:
    try:
        a = _args()
    except ConfigError as e:
        print(f"cv_anonymize: {e}", file=sys.stderr)
        return 2
    dev, _ = _pii.split(_pii.load())  # the held-out half is not used
    try:
        ents = cached_detections(dev, a.mode, a.cache)
    except CacheError as e:
        print(f"cv_anonymize: {e}; delete it or pass another --cache", file=sys.stderr)
        return 2
    recall = _pii.token_prf(dev, lambda x: [(e.type, e.start, e.end) for e in ents[x]])
    print(f"Dev CV ({len(dev)} sentences, 2 template folds, mode {a.mode!r}); detection token recall:")
    print(", ".join(f"{t} {v['R']:.2f}" for t, v in recall.items()) + "\n")
    settings = NO_SWEEP if a.no_sweep else DEFAULT_SWEEP
    rows = levels(dev, ents, settings)
    if a.curve:
        curve(dev, ents)
    sweep_cost(dev, ents, settings)
    ok = rows[3]["priv_tokens"] >= 0.97 and rows[3]["utility"] >= 0.85
    if not ok:
        print(
            f"TARGET MISSED (dev CV): L3 privacy(tokens) {rows[3]['priv_tokens']:.3f} / "
            f"utility {rows[3]['utility']:.3f}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
