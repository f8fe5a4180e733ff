"""The plane's fast paths: prepared projections give the very ledger entries and values of the full path, and group
commit acknowledges an entry only once its batch committed (kill -9 during a burst loses none)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kill9 import assert_acknowledged_kept, kill_9

from pp_graph.errors import LedgerError, PlaneError
from pp_graph.plane import DataPlane, Field
from pp_graph.plane import demo as demo_mod
from pp_graph.plane import projection as projection_mod
from pp_graph.plane.db import connect
from pp_graph.plane.group import GroupCommit
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger
from pp_graph.plane.projection import Projector, SiteVerdict, Tokenizer

KEYS = PlaneKeys(bytes(range(32)))
CARE = "dpv:CustomerCare"


def plane(path: Path, **options: Any) -> DataPlane:
    contracts = demo_mod.Contracts.load(demo_mod.DEMO / "contracts")
    return DataPlane(
        path, contracts=contracts, keys=KEYS, engine=demo_mod.demo_engine(), clock=demo_mod.Clock(), **options
    )


def calls(i: int) -> list[Field]:
    """A mix of every structured outcome (pass, token, deny, omit, site tightening) and one free-text field."""
    s = f"user:{i % 3}"
    return [
        Field("case_id", f"CASE-{i}", "internal"),
        Field("summary", f"Cannot log in, write to jane{i}@example.org", "internal", subject=s, free_text=True),
        Field("customer_email", f"u{i}@example.org", "personal", category="pd:EmailAddress", subject=s),
        Field("api_key", "sk-test", "secret"),
        Field("debug_note", "node 7", "internal", purpose="dpv:ServiceOptimisation"),
        Field("account_tier", ("pro", "free")[i % 2], "internal", subject=s, purpose=CARE),
    ]


def run(p: DataPlane) -> list[Any]:
    out: list[Any] = []
    for i in range(6):
        out.append(dict(p.egress("ticket.create", calls(i), site="helpdesk.example")))
        out.append(dict(p.egress("ticket.create", calls(i))))
        out.append(dict(p.context(calls(i), purpose=CARE, principal="bot")))
    with pytest.raises(PlaneError, match="missing subject label"):  # the error, prepared or not, every time
        p.context([Field("customer_email", "a@b.org", "personal")], purpose="dpv:ServiceProvision", principal="b")
    return out


# -- prepared projections --


def test_prepared_projections_give_identical_entries_and_values(tmp_path: Path) -> None:
    full, prepared = plane(tmp_path / "a.db", prepared=False), plane(tmp_path / "b.db", prepared=True)
    assert run(full) == run(prepared)
    n = len(full.ledger)
    assert n == len(prepared.ledger) == 18
    assert [full.ledger.entry_bytes(i) for i in range(n)] == [prepared.ledger.entry_bytes(i) for i in range(n)]
    assert prepared.ledger.verify().ok
    full.close()
    prepared.close()


def counting_projector(prepared: bool, texts: list[str]) -> tuple[Projector, list[tuple[Any, ...]]]:
    asked: list[tuple[Any, ...]] = []

    def site_check(site: str, purpose: str, recipient: str | None, cats: tuple[str, ...]) -> SiteVerdict:
        asked.append((site, cats))
        return SiteVerdict("transform", "L3", "test site")

    def transform(text: str, level: str, token: Callable[[str], str]) -> tuple[str, list[str]]:
        texts.append(text)
        return text.replace("jane", token("jane")), ["pd:Name"] if "jane" in text else []

    return Projector(Tokenizer(bytes(range(32))), site_check, transform, prepared=prepared), asked


@pytest.mark.parametrize("prepared", [False, True])
def test_a_structured_decision_is_made_once_free_text_every_time(prepared: bool) -> None:
    texts: list[str] = []
    proj, asked = counting_projector(prepared, texts)
    out = []
    for i in range(5):
        fields = [
            Field("tier", "pro", "internal"),
            Field("note", f"jane wrote {i}", "internal", free_text=True),
        ]
        out.append(proj.project(fields, boundary="context", purpose=CARE, contract=None, sites=("s",)))
    tier = [p.data["tier"] for p in out]
    assert len(set(tier)) == 1 and tier[0].startswith("tok_")  # the site's transform tokenised it each time
    assert [d.reasons for p in out for d in p.decisions if d.name == "tier"] == [out[0].decisions[0].reasons] * 5
    assert len(texts) == 5 * 2  # free text: scanned on every call (once by the rules, once by the site)
    tier_checks = [a for a in asked if a[1] == ()]
    assert len(tier_checks) == (1 if prepared else 5)


def test_prepared_decisions_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(projection_mod, "PREPARED_LIMIT", 3)
    proj, _ = counting_projector(True, [])
    for i in range(10):
        fields = [Field(f"f{i}", "v", "internal")]
        d = proj.project(fields, boundary="context", purpose=CARE, contract=None).decisions[0]
        assert d.name == f"f{i}" and d.action == "allow"
        assert len(proj._prepared) <= 3


# -- group commit --


def test_group_commit_from_threads_loses_nothing_and_batches(tmp_path: Path) -> None:
    p = plane(tmp_path / "a.db", group_commit=True)
    seqs: list[int] = []

    def work(k: int) -> None:
        for i in range(k, 120, 6):
            seqs.append(p.egress("ticket.create", calls(i)[:2]).seq or 0)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seqs) == list(range(120))
    lang = Field("language", "de", "personal", category="pd:Language", subject="user:1", retention="preference")
    assert p.remember(lang, subject="user:1", purpose="dpv:Personalisation").stored  # memory: the opening thread
    rep = p.ledger.verify()
    assert rep.ok and rep.size == 121
    assert dict(p.ledger.entries(120))[120]["event"] == "memory"
    assert p.group is not None and 1 <= p.group.batches <= 120
    p.close()


def wait_until(cond: Callable[[], bool]) -> None:
    end = time.monotonic() + 20
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def rec(i: int) -> dict[str, Any]:
    return {"event": "egress", "name": "t", "time": str(i), "fields": []}


def gated(path: Path, n: int, gate_sql: str = "") -> tuple[GroupCommit, list[Any]]:
    """One append taken by the writer and held at the database's write lock, then n more queued behind it; the gate
    transaction runs ``gate_sql`` and commits. Returns the group and each append's seq or error."""
    group = GroupCommit(path, KEYS)
    gate = sqlite3.connect(path, isolation_level=None)
    gate.execute("BEGIN IMMEDIATE")
    results: list[Any] = []

    def one(i: int) -> None:
        try:
            results.append(group.append(rec(i)))
        except LedgerError as e:
            results.append(e)

    first = threading.Thread(target=one, args=(0,))
    first.start()
    wait_until(lambda: group.pending() == 0)  # taken by the writer, which now waits for the lock
    time.sleep(0.1)
    rest = [threading.Thread(target=one, args=(i,)) for i in range(1, n + 1)]
    for t in rest:
        t.start()
    wait_until(lambda: group.pending() == n)
    if gate_sql:
        gate.execute(gate_sql)
    gate.execute("COMMIT")
    gate.close()
    for t in (first, *rest):
        t.join()
    return group, results


