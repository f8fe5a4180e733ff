"""Group commit: ledger appends from several threads committed together, one transaction per batch.

One writer thread owns its own connection to the plane's file. A caller hands it a checked record and waits; the
writer takes everything queued since its last commit, appends it in one ``BEGIN IMMEDIATE … COMMIT`` and only then
wakes the callers of that batch with their sequence numbers. So an append that returned is committed (acknowledged
means durable, under the file's ``synchronous`` mode), and a batch that fails acknowledges none of its entries:
every caller in it gets the error. Under load the batches grow by themselves (callers queue while the writer
commits), so the per-commit cost (locking, the head row, the WAL frame writes) is paid once per batch.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pp_graph.errors import LedgerError
from pp_graph.plane.db import connect
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import CheckedRecord, Ledger, checked

MAX_BATCH = 512  # entries per transaction: bounds one commit's time, so the tail latency stays bounded too


class _Pending:
    __slots__ = ("done", "error", "record", "seq")

    def __init__(self, record: CheckedRecord) -> None:
        self.record = record
        self.done = threading.Event()
        self.seq: int | None = None
        self.error: BaseException | None = None


class GroupCommit:
    """``append`` from any thread; returns the entry's sequence number once its batch committed."""

    def __init__(self, path: str | Path, keys: PlaneKeys | None, *, sync: str = "normal") -> None:
        self.path = Path(path)
        self.batches = 0  # transactions committed (appends / batches = the mean batch size)
        self._queue: list[_Pending] = []
        self._wake = threading.Condition()
        self._closed = False
        self._opened = threading.Event()
        self._open_error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(keys, sync), name="plane-ledger-writer", daemon=True)
        self._thread.start()
        self._opened.wait()
        if self._open_error is not None:
            self._thread.join()
            raise self._open_error

    def append(self, record: Mapping[str, Any] | CheckedRecord) -> int:
        p = _Pending(checked(record))  # checked here: a bad record fails its caller, never the batch
        with self._wake:
            if self._closed:
                raise LedgerError(f"{self.path}: the ledger writer is closed")
            self._queue.append(p)
            self._wake.notify()
        p.done.wait()
        if p.error is not None:
            raise LedgerError(f"{self.path}: the batch holding this entry was not committed ({p.error})") from p.error
        assert p.seq is not None
        return p.seq

    def pending(self) -> int:
        """Appends queued and not yet taken by the writer."""
        with self._wake:
            return len(self._queue)

    def close(self) -> None:
        """Commit what is queued, then stop the writer."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join()

    def _run(self, keys: PlaneKeys | None, sync: str) -> None:
        try:
            ledger = Ledger(connect(self.path, sync=sync), keys)
        except BaseException as e:  # reported to the opener, which raises it
            self._open_error = e
            self._opened.set()
            return
        self._opened.set()
        try:
            while batch := self._next_batch():
                self._commit(ledger, batch)
        finally:
            ledger.conn.close()

    def _next_batch(self) -> list[_Pending]:
        """What is queued (at most MAX_BATCH), waiting for something; [] once closed and drained."""
        with self._wake:
            while not self._queue and not self._closed:
                self._wake.wait()
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            return batch

    def _commit(self, ledger: Ledger, batch: list[_Pending]) -> None:
        try:
            seqs = ledger.append_many(p.record for p in batch)
        except Exception as e:  # the database's or anything else: the batch's callers get it, the writer goes on
            for p in batch:
                p.error = e
                p.done.set()
            return
        self.batches += 1
        for p, seq in zip(batch, seqs, strict=True):
            p.seq = seq
            p.done.set()
