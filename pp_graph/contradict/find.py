"""The library entry: the self-contradictions of policies given as files, folders or a string."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pp_graph.contradict.inputs import gather
from pp_graph.contradict.pairs import Contradiction, contradictions
from pp_graph.contradict.statements import PolicyStatements


@dataclass
class PolicyContradictions:
    policy: PolicyStatements
    contradictions: list[Contradiction]

    def line(self, offset: int) -> int | None:
        """The 1-based line of ``offset`` in the policy text; None when only a graph was read."""
        text = self.policy.text
        return None if text is None else text.count("\n", 0, offset) + 1


def find(
    paths: Iterable[Path | str], backend: str = "offline", broader: bool = False, site: str | None = None
) -> list[PolicyContradictions]:
    """Self-contradictions of each policy under ``paths`` (policy texts, folders of texts, converted graphs);
    ``broader`` also reports an affirmation of a broader category than the denied one; ``site`` names the site of
    a single policy text not named after it. InputError on bad input."""
    found = gather([Path(p) for p in paths], backend, site)
    return [PolicyContradictions(p, contradictions(p, broader)) for p in found]


def find_in_text(text: str, site: str = "example.com", backend: str = "offline") -> PolicyContradictions:
    """Self-contradictions of one policy given as a string (markdown or plain text)."""
    from pp_graph.api import convert_text
    from pp_graph.comply.facts import built_triples
    from pp_graph.contradict.statements import policy_statements

    conv = convert_text(text, site, backend=backend)
    policy = policy_statements(built_triples(conv.triples), "<text>")
    policy.text = conv.extraction.policy.text
    return PolicyContradictions(policy, contradictions(policy))
