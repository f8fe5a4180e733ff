"""Privacy data plane: guarded tool calls, ledger verification, inclusion proofs, concurrent writers.

1. Guarded tool calls (projection + per-site AMRSF decision + durable ledger append, WAL synchronous=NORMAL) through
   ``plane.tool(...)``, each measured on today's path (``prepared=False``, one transaction per call) and on the
   new one in the same run:
   - structured fields (no free text; ``ticket.update``): prepared projections, one thread. Target ≥ 2,000 calls/s
     and p99 ≤ 2 ms. The same with ``group_commit=True`` from 4 threads, and both under synchronous=FULL (an fsync
     per commit), for information.
   - a 2 KB free-text summary through the anonymizer (``ticket.create``). Target ≥ 300 calls/s.
   - a short free-text summary with an e-mail address and numbers, and one of plain words, for information.
2. ``verify`` of a 1,000,000-entry ledger (built once into benchmarks/.work/, entries shaped like tool-call
   decisions). Target ≤ 10 s.
3. Inclusion proofs on that ledger (built from stored nodes, then verified). Target p99 ≤ 1 ms.
4. 8 writer processes × 10,000 single-entry appends into one file: all present, chain and tree verify.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median, quantiles
from typing import Any

from _shared import ROOT, target

from pp_graph.anonymize import warm_up
from pp_graph.plane import Field, merkle
from pp_graph.plane.api import DataPlane
from pp_graph.plane.contracts import Contracts, parse_contract
from pp_graph.plane.db import connect
from pp_graph.plane.demo import DEMO, Clock, demo_engine
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger

KEYS = PlaneKeys(bytes(range(32)))
WORK = ROOT / "benchmarks" / ".work"
BIG = 1_000_000
STRUCTURED_CALLS, SHORT_CALLS, LONG_CALLS = 5_000, 500, 60
THREADS = 4
WRITERS, PER_WRITER = 8, 10_000
# A tool taking structured fields only: case reference, status and priority pass, the e-mail becomes a token.
UPDATE = """
[contract]
name = "ticket.update"
boundary = "tool"
purpose = "dpv:CustomerCare"
site = "helpdesk.example"
recipient = "service_provider"
[fields.case_id]
classes = ["internal"]
required = true
[fields.status]
classes = ["internal"]
[fields.priority]
classes = ["internal"]
[fields.customer_email]
classes = ["personal"]
category = "pd:EmailAddress"
"""
WORDS = ("login", "fails", "again", "since", "monday", "reset", "the", "app", "shows", "an", "error", "page")


def p99(xs: list[float]) -> float:
    return quantiles(xs, n=100)[98]


@dataclass
class Calls:
    rate: float  # calls per second, wall
    p50: float  # ms per call, wall
    p99: float
    cpu_rate: float  # calls per CPU-second of the whole process
    batches: int | None = None  # transactions, with group commit
    cpu: tuple[float, float] | None = None  # CPU ms per call, p50 and p99 (one thread: other jobs count less)

    def line(self, label: str) -> str:
        batched = f"; {self.batches:,} commits" if self.batches is not None else ""
        cpu = f" (CPU p50 {self.cpu[0]:.3f} ms, p99 {self.cpu[1]:.3f} ms)" if self.cpu else ""
        return (
            f"  {label}: {self.rate:,.0f} calls/s, p50 {self.p50:.3f} ms, p99 {self.p99:.3f} ms{cpu}; "
            f"{self.cpu_rate:,.0f} calls per CPU-second{batched}"
        )


def plane_for(db: Path, sync: str, *, prepared: bool, group_commit: bool = False) -> DataPlane:
    contracts = dict(Contracts.load(DEMO / "contracts"))
    contracts["ticket.update"] = parse_contract(tomllib.loads(UPDATE), "bench_plane.py")
    return DataPlane(
        db,
        contracts=Contracts(contracts),
        keys=KEYS,
        engine=demo_engine(),
        clock=Clock(),
        sync=sync,
        prepared=prepared,
        group_commit=group_commit,
    )


def structured(i: int) -> list[Field]:
    s = f"user:{i % 97}"
    return [
        Field("case_id", f"CASE-{i}", "internal"),
        Field("status", "open", "internal"),
        Field("priority", ("low", "high")[i % 2], "internal"),
        Field("customer_email", f"u{i}@example.org", "personal", category="pd:EmailAddress", subject=s),
        Field("api_key", "sk-bench", "secret"),
        Field("debug_note", f"retry storm on node {i % 7}", "internal", purpose="dpv:ServiceOptimisation"),
    ]


def summary(i: int, rnd: random.Random, kind: str) -> list[Field]:
    """``kind``: "long" (about 2 KB of prose with a name, an e-mail address and a phone number), "short" (an
    e-mail address and numbers: the detector's phone-number matcher dominates then), "words" (no identifiers)."""
    if kind == "long":
        words = " ".join(rnd.choice(WORDS) for _ in range(400))
        text = f"Customer Jane Roe (jane{i}@example.org, +1 415 555 {i % 10_000:04d}) writes: {words}"[:2048]
        text = text[: text.rfind(" ")] + "."
    elif kind == "short":
        text = f"Customer user{rnd.randrange(10**6)}@example.org cannot log in (attempt {i})"
    else:
        text = " ".join(rnd.choice(WORDS[:6]) for _ in range(6))
    return [
        Field("case_id", f"CASE-{i}", "internal"),
        Field("summary", text, "internal", subject=f"user:{i % 97}", free_text=True),
        Field("customer_email", f"u{i}@example.org", "personal", subject=f"user:{i % 97}"),
        Field("api_key", "sk-bench", "secret"),
    ]


def guarded_calls(plane: DataPlane, contract: str, calls: list[list[Field]], threads: int = 1) -> Calls:
    """Run ``calls`` through the guarded tool (after 20 warm-up calls) from ``threads`` threads."""

    @plane.tool(contract, principal="bench")
    def tool(case_id: str, **_: Any) -> str:
        return case_id

    for f in calls[:20]:  # warm the site decision memo and SQLite's page cache
        tool(f)
    lat: list[list[float]] = [[] for _ in range(threads)]
    cpu_lat: list[float] = []  # one thread only: process CPU time is every thread's

    def run(k: int) -> None:
        for f in calls[k::threads]:
            s, c = time.perf_counter(), time.process_time()
            tool(f)
            lat[k].append((time.perf_counter() - s) * 1000)
            if threads == 1:
                cpu_lat.append((time.process_time() - c) * 1000)

    t0, c0 = time.perf_counter(), time.process_time()
    _in_threads(run, threads)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert plane.ledger.verify().ok
    batches = plane.group.batches if plane.group is not None else None
    plane.close()
    flat = [x for xs in lat for x in xs]
    cpu_tail = (median(cpu_lat), p99(cpu_lat)) if cpu_lat else None
    return Calls(len(calls) / total, median(flat), p99(flat), len(calls) / cpu, batches, cpu_tail)


def _in_threads(run: Callable[[int], None], threads: int) -> None:
    if threads == 1:
        run(0)
        return
    ts = [threading.Thread(target=run, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def record(i: int) -> dict[str, Any]:
    return {
        "event": "egress",
        "boundary": "tool",
        "name": "ticket.create",
        "purpose": "dpv:CustomerCare",
        "principal": "support-bot",
        "sites": ["helpdesk.example"],
        "subject": [f"tok_{i:020x}"],
        "fields": [
            {"name": "case_id", "class": "internal", "category": None, "action": "allow", "reasons": ["allowed"]},
            {"name": "summary", "class": "internal", "category": None, "action": "transform", "reasons": ["tok"]},
        ],
        "policy": "ab" * 32,
        "time": f"2026-01-01T00:00:{i % 60:02d}.000000Z",
    }


def big_ledger() -> Ledger:
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / "plane-1m.db"
    led = Ledger(connect(path), KEYS)
    have = len(led)
    if have < BIG:
        print(f"building a {BIG:,}-entry ledger in {path.relative_to(ROOT)} (once) …", flush=True)
        t = time.perf_counter()
        for start in range(have, BIG, 20_000):
            led.append_many(record(i) for i in range(start, min(BIG, start + 20_000)))
        print(f"  built in {time.perf_counter() - t:.1f} s ({BIG / (time.perf_counter() - t):,.0f} appends/s batched)")
    return led


def _writer(path: str, k: int, n: int) -> None:
    led = Ledger(connect(path), KEYS)
    for i in range(n):
        led.append({**record(i), "principal": f"writer-{k}"})


def concurrent_writers(tmp: Path) -> tuple[bool, float, int]:
    path = tmp / "writers.db"
    connect(path).close()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), k, PER_WRITER)) for k in range(WRITERS)]
    t = time.perf_counter()
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    took = time.perf_counter() - t
    led = Ledger(connect(path), KEYS)
    rep = led.verify()
    counts = led.conn.execute(
        "SELECT COUNT(*) FROM ledger GROUP BY json_extract(entry, '$.principal') ORDER BY 1"
    ).fetchall()
    ok = rep.ok and rep.size == WRITERS * PER_WRITER and [c for (c,) in counts] == [PER_WRITER] * WRITERS
    return ok and all(p.exitcode == 0 for p in procs), took, rep.size


