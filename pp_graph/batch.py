"""Convert many policies: parallel jobs, progress, per-file reports, atomic writes, resume.

Each converted policy leaves two files in the output folder: ``<site><suffix>`` (the graph) and
``<site>.report.json`` (its report, with the digest of the input and of the settings). A later run
skips an input whose digests match and whose graph is still there, unless ``force``.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pp_graph.errors import ConfigError, InputError, OutputError, PPGraphError
from pp_graph.graph.serialize import SUFFIX, serialize_policy
from pp_graph.load.sources import (
    DEFAULT_MAX_BYTES,
    check_site,
    discover,
    display_name,
    load_policy,
    policy_files,
    site_from_name,
    skip_reason,
    too_big,
)
from pp_graph.load.versions import iso_of_stamp, output_stem, stamp_of
from pp_graph.outfiles import atomic_write, ensure_dir
from pp_graph.resources import PROMPTS

__all__ = ["BatchReport", "FileResult", "atomic_write", "convert_batch"]

REPORT_SUFFIX = ".report.json"

# A step inside one file: (file, step, step number, number of steps); see pipeline.extract.
Progress = Callable[[str, str, int, int], None]


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
    from pp_graph.load.reading import VERSION as SEGMENTER

    # Budget and cache settings change how a graph is obtained, not what it says: a run stopped by
    # --budget must resume without converting the finished policies again.
    decisive = {k: v for k, v in options.items() if k not in _NOT_DECISIVE}
    # The rule-set version digests the rule code and data (a rule change re-converts); DPV decides every concept.
    versions = [__version__, dpv_digest(), offline.RULESET_VERSION if backend == "offline" else "", SEGMENTER]
    h = hashlib.sha256(json.dumps([*versions, backend, decisive, fmt], sort_keys=True, default=str).encode())
    files = [*offline.LEXICON_DIR.glob("*.tsv"), *(p for p in PROMPTS.glob("*") if p.is_file())]
    if options.get("config"):
        files.append(Path(options["config"]))  # its contents, not just its name, decide the output
    h.update(digest_files(files).encode())
    return h.hexdigest()[:16]


_NOT_DECISIVE = frozenset({"budget", "no_cache", "cache_path"})


# ---- worker side (runs in the pool's processes, or inline for --jobs 1) ----

_BACKEND: Any = None
_PROGRESS: Any = None  # the pool's progress queue, or the caller's callback inline
_IN_POOL = False  # this process is a pool worker (set by _die_with_parent)
_INIT_ERROR: PPGraphError | None = None  # a pool worker's backend could not be made: said at the first file
_LEARNED: Any = None  # the learned layer (convert --model DIR with the offline backend), or None
_BACKEND_KEY: tuple[str, str, str | None] | None = None  # what they were made from (a Dask worker is reused)


def backend_key() -> tuple[str, str, str | None] | None:
    return _BACKEND_KEY


def _make_backend(backend: str, options: dict[str, Any], learned: str | None) -> None:
    global _BACKEND, _LEARNED, _BACKEND_KEY
    from pp_graph.extract.learned.model import load_model
    from pp_graph.extract.registry import get_backend

    _BACKEND = get_backend(backend, **options)
    _LEARNED = load_model(Path(learned)) if learned else None
    _BACKEND_KEY = (backend, repr(sorted(options.items())), learned)


def _init_worker(
    backend: str, options: dict[str, Any], progress: Any = None, parent: int | None = None, learned: str | None = None
) -> None:
    global _PROGRESS, _INIT_ERROR, _IN_POOL
    _PROGRESS = progress
    if parent is None:
        _make_backend(backend, options, learned)
        return
    _IN_POOL = True
    _die_with_parent(parent)
    try:
        _make_backend(backend, options, learned)
    except PPGraphError as e:  # raised here, it would only break the pool, with a traceback
        _INIT_ERROR = e


def _die_with_parent(parent: int) -> None:
    """A pool worker must not outlive the batch: killed (even by SIGKILL) or interrupted, the parent's
    workers stop too, removing the file they were writing, instead of writing on and then hanging."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group; the parent decides
    signal.signal(signal.SIGTERM, _exit_on_signal)  # SystemExit runs atomic_write's clean-up
    try:  # Linux: the kernel sends SIGTERM when the parent dies
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:  # elsewhere (and as a back-up): notice being re-parented
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os.kill(os.getpid(), signal.SIGTERM)


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)  # caught again in _convert_one, which ends the worker (see there)


def _report_step(label: str) -> Callable[[str, int, int], None] | None:
    progress = _PROGRESS
    if progress is None:
        return None
    if callable(progress):  # inline
        return lambda name, i, n: progress(label, name, i, n)
    return lambda name, i, n: progress.put((label, name, i, n))  # a pool worker: through the queue


