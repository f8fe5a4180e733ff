"""The ODRL side of a risk decision: an agent's call becomes an ODRL request (its operation or, failing that,
dpv:Share towards a third party and dpv:Use otherwise; each data category as the target; the purposes as
facts; each recipient kind as the assignee) evaluated against the site's exported ODRL policy.

A recipient kind is a member (odrl:partOf) of every party of the policy with that kind, and a third-party kind
of every party of unknown kind too ("an unspecified third party"), so "we do not share with third parties"
covers an advertiser. The answer (memoised per identical question) is the compliance report's verdict with the
rules it rests on and the policy lines they were exported from.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from typing import Any

from rdflib import Graph, URIRef
from rdflib.namespace import DCTERMS
from rdflib.term import Node

from pp_graph.graph.namespaces import ODRL, recipient_kind_iri
from pp_graph.model import RecipientKind
from pp_graph.odrl.api import decide, prepare
from pp_graph.odrl.memo import RuleMemo
from pp_graph.odrl.model import Constraint, Policy, Request, RequestRule, Rule, parse_policy
from pp_graph.odrl.report import RuleReport
from pp_graph.odrl.terms import NOT_APPLICABLE, NOT_PERMITTED, PERMITTED, PROHIBITED, VERDICT_UNDETERMINED
from pp_graph.odrl.world import Hierarchy, World
from pp_graph.risk.signals import Profile, Store

SHARE, USE = URIRef("https://w3id.org/dpv#Share"), URIRef("https://w3id.org/dpv#Use")
FIRST_PARTY = "first_party"
ALL_KINDS = tuple(k.value for k in RecipientKind)
KIND_PREFIX = str(recipient_kind_iri("x"))[:-1]
_ORDER = (PROHIBITED, VERDICT_UNDETERMINED, PERMITTED, NOT_PERMITTED, NOT_APPLICABLE)  # the strongest first
_MAX_MEMO = 50_000
MAX_EVIDENCE = 5  # rules cited per decision (rule_count says how many the verdict rests on)


@dataclass(frozen=True)
class SitePolicy:
    policy: Policy  # one representative rule per group of rules an agent's call cannot tell apart
    members: dict[Node, tuple[Node, ...]]  # representative -> every rule of its group
    kinds: dict[Node, frozenset[str]]  # party -> its recipient kinds
    world: World  # every recipient kind's memberships at once (kinds are distinct IRIs): built once per policy
    hier: Hierarchy
    by_action: dict[Node | None, tuple[int, ...]]  # action -> the rules naming it (None: naming none)
    by_target: dict[Node | None, tuple[int, ...]]  # target -> the rules naming it (None: naming none)
    memo: RuleMemo
    kind_of: dict[Node, str]  # every rule (members too) -> permission / prohibition / duty
    source_of: dict[Node, str]  # every rule -> the practice it was exported from


@dataclass(frozen=True)
class Call:
    categories: tuple[str, ...]
    purposes: tuple[str, ...]
    recipients: tuple[str, ...]
    operation: str | None


class OdrlCheck:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._policies: dict[str, SitePolicy] = {}
        self._memo: dict[tuple[tuple[str, ...], Call], dict[str, Any]] = {}
        self._parts: dict[tuple[Any, ...], list[RuleReport]] = {}
        self._practices: dict[tuple[str, ...], dict[str, Any]] = {}

    def site_policy(self, policy: str) -> SitePolicy:
        if policy not in self._policies:
            from pp_graph.export.odrl import export_policy
            from pp_graph.query.runner import run_query

            g = export_policy(self.store, policy)
            kinds: dict[Node, set[str]] = {}
            for row in run_query(self.store, "export-parties", {"policy": policy}):
                if row.get("kind"):
                    kinds.setdefault(URIRef(str(row["party"])), set()).add(kind_name(str(row["kind"])))
            full = parse_policy(g, f"the ODRL export of {policy}", URIRef(policy + "/odrl"))
            frozen = {p: frozenset(k) for p, k in kinds.items()}
            pol, members = representatives(full, frozen)
            world, hier = prepare(pol, memberships(frozen), f"the recipient kinds of {policy}")
            memo = RuleMemo(pol, world, hier)
            kind_of = {m: r.kind.lower() for r in pol.rules for m in members[r.iri]}
            source_of = {r: str(g.value(r, DCTERMS.source) or "") for r in kind_of}
            by_action, by_target = indexes(pol)
            self._policies[policy] = SitePolicy(
                pol, members, frozen, world, hier, by_action, by_target, memo, kind_of, source_of
            )
        return self._policies[policy]

    def prepare(self, prof: Profile) -> None:
        """Export and prepare the site's policies now (when its signals are read) rather than on its first call.
        A policy that cannot be exported is left for ``check``, which then fails closed with the error."""
        from pp_graph.errors import PPGraphError

        for policy in prof.policies:
            with contextlib.suppress(PPGraphError):
                self.site_policy(policy)

    def check(self, prof: Profile, call: Call) -> dict[str, Any]:
        key = (prof.policies, call)
        out = self._memo.get(key)
        if out is None:
            if len(self._memo) >= _MAX_MEMO:
                self._memo.clear()
            out = self._check(prof, call)
            self._memo[key] = out
        return out

    def _check(self, prof: Profile, call: Call) -> dict[str, Any]:
        found: list[tuple[str, SitePolicy, list[Node]]] = []
        for policy in prof.policies:
            site = self.site_policy(policy)
            outcomes = [r for q in request_of(call).rules for r in self._outcomes(policy, site, q)]
            verdict, reps = decide(outcomes, site.policy.conflict) if outcomes else (NOT_APPLICABLE, [])
            found.append((verdict, site, sorted({m for r in reps for m in site.members[r]}, key=str)))
        verdict = min((v for v, _, _ in found), key=_ORDER.index) if found else NOT_APPLICABLE
        strongest = [(site, rule) for v, site, rules in found if v == verdict for rule in rules]
        shown = [self._evidence(prof, site, rule) for site, rule in strongest[:MAX_EVIDENCE]]
        return {"verdict": verdict, "rules": shown, "rule_count": len(strongest)}

    def _evidence(self, prof: Profile, site: SitePolicy, rule: Node) -> dict[str, Any]:
        """A rule the verdict rests on, with the practice it was exported from and that practice's line."""
        by_iri = self._practices.get(prof.policies)
        if by_iri is None:
            by_iri = self._practices[prof.policies] = {p.iri: p for p in prof.practices}
        practice = site.source_of.get(rule, "")
        p = by_iri.get(practice)
        return {
            "rule": str(rule),
            "kind": site.kind_of.get(rule, ""),
            "practice": practice,
            "text": _clip(p.text) if p else None,
            "start": p.start if p else None,
            "end": p.end if p else None,
        }

    def _outcomes(self, policy: str, site: SitePolicy, q: RequestRule) -> list[RuleReport]:
        """The reports of the rules one requested permission can meet (memoised: calls share their parts)."""
        key = (policy, q.action, q.target, q.assignee, tuple(sorted(q.facts.items())))
        out = self._parts.get(key)
        if out is None:
            if len(self._parts) >= _MAX_MEMO:
                self._parts.clear()
            out = site.memo.activations(relevant(site, q), q)
            self._parts[key] = out
        return out


