"""The audit of one trace: facts → flows → intent / necessity → a risk decision for each over-exposed flow.

``Auditor(engine, sinks, committee).audit(trace)`` returns ``{"id", "flows", "summary"}``. The recipient's
policy graph enters through the risk engine (AMRSF): each over-exposed flow is decided as if its category
were sent to the sink's site, and the decision, its policy match and evidence are attached. The optional
committee runs last and may only add over-exposed verdicts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Protocol

from pp_graph.audit.contracts import SinkSpec
from pp_graph.audit.facts import facts_of
from pp_graph.audit.model import INTENDED, NECESSARY, OVER_EXPOSED, Flow, Trace
from pp_graph.audit.taint import track
from pp_graph.audit.verdict import Instruction, judge
from pp_graph.risk.engine import ActionContext, RiskEngine
from pp_graph.vocab.dpv import compact

GENERIC = "dpv:PersonalData"  # the category a flow of unknown kind is decided as


class Committee(Protocol):
    def review(self, trace: Trace, flows: list[Flow]) -> None: ...


class Auditor:
    def __init__(
        self,
        engine: RiskEngine | None = None,
        sinks: Mapping[str, SinkSpec] | None = None,
        committee: Committee | None = None,
    ) -> None:
        self.engine = engine if engine is not None else RiskEngine(None)
        self.sinks = dict(sinks or {})
        self.committee = committee
        self._decisions: dict[tuple[Any, ...], dict[str, Any]] = {}

    def flows(self, trace: Trace) -> list[Flow]:
        """The judged flows of a trace (verdicts and risk decisions set)."""
        mode = self.engine.ner_mode  # the facts are detected as the engine detects outgoing text
        facts = [f for i, s in enumerate(trace.steps) if s.result is not None for f in facts_of(i, s.result, mode)]
        out: list[Flow] = []
        instr: dict[str, Instruction] = {}
        for flow, fact, sink_text in track(trace, facts):
            ins = instr.get(flow.sink_tool)
            if ins is None:
                ins = instr[flow.sink_tool] = Instruction.of(trace.instruction, flow.sink_tool)
            judge(flow, fact, ins, self.sinks.get(flow.sink_tool), sink_text)
            out.append(flow)
        if self.committee is not None and out:
            self.committee.review(trace, out)
        for flow in out:
            if flow.verdict == OVER_EXPOSED:
                flow.risk = self._risk(trace, flow)
        return out

    def audit(self, trace: Trace) -> dict[str, Any]:
        flows = self.flows(trace)
        return {"id": trace.id, "flows": [f.to_dict() for f in flows], "summary": summary(trace, flows)}

    def _risk(self, trace: Trace, flow: Flow) -> dict[str, Any]:
        step = trace.steps[flow.sink_step]
        sink = self.sinks.get(flow.sink_tool)
        site = step.site or (sink.site if sink else None)
        purposes = (sink.purpose,) if sink and sink.purpose else ()
        recipient = step.recipient or (sink.recipient if sink else None)
        recipients = (recipient,) if recipient else ()
        kind = compact(flow.kind) if flow.kind else GENERIC
        key = (site, kind, purposes, recipients)
        rec = self._decisions.get(key)
        if rec is None:
            # Only categories and the site go to the engine: the decision cannot hold the value.
            d = self.engine.decide(ActionContext(site=site, data=(kind,), purposes=purposes, recipients=recipients))
            rec = {
                "decision": d.decision,
                "risk": d.risk,
                "tier": d.tier,
                "site": d.site,  # the parsed host: a URL's user information never reaches the record
                "policy": (d.policy or {}).get("site") if d.policy else None,
                "policy_match": d.likelihood.get("match"),
                "evidence": d.evidence[:3],
                "reasons": d.reasons,
            }
            self._decisions[key] = rec
        return rec


def summary(trace: Trace, flows: list[Flow]) -> dict[str, Any]:
    verdicts = Counter(f.verdict for f in flows)
    over = [f for f in flows if f.verdict == OVER_EXPOSED]
    kinds = Counter(compact(f.kind) if f.kind else "unknown" for f in over)
    decisions = Counter(f.risk["decision"] for f in over if f.risk)
    return {
        "steps": len(trace.steps),
        "flows": len(flows),
        OVER_EXPOSED: verdicts[OVER_EXPOSED],
        NECESSARY: verdicts[NECESSARY],
        INTENDED: verdicts[INTENDED],
        "over_exposed_kinds": dict(sorted(kinds.items())),
        "decisions": dict(sorted(decisions.items())),
    }
