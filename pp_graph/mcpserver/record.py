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

    def odrl_site(self, out: Mapping[str, Any]) -> int:
        """An odrl_evaluate verdict for an agent's action against a site: one field per data category, the
        verdict as its action (as check_egress), the action and recipient kinds as reasons."""
        req = out["request"]
        why = [f"operation {req['action']}", *(f"recipient {r}" for r in req["recipients"])]
        fields = [{"name": "data", "category": c, "action": out["verdict"], "reasons": why} for c in req["data"]]
        policy = out["policy"].get("graph_digest") or "no-policy"
        extra: dict[str, Any] = {"purpose": " ".join(req["purposes"])} if req["purposes"] else {}
        fields = fields or [{"name": "none", "action": out["verdict"], "reasons": why}]
        return self._append("odrl_evaluate", out["verdict"], sites=[out["site"]], fields=fields, policy=policy, **extra)

    def odrl_turtle(self, verdict: str, arguments: Sequence[str]) -> int:
        """An odrl_evaluate verdict for a policy and a request given as Turtle: the arguments' names only (what
        the caller's policy, request or state say is never recorded)."""
        fields = [{"name": a, "action": "evaluate"} for a in arguments]
        return self._append("odrl_evaluate", verdict, fields=fields)

    def compliance(self, out: Mapping[str, Any]) -> int:
        """A checklist answered: one field per requirement with its status, the site, the law and policy IRIs."""
        fields = [
            {"name": r["id"], "action": r["status"], "reasons": [f"law {out['law']}"]}
            for p in out["policies"]
            for r in p["requirements"]
        ]
        result = "complete" if out["complete"] else "incomplete"
        policy = " ".join(p["policy"] for p in out["policies"]) or "no-policy"
        return self._append("compliance", result, sites=[out["site"]], fields=fields, policy=policy)

    def refused(self, name: str, argument: str) -> int:
        """A call refused for a bad argument: the argument's name only (the message may quote the caller's data)."""
        return self._append(name, "refused", fields=[{"name": argument, "action": "refuse"}])

    def failed(self, name: str) -> int:
        return self._append(name, "error")
