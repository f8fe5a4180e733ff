"""Convert many policies: parallel jobs, progress, per-file reports, atomic writes, resume.

Each converted policy leaves two files in the output folder: ``<site><suffix>`` (the graph) and
``<site>.report.json`` (its report, with the digest of the input and of the settings). A later run
skips an input whose digests match and whose graph is still there, unless ``force``.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from pp_graph.errors import ConfigError, InputError
from pp_graph.graph.serialize import SUFFIX
from pp_graph.load.sources import (
    DEFAULT_MAX_BYTES,
    check_site,
    discover,
    display_name,
    link_problem,
    policy_files,
    site_from_name,
    skip_reason,
    too_big,
)
from pp_graph.load.versions import iso_of_stamp, output_stem, stamp_of
from pp_graph.outfiles import atomic_write, ensure_dir
from pp_graph.resources import PROMPTS
from pp_graph.worker import REPORT_SUFFIX, FileResult, Progress, convert_one, init_worker

__all__ = ["BatchReport", "FileResult", "atomic_write", "convert_batch"]


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
    from pp_graph.extract.offline import backend as offline
    from pp_graph.extract.offline.lexicon import digest_files
    from pp_graph.extract.offline.version import dpv_digest
    from pp_graph.load.language import VERSION as LANGUAGE
    from pp_graph.load.reading import VERSION as SEGMENTER
    from pp_graph.version import __version__

    # Budget and cache settings change how a graph is obtained, not what it says: a run stopped by
    # --budget must resume without converting the finished policies again.
    decisive = {k: v for k, v in options.items() if k not in _NOT_DECISIVE}
    # The rule-set version digests the rule code and data (a rule change re-converts); DPV decides every concept.
    versions = [__version__, dpv_digest(), offline.RULESET_VERSION if backend == "offline" else "", SEGMENTER, LANGUAGE]
    h = hashlib.sha256(json.dumps([*versions, backend, decisive, fmt], sort_keys=True, default=str).encode())
    files = [*offline.LEXICON_DIR.glob("*.tsv"), *(p for p in PROMPTS.glob("*") if p.is_file())]
    if options.get("config"):
        files.append(Path(options["config"]))  # its contents, not just its name, decide the output
    h.update(digest_files(files).encode())
    return h.hexdigest()[:16]


_NOT_DECISIVE = frozenset({"budget", "no_cache", "cache_path"})


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
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    on_done: Callable[[FileResult], None] | None = None,
    on_total: Callable[[int], None] | None = None,
    on_step: Progress | None = None,
) -> BatchReport:
    """Convert every policy file under ``inputs`` into ``out_dir``; never stops at a bad file.

    Files are named in results relative to the folder they were found in. ``max_bytes`` (None: no limit)
    refuses larger files with a message saying how to raise it. A fatal error (an unwritable folder, a
    refused API key) stops the batch; finished files are kept and a rerun resumes after them.
    """
    t0 = time.perf_counter()
    options, learned, decisive = _learned_options(options)
    inputs = list(inputs)
    ensure_dir(out_dir)  # before any work: an unwritable folder is one clear error, not one per file
    files, skipped, site = _discover(inputs, site)
    if on_total:
        on_total(len(files) + len(skipped))
    settings = settings_digest(backend, decisive, fmt)
    if valid_from is not None and len(files) != 1:
        raise InputError(str(inputs[0]), f"--date dates one policy version but {len(files)} files were given")
    label = {f: display_name(f, inputs) for f in [*files, *skipped]}
    results = [
        FileResult(label[f], "skipped", error=f"{label[f]}: {skip_reason(f) or 'not a policy'}; skipped")
        for f in skipped
    ]
    todo = _plan(files, label, site, valid_from, out_dir, settings, fmt, force, max_bytes, results)
    for r in results:
        if on_done:
            on_done(r)
    run = _Run(site, out_dir, fmt, settings, max_bytes, valid_from, backend, options, learned, label, on_done, on_step)
    if executor == "dask":
        results.extend(_run_dask(run, todo, scheduler))
    elif executor != "process":
        raise ConfigError(f"--executor {executor!r}: one of process, dask")
    elif jobs <= 1 or len(todo) <= 1:
        results.extend(_run_here(run, todo))
    else:
        args = (site, str(out_dir), fmt, settings, max_bytes, valid_from)
        results.extend(_run_pool(todo, label, args, backend, options, jobs, on_done, on_step, learned))
    results.sort(key=lambda r: r.source)
    return BatchReport(results, time.perf_counter() - t0)


def _learned_options(options: dict[str, Any] | None) -> tuple[dict[str, Any], Any, dict[str, Any]]:
    """(the backend's options without "learned", the learned model's folder or None, the options that decide
    the output: with the model's digest in place of its folder)."""
    options = dict(options or {})
    learned = options.pop("learned", None)
    decisive = options
    if learned:
        from pp_graph.extract.learned.model import load_model

        # Checked here, before any file: a wrong folder fails the batch once. Its digest decides the output.
        decisive = {**options, "learned": load_model(Path(learned)).digest}
    return options, learned, decisive


def _discover(inputs: list[Path], site: str | None) -> tuple[list[Path], list[Path], str | None]:
    """(policy files, files skipped as not policies, the normalised ``site``). With ``site``, every input is
    taken, and several files only when each is a dated version of that site (<date>.md)."""
    if not site:
        files, skipped = policy_files(inputs)
        return files, skipped, site
    found = discover(inputs)
    files = [f for f in found if link_problem(f) is None]
    links = [f for f in found if link_problem(f) is not None]  # loops and missing targets: listed as skipped
    # One site for several files only when each is a dated version of it (<date>.md): each keeps its own name.
    if len(files) != 1 and not (files and all(stamp_of(f) for f in files)):
        raise InputError(str(inputs[0]), f"--site names one site but {len(files)} files were given")
    return files, links, check_site(site, str(inputs[0]), from_option=True)  # outputs are named by the normalised site


@dataclass(frozen=True)
class _Run:
    """What every file of one batch is converted with (the dask and in-process runners read it)."""

    site: str | None
    out_dir: Path
    fmt: str
    settings: str
    max_bytes: int | None
    valid_from: str | None
    backend: str
    options: dict[str, Any]
    learned: Any
    label: dict[Path, str]
    on_done: Callable[[FileResult], None] | None
    on_step: Progress | None


def _run_dask(run: _Run, todo: list[tuple[Path, str]], scheduler: str | None) -> list[FileResult]:
    if not scheduler:
        raise ConfigError("--executor dask needs --scheduler tcp://HOST:PORT (a running Dask scheduler)")
    from pp_graph.scale.dask import run_on_dask

    return run_on_dask(
        scheduler,
        todo,
        site=run.site,
        out_dir=run.out_dir,
        fmt=run.fmt,
        settings=run.settings,
        valid_from=run.valid_from,
        backend=run.backend,
        options=run.options,
        on_done=run.on_done,
        learned=run.learned,
        labels=run.label,
        max_bytes=run.max_bytes,
    )


def _run_here(run: _Run, todo: list[tuple[Path, str]]) -> list[FileResult]:
    """The files one after another in this process."""
    init_worker(run.backend, run.options, run.on_step, learned=run.learned)
    out = []
    for f, digest in todo:
        r = convert_one(
            str(f),
            run.label[f],
            run.site,
            str(run.out_dir),
            run.fmt,
            digest,
            run.settings,
            run.max_bytes,
            run.valid_from,
        )
        out.append(r)
        if run.on_done:
            run.on_done(r)
    return out


def _plan(
    files: list[Path],
    label: dict[Path, str],
    site: str | None,
    valid_from: str | None,
    out_dir: Path,
    settings: str,
    fmt: str,
    force: bool,
    max_bytes: int | None,
    results: list[FileResult],
) -> list[tuple[Path, str]]:
    """The files to convert, with their digests; the others go to ``results`` (unchanged or failed)."""
    todo: list[tuple[Path, str]] = []
    claimed: dict[str, Path] = {}
    for f in files:
        name = label[f]
        try:
            name_site = site or check_site(site_from_name(f), name)
        except InputError as e:
            results.append(FileResult(name, "failed", error=str(e)))
            continue
        stamp = stamp_of(f)
        stem = output_stem(name_site, valid_from or (iso_of_stamp(stamp) if stamp else None))
        if stem in claimed:
            # Both would be written to <stem>.trig; keep the first, say why the second was not converted.
            error = f"{name}: same site {name_site} as {label[claimed[stem]]}; rename one or convert it alone"
            results.append(FileResult(name, "failed", error=error))
            continue
        claimed[stem] = f
        try:
            size = f.stat().st_size
            if max_bytes is not None and size > max_bytes:
                results.append(FileResult(name, "failed", error=f"{name}: {too_big(size, max_bytes)}"))
                continue
            digest = hashlib.sha256(f.read_bytes()).hexdigest()
        except OSError as e:
            results.append(FileResult(name, "failed", error=f"{name}: cannot be read ({e.strerror})"))
            continue
        prev = None if force else _previous(out_dir, stem, digest, settings, fmt)
        if prev is not None:
            results.append(FileResult(name, "unchanged", name_site, prev.get("output"), report=prev))
        else:
            todo.append((f, digest))
    return todo


def _run_pool(
    todo: list[tuple[Path, str]],
    label: dict[Path, str],
    args: tuple[str | None, str, str, str, int | None, str | None],
    backend: str,
    options: dict[str, Any],
    jobs: int,
    on_done: Callable[[FileResult], None] | None,
    on_step: Progress | None,
    learned: str | None = None,
) -> list[FileResult]:
    """The files through a process pool whose workers die with this process (see die_with_parent)."""
    import multiprocessing

    site, out_dir, fmt, settings, max_bytes, valid_from = args
    context = _TrackingContext(multiprocessing.get_context())
    queue = context.Queue() if on_step else None
    results: list[FileResult] = []
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=cast(Any, context),  # a BaseContext in all but name: it delegates to one
        initializer=init_worker,
        initargs=(backend, options, queue, os.getpid(), learned),
    )
    try:
        # Largest first keeps the workers busy to the end.
        ordered = sorted(todo, key=lambda t: -t[0].stat().st_size)
        pending: set[Future[FileResult]] = {
            pool.submit(convert_one, str(f), label[f], site, out_dir, fmt, d, settings, max_bytes, valid_from)
            for f, d in ordered
        }
        while pending:
            done, pending = wait(pending, timeout=0.2 if queue else None, return_when=FIRST_COMPLETED)
            _drain(queue, on_step)
            for fut in done:
                r = fut.result()  # a fatal PPGraphError (see convert_one) propagates: the finally stops the rest
                results.append(r)
                if on_done:
                    on_done(r)
    finally:
        _stop(pool, context.processes)
    return results


