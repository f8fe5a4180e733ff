"""Scoped memory: rows keyed by subject and purpose, with an expiry fixed at write time from a retention table.

Expired rows are never returned; ``compact`` deletes them physically (``secure_delete`` zeroes their pages, then the
WAL is checkpointed and the file vacuumed). Reads go through a ``Scope`` bound to one subject: there is no call that
takes a query or returns another subject's rows. Sensitive and secret fields, fields of a critical-tier category
(official identifiers, credentials, …) and retention classes the table refuses are not stored.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError, PlaneError
from pp_graph.plane.db import transaction
from pp_graph.plane.fields import Field, PrivacyClass
from pp_graph.plane.projection import related
from pp_graph.resources import DATA
from pp_graph.risk.tables import default_tables
from pp_graph.vocab.dpv import expand

RETENTION_FILE = DATA / "plane" / "retention.tsv"
DAY = 86_400.0
REFUSE = "refuse"


@dataclass(frozen=True)
class RetentionTable:
    days: dict[str, int | None]  # class → days kept; None: refused
    why: dict[str, str]
    digest: str

    @classmethod
    def load(cls, path: Path = RETENTION_FILE) -> RetentionTable:
        days: dict[str, int | None] = {}
        why: dict[str, str] = {}
        for n, cols, _ in tsv_lines(path):
            if len(cols) < 3 or not cols[0]:
                raise DataFileError(f"{path.name}:{n}: expected 3 tab-separated columns (class, days|refuse, why)")
            name, value, note = cols[0], cols[1], cols[2]
            if name in days:
                raise DataFileError(f"{path.name}:{n}: retention class {name!r} listed twice")
            if value == REFUSE:
                days[name] = None
            elif value.isdigit() and int(value) > 0:
                days[name] = int(value)
            else:
                raise DataFileError(f"{path.name}:{n}: {value!r} is neither a positive number of days nor 'refuse'")
            why[name] = note
        if not days:
            raise DataFileError(f"{path.name}: no retention classes")
        return cls(days, why, hashlib.sha256(path.read_bytes()).hexdigest())


@dataclass(frozen=True)
class MemoryRecord:
    name: str
    value: Any
    cls: str
    category: str | None
    purpose: str
    retention: str
    provenance: str
    created: float
    expires: float


@dataclass(frozen=True)
class WriteResult:
    stored: bool
    name: str
    reason: str
    expires: float | None = None


class Memory:
    def __init__(
        self, conn: sqlite3.Connection, retention: RetentionTable, clock: Callable[[], float] = time.time
    ) -> None:
        self.conn = conn
        self.retention = retention
        self.clock = clock

    def judge(self, f: Field, subject: str, purpose: str) -> tuple[int | None, str]:
        """(days kept, reason) for writing ``f``; days None means refused. Bad labels raise PlaneError."""
        if not isinstance(subject, str) or not subject.strip():
            raise PlaneError(f"field {f.name!r}: memory writes need a subject such as 'user:42'")
        if f.subject is not None and f.subject != subject:
            raise PlaneError(f"field {f.name!r} belongs to another subject: it cannot be written to this scope")
        if f.retention is None:
            raise PlaneError(f"field {f.name!r}: missing retention label; one of {', '.join(self.retention.days)}")
        if f.retention not in self.retention.days:
            known = ", ".join(self.retention.days)
            raise PlaneError(f"field {f.name!r}: unknown retention class {f.retention!r}; one of {known}")
        if f.cls in (PrivacyClass.SENSITIVE, PrivacyClass.SECRET):
            return None, f"{f.cls!s} data is never remembered"
        if f.category and default_tables().tier(expand(f.category)) == "critical":
            return None, f"{f.category} is a critical-tier category: sensitive identifiers are never remembered"
        days = self.retention.days[f.retention]
        if days is None:
            return None, f"retention class {f.retention}: {self.retention.why[f.retention]}"
        if f.purpose is not None and not related(f.purpose, purpose):
            return None, f"collected for {f.purpose}, unrelated to {purpose}"
        return days, f"retention class {f.retention}: kept {days} days"

    def write(self, f: Field, subject: str, purpose: str) -> WriteResult:
        days, reason = self.judge(f, subject, purpose)
        if days is None:
            return WriteResult(False, f.name, reason)
        now = self.clock()
        expires = now + days * DAY
        with transaction(self.conn) as c:
            c.execute(
                "INSERT INTO memory (subject, purpose, name, value, class, category, retention, provenance, "
                "created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    subject,
                    purpose,
                    f.name,
                    json.dumps(f.value),
                    str(f.cls),
                    f.category,
                    f.retention,
                    f.provenance,
                    now,
                    expires,
                ),
            )
        return WriteResult(True, f.name, reason, expires)

    def scope(self, subject: str) -> Scope:
        if not isinstance(subject, str) or not subject.strip():
            raise PlaneError("a memory scope needs a subject such as 'user:42'")
        return Scope(self, subject)

    def compact(self) -> int:
        """Physically erase expired rows; returns how many were deleted."""
        with transaction(self.conn) as c:
            n = c.execute("DELETE FROM memory WHERE expires <= ?", (self.clock(),)).rowcount
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.conn.execute("VACUUM")
        self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(n)

    def _rows(self, subject: str, purpose: str | None, name: str | None) -> list[MemoryRecord]:
        q = (
            "SELECT name, value, class, category, purpose, retention, provenance, created, expires FROM memory "
            "WHERE subject = ? AND expires > ?"
        )
        args: list[Any] = [subject, self.clock()]
        if purpose is not None:
            q += " AND purpose = ?"
            args.append(purpose)
        if name is not None:
            q += " AND name = ?"
            args.append(name)
        rows = self.conn.execute(q + " ORDER BY id", args).fetchall()
        return [MemoryRecord(r[0], json.loads(r[1]), *r[2:]) for r in rows]


@dataclass(frozen=True)
class Scope:
    """Reads of one subject's memory; the subject is fixed when the scope is made."""

    memory: Memory
    subject: str

    def recall(self, purpose: str | None = None, name: str | None = None) -> list[MemoryRecord]:
        return self.memory._rows(self.subject, purpose, name)
