"""What crossed each boundary, read from a verified data-plane ledger: one ``Crossing`` per site, category and call.

Only tool egress entries (``event: "egress"``) send data to a site; context, memory and MCP entries do not. A field
crossed unless the plane omitted or denied it; its DPV category is the field's own, and for free text the categories
of the spans it replaced (``"pd:EmailAddress EMAIL_ADDRESS 9-29"``): a token or a rewrite still carries a category
of personal data to the site. A field with no category is not personal data and is counted apart.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.errors import LedgerError

NOT_SENT = frozenset({"omit", "deny"})
NO_PURPOSE = "(none)"


@dataclass(frozen=True, slots=True)
class Crossing:
    """One category that went to one site in one ledger entry."""

    seq: int
    time: str  # ISO 8601 UTC to the second: YYYY-MM-DDTHH:MM:SSZ (the form policy versions are dated in)
    site: str
    category: str  # a DPV CURIE as the plane recorded it (pd:EmailAddress)
    purpose: str
    action: str  # the plane's action: allow, token, transform


@dataclass
class LedgerFlows:
    crossings: list[Crossing]
    entries: int  # entries read (the verified size)
    egress: int  # of them, tool egress entries
    non_personal: int  # fields that crossed without a personal-data category


def verified_ledger(db: Path, checkpoint: Mapping[str, Any] | None = None, trusted_key: str | None = None) -> Any:
    """The plane's ledger at ``db`` after ``verify`` (chain, Merkle tree and, when given, the signed checkpoint
    against ``trusted_key``); LedgerError naming the first bad entry and the problem otherwise."""
    from pp_graph.plane.db import connect_read_only
    from pp_graph.plane.ledger import Ledger

    ledger = Ledger(connect_read_only(db))  # coverage only reads: the file is left as found
    try:
        report = ledger.verify(since=checkpoint, trusted_key=trusted_key)
    except BaseException:
        ledger.conn.close()
        raise
    if not report.ok:
        ledger.conn.close()
        where = f"entry {report.first_bad}" if report.first_bad is not None else "the checkpoint"
        raise LedgerError(f"{db}: the ledger does not verify at {where}: {report.problem}; coverage refused")
    return ledger, report.size


def read_flows(ledger: Any, size: int) -> LedgerFlows:
    """The crossings of the first ``size`` entries (the verified ones; a ledger can grow while it is read)."""
    out = LedgerFlows([], 0, 0, 0)
    for seq, entry in ledger.entries(0, size):
        out.entries += 1
        if entry.get("event") != "egress":
            continue
        out.egress += 1
        for crossing in _crossings(seq, entry, out):
            out.crossings.append(crossing)
    return out


def _crossings(seq: int, entry: Mapping[str, Any], tally: LedgerFlows) -> Iterator[Crossing]:
    time = _second(entry.get("time"), seq)
    purpose = entry.get("purpose") or NO_PURPOSE
    sites = entry.get("sites") or []
    for f in entry.get("fields") or []:
        action = f.get("action")
        if action in NOT_SENT:
            continue
        cats = _categories(f)
        if not cats:
            tally.non_personal += 1
            continue
        for site in sites:
            for cat in cats:
                yield Crossing(seq, time, str(site), cat, str(purpose), str(action))


def _categories(field: Mapping[str, Any]) -> list[str]:
    cats = {str(field["category"])} if field.get("category") else set()
    cats.update(str(s).split(" ", 1)[0] for s in field.get("spans") or [])
    return sorted(cats)


def _second(value: object, seq: int) -> str:
    """'2026-01-01T00:00:00.000000Z' → '2026-01-01T00:00:00Z'; a time of another shape is an error naming it."""
    s = str(value or "")
    if len(s) < 20 or s[10] != "T" or not s.endswith("Z"):
        raise LedgerError(f"entry {seq}: time {s!r} is not an ISO 8601 UTC time")
    return s[:19] + "Z"
