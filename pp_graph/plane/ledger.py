"""The decision ledger: append-only entries in canonical JSON, hash-chained and in an RFC 6962 Merkle tree.

An entry records what crossed a boundary — field names, classes, categories, actions, reasons, principal, purpose,
policy digest, time — never the values. ``hash[i] = SHA-256(hash[i-1] ‖ entry[i])`` chains the entries; the Merkle
leaf of entry i is ``SHA-256(0x00 ‖ entry[i])``. Complete tree nodes are stored as they are finished, so inclusion
and consistency proofs take O(log n) look-ups. A signed checkpoint (size, root, chain head, time) lets an auditor
who kept it detect a database rewritten consistently after the fact.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from pp_graph.anonymize.recognizers import DIGEST, MODE_NAME, ner_modes
from pp_graph.errors import LedgerError, ProofError
from pp_graph.plane import merkle
from pp_graph.plane.db import bind_key, read_snapshot, transaction
from pp_graph.plane.keys import PlaneKeys, verify_signature

RECORD_KEYS = frozenset(
    {"event", "boundary", "name", "purpose", "principal", "sites", "subject", "fields", "policy", "time", "result"}
)
FIELD_KEYS = frozenset(
    {"name", "class", "category", "action", "reasons", "expires", "retention", "spans", "ner_mode", "detector", "sweep"}
)
# A replaced span of free text: "pd:Category TYPE start-end" — a shape with no room for the value itself.
SPAN = re.compile(r"[\w-]+:\w+ [\w:]+ \d+-\d+")
# What judged free text: a registered NER mode's name and the digest of its models, in the shapes the
# anonymizer's registry enforces (ASCII name, 64 hex digits: no room for a value either), and the digest of
# the anonymizer's residual sweep settings (``sweep_digest``).
SHAPES = {"ner_mode": MODE_NAME, "detector": DIGEST, "sweep": DIGEST}
GENESIS = bytes(32)
_CACHED_LEVEL = 8  # nodes of ≥ 256 leaves: at most n/256 of them, so the cache stays small
CHECKPOINT_KEYS = ("size", "root", "chain", "time", "key")


def canonical(obj: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: one byte string per record."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def utc_now(clock: float | None = None) -> str:
    t = time.time() if clock is None else clock
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_SCALARS = frozenset({type(None), str, bool, int, float})


def _flat(v: Any) -> bool:
    """A string, number, boolean, null or list of strings (exact types: this runs once per value appended)."""
    t = type(v)
    return t in _SCALARS or (t is list and all(type(x) is str for x in v))


def check_record(rec: Mapping[str, Any]) -> None:
    """A ledger record has only decision keys and flat values: there is no place for a payload."""
    if not RECORD_KEYS.issuperset(rec):
        raise LedgerError(f"ledger record has unknown key(s) {', '.join(sorted(set(rec) - RECORD_KEYS))}")
    for k, v in rec.items():
        if k == "fields":
            if type(v) is not list:
                raise LedgerError("ledger record 'fields' must be a list")
            for f in v:
                if not isinstance(f, Mapping) or not FIELD_KEYS.issuperset(f) or not all(map(_flat, f.values())):
                    raise LedgerError(f"ledger field record has unknown keys or nested values: {sorted(f)}")
                if "spans" in f and not all(SPAN.fullmatch(x) for x in f["spans"]):
                    raise LedgerError("ledger field 'spans' must hold 'category TYPE start-end' entries only")
                _check_detector(f)
        elif not _flat(v):
            raise LedgerError(f"ledger record key {k!r} must hold a string, number or list of strings")


@dataclass(frozen=True, slots=True)
class CheckedRecord:
    """A record that passed ``check_record``, in its canonical bytes (made by ``checked``): a writer that commits
    records for other threads takes these, so one caller's bad record fails that caller alone."""

    blob: bytes


def checked(record: Mapping[str, Any] | CheckedRecord) -> CheckedRecord:
    if isinstance(record, CheckedRecord):
        return record
    check_record(record)
    return CheckedRecord(canonical(record))


