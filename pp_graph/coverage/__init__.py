"""Disclosure coverage: did the sites we sent data to say, in the policy in force then, that they receive it?

``coverage(db, graphs)`` verifies the data plane's ledger (a broken chain or a checkpoint from another key refuses),
reads what crossed each boundary (``flows``) and judges each flow against the destination's dated policy version in
force at each call (``judge``): stated, denied by the policy, or silent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pp_graph.coverage.flows import LedgerFlows, read_flows, verified_ledger
from pp_graph.coverage.judge import VERDICTS, Flow, Judge

__all__ = ["VERDICTS", "CoverageReport", "Flow", "coverage"]


@dataclass
class CoverageReport:
    flows: list[Flow]
    read: LedgerFlows

    @property
    def counts(self) -> dict[str, int]:
        c = Counter(f.verdict for f in self.flows)
        return {v: c.get(v, 0) for v in VERDICTS}

    @property
    def ok(self) -> bool:
        """Every flow stated by the policy in force at the time."""
        return all(f.verdict == "stated" for f in self.flows)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "counts": self.counts,
            "entries": self.read.entries,
            "egress_entries": self.read.egress,
            "non_personal_fields": self.read.non_personal,
            "flows": [f.to_dict() for f in self.flows],
        }


def coverage(
    db: Path,
    graphs: Sequence[Path],
    *,
    checkpoint: Mapping[str, Any] | None = None,
    trusted_key: str | None = None,
) -> CoverageReport:
    """The coverage of the ledger at ``db`` by the policy graphs in ``graphs``; LedgerError when it does not verify,
    InputError when the graphs hold no policy."""
    from pp_graph.errors import InputError
    from pp_graph.graph.files import no_graph_files
    from pp_graph.store.embedded import EmbeddedStore

    ledger, size = verified_ledger(db, checkpoint, trusted_key)
    with closing(ledger.conn):  # closed, so SQLite removes the -wal and -shm it made for reading
        store = EmbeddedStore()
        if not store.load(graphs):
            raise InputError("--graph", f"{no_graph_files(graphs)}; convert policies first (pp-graph convert)")
        read = read_flows(ledger, size)
    return CoverageReport(Judge(store).judge(read.crossings), read)