def tool_calls(tmp: Path) -> int:
    """Each kind of call on today's path and on the new one, in the same run; 1 when a target is missed."""
    failed = 0
    rnd = random.Random(7)
    rows = [structured(i) for i in range(STRUCTURED_CALLS)]
    print("guarded tool calls, structured fields (ticket.update; WAL, synchronous=NORMAL):")
    base = guarded_calls(plane_for(tmp / "s0.db", "normal", prepared=False), "ticket.update", rows)
    print(base.line("today's path (prepared=False), 1 thread"))
    new = guarded_calls(plane_for(tmp / "s1.db", "normal", prepared=True), "ticket.update", rows)
    print(new.line("prepared projections, 1 thread"))
    failed |= target("≥ 2,000 structured calls/s and p99 ≤ 2 ms", new.rate >= 2000 and new.p99 <= 2.0)
    group = plane_for(tmp / "s2.db", "normal", prepared=True, group_commit=True)
    print(guarded_calls(group, "ticket.update", rows, THREADS).line(f"prepared + group commit, {THREADS} threads"))
    full = rows[:1_000]
    print("  for information, synchronous=FULL (an fsync per commit), 1,000 calls:")
    print(guarded_calls(plane_for(tmp / "f0.db", "full", prepared=False), "ticket.update", full).line("  today's path"))
    group = plane_for(tmp / "f1.db", "full", prepared=True, group_commit=True)
    print(guarded_calls(group, "ticket.update", full, THREADS).line(f"  prepared + group commit, {THREADS} threads"))

    long = [summary(i, rnd, "long") for i in range(LONG_CALLS)]
    print(f"guarded tool calls with a {len(long[0][1].value):,}-character free-text summary (ticket.create):")
    base = guarded_calls(plane_for(tmp / "l0.db", "normal", prepared=False), "ticket.create", long)
    print(base.line("today's path"))
    new = guarded_calls(plane_for(tmp / "l1.db", "normal", prepared=True), "ticket.create", long)
    print(new.line("new path (the text is detected in full either way)"))
    failed |= target("≥ 300 calls/s with a 2 KB free-text field", new.rate >= 300)
    for kind, what in (("short", "short summaries with identifiers"), ("words", "short summaries without")):
        calls = [summary(i, rnd, kind) for i in range(SHORT_CALLS)]
        print(f"  for information, {what}:")
        print(
            guarded_calls(plane_for(tmp / f"{kind}0.db", "normal", prepared=False), "ticket.create", calls).line(
                "  today's path"
            )
        )
        print(
            guarded_calls(plane_for(tmp / f"{kind}1.db", "normal", prepared=True), "ticket.create", calls).line(
                "  new path"
            )
        )
    return failed


