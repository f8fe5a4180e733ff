"""The ledger on real SQLite files: chain and tree verify, proofs, signed checkpoints, every kind of tampering
detected with the first bad entry named, concurrent writer processes and a writer killed mid-append."""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from kill9 import kill_9

from pp_graph.errors import LedgerError
from pp_graph.plane import ledger as ledger_mod
from pp_graph.plane import merkle
from pp_graph.plane.db import connect
from pp_graph.plane.group import GroupCommit
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger, canonical

KEYS = PlaneKeys(bytes(range(32)))


def rec(i: int) -> dict[str, Any]:
    return {
        "event": "egress",
        "boundary": "tool",
        "name": "ticket.create",
        "purpose": "dpv:CustomerCare",
        "principal": "support-bot",
        "fields": [{"name": "case_id", "class": "internal", "category": None, "action": "allow", "reasons": [str(i)]}],
        "policy": "0" * 64,
        "time": f"2026-01-01T00:00:{i % 60:02d}.000000Z",
    }


def make(path: Path, n: int) -> Ledger:
    led = Ledger(connect(path), KEYS)
    led.append_many(rec(i) for i in range(n))
    return led


def raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def test_append_verify_and_proofs(tmp_path: Path, chunked: None) -> None:
    led = make(tmp_path / "a.db", 23)
    rep = led.verify()
    assert rep.ok and rep.size == 23
    leaves = [merkle.leaf_hash(led.entry_bytes(i)) for i in range(23)]
    assert rep.root == merkle.MemoryTree(leaves).root().hex() == led.root().hex()
    for i in range(23):
        merkle.verify_inclusion(i, 23, leaves[i], led.inclusion_proof(i), led.root())
    for m in range(1, 24):
        merkle.verify_consistency(m, 23, led.consistency_proof(m), led.root(m), led.root())
    # Entries are canonical JSON and chain: hash[i] = SHA-256(hash[i-1] || entry[i]).
    e0 = led.entry_bytes(0)
    assert e0 == canonical(json.loads(e0))
    h0 = led.conn.execute("SELECT hash FROM ledger WHERE seq = 0").fetchone()[0]
    assert h0 == hashlib.sha256(bytes(32) + e0).digest()


def test_record_without_a_payload_slot(tmp_path: Path) -> None:
    led = make(tmp_path / "a.db", 1)
    with pytest.raises(LedgerError, match="unknown key"):
        led.append({**rec(1), "value": "alice@example.org"})
    with pytest.raises(LedgerError, match="nested"):
        led.append({**rec(1), "fields": [{"name": "x", "reasons": [{"value": 1}]}]})
    assert led.verify().ok and len(led) == 1  # nothing half-written


