"""A verifier one can trust: one read snapshot under concurrent appends, read-only opening (an auditor's copy), no
adoption of files that are not plane databases, the key's fingerprint, the stored Merkle nodes, bounded key files,
and no acknowledged entry lost to kill -9."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from kill9 import assert_acknowledged_kept, kill_9

from pp_graph.cli import main
from pp_graph.errors import ConfigError, LedgerError
from pp_graph.plane import ledger as ledger_mod
from pp_graph.plane.db import connect, connect_read_only
from pp_graph.plane.keys import PlaneKeys, load_keys
from pp_graph.plane.ledger import Ledger

KEYS = PlaneKeys(bytes(range(32)))
OTHER = PlaneKeys(b"k" * 32)


def rec(i: int) -> dict[str, Any]:
    return {"event": "egress", "name": "ticket.create", "principal": "bot", "time": str(i), "fields": []}


def make(path: Path, n: int) -> Ledger:
    led = Ledger(connect(path), KEYS)
    led.append_many(rec(i) for i in range(n))
    return led


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def state(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in the folder with its bytes and mtime: nothing may change, nor appear (-wal, -shm)."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


@pytest.fixture(params=[4, None], ids=["chunks-of-4", "one-chunk"])
def chunked(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.param:
        monkeypatch.setattr(ledger_mod, "_CHUNK", request.param)


# -- one snapshot --


def test_verify_reads_head_and_entries_in_one_snapshot(tmp_path: Path) -> None:
    """An append committed between reading the head and reading the entries is not a tamper alarm."""
    path = tmp_path / "a.db"
    make(path, 5).conn.close()
    writer = Ledger(connect(path), KEYS)
    reader = Ledger(connect(path), KEYS)
    fired: list[str] = []

    def between(sql: str) -> None:  # runs as the entries' SELECT starts: another process commits right then
        if sql.startswith("SELECT seq, entry, hash FROM ledger") and not fired:
            fired.append(sql)
            writer.append_many([rec(90), rec(91)])

    reader.conn.set_trace_callback(between)
    rep = reader.verify()
    reader.conn.set_trace_callback(None)
    assert fired and rep.ok, rep.problem
    assert rep.size == 5  # the snapshot's state; the next verify sees the appends
    assert reader.verify().size == 7


APPENDER = """
import sys
from pp_graph.plane.db import connect
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger
led = Ledger(connect(sys.argv[1]), PlaneKeys(bytes(range(32))))
print("ready", flush=True)
for i in range(int(sys.argv[2])):
    led.append_many([{"event": "egress", "name": "t", "time": str(i), "fields": []}] * 3)
    if sys.argv[3] == "ack":
        print(len(led) - 1, flush=True)
"""


def test_verify_during_concurrent_appends_never_alarms(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    make(path, 3000).conn.close()
    p = subprocess.Popen([sys.executable, "-c", APPENDER, str(path), "20000", "-"], stdout=subprocess.PIPE)
    try:
        assert p.stdout is not None and p.stdout.readline().strip() == b"ready"
        sizes = []
        for _ in range(25):
            conn = connect_read_only(path)
            rep = Ledger(conn).verify()
            conn.close()
            assert rep.ok, rep.problem
            sizes.append(rep.size)
        assert len(set(sizes)) > 1, "the appender did not run while verifying"
    finally:
        p.kill()
        p.wait()
    assert Ledger(connect(path), KEYS).verify().ok


def test_kill_9_during_a_burst_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    """The appender prints each entry's number once append returned; every printed one survives kill -9."""
    path = tmp_path / "a.db"
    make(path, 2).conn.close()
    for _ in range(3):
        acked = kill_9(APPENDER, str(path), "100000", "ack", settle=0.4)
        assert_acknowledged_kept(path, KEYS, acked, since=min(acked, default=2) - 2)


# -- read-only opening; files that are not plane databases --