def main(argv: list[str]) -> int:
    demo_engine()  # convert the demo site's policy before timing
    warm_up(freeze_heap=True)  # the detector's models loaded and the heap frozen before timing, as a service would
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (wall times include contention)")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        failed = tool_calls(tmp)
        if "--calls-only" in argv:
            return failed
        led = big_ledger()
        t, c = time.perf_counter(), time.process_time()
        rep = led.verify()
        took, cpu_s = time.perf_counter() - t, time.process_time() - c
        print(f"ledger verify of {rep.size:,} entries: {took:.2f} s wall, {cpu_s:.2f} s CPU (ok={rep.ok})")
        failed |= target("verify 1,000,000 entries ≤ 10 s", rep.ok and rep.size == BIG and took <= 10.0)

        root, rnd, lat, cpu_lat = led.root(), random.Random(3), [], []
        for _ in range(1_000):
            i = rnd.randrange(BIG)
            s, c = time.perf_counter(), time.process_time()
            proof = led.inclusion_proof(i)
            merkle.verify_inclusion(i, BIG, merkle.leaf_hash(led.entry_bytes(i)), proof, root)
            lat.append((time.perf_counter() - s) * 1000)
            cpu_lat.append((time.process_time() - c) * 1000)
        print(
            f"inclusion proof (build from stored nodes + verify) in {BIG:,}: median {median(lat):.3f} ms, "
            f"p99 {p99(lat):.3f} ms wall; CPU median {median(cpu_lat):.3f} ms, p99 {p99(cpu_lat):.3f} ms"
        )
        failed |= target("inclusion proof ≤ 1 ms (p99)", p99(lat) <= 1.0)

        ok, took, size = concurrent_writers(tmp)
        print(
            f"{WRITERS} writer processes × {PER_WRITER:,} appends: {size:,} entries in {took:.1f} s "
            f"({size / took:,.0f} appends/s), chain and tree verify: {ok}"
        )
        failed |= target("8 × 10,000 concurrent appends all present and verified", ok)
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