@dataclass
class Report:
    """The outcome of ``verify``: ok, or the first bad entry and what is wrong with it."""

    ok: bool
    size: int
    root: str
    chain: str
    first_bad: int | None = None
    problem: str | None = None
    checkpoint: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _check_detector(f: Mapping[str, Any]) -> None:
    """``ner_mode`` a registered mode's name, ``detector`` and ``sweep`` a 'sha256:' and 64 hex digits."""
    for key, shape in SHAPES.items():
        if key in f and not (type(f[key]) is str and shape.fullmatch(f[key])):
            raise LedgerError(f"ledger field {key!r} must be a mode name or 'sha256:' digest, nothing else")
    # A name's shape still fits a lowercase value; a mode that judged the text is registered in this process.
    if "ner_mode" in f and f["ner_mode"] not in ner_modes():
        raise LedgerError(f"ledger field 'ner_mode' must name a registered NER mode ({', '.join(ner_modes())})")


class Ledger:
    def __init__(self, conn: sqlite3.Connection, keys: PlaneKeys | None = None) -> None:
        self.conn = conn
        self.keys = keys
        self._nodes: dict[tuple[int, int], bytes] = {}
        if keys is not None:
            bind_key(conn, keys.fingerprint, _db_name(conn))

    # -- writing --

    def append(self, record: Mapping[str, Any] | CheckedRecord) -> int:
        return self.append_many([record])[0]

    def append_many(self, records: Iterable[Mapping[str, Any] | CheckedRecord]) -> list[int]:
        """Append records in one transaction; returns their sequence numbers (= Merkle leaf indices)."""
        blobs = [checked(r).blob for r in records]
        seqs: list[int] = []
        with transaction(self.conn) as c:
            size, chain, front = self._head_row()
            frontier = [front[i : i + 32] for i in range(0, len(front), 32)]
            rows, nodes = [], []
            for blob in blobs:
                chain = hashlib.sha256(chain + blob).digest()
                nodes.extend(merkle.frontier_append(frontier, size, merkle.leaf_hash(blob)))
                rows.append((size, blob, chain))
                seqs.append(size)
                size += 1
            c.executemany("INSERT INTO ledger (seq, entry, hash) VALUES (?, ?, ?)", rows)
            c.executemany("INSERT INTO ledger_nodes (level, idx, hash) VALUES (?, ?, ?)", nodes)
            c.execute(
                "UPDATE ledger_head SET size = ?, chain = ?, frontier = ? WHERE id = 0",
                (size, chain, b"".join(frontier)),
            )
        return seqs

    # -- reading --

    def head(self) -> tuple[int, bytes, bytes]:
        """(size, chain head, Merkle root) as the head row records them."""
        size, chain, front = self._head_row()
        return size, chain, merkle.frontier_root([front[i : i + 32] for i in range(0, len(front), 32)])

    def _head_row(self) -> tuple[int, bytes, bytes]:
        row = self.conn.execute("SELECT size, chain, frontier FROM ledger_head WHERE id = 0").fetchone()
        if row is None or not isinstance(row[1], bytes) or not isinstance(row[2], bytes) or len(row[2]) % 32:
            raise LedgerError(
                f"{_db_name(self.conn)}: the ledger's head row is missing or malformed: the database was altered"
            )
        return int(row[0]), row[1], row[2]

    def __len__(self) -> int:
        return int(self.head()[0])

    def entries(self, start: int = 0, end: int | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
        q = "SELECT seq, entry FROM ledger WHERE seq >= ? AND seq < ? ORDER BY seq"
        for seq, blob in self.conn.execute(q, (start, end if end is not None else 2**62)):
            try:
                yield seq, json.loads(blob)
            except ValueError as e:
                raise LedgerError(f"entry {seq} is not valid JSON ({e}); run ledger verify") from e

    def entry_bytes(self, seq: int) -> bytes:
        row = self.conn.execute("SELECT entry FROM ledger WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise LedgerError(f"no entry {seq}")
        return bytes(row[0])

    def _node(self, level: int, idx: int) -> bytes:
        # A complete node never changes once written, so upper levels (shared by every proof) are kept in memory.
        key = (level, idx)
        h = self._nodes.get(key)
        if h is None:
            q = "SELECT hash FROM ledger_nodes WHERE level = ? AND idx = ?"
            row = self.conn.execute(q, key).fetchone()
            if row is None:
                raise LedgerError(f"Merkle node ({level}, {idx}) is missing; run ledger verify")
            h = bytes(row[0])
            if level >= _CACHED_LEVEL:
                self._nodes[key] = h
        return h

    def root(self, size: int | None = None) -> bytes:
        return merkle.root(self._node, len(self) if size is None else size)

    def inclusion_proof(self, seq: int, size: int | None = None) -> list[bytes]:
        return merkle.inclusion_proof(self._node, seq, len(self) if size is None else size)

    def consistency_proof(self, size1: int, size2: int | None = None) -> list[bytes]:
        return merkle.consistency_proof(self._node, size1, len(self) if size2 is None else size2)

    # -- checkpoints --

    def checkpoint(self, clock: float | None = None) -> dict[str, Any]:
        """A signed tree head: size, Merkle root, chain head, time, the public key and an Ed25519 signature."""
        if self.keys is None:
            raise LedgerError("signing a checkpoint needs the plane key")
        size, chain, root = self.head()
        body = {"size": size, "root": root.hex(), "chain": chain.hex(), "time": utc_now(clock)}
        body["key"] = self.keys.public_key_hex
        sig = self.keys.signing_key.sign(canonical(body)).hex()
        return {**body, "signature": sig}

    # -- verification --

    def verify(self, since: Mapping[str, Any] | None = None, trusted_key: str | None = None) -> Report:
        """Recompute the chain and the tree from the entries; compare with the head, the stored Merkle nodes and, if
        given, a checkpoint. Everything is read in one snapshot, so appends running meanwhile are not seen halfway."""
        cp = check_checkpoint(since, trusted_key) if since is not None else None
        with read_snapshot(self.conn):
            return self._verify(cp)

    def _verify(self, cp: Mapping[str, Any] | None) -> Report:
        size, chain, root = self.head()
        scan = _Scan(cp["size"] if cp is not None else None, self._stored_nodes)
        cur = self.conn.execute("SELECT seq, entry, hash FROM ledger ORDER BY seq")
        try:
            while rows := cur.fetchmany(_CHUNK):
                bad = scan.chunk(rows)
                if bad is not None:
                    n, problem, entry, h = bad
                    return self._bad(n, problem or self._diagnose(n, entry, h), scan.prev)
        except sqlite3.DatabaseError as e:
            raise LedgerError(f"the ledger cannot be read past entry {scan.n} ({e})") from e
        n, prev, got_root = scan.n, scan.prev, merkle.frontier_root(scan.frontier)
        if n < size:
            return self._bad(n, f"entries {n}…{size - 1} are missing: the log was truncated", prev)
        if n > size:
            return self._bad(size, f"entry {size} and later were added outside the ledger (inserted)", prev)
        if prev != chain or got_root != root:
            return self._bad(max(n - 1, 0), "the head does not match the entries (head rewritten)", prev)
        stored = int(self.conn.execute("SELECT COUNT(*) FROM ledger_nodes").fetchone()[0])
        if stored != (want := sum(n >> level for level in range(n.bit_length()))):
            return self._bad(n, f"the stored Merkle tree has {stored} nodes, the entries make {want}: altered", prev)
        report = Report(True, n, got_root.hex(), prev.hex())
        if cp is not None:
            self._against(report, cp, scan.cp_root)
        return report

    def _stored_nodes(self, level: int, lo: int, hi: int) -> list[bytes]:
        q = "SELECT hash FROM ledger_nodes WHERE level = ? AND idx >= ? AND idx < ? ORDER BY idx"
        return [r[0] for r in self.conn.execute(q, (level, lo, hi)).fetchall()]  # a non-BLOB never compares equal

    def _against(self, report: Report, cp: Mapping[str, Any], cp_root: bytes | None) -> None:
        """Prove the log only grew since checkpoint ``cp``, with a consistency proof from the stored tree."""
        want = bytes.fromhex(cp["root"])
        report.checkpoint = {"size": cp["size"], "root": cp["root"], "time": cp["time"]}
        if report.size < cp["size"]:
            report.ok, report.first_bad = False, report.size
            report.problem = f"the log has {report.size} entries, fewer than the checkpoint's {cp['size']} (truncated)"
            return
        if cp["size"] == 0:
            cp_root = merkle.EMPTY_ROOT
        if cp_root != want:
            report.ok = False
            report.problem = (
                f"the first {cp['size']} entries differ from the checkpoint of {cp['time']}: the log was rewritten"
            )
            return
        try:
            if cp["size"] > 0:
                proof = self.consistency_proof(cp["size"], report.size)
                merkle.verify_consistency(cp["size"], report.size, proof, want, bytes.fromhex(report.root))
        except (ProofError, LedgerError) as e:
            report.ok, report.problem = False, f"no valid consistency proof from the checkpoint: {e}"
            return
        report.checkpoint["consistent"] = True

    def _diagnose(self, n: int, entry: bytes, h: bytes) -> str:
        """Why entry n breaks the chain: it chains after another entry (moved or inserted), or it was changed."""
        for j, other in self.conn.execute("SELECT seq, hash FROM ledger WHERE seq != ? AND seq != ?", (n, n - 1)):
            if hashlib.sha256(other + entry).digest() == h:
                return f"entry {n} chains after entry {j}, not after entry {n - 1}: entries were reordered or inserted"
        if n > 0:
            return f"entry {n} does not continue the chain from entry {n - 1}: mutated, reordered or inserted"
        return "entry 0 does not match its recorded hash (mutated)"

    def _bad(self, n: int, problem: str, prev: bytes) -> Report:
        size = int(self.conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])
        return Report(False, size, "", prev.hex(), n, problem)


_CHUNK = 1 << 14  # entries per fetch; a full aligned chunk is one perfect subtree of the Merkle tree


class _Scan:
    """Chain and tree of the log recomputed chunk by chunk (comprehensions, not a Python loop per hash); the complete
    Merkle nodes each chunk finishes are compared with the stored ones (proofs are built from those)."""

    def __init__(self, cp_size: int | None, stored: Callable[[int, int, int], list[bytes]]) -> None:
        self.n, self.prev, self.cp_size = 0, GENESIS, cp_size
        self.frontier: list[bytes] = []
        self.cp_root: bytes | None = None
        self.stored = stored
        self.made: dict[int, list[bytes]] = {}

    def chunk(self, rows: list[tuple[Any, Any, Any]]) -> tuple[int, str | None, bytes, bytes] | None:
        """Fold ``rows`` in; (entry number, problem or None to diagnose, entry, hash) for the first bad one."""
        sha, n0, k = hashlib.sha256, self.n, len(rows)
        seqs, entries, hashes = zip(*rows, strict=True)
        if seqs[0] != n0 or seqs[-1] != n0 + k - 1:  # seq is unique and sorted: contiguous iff both ends fit
            gap = next(n0 + i for i, s in enumerate(seqs) if s != n0 + i)
            return gap, f"entry {gap} is missing: the log jumps to entry {seqs[gap - n0]} (deleted)", b"", b""
        try:
            # hash[i] = SHA-256(hash[i-1] || entry[i]) for every i, the first against the chain so far.
            good = [
                sha(p + e).digest() == h for p, e, h in zip((self.prev, *hashes[:-1]), entries, hashes, strict=True)
            ]
            leaves = [sha(b"\x00" + e).digest() for e in entries]
        except TypeError:  # a tampered row holding TEXT or a number instead of a BLOB
            entries = tuple(e if isinstance(e, bytes) else str(e).encode() for e in entries)
            hashes = tuple(h if isinstance(h, bytes) else str(h).encode() for h in hashes)
            good = [
                sha(p + e).digest() == h for p, e, h in zip((self.prev, *hashes[:-1]), entries, hashes, strict=True)
            ]
            leaves = [sha(b"\x00" + e).digest() for e in entries]
        if not all(good):
            i = good.index(False)
            if i > 0:
                self.prev = hashes[i - 1]
            return n0 + i, None, entries[i], hashes[i]
        self._fold(leaves, n0)
        self.n, self.prev = n0 + k, hashes[-1]
        return self._check_nodes(n0, k)

    def _fold(self, leaves: list[bytes], n0: int) -> None:
        self.made = {}
        k = len(leaves)
        cp_inside = self.cp_size is not None and n0 < self.cp_size <= n0 + k
        if k == _CHUNK and n0 % _CHUNK == 0 and not cp_inside:
            levels = _perfect_levels(leaves)
            self.made = dict(enumerate(levels[:-1]))
            self._push(levels[-1][0], len(levels) - 1, n0 >> (len(levels) - 1))
        else:
            for i, leaf in enumerate(leaves):
                self._push(leaf, 0, n0 + i)
                if self.cp_size == n0 + i + 1:
                    self.cp_root = merkle.frontier_root(self.frontier)

    def _push(self, node: bytes, level: int, idx: int) -> None:
        """Append perfect subtree number ``idx`` of its size (every frontier entry before it is at least as large)."""
        sha, made = hashlib.sha256, self.made
        made.setdefault(level, []).append(node)
        while idx & 1:
            node = sha(b"\x01" + self.frontier.pop() + node).digest()
            idx >>= 1
            level += 1
            made.setdefault(level, []).append(node)
        self.frontier.append(node)

    def _check_nodes(self, n0: int, k: int) -> tuple[int, str | None, bytes, bytes] | None:
        """The nodes finished by entries [n0, n0 + k), level by level, against the stored ones."""
        for level, want in sorted(self.made.items()):
            lo = ((n0 + (1 << level)) >> level) - 1  # the first node of this level that entry n0 or later completes
            got = self.stored(level, lo, lo + len(want))
            if got != want:
                j = next((j for j, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), len(got))
                what = "is missing" if j >= len(got) else "does not match the entries"
                problem = f"Merkle node ({level}, {lo + j}) {what}: the stored tree was altered (proofs would lie)"
                return (lo + j) << level, problem, b"", b""
        return None


def _perfect_levels(leaves: list[bytes]) -> list[list[bytes]]:
    """Every level of the perfect tree over ``leaves`` (a power of two of them), leaves first, root last."""
    sha = hashlib.sha256
    levels = [leaves]
    while len(levels[-1]) > 1:
        level = levels[-1]
        levels.append([sha(b"\x01" + a + b).digest() for a, b in zip(level[0::2], level[1::2], strict=True)])
    return levels


def check_checkpoint(cp: Mapping[str, Any], trusted_key: str | None = None) -> Mapping[str, Any]:
    """A checkpoint's shape and signature (against ``trusted_key`` when given, else the key it names)."""
    if not isinstance(cp, Mapping):
        raise LedgerError("a checkpoint must be a JSON object")
    missing = [k for k in (*CHECKPOINT_KEYS, "signature") if k not in cp]
    if missing:
        raise LedgerError(f"the checkpoint lacks {', '.join(missing)}")
    if not isinstance(cp["size"], int) or cp["size"] < 0:
        raise LedgerError("the checkpoint's size must be a non-negative integer")
    if trusted_key is not None and cp["key"] != trusted_key:
        raise LedgerError("the checkpoint was signed by another key than the trusted one")
    verify_signature(str(cp["key"]), str(cp["signature"]), canonical({k: cp[k] for k in CHECKPOINT_KEYS}))
    try:
        bytes.fromhex(cp["root"])
    except (TypeError, ValueError):
        raise LedgerError("the checkpoint's root is not hex") from None
    return cp


def _db_name(conn: sqlite3.Connection) -> str:
    """The file behind a connection, for messages."""
    rows = conn.execute("PRAGMA database_list").fetchall()
    return str(rows[0][2]) if rows and rows[0][2] else "the plane database"


def replay_rows(ledger: Ledger, start: int = 0) -> list[dict[str, Any]]:
    """One row per field decision: what crossed each boundary."""
    rows: list[dict[str, Any]] = []
    for seq, e in ledger.entries(start):
        fields: Sequence[Mapping[str, Any]] = e.get("fields") or [{}]
        for f in fields:
            rows.append(
                {
                    "seq": seq,
                    "time": e.get("time"),
                    "event": e.get("event"),
                    "boundary": e.get("boundary"),
                    "name": e.get("name"),
                    "principal": e.get("principal"),
                    "purpose": e.get("purpose"),
                    "field": f.get("name"),
                    "class": f.get("class"),
                    "category": f.get("category"),
                    "action": f.get("action"),
                    "reasons": "; ".join(f.get("reasons") or []),
                }
            )
    return rows
