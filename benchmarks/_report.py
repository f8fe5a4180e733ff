"""Run benchmark or evaluation scripts and write their figures into the docs site's generated page.

    python benchmarks/_report.py bench benchmarks/bench_convert.py benchmarks/bench_query.py ...
    python benchmarks/_report.py eval "benchmarks/eval_opp115.py --split test" benchmarks/eval_dpv_sample.py

Each script runs in turn with its output shown as it comes; its standard output (the figures it prints) is kept.
The page (docs/generated/figures.md) gets one section per kind, replaced in place, so `make bench` leaves the
evaluation's section alone and the other way round. Each section says when, on which commit and on what machine
its figures were measured. Exit 1 when a script failed or missed a target (every script still runs).
"""

from __future__ import annotations

import contextlib
import os
import platform
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "generated" / "figures.md"
KINDS = {"bench": "Benchmarks (`make bench`)", "eval": "Evaluation (`make eval`)"}
MAX_LINES = 200  # per script: the figures, not a log
ERROR_LINES = 10  # of standard error, for a script that failed
HEADER = """# Measured figures

This page is written by `make bench` and `make eval` (`benchmarks/_report.py`): each section holds the figures the
scripts printed on their last run, with the date, the commit and the machine. They are a snapshot of one run on one
machine, not a guarantee; run the targets to measure yours. How the figures were made and what they mean:
[Benchmarks and evaluation](../benchmarks.md).
"""


@dataclass
class Run:
    command: str
    returncode: int
    seconds: float
    lines: list[str]
    errors: list[str] = field(default_factory=list)  # the end of standard error, shown when the script failed


def machine() -> dict[str, str]:
    """Cores, memory and CPU model of this machine (Linux files where present, else what platform says)."""
    cpu = platform.processor() or platform.machine()
    info = Path("/proc/cpuinfo")
    if info.is_file():
        for line in info.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = "unknown"
    with contextlib.suppress(ValueError, OSError, AttributeError):  # sysconf names are platform-specific
        mem = f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.1f} GiB"
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"
    return {
        "cores": str(os.cpu_count() or "unknown"),
        "memory": mem,
        "cpu": cpu,
        "load": load,
        "python": platform.python_version(),
        "os": f"{platform.system()} {platform.release()}",
    }


def commit() -> str:
    """The checked-out commit, marked when the tree has uncommitted changes; "unknown" outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head} (with uncommitted changes)" if dirty else head


def _tee(stream: IO[str], echo: IO[str], keep: list[str]) -> None:
    for line in stream:
        echo.write(line)
        echo.flush()
        keep.append(line.rstrip("\n").split("\r")[-1].rstrip())


def run_script(command: str) -> Run:
    """Run one script with this interpreter; echo its output live, keep its standard output and the end of its
    standard error."""
    argv = shlex.split(command)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *argv], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None and proc.stderr is not None
    lines: list[str] = []
    errors: list[str] = []
    err = threading.Thread(target=_tee, args=(proc.stderr, sys.stderr, errors), daemon=True)
    err.start()
    _tee(proc.stdout, sys.stdout, lines)
    code = proc.wait()
    err.join()
    return Run(command, code, time.perf_counter() - start, lines, [e for e in errors if e][-ERROR_LINES:])


def section(kind: str, runs: list[Run], when: datetime, rev: str, box: dict[str, str]) -> str:
    """One kind's section of the page, between markers so the other kind's section survives a rewrite."""
    out = [f"<!-- section:{kind} -->", f"## {KINDS[kind]}", ""]
    out.append(f"Run {when:%Y-%m-%d %H:%M} UTC on commit `{rev}`.")
    out.append(
        f"Machine: {box['cores']} cores ({box['cpu']}), {box['memory']} memory, load average {box['load']} at the "
        f"start; Python {box['python']} on {box['os']}."
    )
    out.append("")
    out.append("| script | result | seconds |")
    out.append("|---|---|---|")
    for r in runs:
        result = "ok" if r.returncode == 0 else f"exit {r.returncode} (target missed or error)"
        out.append(f"| `{r.command}` | {result} | {r.seconds:.0f} |")
    for r in runs:
        out += ["", f"### `{r.command}`", ""]
        shown = r.lines[:MAX_LINES]
        out += ["```text", *(shown or ["(no output)"]), "```"]
        if len(r.lines) > MAX_LINES:
            out.append(f"({len(r.lines) - MAX_LINES} more lines left out)")
        if r.returncode != 0 and r.errors:
            out += ["", "Standard error, last lines:", "", "```text", *r.errors, "```"]
    out += [f"<!-- /section:{kind} -->", ""]
    return "\n".join(out)


def placeholder(kind: str) -> str:
    target = "make bench" if kind == "bench" else "make eval"
    return (
        f"<!-- section:{kind} -->\n## {KINDS[kind]}\n\nNot measured yet on this checkout: run `{target}` to fill this"
        f" section.\n<!-- /section:{kind} -->\n"
    )


def render(old: str, kind: str, new_section: str) -> str:
    """The page with ``kind``'s section replaced and the other sections kept as they were."""
    parts = [HEADER]
    for k in KINDS:
        if k == kind:
            parts.append(new_section)
            continue
        start, end = f"<!-- section:{k} -->", f"<!-- /section:{k} -->"
        if start in old and end in old:
            parts.append(old[old.index(start) : old.index(end) + len(end)] + "\n")
        else:
            parts.append(placeholder(k))
    return "\n".join(parts)


def write_page(kind: str, runs: list[Run], page: Path = PAGE, when: datetime | None = None) -> Path:
    """Write ``kind``'s figures into ``page`` (atomically), keeping the other kind's section."""
    when = when or datetime.now(UTC)
    old = page.read_text(encoding="utf-8") if page.is_file() else ""
    text = render(old, kind, section(kind, runs, when, commit(), machine()))
    page.parent.mkdir(parents=True, exist_ok=True)
    tmp = page.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(page)
    return page


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in KINDS:
        print(f"usage: _report.py {{{'|'.join(KINDS)}}} SCRIPT [SCRIPT ...]", file=sys.stderr)
        return 2
    kind, commands = argv[0], argv[1:]
    runs = []
    for command in commands:
        print(f"== {command}", flush=True)
        runs.append(run_script(command))
    page = write_page(kind, runs)
    print(f"figures written to {page.relative_to(ROOT)}")
    failed = [r.command for r in runs if r.returncode != 0]
    if failed:
        print("targets missed or errors in: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
