"""The MCP tools as plain functions: decide an egress, anonymize a text, read a site's practices, run a named query.

Every argument is checked here (unknown site, oversize text, unknown terms, parameters a query does not take) and a
problem raises ``InputError`` naming the argument; the server turns it into an MCP tool error and stays up.
Nothing here imports the MCP SDK, so the tools are tested and reused without it.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pp_graph.anonymize.core import MAX_CHARS
from pp_graph.errors import InputError
from pp_graph.mcpserver.checklists import SiteChecklists
from pp_graph.mcpserver.record import CallLedger
from pp_graph.store.embedded import DPV_GRAPH
from pp_graph.vocab.dpv import compact

MAX_TEXT = MAX_CHARS  # the anonymizer's limit: one text per call, longer ones are refused with this number
MAX_ROWS = 500  # rows a named query or policy_facts returns at most (the rest is counted, not sent)
_EVIDENCE_CHARS = 400  # a practice's policy line as returned (policy text, not user data)


class PolicyService:
    """The policy graphs in ``graphs`` behind the tools; calls are written to ``ledger`` when one is given."""

    def __init__(
        self,
        graphs: Sequence[Path],
        *,
        ledger: CallLedger | None = None,
        thresholds: str = "paper",
        ner_mode: str | None = None,
    ) -> None:
        from pp_graph.graph.files import no_graph_files
        from pp_graph.risk.engine import RiskEngine
        from pp_graph.store.embedded import EmbeddedStore

        self.store = EmbeddedStore()
        if not self.store.load(graphs):
            raise InputError("--graph", f"{no_graph_files(graphs)}; convert policies first (pp-graph convert)")
        self.engine = RiskEngine(self.store, thresholds=thresholds, ner_mode=ner_mode)
        self.ledger = ledger
        self.sites = _sites(self.store)
        self.checklists = SiteChecklists(graphs)

    # -- sites --

    def profile(self, site: object, where: str = "site") -> Any:
        """The site's policy profile (its domain's or a parent domain's); InputError naming the nearest sites."""
        if not isinstance(site, str) or not site.strip():
            raise InputError(where, "give a site domain such as github.com")
        prof = self.engine.profile(site)
        if prof is None:
            from pp_graph.risk.signals import candidate_domains

            host = (candidate_domains(site) or [site])[0]
            near = difflib.get_close_matches(host, self.sites, n=3, cutoff=0.5)
            hint = f"; nearest: {', '.join(near)}" if near else f"; the graph holds {len(self.sites)} site(s)"
            raise InputError(where, f"no policy for site {site!r} in the graph{hint}")
        return prof

    # -- tools --

    def check_egress(
        self,
        site: str,
        data: Sequence[str] = (),
        text: str | None = None,
        purposes: Sequence[str] = (),
        action: str | None = None,
        recipients: Sequence[str] = (),
        basis: str | None = None,
    ) -> dict[str, Any]:
        """allow / transform / deny for sending ``data`` (DPV categories) or ``text`` to ``site``, with reasons,
        evidence and, when ``text`` is given, the text that may leave (the rewrite on transform, none on deny)."""
        from pp_graph.risk.engine import ActionContext

        prof = self.profile(site)
        if text is not None:
            check_text(text)
        ctx = ActionContext(
            site=site,
            data=tuple(data),
            purposes=tuple(purposes),
            recipients=tuple(recipients),
            basis=basis,
            operation=action,
            text=text,
        )
        self.engine.check(ctx)  # unknown terms are refused before any model loads
        if text is None:
            decision, released, anon = self.engine.decide(ctx), None, None
        else:
            g = self.engine.guard(ctx)
            decision, released, anon = g.decision, g.text, g.anonymized
        rec = decision.to_dict()
        out = {
            "decision": rec["decision"],
            "site": prof.site,
            "risk": rec["risk"],
            "tier": rec["tier"],
            "level": rec["level"],
            "categories": [
                {"category": compact(c["iri"]), "source": c["source"], "spans": c["spans"]} for c in rec["categories"]
            ],
            "reasons": rec["reasons"],
            "rules": rec["rules"],
            "evidence": rec["evidence"],
            "policy": rec["policy"],
        }
        if text is not None:
            out["text"] = released
            out["anonymization"] = None if anon is None else {"start_level": anon.start_level, "level": anon.level}
        if self.ledger is not None:
            purposes_iri = [compact(x["iri"]) for x in rec["purposes"]]
            operation = compact(rec["operation"]) if rec["operation"] else None
            self.ledger.egress(out, purposes_iri, operation, [r["kind"] for r in rec["recipients"]])
        return out

    def anonymize(self, text: str, level: int = 3, adaptive: bool = False) -> dict[str, Any]:
        """``text`` rewritten at ``level`` (1–5; with ``adaptive`` escalated while a guess is supported)."""
        from pp_graph.anonymize import anonymize, check_input
        from pp_graph.anonymize.categories import category

        check_text(text)
        check_input(text, level, escalate=adaptive)
        a = anonymize(text, level, escalate=adaptive, mode=self.engine.ner_mode)
        d = a.to_dict()
        types = Counter(r.type for r in a.entities)
        out = {
            "text": d["text"],
            "start_level": a.start_level,
            "level": a.level,
            "entities": d["entities"],
            "categories": sorted({compact(category(t)) for t in types}),
        }
        if self.ledger is not None:
            self.ledger.anonymize(a.level, out["categories"])
        return out

    def policy_facts(self, site: str, practice_type: str | None = None, limit: int = MAX_ROWS) -> dict[str, Any]:
        """The practices the site's policy states (newest version), each with its policy line and offsets."""
        prof = self.profile(site)
        if practice_type is not None:
            from pp_graph.query.runner import term_for

            practice_type = str(term_for(practice_type, "practice-type", "practice_type").value)
        chosen = [p for p in prof.practices if practice_type is None or p.label == practice_type]
        out = {
            "site": prof.site,
            "policy": prof.describe(),
            "practices": [_practice(p) for p in chosen[: max(0, limit)]],
            "total": len(chosen),
            "legal_bases": sorted(compact(x) for x in prof.legal_bases),
            "rights": sorted(compact(x) for x in prof.rights),
            "retention": list(prof.retention),
        }
        if self.ledger is not None:
            self.ledger.lookup("policy_facts", [prof.site], len(out["practices"]))
        return out

    def named_query(self, name: str, params: dict[str, str] | None = None, limit: int = MAX_ROWS) -> dict[str, Any]:
        """A query from the package's named queries (never free SPARQL), its parameters checked and bound."""
        from pp_graph.query.runner import available, load_query

        names = available()
        if name not in names:
            raise InputError("name", f"no named query {name!r}; one of: {', '.join(names)}")
        q = load_query(name)
        values = dict(params or {})
        for k, v in values.items():
            if not isinstance(v, str):
                raise InputError("params", f"parameter {k!r} must be a string")
        bound = q.bindings(values, how='give it in the params argument: {{"{name}": "…"}}')
        if DPV_GRAPH.value in q.text:  # DPV's hierarchy (ppg:within, labels); without it such a query finds nothing
            self.store.load_dpv()  # once: later calls find it loaded
        q.check_store(self.store, bound)
        rows = q.run_bound(self.store, bound)
        sent = [_plain(r) for r in rows[: max(0, limit)]]
        out = {"query": name, "purpose": q.purpose, "rows": sent, "total": len(rows)}
        if self.ledger is not None:
            sites = sorted(str(bound[p.name].value) for p in q.params if p.kind == "domain")
            self.ledger.lookup(f"named_query:{name}", sites, len(sent), sorted(values))
        return out

    def odrl_evaluate(
        self,
        policy: str | None = None,
        request: str | None = None,
        state: str | None = None,
        site: str | None = None,
        action: str | None = None,
        data: Sequence[str] = (),
        purposes: Sequence[str] = (),
        recipients: Sequence[str] = (),
        limit: int = MAX_ROWS,
    ) -> dict[str, Any]:
        """A FORCE compliance report: ``request`` against ``policy`` (Turtle, in an optional ``state``), or an
        agent's action (``action``, ``data``, ``purposes``, ``recipients``) against ``site``'s exported ODRL policy
        with the policy lines the verdict rests on."""
        from pp_graph.mcpserver.odrl_tool import evaluate_site, evaluate_turtle

        agent = {"action": action, "data": data, "purpose": purposes, "recipient": recipients}
        if site is None:
            given = [k for k, v in agent.items() if v]
            if given:
                raise InputError(given[0], "describes an agent's action: give it with a site, not with Turtle")
            for name, value in (("policy", policy), ("request", request)):
                if value is None:
                    raise InputError(name, "missing: give a site, or a policy and a request as Turtle")
            out = evaluate_turtle(str(policy), str(request), state, limit)
            if self.ledger is not None:
                given = [k for k, v in (("policy", policy), ("request", request), ("state", state)) if v is not None]
                self.ledger.odrl_turtle(out["verdict"], given)
            return out
        extra = [k for k, v in (("policy", policy), ("request", request), ("state", state)) if v is not None]
        if extra:
            raise InputError(extra[0], "give either a site with an agent's action, or a policy and a request")
        prof = self.profile(site)
        out = evaluate_site(self.engine, prof, action, data, purposes, recipients, limit)
        if self.ledger is not None:
            self.ledger.odrl_site(out)
        return out

    def compliance(self, site: str, law: str = "gdpr") -> dict[str, Any]:
        """``law``'s transparency checklist (GDPR Art. 13/14 by default) for the site's policy in the graph."""
        prof = self.profile(site)
        out = self.checklists.checklist(prof, law)
        if self.ledger is not None:
            self.ledger.compliance(out)
        return out

    def queries(self) -> list[dict[str, Any]]:
        """The named queries a client may run, with their parameters (name, kind, default, meaning)."""
        from pp_graph.query.runner import load_all

        return [
            {
                "name": q.name,
                "purpose": q.purpose,
                "params": [
                    {"name": p.name, "kind": p.kind, "default": p.default, "meaning": p.meaning} for p in q.params
                ],
            }
            for q in load_all()
        ]

    def summary(self, site: str) -> str:
        """A site's policy as a short Markdown summary (the MCP resource ``policy://SITE``)."""
        from pp_graph.mcpserver.summary import policy_summary

        prof = self.profile(site)
        if self.ledger is not None:
            self.ledger.lookup("resource:policy", [prof.site], 1)
        return policy_summary(prof)


def check_text(text: object, where: str = "text") -> str:
    """A string of at most MAX_TEXT characters (the limit is named when it is over)."""
    if not isinstance(text, str):
        raise InputError(where, f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InputError(where, f"{len(text):,} characters is over the limit of {MAX_TEXT:,}; split it")
    return text


def _sites(store: Any) -> list[str]:
    from pp_graph.query.runner import load_query

    return sorted({str(r["site"]) for r in load_query("view-policies").run(store)})


def _practice(p: Any) -> dict[str, Any]:
    text = p.text
    if text is not None and len(text) > _EVIDENCE_CHARS:
        text = text[: _EVIDENCE_CHARS - 1] + "…"
    return {
        "practice": p.iri,
        "type": p.label,
        "negated": p.negated,
        "data": sorted(compact(d) for d in p.data),
        "purposes": sorted(compact(x) for x in p.purposes),
        "recipients": sorted(p.kinds),
        "evidence": {"text": text, "start": p.start, "end": p.end},
    }


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """JSON values only (numbers, booleans, strings, lists, null)."""
    return {k: v if isinstance(v, int | float | bool | str | list) or v is None else str(v) for k, v in row.items()}