def representatives(pol: Policy, kinds: dict[Node, frozenset[str]]) -> tuple[Policy, dict[Node, tuple[Node, ...]]]:
    """Rules an agent's call cannot tell apart — same kind, targets, actions, constraints, and assignees of the
    same recipient kinds (a call's recipient is a kind, a member of a party by kind only) — evaluated once.
    A site states many practices alike: 667 rules are 357 groups on one large policy."""
    groups: dict[Any, list[Rule]] = {}
    for rule in pol.rules:
        who = frozenset(kinds.get(a, frozenset({str(a)})) for a in rule.assignees)
        key = (rule.kind, rule.targets, who, tuple(a.iri for a in rule.actions), _signature(rule.constraints))
        groups.setdefault(rule.iri if rule.duties or any(a.refinements for a in rule.actions) else key, []).append(rule)
    reps = tuple(g[0] for g in groups.values())
    return replace(pol, rules=reps), {g[0].iri: tuple(r.iri for r in g) for g in groups.values()}


def _signature(constraints: tuple[Constraint, ...]) -> tuple[Any, ...]:
    return tuple((c.left, c.operator, c.right, c.logical, _signature(c.children)) for c in constraints)


def relevant(site: SitePolicy, q: RequestRule) -> list[int]:
    """The rules whose action and target the request can meet: the others are inactive whatever their party or
    constraints, so they cannot change the verdict (a site has hundreds of rules; a call meets a few)."""
    h = site.hier
    by_action = {i for act in (*h.above(q.action), None) for i in site.by_action.get(act, ())}
    above = h.above(q.target) if q.target is not None else frozenset()
    by_target = {i for t in (*above, None) for i in site.by_target.get(t, ())}
    return sorted(by_action & by_target)  # None keys: the rules that name no action / no target apply to any


def indexes(pol: Policy) -> tuple[dict[Node | None, tuple[int, ...]], dict[Node | None, tuple[int, ...]]]:
    """Action -> rules naming it, target -> rules naming it (None: rules naming none)."""
    by_action: dict[Node | None, list[int]] = {}
    by_target: dict[Node | None, list[int]] = {}
    for i, rule in enumerate(pol.rules):
        for a in rule.actions or (None,):
            by_action.setdefault(a.iri if a is not None else None, []).append(i)
        for t in rule.targets or (None,):
            by_target.setdefault(t, []).append(i)
    return {k: tuple(v) for k, v in by_action.items()}, {k: tuple(v) for k, v in by_target.items()}


def kind_name(iri: str) -> str:
    return iri.removeprefix(KIND_PREFIX).replace("-", "_")


def request_of(call: Call) -> Request:
    if call.operation:
        action = URIRef(call.operation)
    else:
        action = SHARE if any(r != FIRST_PARTY for r in call.recipients) else USE
    facts: dict[Node, tuple[Node, ...]] = (
        {ODRL.purpose: tuple(URIRef(p) for p in call.purposes)} if call.purposes else {}
    )
    rules: list[RequestRule] = []
    for cat in call.categories or (None,):
        for kind in call.recipients or (None,):
            who = recipient_kind_iri(kind) if kind else None
            target = URIRef(cat) if cat else None
            rules.append(RequestRule(URIRef(f"urn:pp-graph:agent-call/{len(rules)}"), action, target, who, facts))
    return Request(URIRef("urn:pp-graph:agent-call"), tuple(rules), Graph())


def memberships(parties: dict[Node, frozenset[str]]) -> Graph:
    g = Graph()
    for kind in ALL_KINDS:
        for party, kinds in parties.items():
            if kind in kinds or (kind != FIRST_PARTY and "unknown" in kinds):
                g.add((recipient_kind_iri(kind), ODRL.partOf, party))
    return g


def _clip(text: str | None, limit: int = 400) -> str | None:
    """Policy text (never user data), cut like the AMRSF evidence records."""
    return text if text is None or len(text) <= limit else text[: limit - 1] + "…"