@pytest.fixture(params=[4, None], ids=["chunks-of-4", "one-chunk"])
def chunked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Verify reads the log in chunks; small ones put entries and checkpoints on and across chunk borders."""
    if request.param:
        monkeypatch.setattr(ledger_mod, "_CHUNK", request.param)


def make_grouped(path: Path, n: int) -> None:
    """n entries written through group commit from 3 threads (batches of several entries)."""
    group = GroupCommit(path, KEYS)
    with ThreadPoolExecutor(3) as pool:
        list(pool.map(lambda i: group.append(rec(i)), range(n)))
    group.close()


@pytest.mark.parametrize("writer", ["one-transaction-each", "group-commit"])
@pytest.mark.parametrize("kind", ["mutate", "delete", "reorder", "insert", "truncate", "head"])
def test_tampering_is_detected_and_named(tmp_path: Path, kind: str, writer: str, chunked: None) -> None:
    path = tmp_path / "a.db"
    if writer == "group-commit":
        make_grouped(path, 10)
    else:
        make(path, 10).conn.close()
    db = raw(path)
    if kind == "mutate":
        e = db.execute("SELECT entry FROM ledger WHERE seq = 4").fetchone()[0]
        db.execute("UPDATE ledger SET entry = ? WHERE seq = 4", (e.replace(b"allow", b"deny!"),))
        want, says = 4, "entry 4 does not continue the chain"
    elif kind == "delete":
        db.execute("DELETE FROM ledger WHERE seq = 6")
        want, says = 6, "missing"
    elif kind == "reorder":
        a, b = (db.execute("SELECT entry, hash FROM ledger WHERE seq = ?", (i,)).fetchone() for i in (3, 7))
        db.execute("UPDATE ledger SET entry = ?, hash = ? WHERE seq = 3", b)
        db.execute("UPDATE ledger SET entry = ?, hash = ? WHERE seq = 7", a)
        want, says = 3, "chains after entry 6"
    elif kind == "insert":  # a forged entry that chains correctly, later entries renumbered
        prev = db.execute("SELECT hash FROM ledger WHERE seq = 4").fetchone()[0]
        forged = canonical(rec(99))
        db.execute("UPDATE ledger SET seq = seq + 100 WHERE seq >= 5")
        db.execute("UPDATE ledger SET seq = seq - 99 WHERE seq >= 105")
        db.execute("INSERT INTO ledger VALUES (5, ?, ?)", (forged, hashlib.sha256(prev + forged).digest()))
        want, says = 6, "chains after entry 4"
    elif kind == "truncate":
        db.execute("DELETE FROM ledger WHERE seq >= 8")
        want, says = 8, "truncated"
    else:
        db.execute("UPDATE ledger_head SET chain = ? WHERE id = 0", (bytes(32),))
        want, says = 9, "head"
    db.close()
    rep = Ledger(connect(path), KEYS).verify()
    assert not rep.ok
    assert rep.first_bad == want, rep.problem
    assert says in (rep.problem or "")


def _rewrite(path: Path, n: int) -> None:
    """The whole database rebuilt consistently with one entry changed: chain, tree and head all agree."""
    path.unlink()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    led = Ledger(connect(path), KEYS)
    led.append_many(rec(i) if i != 2 else {**rec(i), "principal": "someone-else"} for i in range(n))
    led.conn.close()


def test_consistent_rewrite_caught_by_an_earlier_checkpoint(tmp_path: Path, chunked: None) -> None:
    path = tmp_path / "a.db"
    led = make(path, 8)
    cp = json.loads(json.dumps(led.checkpoint()))
    led.append_many(rec(i) for i in range(8, 12))
    assert led.verify(since=cp).ok  # grew: consistent
    led.conn.close()
    _rewrite(path, 12)
    led = Ledger(connect(path), KEYS)
    assert led.verify().ok  # on its own the rewrite is invisible …
    rep = led.verify(since=cp)  # … but not to someone holding the old checkpoint
    assert not rep.ok and "rewritten" in (rep.problem or "")


def test_truncation_caught_by_a_checkpoint(tmp_path: Path, chunked: None) -> None:
    path = tmp_path / "a.db"
    led = make(path, 10)
    cp = led.checkpoint()
    led.conn.close()
    _rewrite(path, 6)  # consistent truncation: head rewritten too
    rep = Ledger(connect(path), KEYS).verify(since=cp)
    assert not rep.ok and rep.first_bad == 6 and "truncated" in (rep.problem or "")


def test_checkpoint_signature(tmp_path: Path) -> None:
    led = make(tmp_path / "a.db", 3)
    cp = led.checkpoint()
    assert led.verify(since=cp, trusted_key=KEYS.public_key_hex).ok
    with pytest.raises(LedgerError, match="signature"):
        led.verify(since={**cp, "size": 2})
    with pytest.raises(LedgerError, match="another key"):
        led.verify(since=cp, trusted_key=PlaneKeys(b"k" * 32).public_key_hex)


def test_corrupt_database_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(LedgerError, match=r"bad\.db: not a usable plane database"):
        connect(bad)


def _writer(path: str, k: int, n: int) -> None:
    led = Ledger(connect(path), KEYS)
    for i in range(n):
        led.append({**rec(i), "principal": f"writer-{k}"})


def test_concurrent_writer_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    connect(path).close()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), k, 150)) for k in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    led = Ledger(connect(path), KEYS)
    rep = led.verify()
    assert rep.ok and rep.size == 600
    per = [e["principal"] for _, e in led.entries()]
    assert all(per.count(f"writer-{k}") == 150 for k in range(4))


KILLED_WRITER = """
import sys
from pp_graph.plane.db import connect
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger
led = Ledger(connect(sys.argv[1]), PlaneKeys(bytes(range(32))))
print("ready", flush=True)
i = 0
while True:
    led.append_many([{"event": "egress", "name": "t", "time": str(i), "fields": []}] * 50)
    i += 1
"""


def test_writer_killed_mid_append_leaves_a_log_that_verifies(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    make(path, 5).conn.close()
    for _ in range(3):
        kill_9(KILLED_WRITER, str(path), settle=0.3)
    rep = Ledger(connect(path), KEYS).verify()
    assert rep.ok, rep.problem
    assert rep.size > 5 and (rep.size - 5) % 50 == 0  # whole transactions only


@pytest.mark.parametrize("at", [1, 3, 5, 6, 9])
def test_checkpoint_anywhere_then_growth_verifies(tmp_path: Path, chunked: None, at: int) -> None:
    led = make(tmp_path / "a.db", at)
    cp = led.checkpoint()
    led.append_many(rec(i) for i in range(at, 13))
    rep = led.verify(since=cp)
    assert rep.ok and rep.checkpoint is not None and rep.checkpoint["consistent"] is True
    forged = {**cp, "root": "00" * 32}
    with pytest.raises(LedgerError, match="signature"):
        led.verify(since=forged)
