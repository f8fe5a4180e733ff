"""Run a batch's conversions on a Dask distributed cluster.

Each policy is one idempotent task keyed by its input and settings digests. The task carries the file's bytes
and returns the output files' bytes, so workers need no shared file system; the client writes the results with
the batch's atomic writes, as the local batch does, so the files are byte-identical either way. A task whose
worker dies is run again by the scheduler (Dask's own rescheduling); what was written is never half-written.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pp_graph.errors import ConfigError, PPGraphError

CONNECT_SECONDS = 10


def convert_remote(
    data: bytes,
    rel: str,
    site: str | None,
    fmt: str,
    digest: str,
    settings: str,
    valid_from: str | None,
    backend: str,
    options: dict[str, Any],
    learned: tuple[str, ...] = (),
    label: str = "",
    max_bytes: int | None = None,
) -> tuple[Any, dict[str, bytes]]:
    """On a worker: convert one policy given as bytes; (its FileResult, output file name → bytes)."""
    from pp_graph import worker

    if worker.backend_key() != (backend, repr(sorted(options.items())), learned):
        worker.init_worker(backend, options, learned=learned)
    with tempfile.TemporaryDirectory(prefix="pp-graph-task-") as tmp:
        src = Path(tmp) / "in" / rel
        src.parent.mkdir(parents=True)
        src.write_bytes(data)
        out = Path(tmp) / "out"
        out.mkdir()
        # The size limit is checked again on the bytes sent (the file may have grown since the client planned), as
        # the in-process runner does; the label is the file's name as the client gave it.
        result = worker.convert_one(str(src), label, site, str(out), fmt, digest, settings, max_bytes, valid_from)
        files = {f.name: f.read_bytes() for f in out.iterdir() if f.is_file() and not f.name.startswith(".")}
    return result, files


def run_on_dask(
    scheduler: str,
    todo: Sequence[tuple[Path, str]],
    *,
    site: str | None,
    out_dir: Path,
    fmt: str,
    settings: str,
    valid_from: str | None,
    backend: str,
    options: dict[str, Any],
    on_done: Callable[[Any], None] | None,
    learned: tuple[str, ...] = (),
    labels: dict[Path, str] | None = None,
    max_bytes: int | None = None,
) -> list[Any]:
    """Every (file, digest) of ``todo`` as a task on the cluster at ``scheduler``; results as they finish."""
    try:
        from distributed import Client, as_completed
    except ImportError as e:
        raise ConfigError("--executor dask needs the 'distributed' package (pip install 'pp-graph[dask]')") from e
    from pp_graph.outfiles import atomic_write

    try:
        client = Client(scheduler, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as e:
        raise ConfigError(f"--scheduler {scheduler}: cannot reach a Dask scheduler ({e})") from e
    results = []
    try:
        futures = []
        for f, digest in sorted(todo, key=lambda t: -t[0].stat().st_size):
            rel = f"{f.parent.name}/{f.name}"  # a dated version takes its site from its folder
            futures.append(
                client.submit(
                    convert_remote,
                    f.read_bytes(),
                    rel,
                    site,
                    fmt,
                    digest,
                    settings,
                    valid_from,
                    backend,
                    options,
                    learned,  # model folders: every worker must see them at these paths
                    (labels or {}).get(f, f.name),
                    max_bytes,
                    key=f"pp-graph-convert-{digest[:16]}-{settings}-{fmt}-{max_bytes}",
                    retries=2,
                )
            )
        for fut in as_completed(futures):
            try:
                result, files = fut.result()
            except PPGraphError:
                client.cancel(futures)
                raise
            # The graph before its report: a report names a graph that is there (resume trusts that).
            for name, body in sorted(files.items(), key=lambda kv: kv[0].endswith(".report.json")):
                atomic_write(out_dir / name, body)
            results.append(result)
            if on_done:
                on_done(result)
    finally:
        client.close()
    return results
