"""Each flow judged against the destination's policy version in force at the time of each call.

A flow is (site, DPV category, purpose, action) and the policy version it falls under; the risk engine's matcher
(``Profile.match``, DPV hierarchy included) says how the policy covers it, and the match level maps to a verdict:
stated (exact, broader, narrower, or declared without a purpose: with the policy line), denied (a negated practice
covers it: with that line), silent (only generic "personal information", the category only for other purposes, never
the category, a policy without practices, or no policy in force then).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pp_graph.coverage.flows import NO_PURPOSE, Crossing

STATED = frozenset({"exact", "broader", "narrower", "no_purpose"})
DENIED = frozenset({"negated", "negated_generic"})
VERDICTS = ("stated", "denied", "silent")
# The destination receives the data itself: its policy covers a flow when it states collecting it (first party).
# Its own onward sharing ("we do not share your e-mail address with advertisers") neither states nor denies receipt.
RECEIVER = ("first_party",)
_EVIDENCE_CHARS = 200


@dataclass
class Flow:
    site: str
    category: str
    purpose: str
    action: str
    version: str  # the policy version's date, "undated", or "none" (no policy in force at the time)
    calls: int = 0
    first: str = ""
    last: str = ""
    seqs: list[int] = field(default_factory=list)
    verdict: str = "silent"
    match: str = "no_policy"
    evidence: dict[str, Any] | None = None
    policy: str | None = None  # the graph digest of the version judged against

    def to_dict(self) -> dict[str, Any]:
        return {
            "site": self.site,
            "category": self.category,
            "purpose": self.purpose,
            "action": self.action,
            "calls": self.calls,
            "first": self.first,
            "last": self.last,
            "version": self.version,
            "verdict": self.verdict,
            "match": self.match,
            "evidence": self.evidence,
            "policy": self.policy,
            "entries": self.seqs[:20],
        }


class Judge:
    """Policy versions per site and profiles per version, read once from ``store``."""

    def __init__(self, store: Any) -> None:
        from pp_graph.risk.tables import default_tables

        self.store = store
        self.tables = default_tables()
        self._versions: dict[str, tuple[str, list[str], bool] | None] = {}
        self._profiles: dict[tuple[str, str | None], Any] = {}

    def versions(self, site: str) -> tuple[str, list[str], bool] | None:
        """(domain, dated version dates, has undated graphs) of the site or its nearest parent domain with a policy."""
        if site not in self._versions:
            from pp_graph.risk.signals import candidate_domains, query_text

            found = None
            for domain in candidate_domains(site):
                rows = self.store.query(query_text("risk-site-policies"), {"domain": domain})
                if rows:
                    dated = sorted({_iso(r["validFrom"]) for r in rows if r.get("validFrom")})
                    found = (domain, dated, any(not r.get("validFrom") for r in rows))
                    break
            self._versions[site] = found
        return self._versions[site]

    def in_force(self, site: str, time: str) -> tuple[str, str | None] | None:
        """(domain, version date or None for undated) of the policy in force at ``time``; None: no policy then."""
        v = self.versions(site)
        if v is None:
            return None
        domain, dated, _ = v
        if dated:
            before = [d for d in dated if d <= time]
            return (domain, before[-1]) if before else None
        return domain, None

    def profile(self, domain: str, version: str | None) -> Any:
        key = (domain, version)
        if key not in self._profiles:
            from pp_graph.risk.signals import load_domain_profile

            self._profiles[key] = load_domain_profile(self.store, domain, self.tables.vocab, version)
        return self._profiles[key]

    def judge(self, crossings: Iterable[Crossing]) -> list[Flow]:
        """Crossings grouped into flows (per version in force), each judged; sorted by site, category, purpose."""
        flows: dict[tuple[str, ...], tuple[Flow, tuple[str, str | None] | None]] = {}
        for c in crossings:
            force = self.in_force(c.site, c.time)
            version = "none" if force is None else (force[1] or "undated")
            key = (c.site, c.category, c.purpose, c.action, version)
            if key not in flows:
                flows[key] = (Flow(c.site, c.category, c.purpose, c.action, version, first=c.time), force)
            f = flows[key][0]
            f.calls += 1
            f.first, f.last = min(f.first, c.time), max(f.last, c.time)
            f.seqs.append(c.seq)
        for f, force in flows.values():
            if force is not None:
                self._verdict(f, self.profile(*force))
        return [flows[k][0] for k in sorted(flows)]

    def _verdict(self, f: Flow, prof: Any) -> None:
        from pp_graph.vocab.dpv import expand

        if prof is None:
            return
        purposes = () if f.purpose == NO_PURPOSE else (expand(f.purpose),)
        m = prof.match(expand(f.category), purposes, RECEIVER, self.tables)
        f.match, f.policy = m.level, prof.describe()["graph_digest"]
        f.verdict = "stated" if m.level in STATED else "denied" if m.level in DENIED else "silent"
        if m.records:
            e = m.records[0]
            text = " ".join(str(e["text"] or "").split())
            text = text if len(text) <= _EVIDENCE_CHARS else text[: _EVIDENCE_CHARS - 1] + "…"
            f.evidence = {"practice": e["practice"], "label": e["label"], "start": e["start"], "end": e["end"]}
            f.evidence["text"] = text


def _iso(value: Any) -> str:
    """An xsd:dateTime as the store returns it → YYYY-MM-DDTHH:MM:SSZ (as ``load_domain_profile`` compares)."""
    v = str(value)
    return v[:-6] + "Z" if v.endswith("+00:00") else v
