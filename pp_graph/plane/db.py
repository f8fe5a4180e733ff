"""The plane's SQLite file: ledger and memory tables in one database, opened the same way by every process.

WAL lets readers run beside one writer; every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers
from several processes queue instead of losing appends, and a writer killed mid-append leaves the last committed
state. ``secure_delete`` overwrites deleted content, so compacting memory erases it from the file.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pp_graph.errors import LedgerError

SCHEMA_VERSION = "1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS plane_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ledger (seq INTEGER PRIMARY KEY, entry BLOB NOT NULL, hash BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS ledger_nodes (
    level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ledger_head (
    id INTEGER PRIMARY KEY CHECK (id = 0), size INTEGER NOT NULL, chain BLOB NOT NULL, frontier BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS memory (
    id INTEGER PRIMARY KEY, subject TEXT NOT NULL, purpose TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL,
    class TEXT NOT NULL, category TEXT, retention TEXT NOT NULL, provenance TEXT NOT NULL,
    created REAL NOT NULL, expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_scope ON memory (subject, purpose, expires);
"""
SYNC_MODES = ("normal", "full")


_TABLES = frozenset({"plane_meta", "ledger", "ledger_nodes", "ledger_head", "memory"})
_MAGIC = b"SQLite format 3\x00"


def _check_file(p: Path, create: bool) -> None:
    """Refuse before SQLite touches it: a missing file (unless creating), an empty one we may not turn into a plane,
    or a file that is not SQLite at all (SQLite would adopt and overwrite it)."""
    if not p.is_file():
        if create and not p.parent.is_dir():  # SQLite would only say "unable to open database file"
            raise LedgerError(f"{p}: the folder {p.parent} does not exist; create it or name another database")
        if create:
            return
        raise LedgerError(f"{p}: no such database")
    if p.stat().st_size == 0:
        if create:
            return
        raise LedgerError(f"{p}: an empty file, not a plane database")
    with open(p, "rb") as fh:
        if fh.read(16) != _MAGIC:
            raise LedgerError(f"{p}: not a usable plane database (not an SQLite file)")


@functools.cache
def _columns() -> dict[str, tuple[str, ...]]:
    """Each plane table's columns, as the schema above makes them."""
    mem = sqlite3.connect(":memory:")
    try:
        mem.executescript(_SCHEMA)
        return {t: tuple(r[1] for r in mem.execute(f"PRAGMA table_info({t})")) for t in sorted(_TABLES)}
    finally:
        mem.close()


def _check_columns(conn: sqlite3.Connection, p: Path) -> None:
    """A plane table with other columns (edited by hand, or another program's) would fail at the first read deep in
    the ledger or memory code: refused when the file is opened, naming the table."""
    present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for table, want in _columns().items():
        if table not in present:
            continue  # a missing table is reported (read-only) or created (read-write) by the callers
        got = tuple(r[1] for r in conn.execute(f"PRAGMA table_info({table})"))
        if got != want:
            raise LedgerError(
                f"{p}: not a plane database of this schema (table {table} has columns {', '.join(got)}; "
                f"expected {', '.join(want)})"
            )