def _drain(queue: Any, on_step: Progress | None) -> None:
    import queue as queue_mod

    while queue is not None and on_step is not None:
        try:
            on_step(*queue.get_nowait())
        except queue_mod.Empty:
            return


_STOP_GRACE = 3.0  # seconds a signalled worker has to clean up before it is killed


class _TrackingContext:
    """A multiprocessing context that remembers the worker processes it starts: the pool has no public way to end
    running workers, so the batch keeps its own handles (passed as the pool's ``mp_context``)."""

    def __init__(self, base: Any) -> None:
        self._base = base
        self.processes: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)

    def Process(self, *args: Any, **kwargs: Any) -> Any:
        proc = self._base.Process(*args, **kwargs)
        self.processes.append(proc)
        return proc


def _stop(pool: ProcessPoolExecutor, workers: list[Any]) -> None:
    """Cancel what has not started and end the workers now (a no-op after a normal finish)."""
    procs = list(workers)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()  # SIGTERM: the worker removes its half-written temp file and exits
    # A worker can outlive that signal (the first one turns its task into an exception it then blocks sending
    # back); one left alive makes the interpreter's exit hang on the pool's manager thread, so it is killed.
    end = time.monotonic() + _STOP_GRACE
    for proc in procs:
        proc.join(max(0.0, end - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(1.0)
    for proc in procs:
        proc.join(timeout=10)