def _convert_one(
    path: str,
    label: str,
    site: str | None,
    out_dir: str,
    fmt: str,
    input_digest: str,
    settings: str,
    max_bytes: int | None,
    valid_from: str | None = None,
) -> FileResult:
    from pp_graph.api import convert_policy

    if _INIT_ERROR is not None:
        raise _INIT_ERROR
    src = Path(path)
    t0 = time.perf_counter()
    try:
        step = _report_step(label)
        policy = load_policy(src, site=site, label=label, max_bytes=max_bytes, valid_from=valid_from)
        conv = convert_policy(policy, _BACKEND, learned=_LEARNED, on_stage=step)
        if step is not None:
            step("write", 0, 0)
        stem = output_stem(policy.site, policy.valid_from)
        out = Path(out_dir) / f"{stem}{SUFFIX[fmt]}"
        t_write = time.perf_counter()
        triples, graph, report = conv.triples, conv.graph, conv.report.to_dict()
        del conv  # the extraction (every segment's mentions) is not needed to write the graph: freed first
        atomic_write(out, serialize_policy(triples, graph, fmt))
        report.update(
            characters=len(policy.text),
            input_digest=input_digest,
            settings_digest=settings,
            format=fmt,
            graph=str(graph),
            output=out.name,
            # Reading, extraction, the graph and writing it: what the file cost.
            seconds=round(time.perf_counter() - t0, 4),
            write_seconds=round(time.perf_counter() - t_write, 4),
        )
        if policy.valid_from:
            report["valid_from"] = policy.valid_from
        atomic_write(Path(out_dir) / f"{stem}{REPORT_SUFFIX}", json.dumps(report, indent=1, sort_keys=True))
        return FileResult(label, "converted", policy.site, out.name, report=report)
    except SystemExit as e:
        if _IN_POOL:  # the temp file is already removed; the pool would catch SystemExit and wait on, orphaned
            os._exit(e.code if isinstance(e.code, int) else 1)
        raise
    except PPGraphError as e:
        if getattr(e, "fatal", False):
            # e.g. a refused API key or an unwritable folder: every further policy would fail the same
            # way; stop the batch, naming the file it happened in.
            if isinstance(e, OutputError):
                raise  # names the output file already
            raise type(e)(f"{label}: {e}") from e
        msg = str(e)
        return FileResult(label, "failed", error=msg if msg.startswith(f"{label}: ") else f"{label}: {msg}")
    except Exception as e:  # one bad policy must not sink the batch; the message names it
        return FileResult(label, "failed", error=f"{label}: internal error: {type(e).__name__}: {e}")


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
    files = discover(inputs)
    # One site for several files only when each is a dated version of it (<date>.md): each keeps its own name.
    if len(files) != 1 and not (files and all(stamp_of(f) for f in files)):
        raise InputError(str(inputs[0]), f"--site names one site but {len(files)} files were given")
    return files, [], check_site(site, str(inputs[0]), from_option=True)  # outputs are named by the normalised site


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
    _init_worker(run.backend, run.options, run.on_step, learned=run.learned)
    out = []
    for f, digest in todo:
        r = _convert_one(
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
    """The files through a process pool whose workers die with this process (see _die_with_parent)."""
    import multiprocessing

    site, out_dir, fmt, settings, max_bytes, valid_from = args
    queue = multiprocessing.get_context().Queue() if on_step else None
    results: list[FileResult] = []
    pool = ProcessPoolExecutor(
        max_workers=jobs, initializer=_init_worker, initargs=(backend, options, queue, os.getpid(), learned)
    )
    try:
        # Largest first keeps the workers busy to the end.
        ordered = sorted(todo, key=lambda t: -t[0].stat().st_size)
        pending: set[Future[FileResult]] = {
            pool.submit(_convert_one, str(f), label[f], site, out_dir, fmt, d, settings, max_bytes, valid_from)
            for f, d in ordered
        }
        while pending:
            done, pending = wait(pending, timeout=0.2 if queue else None, return_when=FIRST_COMPLETED)
            _drain(queue, on_step)
            for fut in done:
                r = fut.result()  # a fatal PPGraphError (see _convert_one) propagates: the finally stops the rest
                results.append(r)
                if on_done:
                    on_done(r)
    finally:
        _stop(pool)
    return results


def _drain(queue: Any, on_step: Progress | None) -> None:
    import queue as queue_mod

    while queue is not None and on_step is not None:
        try:
            on_step(*queue.get_nowait())
        except queue_mod.Empty:
            return


_STOP_GRACE = 3.0  # seconds a signalled worker has to clean up before it is killed


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (a no-op after a normal finish)."""
    procs = list(getattr(pool, "_processes", {}).values())  # no public way to end running workers
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
