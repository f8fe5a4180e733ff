"""What an MCP call writes to the data plane's ledger: the tool, the site, DPV categories, purposes and the decision.

The ledger's own check (``check_record``) already refuses nested values; here the records are built from names and
categories only — never a text, a field value or an error message (which can quote what the caller sent).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

EVENT = "mcp"  # the ledger's event for an MCP call: a question asked, not data that crossed a boundary


class CallLedger:
    """Appends one entry per MCP tool call to the plane database at ``path`` (created when missing).

    The SQLite connection belongs to the thread that made it: the server builds this object on its worker thread.
    """

    def __init__(self, path: Path, *, principal: str = "mcp-client", clock: Callable[[], float] | None = None) -> None:
        from pp_graph.plane.db import connect
        from pp_graph.plane.ledger import Ledger

        self.ledger = Ledger(connect(path))
        self.principal = principal
        self.clock = clock

    def _append(self, name: str, result: str, **extra: Any) -> int:
        from pp_graph.plane.ledger import utc_now

        record = {
            "event": EVENT,
            "boundary": "tool",
            "name": name,
            "principal": self.principal,
            "result": result,
            "time": utc_now(self.clock() if self.clock else None),
            **extra,
        }
        return self.ledger.append(record)

    def egress(self, out: Mapping[str, Any], purposes: list[str], operation: str | None, recipients: list[str]) -> int:
        """A check_egress decision: one field per category (how it was known), the decision as each one's action."""
        why = [f"risk {out['risk']:.3f} tier {out['tier']}"]
        if operation:
            why.append(f"operation {operation}")
        why += [f"recipient {r}" for r in recipients]
        fields = [
            {"name": c["source"], "category": c["category"], "action": out["decision"], "reasons": why}
            for c in out["categories"]
        ] or [{"name": "none", "action": out["decision"], "reasons": why}]
        policy = (out.get("policy") or {}).get("graph_digest") or "no-policy"
        extra: dict[str, Any] = {"purpose": " ".join(purposes)} if purposes else {}
        return self._append("check_egress", out["decision"], sites=[out["site"]], fields=fields, policy=policy, **extra)

    def anonymize(self, level: int, categories: Sequence[str]) -> int:
        fields = [{"name": "text", "category": c, "action": f"L{level}"} for c in categories]
        return self._append("anonymize", f"L{level}", fields=fields)

    def lookup(self, name: str, sites: Sequence[str], rows: int, params: Sequence[str] = ()) -> int:
        """A read of the policy graph: the sites asked about, the parameters bound (names), how many rows went back."""
        fields = [{"name": p, "action": "bind"} for p in params]
        return self._append(name, f"{rows} row(s)", sites=list(sites), fields=fields)

    def refused(self, name: str, argument: str) -> int:
        """A call refused for a bad argument: the argument's name only (the message may quote the caller's data)."""
        return self._append(name, "refused", fields=[{"name": argument, "action": "refuse"}])

    def failed(self, name: str) -> int:
        return self._append(name, "error")
