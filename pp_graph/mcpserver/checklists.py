"""The ``compliance`` tool's work: a law's transparency checklist for a site's policy, as ``pp-graph comply`` gives it.

The facts come from the converted graph files behind the server (read once, on the first call), matched to the
site's policy by its IRI; the checklist and its JSON are ``pp_graph.comply``'s own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pp_graph.errors import InputError

if TYPE_CHECKING:
    from pp_graph.comply.facts import PolicyFacts
    from pp_graph.risk.signals import Profile

COMPLY_SUFFIXES = (".trig", ".nq", ".ttl")  # the graph files comply reads


class SiteChecklists:
    """Checklists of the policies in the graph files under ``graphs``."""

    def __init__(self, graphs: Sequence[Path]) -> None:
        self.graphs = tuple(graphs)
        self._facts: dict[str, PolicyFacts] | None = None

    def facts(self, policy: str) -> PolicyFacts | None:
        """The checklist facts of the policy with this IRI; None when no graph file comply reads holds it."""
        if self._facts is None:
            from pp_graph.comply.facts import graph_file_facts
            from pp_graph.graph.files import graph_files

            found: dict[str, PolicyFacts] = {}
            for f in graph_files(self.graphs):
                if f.suffix.lower() in COMPLY_SUFFIXES and not f.name.startswith("."):
                    try:
                        found.update((x.node, x) for x in graph_file_facts(f))
                    except InputError as e:
                        raise InputError("--graph", str(e)) from None
            self._facts = found
        return self._facts.get(policy)

    def checklist(self, prof: Profile, law: str) -> dict[str, Any]:
        """``law``'s checklist for each policy of the site's newest version: every requirement's id, label,
        article, status and evidence lines (``pp-graph comply --format json``), whether all are addressed, and
        the warnings comply gives. InputError for an unknown law or a graph converted before the stage."""
        from pp_graph.comply.checklist import StaleGraph, checklist
        from pp_graph.comply.laws import get_law, known_laws
        from pp_graph.comply.report import to_json

        if law not in known_laws():
            raise InputError("law", f"unknown law {law!r}; known laws: {', '.join(known_laws())}")
        spec = get_law(law)
        lists = []
        for policy in prof.policies:
            facts = self.facts(policy)
            if facts is None:
                raise InputError(
                    "--graph",
                    f"the policy {policy} of {prof.site} is in no {'/'.join(COMPLY_SUFFIXES)} graph file; "
                    "comply reads those (as written by pp-graph convert)",
                )
            try:
                lists.append(checklist(facts, spec))
            except StaleGraph as e:  # the message comply gives: convert it again
                raise InputError("--graph", str(e)) from None
        policies = to_json(lists)["policies"]
        for entry, c, policy in zip(policies, lists, prof.policies, strict=True):
            entry.update(file=Path(c.file).name, policy=policy, complete=c.complete, warnings=list(c.warnings))
        return {
            "site": prof.site,
            "law": spec.id,
            "name": spec.name,
            "measured": spec.measured,
            "note": spec.note,
            "complete": all(c.complete for c in lists),
            "policies": policies,
        }