def test_appends_queued_during_a_commit_go_in_one_transaction(tmp_path: Path) -> None:
    connect(tmp_path / "a.db").close()
    group, results = gated(tmp_path / "a.db", 7)
    assert sorted(results) == list(range(8))
    assert group.batches == 2  # the held one, then the seven queued behind it
    group.close()
    assert Ledger(connect(tmp_path / "a.db"), KEYS).verify().ok


def test_a_failed_batch_acknowledges_none_of_its_entries(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    connect(path).close()
    # The gate takes seq 0 itself: the writer's batch (seq 0 …) then fails on the primary key, whole.
    group, results = gated(path, 4, "INSERT INTO ledger VALUES (0, x'00', x'00')")
    assert len(results) == 5 and all(isinstance(r, LedgerError) for r in results)
    assert "was not committed" in str(results[0])
    assert group.batches == 0
    with pytest.raises(LedgerError, match="unknown key"):  # a bad record fails its caller before any batch
        group.append({"payload": "x"})
    group.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == 1  # the gate's row only
    assert db.execute("SELECT size FROM ledger_head").fetchone()[0] == 0
    db.close()


def test_closed_writer_refuses_appends(tmp_path: Path) -> None:
    group = GroupCommit(tmp_path / "a.db", KEYS)
    assert group.append(rec(0)) == 0
    group.close()
    with pytest.raises(LedgerError, match="closed"):
        group.append(rec(1))


def test_group_commit_on_a_file_that_is_not_a_plane_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "x.db"
    bad.write_text("not a database", encoding="utf-8")
    with pytest.raises(LedgerError, match="not an SQLite file"):
        GroupCommit(bad, KEYS)


BURST = """
import sys, threading
from pp_graph.plane.group import GroupCommit
from pp_graph.plane.keys import PlaneKeys
group = GroupCommit(sys.argv[1], PlaneKeys(bytes(range(32))))
out = threading.Lock()
print("ready", flush=True)
def work(k):
    i = 0
    while True:
        seq = group.append({"event": "egress", "name": "t", "principal": f"w{k}", "time": str(i), "fields": []})
        with out:
            print(seq, flush=True)
        i += 1
for k in range(4):
    threading.Thread(target=work, args=(k,), daemon=True).start()
threading.Event().wait()
"""


def test_kill_9_during_a_group_commit_burst_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    """Four threads append through group commit and print each number once append returned; kill -9."""
    path = tmp_path / "a.db"
    connect(path).close()
    for _ in range(3):
        acked = kill_9(BURST, str(path), settle=0.5)
        assert_acknowledged_kept(path, KEYS, acked, since=min(acked, default=0))
