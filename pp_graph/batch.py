"""Convert many policies: parallel jobs, progress, per-file reports, atomic writes, resume.

Each converted policy leaves two files in the output folder: ``<site><suffix>`` (the graph) and
``<site>.report.json`` (its report, with the digest of the input and of the settings). A later run
skips an input whose digests match and whose graph is still there, unless ``force``.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pp_graph.errors import ConfigError, InputError, PPGraphError
from pp_graph.graph.serialize import SUFFIX, serialize
from pp_graph.load.sources import check_site, discover, load_policy, policy_files, site_from_name
from pp_graph.load.versions import iso_of_stamp, output_stem, stamp_of
from pp_graph.resources import PROMPTS

REPORT_SUFFIX = ".report.json"


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write to a temporary file in the same folder, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass
class FileResult:
    source: str
    status: str  # converted | unchanged | failed | skipped
    site: str | None = None
    output: str | None = None
    error: str | None = None
    report: dict[str, Any] = field(default_factory=dict)


@dataclass
class BatchReport:
    files: list[FileResult]
    seconds: float

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)

    @property
    def ok(self) -> bool:
        return self.count("failed") == 0

    def totals(self) -> dict[str, Any]:
        practices: dict[str, int] = {}
        tot: dict[str, Any] = {"policies": 0, "segments": 0, "triples": 0, "characters": 0}
        for f in self.files:
            if f.status not in {"converted", "unchanged"}:
                continue
            r = f.report
            tot["policies"] += 1
            tot["segments"] += r.get("segments", 0)
            tot["triples"] += r.get("triples", 0)
            tot["characters"] += r.get("characters", 0)
            for k, v in r.get("practices", {}).items():
                practices[k] = practices.get(k, 0) + v
        tot["practices"] = dict(sorted(practices.items()))
        return tot

    def to_dict(self) -> dict[str, Any]:
        return {
            "seconds": round(self.seconds, 3),
            "converted": self.count("converted"),
            "unchanged": self.count("unchanged"),
            "failed": self.count("failed"),
            "skipped": self.count("skipped"),
            "totals": self.totals(),
            "files": [f.__dict__ for f in self.files],
        }


def settings_digest(backend: str, options: dict[str, Any], fmt: str) -> str:
    """What, besides the input, decides the output: backend, its options, lexicons/prompts, format."""
    from pp_graph import __version__
    from pp_graph.extract.offline import backend as offline
    from pp_graph.extract.offline.lexicon import digest_files
    from pp_graph.extract.offline.version import dpv_digest

    # Budget and cache settings change how a graph is obtained, not what it says: a run stopped by
    # --budget must resume without converting the finished policies again.
    decisive = {k: v for k, v in options.items() if k not in _NOT_DECISIVE}
    # The rule-set version digests the rule code and data (a rule change re-converts); DPV decides every concept.
    versions = [__version__, dpv_digest(), offline.RULESET_VERSION if backend == "offline" else ""]
    h = hashlib.sha256(json.dumps([*versions, backend, decisive, fmt], sort_keys=True, default=str).encode())
    files = [*offline.LEXICON_DIR.glob("*.tsv"), *(p for p in PROMPTS.glob("*") if p.is_file())]
    if options.get("config"):
        files.append(Path(options["config"]))  # its contents, not just its name, decide the output
    h.update(digest_files(files).encode())
    return h.hexdigest()[:16]


_NOT_DECISIVE = frozenset({"budget", "no_cache", "cache_path"})


# ---- worker side (runs in the pool's processes, or inline for --jobs 1) ----

_BACKEND: Any = None
_LEARNED: Any = None  # the learned layer (convert --model DIR with the offline backend), or None
_BACKEND_KEY: tuple[str, str, str | None] | None = None  # what they were made from (a Dask worker is reused)


def backend_key() -> tuple[str, str, str | None] | None:
    return _BACKEND_KEY


def _init_worker(backend: str, options: dict[str, Any], learned: str | None = None) -> None:
    global _BACKEND, _LEARNED, _BACKEND_KEY
    from pp_graph.extract.learned.model import load_model
    from pp_graph.extract.registry import get_backend

    _BACKEND = get_backend(backend, **options)
    _LEARNED = load_model(Path(learned)) if learned else None
    _BACKEND_KEY = (backend, repr(sorted(options.items())), learned)


def _convert_one(
    path: str,
    site: str | None,
    out_dir: str,
    fmt: str,
    input_digest: str,
    settings: str,
    valid_from: str | None = None,
) -> FileResult:
    from pp_graph.api import convert_policy

    src = Path(path)
    try:
        policy = load_policy(src, site=site, valid_from=valid_from)
        conv = convert_policy(policy, _BACKEND, learned=_LEARNED)
        stem = output_stem(policy.site, policy.valid_from)
        out = Path(out_dir) / f"{stem}{SUFFIX[fmt]}"
        atomic_write(out, serialize(conv.dataset, conv.graph, fmt))
        report = conv.report.to_dict()
        report.update(
            characters=len(policy.text),
            input_digest=input_digest,
            settings_digest=settings,
            format=fmt,
            graph=str(conv.graph),
            output=out.name,
        )
        if policy.valid_from:
            report["valid_from"] = policy.valid_from
        atomic_write(Path(out_dir) / f"{stem}{REPORT_SUFFIX}", json.dumps(report, indent=1, sort_keys=True))
        return FileResult(src.name, "converted", policy.site, out.name, report=report)
    except PPGraphError as e:
        if getattr(e, "fatal", False):
            raise  # e.g. a refused API key: every further policy would fail the same way, stop the batch
        return FileResult(src.name, "failed", error=str(e))
    except Exception as e:  # one bad policy must not sink the batch; the message names it
        return FileResult(src.name, "failed", error=f"{src.name}: internal error: {type(e).__name__}: {e}")


def _previous(out_dir: Path, stem: str, input_digest: str, settings: str, fmt: str) -> dict[str, Any] | None:
    rp = out_dir / f"{stem}{REPORT_SUFFIX}"
    try:
        report: dict[str, Any] = json.loads(rp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        report.get("input_digest") == input_digest
        and report.get("settings_digest") == settings
        and report.get("format") == fmt
        and (out_dir / f"{stem}{SUFFIX[fmt]}").exists()
    ):
        return report
    return None


def convert_batch(
    inputs: Iterable[Path],
    out_dir: Path,
    *,
    fmt: str = "trig",
    backend: str = "offline",
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    force: bool = False,
    site: str | None = None,
    valid_from: str | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    on_done: Callable[[FileResult], None] | None = None,
    on_total: Callable[[int], None] | None = None,
) -> BatchReport:
    """Convert every policy file under ``inputs`` into ``out_dir``; never stops at a bad file."""
    t0 = time.perf_counter()
    options = dict(options or {})
    learned = options.pop("learned", None)
    decisive = options
    if learned:
        from pp_graph.extract.learned.model import load_model

        # Checked here, before any file: a wrong folder fails the batch once. Its digest decides the output.
        decisive = {**options, "learned": load_model(Path(learned)).digest}
    inputs = list(inputs)
    if site:
        files, skipped = discover(inputs), list[Path]()
        # One site for several files only when each is a dated version of it (<date>.md): each keeps its own name.
        if len(files) != 1 and not (files and all(stamp_of(f) for f in files)):
            raise InputError(str(inputs[0]), f"--site names one site but {len(files)} files were given")
        site = check_site(site, str(inputs[0]))  # the outputs are named by the normalised site
    else:
        files, skipped = policy_files(inputs)
    if on_total:
        on_total(len(files) + len(skipped))
    settings = settings_digest(backend, decisive, fmt)
    results = [FileResult(f.name, "skipped", error=f"{f.name}: not named <domain>.<ext>; skipped") for f in skipped]
    todo: list[tuple[Path, str]] = []
    claimed: dict[str, Path] = {}
    if valid_from is not None and len(files) != 1:
        raise InputError(str(inputs[0]), f"--date dates one policy version but {len(files)} files were given")
    for f in files:
        name_site = site or site_from_name(f)
        stamp = stamp_of(f)
        stem = output_stem(name_site, valid_from or (iso_of_stamp(stamp) if stamp else None))
        if stem in claimed:
            # Both would be written to <stem>.trig; keep the first, say why the second was not converted.
            error = f"{f.name}: same site {name_site} as {claimed[stem].name}; rename one or convert it alone"
            results.append(FileResult(f.name, "failed", error=error))
            continue
        claimed[stem] = f
        try:
            digest = hashlib.sha256(f.read_bytes()).hexdigest()
        except OSError as e:
            results.append(FileResult(f.name, "failed", error=f"{f.name}: cannot be read ({e.strerror})"))
            continue
        prev = None if force else _previous(out_dir, stem, digest, settings, fmt)
        if prev is not None:
            results.append(FileResult(f.name, "unchanged", name_site, prev.get("output"), report=prev))
        else:
            todo.append((f, digest))
    for r in results:
        if on_done:
            on_done(r)

    out_dir.mkdir(parents=True, exist_ok=True)
    if executor == "dask":
        if not scheduler:
            raise ConfigError("--executor dask needs --scheduler tcp://HOST:PORT (a running Dask scheduler)")
        from pp_graph.scale.dask import run_on_dask

        results.extend(
            run_on_dask(
                scheduler,
                todo,
                site=site,
                out_dir=out_dir,
                fmt=fmt,
                settings=settings,
                valid_from=valid_from,
                backend=backend,
                options=options,
                learned=learned,
                on_done=on_done,
            )
        )
    elif executor != "process":
        raise ConfigError(f"--executor {executor!r}: one of process, dask")
    elif jobs <= 1 or len(todo) <= 1:
        _init_worker(backend, options, learned)
        for f, digest in todo:
            r = _convert_one(str(f), site, str(out_dir), fmt, digest, settings, valid_from)
            results.append(r)
            if on_done:
                on_done(r)
    else:
        with ProcessPoolExecutor(
            max_workers=jobs, initializer=_init_worker, initargs=(backend, options, learned)
        ) as pool:
            # Largest first keeps the workers busy to the end.
            ordered = sorted(todo, key=lambda t: -t[0].stat().st_size)
            pending: set[Future[FileResult]] = {
                pool.submit(_convert_one, str(f), site, str(out_dir), fmt, d, settings, valid_from) for f, d in ordered
            }
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    try:
                        r = fut.result()
                    except PPGraphError:  # fatal (see _convert_one): drop what has not started
                        for p in pending:
                            p.cancel()
                        raise
                    results.append(r)
                    if on_done:
                        on_done(r)
    results.sort(key=lambda r: r.source)
    return BatchReport(results, time.perf_counter() - t0)
