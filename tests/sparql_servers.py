"""Real SPARQL servers on loopback for the store matrix: Oxigraph (plain and union default graph) and Virtuoso 7.

Each server is started on first use with its own temporary database, bound to 127.0.0.1 only, and
stopped when the test session ends. A missing binary is a skip (with the reason), never a failure.
Virtuoso gets a virtuoso.ini written here (every port on 127.0.0.1, every file in the temp folder);
the packaged service is never touched.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

KINDS = ("embedded", "oxigraph", "oxigraph-union", "virtuoso")
VIRTUOSO_USER, VIRTUOSO_PASSWORD = "dba", "dba"  # the fresh database's administrator (loopback only)

_VIRTUOSO_INI = """\
[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
ServerThreads = 10
CheckpointInterval = 0
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
DirsAllowed = {d}
VADInstallDir = {d}/vad

[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {d}/www
ServerThreads = 4
EnabledDavVSP = 0

[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 120
"""


def oxigraph_binary() -> str | None:
    """The `oxigraph` PyPI package installs its server binary next to the interpreter."""
    local = Path(sys.executable).parent / "oxigraph"
    return str(local) if local.exists() else shutil.which("oxigraph")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    kind: str
    base: str  # http://127.0.0.1:PORT
    proc: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


def _wait_ready(proc: subprocess.Popen[bytes], probe: str, log: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(probe, timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            pytest.fail(f"server did not start ({probe}): {tail}")
        time.sleep(0.2)


def start_oxigraph(folder: Path, union: bool) -> Server:
    binary = oxigraph_binary()
    if binary is None:
        pytest.skip("the oxigraph server binary is not installed (pip install oxigraph, in the dev extra)")
    port = free_port()
    log = folder / "server.log"
    args = [binary, "serve", "--location", str(folder / "db"), "--bind", f"127.0.0.1:{port}"]
    if union:
        args.append("--union-default-graph")
    with open(log, "wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    _wait_ready(proc, f"{base}/query?query=ASK%7B%7D", log, 30)
    return Server(folder.name, base, proc, log)


def start_virtuoso(folder: Path) -> Server:
    binary = shutil.which("virtuoso-t")
    if binary is None:
        pytest.skip("virtuoso-t is not installed (Debian package virtuoso-opensource-7-bin)")
    for sub in ("www", "vad"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    http_port, sql_port = free_port(), free_port()
    ini = folder / "virtuoso.ini"
    ini.write_text(_VIRTUOSO_INI.format(d=folder, sql_port=sql_port, http_port=http_port), encoding="utf-8")
    log = folder / "stdout.log"
    with open(log, "wb") as out:
        # -f: stay in the foreground, so the test owns the process and stops it.
        proc = subprocess.Popen([binary, "-f", "-c", str(ini)], cwd=folder, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{http_port}"
    _wait_ready(proc, f"{base}/sparql?query=ASK%7B%7D", log, 120)
    return Server("virtuoso", base, proc, log)


@dataclass
class ServerPool:
    """Servers by kind, each started once per session on first use."""

    root: Path
    servers: dict[str, Server] = field(default_factory=dict)

    def get(self, kind: str) -> Server:
        if kind not in self.servers:
            folder = self.root / kind
            folder.mkdir(parents=True, exist_ok=True)
            if kind.startswith("virtuoso"):
                self.servers[kind] = start_virtuoso(folder)
            else:
                # "oxigraph-union…" has the union default graph; any other oxigraph-* name is a plain one.
                self.servers[kind] = start_oxigraph(folder, union=kind.startswith("oxigraph-union"))
        return self.servers[kind]

    def close(self) -> None:
        for s in self.servers.values():
            s.stop()
