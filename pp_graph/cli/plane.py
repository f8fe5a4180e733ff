"""pp-graph plane / ledger / memory: the privacy data plane's demo, its verifiable ledger and memory upkeep."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import click

from pp_graph.cli.common import CLIError, detection_warm_up, emit, format_option, handle_errors

_DB = click.argument("db", type=click.Path(dir_okay=False, path_type=Path))
_KEY = click.option(
    "--key-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File holding the plane key (hex); default $PP_GRAPH_PLANE_KEY or $PP_GRAPH_PLANE_KEY_FILE.",
)


@contextmanager
def _ledger(db: Path, key_file: Path | None = None, need_key: bool = False) -> Iterator[Any]:
    """The ledger opened read-only: verifying, replaying or signing never writes to the file given. Closed on the
    way out, so SQLite removes the -wal and -shm it made for the reading (exiting without closing would leave them)."""
    from pp_graph.plane.db import connect_read_only
    from pp_graph.plane.keys import load_keys
    from pp_graph.plane.ledger import Ledger

    keys = load_keys(key_file=key_file) if (need_key or key_file) else None
    with closing(connect_read_only(db)) as conn:
        yield Ledger(conn, keys)


@click.group()
def plane() -> None:
    """The privacy data plane for agents (typed fields, contracts, scoped memory, verifiable ledger)."""


@plane.command("demo")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), required=True, help="Database to (re)create.")
@click.option(
    "--key-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Plane key file; default DB.key beside the database, created (mode 600) when missing.",
)
@handle_errors
def demo(db: Path, key_file: Path | None) -> None:
    """Run the seed's support-agent scenario offline, narrated; exit 1 if a scenario's check fails."""
    from pp_graph.plane.demo import ScenarioFailed, run_demo
    from pp_graph.plane.keys import create_key_file, load_keys

    if not db.parent.is_dir():
        raise CLIError(f"--db {db}: the folder {db.parent} does not exist; create it or name another database")
    path = key_file or db.with_name(db.name + ".key")
    if not path.parent.is_dir():
        raise CLIError(f"--key-file {path}: the folder {path.parent} does not exist")
    if path.exists():
        keys = load_keys(key_file=path)
    else:
        keys = create_key_file(path)
        click.echo(f"(created key file {path}; keep it outside the database's backups)", err=True)
    detection_warm_up(None)()  # the scenarios detect in the default NER mode, as the plane does
    try:
        lines = run_demo(db, keys)
    except ScenarioFailed as e:
        click.echo(f"scenario failed: {e}", err=True)
        sys.exit(1)
    click.echo("\n".join(lines))


@click.group()
def ledger() -> None:
    """Verify, replay and checkpoint a plane's decision ledger."""


@ledger.command("verify")
@_DB
@click.option("--since", type=click.File("r"), help="A checkpoint (JSON) the log must have grown from.")
@click.option("--trusted-key", help="Public key (hex) the checkpoint must be signed with.")
@format_option()
@handle_errors
def verify(db: Path, since: Any, trusted_key: str | None, fmt: str) -> None:
    """Recompute the hash chain and Merkle tree: exit 0 intact, 1 tampered (first bad entry named), 2 error."""
    from pp_graph.errors import LedgerError

    cp = None
    if since is not None:
        try:
            cp = json.load(since)
        except ValueError as e:
            raise LedgerError(f"{since.name}: not a JSON checkpoint ({e})") from e
    with _ledger(db) as led:
        rep = led.verify(since=cp, trusted_key=trusted_key)
    row = rep.to_dict()
    if cp is not None:
        row["checkpoint"] = f"size {cp['size']} of {cp['time']}: {'consistent' if rep.ok else 'NOT consistent'}"
    emit([row], fmt, ["ok", "size", "root", "first_bad", "problem", "checkpoint"])
    if not rep.ok:
        sys.exit(1)


@ledger.command("replay")
@_DB
@click.option("--start", type=click.IntRange(0), default=0, show_default=True, help="First entry to show.")
@format_option()
@handle_errors
def replay(db: Path, start: int, fmt: str) -> None:
    """What crossed each boundary: one row per field decision (names, classes, actions, reasons; no values)."""
    from pp_graph.plane.ledger import replay_rows

    with _ledger(db) as led:
        rows = replay_rows(led, start)
    cols = ["seq", "event", "name", "principal", "purpose", "field", "class", "category", "action", "reasons"]
    emit(rows, fmt, cols if fmt != "json" else None)


@ledger.command("checkpoint")
@_DB
@_KEY
@handle_errors
def checkpoint(db: Path, key_file: Path | None) -> None:
    """Print a signed tree head (size, root, chain head, time, public key, Ed25519 signature) as JSON."""
    with _ledger(db, key_file, need_key=True) as led:
        head = led.checkpoint()
    click.echo(json.dumps(head, indent=1))


@click.group()
def memory() -> None:
    """Upkeep of a plane's scoped memory."""


@memory.command("compact")
@_DB
@handle_errors
def compact(db: Path) -> None:
    """Physically erase expired memory rows (secure delete, WAL checkpoint, VACUUM)."""
    from pp_graph.plane.db import connect
    from pp_graph.plane.memory import Memory, RetentionTable

    mem = Memory(connect(db, create=False), RetentionTable.load())
    n = mem.compact()
    click.echo(f"{n} expired row(s) erased")


commands = [plane, ledger, memory]
