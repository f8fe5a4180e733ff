"""The plane's SQLite file: ledger and memory tables in one database, opened the same way by every process.

WAL lets readers run beside one writer; every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers
from several processes queue instead of losing appends, and a writer killed mid-append leaves the last committed
state. ``secure_delete`` overwrites deleted content, so compacting memory erases it from the file.
"""

from __future__ import annotations

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


def connect(path: str | Path, *, sync: str = "normal", create: bool = True) -> sqlite3.Connection:
    """Open (and on first use create) a plane database; LedgerError naming the file when it is not one."""
    p = Path(path)
    if sync not in SYNC_MODES:
        raise LedgerError(f"sync must be one of {', '.join(SYNC_MODES)}, got {sync!r}")
    if not create and not p.is_file():
        raise LedgerError(f"{p}: no such database")
    if p.is_file() and p.stat().st_size > 0:
        with open(p, "rb") as fh:  # never let SQLite adopt (and overwrite) a file that is not a database
            if fh.read(16) != b"SQLite format 3\x00":
                raise LedgerError(f"{p}: not a usable plane database (not an SQLite file)")
    try:
        conn = sqlite3.connect(p, timeout=60.0, isolation_level=None)  # one connection per thread
        conn.execute("PRAGMA busy_timeout = 60000")
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
    except sqlite3.DatabaseError as e:
        raise LedgerError(f"{p}: not a usable plane database ({e})") from e
    return conn


def _needs_schema(conn: sqlite3.Connection) -> bool:
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
    return not {"plane_meta", "ledger", "ledger_nodes", "ledger_head", "memory", "memory_scope"} <= names


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