@contextlib.contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """Make files and folders unwritable, even for root (immutable attribute), as an auditor's copy would be."""
    if os.geteuid() != 0:
        modes = [(p, p.stat().st_mode) for p in paths]
        for p, m in modes:
            p.chmod(m & 0o555)
        try:
            yield
        finally:
            for p, m in modes:
                p.chmod(m)
        return
    done = subprocess.run(["chattr", "+i", *map(str, paths)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("cannot make a file read-only for root here (chattr +i)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *map(str, paths)], check=True)


@pytest.mark.parametrize("folder_too", [False, True], ids=["file", "file-and-folder"])
def test_a_read_only_copy_verifies_and_replays(tmp_path: Path, folder_too: bool) -> None:
    audit = tmp_path / "copy"
    audit.mkdir()
    led = make(audit / "a.db", 7)
    cp = tmp_path / "cp.json"
    cp.write_text(__import__("json").dumps(led.checkpoint()))
    led.conn.close()
    key = tmp_path / "a.key"
    key.write_text(KEYS.secret.hex())
    before = state(audit)
    with read_only(audit / "a.db", *([audit] if folder_too else [])):
        r = cli("ledger", "verify", str(audit / "a.db"), "--since", str(cp), "--format", "json")
        assert r.exit_code == 0, r.output
        assert '"ok": true' in r.output
        r = cli("ledger", "replay", str(audit / "a.db"), "--format", "csv")
        assert r.exit_code == 0 and r.output.count("ticket.create") == 7, r.output
        r = cli("ledger", "checkpoint", str(audit / "a.db"), "--key-file", str(key))
        assert r.exit_code == 0 and '"size": 7' in r.output, r.output
    after = state(audit)
    assert after["a.db"] == before["a.db"]


def test_read_only_commands_leave_no_wal_or_shm_beside_the_database(tmp_path: Path) -> None:
    """verify, replay and checkpoint of a closed WAL database: the folder is left exactly as found (bytes, mtimes,
    no -wal or -shm made and left beside it)."""
    folder = tmp_path / "copy"
    folder.mkdir()
    make(folder / "a.db", 5).conn.close()
    key = tmp_path / "a.key"
    key.write_text(KEYS.secret.hex())
    before = state(folder)
    assert set(before) == {"a.db"}
    for args in (["verify"], ["replay", "--format", "csv"], ["checkpoint", "--key-file", str(key)]):
        r = cli("ledger", args[0], str(folder / "a.db"), *args[1:])
        assert r.exit_code == 0, r.output
        assert state(folder) == before, f"ledger {args[0]} left {sorted(state(folder))}"


def test_a_writer_joining_a_read_only_reader_loses_nothing(tmp_path: Path) -> None:
    """The reader of a closed database removes what SQLite made for it; a writer that joined meanwhile keeps its
    appends (SQLite's own locks decide which connection is the last, and only the last cleans up)."""
    path = tmp_path / "a.db"
    make(path, 3).conn.close()
    reader = connect_read_only(path)
    writer = Ledger(connect(path), KEYS)
    writer.append_many([rec(3), rec(4)])
    assert Ledger(reader).verify().size == 5
    reader.close()  # the writer is still open: its -wal holds the appends and stays
    assert Path(str(path) + "-wal").exists()
    writer.append(rec(5))
    writer.conn.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.db"]
    again = connect_read_only(path)
    assert Ledger(again).verify().size == 6
    again.close()


def _unrelated(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as c:
        c.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT)")
        c.execute("INSERT INTO orders (item) VALUES ('tea')")
        c.commit()


def _renamed_column(path: Path) -> None:
    # A plane database whose ledger table was edited by hand: its entries were read as a missing column deep in
    # verify, replay and report --ledger (sqlite3.OperationalError traceback).
    make(path, 3).conn.close()
    with contextlib.closing(sqlite3.connect(path)) as c:
        c.execute("ALTER TABLE ledger RENAME COLUMN entry TO body")
        c.commit()


@pytest.mark.parametrize("kind", ["empty", "unrelated", "renamed-column"])
@pytest.mark.parametrize(
    "command", [["ledger", "verify"], ["ledger", "replay"], ["ledger", "checkpoint"], ["memory", "compact"]]
)
def test_files_that_are_not_plane_databases_are_refused_untouched(
    tmp_path: Path, kind: str, command: list[str]
) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    db = folder / "x.db"
    if kind == "empty":
        db.write_bytes(b"")
    elif kind == "renamed-column":
        _renamed_column(db)
    else:
        _unrelated(db)
    key = tmp_path / "k.key"
    key.write_text(KEYS.secret.hex())
    before = state(folder)
    extra = ["--key-file", str(key)] if command[-1] == "checkpoint" else []
    r = cli(*command, str(db), *extra)
    assert r.exit_code == 2, r.output
    assert "not a plane database" in r.output and "x.db" in r.output and "Traceback" not in r.output

    def untouched() -> bool:  # no -wal or -shm left beside it either
        return state(folder) == before

    assert untouched()
    if kind != "empty":  # the library refuses too, even when asked to create
        with pytest.raises(LedgerError, match="not a plane database"):
            connect(db)
        assert untouched()
    if kind == "renamed-column":
        assert "table ledger has columns seq, body, hash; expected seq, entry, hash" in r.output


def test_a_database_in_a_missing_folder_says_so(tmp_path: Path) -> None:
    # Was "not a usable plane database (unable to open database file)" (mcp --ledger, DataPlane.open).
    with pytest.raises(LedgerError, match=r"x\.db: the folder .*nope does not exist; create it"):
        connect(tmp_path / "nope" / "x.db")
    assert not (tmp_path / "nope").exists()


def test_a_deleted_head_row_is_reported_naming_the_file(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    make(db, 3).conn.close()
    with contextlib.closing(sqlite3.connect(db)) as c:
        c.execute("DELETE FROM ledger_head")
        c.commit()
    r = cli("ledger", "verify", str(db))
    assert r.exit_code == 2 and f"{db}: the ledger's head row is missing" in r.output, r.output


# -- the key's fingerprint --


def test_a_wrong_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    make(path, 3).conn.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert KEYS.secret not in raw and KEYS.secret.hex().encode() not in raw  # a fingerprint, never the key
    with pytest.raises(LedgerError, match="not this database's key"):
        Ledger(connect(path), OTHER)
    Ledger(connect(path), KEYS).append(rec(3))  # the right key still works
    wrong = tmp_path / "wrong.key"
    wrong.write_text(OTHER.secret.hex())
    r = cli("ledger", "checkpoint", str(path), "--key-file", str(wrong))
    assert r.exit_code == 2 and "not this database's key" in r.output, r.output
    from pp_graph.plane import Contracts, DataPlane

    with pytest.raises(LedgerError, match="not this database's key"):
        DataPlane(path, contracts=Contracts({}), keys=OTHER)


# -- the stored Merkle nodes --


@pytest.mark.parametrize("kind", ["leaf", "inner", "deleted", "added"])
def test_a_tampered_merkle_node_is_detected(tmp_path: Path, kind: str, chunked: None) -> None:
    path = tmp_path / "a.db"
    led = make(path, 13)
    assert led.verify().ok
    led.conn.close()
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        if kind == "leaf":
            db.execute("UPDATE ledger_nodes SET hash = ? WHERE level = 0 AND idx = 6", (bytes(32),))
            want, says = 6, "Merkle node (0, 6) does not match"
        elif kind == "inner":
            db.execute("UPDATE ledger_nodes SET hash = ? WHERE level = 2 AND idx = 1", (hashlib.sha256().digest(),))
            want, says = 4, "Merkle node (2, 1) does not match"
        elif kind == "deleted":
            db.execute("DELETE FROM ledger_nodes WHERE level = 1 AND idx = 5")
            want, says = 10, "Merkle node (1, 5) is missing"
        else:
            db.execute("INSERT INTO ledger_nodes VALUES (3, 7, ?)", (bytes(32),))
            want, says = 13, "the stored Merkle tree has"
    rep = Ledger(connect_read_only(path)).verify()
    assert not rep.ok
    assert rep.first_bad == want and says in (rep.problem or ""), rep.problem


# -- key files --


def test_key_files_are_read_with_a_bound(tmp_path: Path) -> None:
    t = time.monotonic()
    with pytest.raises(ConfigError, match="not a key file"):
        load_keys(key_file="/dev/zero")
    assert time.monotonic() - t < 5
    big = tmp_path / "big.key"
    big.write_text("ab" * 10_000)
    with pytest.raises(ConfigError, match="more than"):
        load_keys(key_file=big)
    binary = tmp_path / "bin.key"
    binary.write_bytes(b"\xff\xfe" + bytes(30))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_keys(key_file=binary)
    good = tmp_path / "good.key"
    good.write_text(KEYS.secret.hex() + "\n")
    assert load_keys(key_file=good) == KEYS
    path = tmp_path / "a.db"
    make(path, 1).conn.close()
    r = cli("ledger", "checkpoint", str(path), "--key-file", "/dev/zero")
    assert r.exit_code == 2 and "/dev/zero: not a key file" in r.output