def _check_plane(conn: sqlite3.Connection, p: Path, *, empty_ok: bool) -> None:
    """An SQLite file holding other tables is someone else's database: never add the plane's tables to it."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not names and empty_ok:
        return
    if "plane_meta" not in names:
        what = f"it holds other tables ({', '.join(sorted(names)[:5])})" if names else "it holds no tables"
        raise LedgerError(f"{p}: not a plane database ({what})")
    _check_columns(conn, p)


def connect(path: str | Path, *, sync: str = "normal", create: bool = True) -> sqlite3.Connection:
    """Open (and on first use create) a plane database; LedgerError naming the file when it is not one."""
    p = Path(path)
    if sync not in SYNC_MODES:
        raise LedgerError(f"sync must be one of {', '.join(SYNC_MODES)}, got {sync!r}")
    _check_file(p, create)
    try:
        conn = sqlite3.connect(p, timeout=60.0, isolation_level=None)  # one connection per thread
    except sqlite3.DatabaseError as e:
        raise LedgerError(f"{p}: not a usable plane database ({e})") from e
    with _closed_on_error(conn, p):
        conn.execute("PRAGMA busy_timeout = 60000")
        _check_plane(conn, p, empty_ok=create)  # before any pragma below writes to the file
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {sync.upper()}")
        conn.execute("PRAGMA secure_delete = ON")
        with transaction(conn):
            if _needs_schema(conn):
                for stmt in filter(str.strip, _SCHEMA.split(";")):
                    conn.execute(stmt)
            version = conn.execute("SELECT value FROM plane_meta WHERE key = 'schema'").fetchone()
            if version is None:
                conn.execute("INSERT INTO plane_meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
                conn.execute("INSERT OR IGNORE INTO ledger_head VALUES (0, 0, ?, x'')", (bytes(32),))
            elif version[0] != SCHEMA_VERSION:
                raise LedgerError(f"{p}: schema version {version[0]}, this pp-graph reads {SCHEMA_VERSION}")
    return conn


@contextmanager
def _closed_on_error(conn: sqlite3.Connection, p: Path) -> Iterator[None]:
    """A refused file's connection is closed at once: left to the garbage collector, closing a WAL database would
    checkpoint it (writing to the file we refused) or leave its -wal and -shm beside it meanwhile."""
    try:
        yield
    except sqlite3.DatabaseError as e:
        conn.close()
        raise LedgerError(f"{p}: not a usable plane database ({e})") from e
    except BaseException:
        conn.close()
        raise


def connect_read_only(path: str | Path) -> sqlite3.Connection:
    """Open an existing plane database without writing to it (verify, replay, checkpoint: an auditor's copy may be
    read-only); LedgerError naming the file when it is missing or not a plane database."""
    p = Path(path)
    _check_file(p, create=False)
    uri, query_only = _reader_uri(p)
    try:
        conn = _open_ro(uri, p, query_only)
    except sqlite3.DatabaseError as e:
        raise LedgerError(f"{p}: not a usable plane database ({e})") from e
    with _closed_on_error(conn, p):
        _check_plane(conn, p, empty_ok=False)
        if not {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} >= _TABLES:
            raise LedgerError(f"{p}: not a plane database (plane tables are missing)")
        version = conn.execute("SELECT value FROM plane_meta WHERE key = 'schema'").fetchone()
        if version is None or version[0] != SCHEMA_VERSION:
            found = "no" if version is None else str(version[0])
            raise LedgerError(f"{p}: schema version {found}, this pp-graph reads {SCHEMA_VERSION}")
    return conn


def _reader_uri(p: Path) -> tuple[str, bool]:
    """How to open ``p`` for reading without leaving a -wal or -shm beside it that was not there: the URI, and
    whether the connection must refuse writes itself (query_only).

    A rollback-journal file, or a WAL file that a connection holds open (its -wal or -shm present: a writer's, or a
    crashed one's pending commits to read through), opens ``mode=ro``: that makes nothing new. A WAL file nobody
    holds open would get a -wal and -shm that a read-only connection cannot remove when it closes: opened read-write
    instead, writes refused by ``query_only``, SQLite removes them when this is the last connection to close. A
    writer joining meanwhile is safe: SQLite's own locks decide which connection is the last, and that one
    checkpoints (the writer's commits) before removing anything. A WAL file we may not write (an auditor's
    read-only copy) is read as ``immutable``: it has no pending commits, and whoever could write it is not."""
    uri = p.resolve().as_uri()
    with open(p, "rb") as fh:
        wal = fh.read(20)[18:20] == b"\x02\x02"  # the header's write and read versions: 2 is WAL
    if not wal or any(Path(str(p) + suffix).exists() for suffix in ("-wal", "-shm")):
        return uri + "?mode=ro", False
    if os.access(p, os.W_OK) and os.access(p.parent, os.W_OK):
        return uri + "?mode=rw", True
    return uri + "?mode=ro&immutable=1", False


def _open_ro(uri: str, p: Path, query_only: bool) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, timeout=60.0, isolation_level=None)
    if query_only:  # before anything else runs on it
        conn.execute("PRAGMA query_only = ON")
    conn.execute("PRAGMA busy_timeout = 60000")
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        # A WAL database in a folder we cannot write (no -shm can be made): with no -wal file beside it, nothing
        # is pending, so the file alone is the whole database and can be read as immutable.
        if Path(str(p) + "-wal").exists():
            raise
        conn.close()
        conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
    return conn


def _needs_schema(conn: sqlite3.Connection) -> bool:
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
    return not {*_TABLES, "memory_scope"} <= names


KEY_META = "key_fingerprint"


def bind_key(conn: sqlite3.Connection, fingerprint: str, path: str | Path) -> None:
    """The database remembers the fingerprint of the key it was first opened with (never the key) and refuses
    another: tokens and checkpoints made with a wrong key would otherwise go unnoticed."""
    try:
        row = conn.execute("SELECT value FROM plane_meta WHERE key = ?", (KEY_META,)).fetchone()
        if row is None:
            with transaction(conn):
                conn.execute("INSERT OR IGNORE INTO plane_meta VALUES (?, ?)", (KEY_META, fingerprint))
                row = conn.execute("SELECT value FROM plane_meta WHERE key = ?", (KEY_META,)).fetchone()
    except sqlite3.OperationalError as e:
        if "readonly" not in str(e):
            raise LedgerError(f"{path}: the key fingerprint cannot be read or recorded ({e})") from e
        return  # a read-only copy made before fingerprints were recorded: nothing to compare with
    if row[0] != fingerprint:
        raise LedgerError(
            f"{path}: the plane key given is not this database's key (its fingerprint is {row[0]}, "
            f"the key given has {fingerprint}); use the key the database was created with"
        )


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE … COMMIT, rolled back on any error (the write lock is taken up front)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def read_snapshot(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction: every statement inside sees the same committed state (WAL snapshot)."""
    if conn.in_transaction:  # the caller's transaction is already one snapshot
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("ROLLBACK")
