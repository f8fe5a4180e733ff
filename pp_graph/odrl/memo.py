"""Activation states of one policy's rules for many requests, each premise decided once per distinct input.

For a caller that asks a policy thousands of similar questions (an agent's calls against one site) and needs
each rule's activation, not the full report: a party premise depends on the rule and the assignee, a target
premise on the rule and the target, constraints on the rule and the facts the request states — so each is
memoised on exactly that. The premises are decided by the same functions as ``evaluate`` (``match_premise``,
``evaluate_constraint``, ``activation_of``); a rule with duties or refined actions takes the full path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rdflib.term import Node

from pp_graph.odrl.constraints import evaluate_constraint
from pp_graph.odrl.evaluator import activation_of, match_premise, rule_report
from pp_graph.odrl.model import Policy, RequestRule
from pp_graph.odrl.report import RuleReport
from pp_graph.odrl.terms import SATISFIED, UNSATISFIED
from pp_graph.odrl.world import Hierarchy, World

_MAX = 200_000  # memo entries per policy before it starts over


class RuleMemo:
    def __init__(self, pol: Policy, world: World, hier: Hierarchy) -> None:
        self.pol, self.world, self.hier = pol, world, hier
        self._premise: dict[tuple[str, int, Any], str] = {}
        self._constraints: dict[tuple[int, Any], list[str]] = {}

    def activations(self, indices: Iterable[int], q: RequestRule) -> list[RuleReport]:
        if len(self._premise) + len(self._constraints) > _MAX:
            self._premise.clear()
            self._constraints.clear()
        facts = tuple(sorted(q.facts.items()))
        out = []
        for i in indices:
            rule = self.pol.rules[i]
            if rule.duties or any(a.refinements for a in rule.actions):
                out.append(rule_report(rule, q, self.pol, self.world, self.hier))
                continue
            states = []
            if rule.targets:
                states.append(self._match("Target", i, rule.targets, q.target))
            if rule.assignees:
                states.append(self._match("Party", i, rule.assignees, q.assignee))
            if rule.actions:
                states.append(self._action(i, q.action))
            states.extend(self._constraint_states(i, q, facts))
            activation, why = activation_of(states)
            out.append(RuleReport(rule.kind, rule.iri, q.iri, "Attempted", activation, message=why))
        return out

    def _match(self, kind: str, i: int, allowed: tuple[Node, ...], asked: Node | None) -> str:
        key = (kind, i, asked)
        state = self._premise.get(key)
        if state is None:
            state = self._premise[key] = match_premise(kind, allowed, asked, self.pol, self.hier).state
        return state

    def _action(self, i: int, asked: Node) -> str:
        key = ("Action", i, asked)
        state = self._premise.get(key)
        if state is None:
            hit = any(self.hier.falls_under(asked, a.iri) for a in self.pol.rules[i].actions)
            state = self._premise[key] = SATISFIED if hit else UNSATISFIED
        return state

    def _constraint_states(self, i: int, q: RequestRule, facts: tuple[Any, ...]) -> list[str]:
        key = (i, facts)
        states = self._constraints.get(key)
        if states is None:
            rule = self.pol.rules[i]
            states = [evaluate_constraint(c, q, self.world, self.hier, "").state for c in rule.constraints]
            self._constraints[key] = states
        return states
