"""A user's ODRL policy (what they allow) against every site's exported ODRL policy: each practice a site
states (an exported permission) becomes a request "may this site do this with my data?" evaluated against the
user's policy. A practice the user prohibits or does not permit is a conflict; each row names the site's rule
and the practice (its evidence in the policy graph) it came from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph
from rdflib.namespace import DCTERMS
from rdflib.term import Node

from pp_graph.odrl.api import evaluate_parsed, load_graph
from pp_graph.odrl.model import Policy, parse_policy, policies
from pp_graph.odrl.requests import party_types, purposes_of, request_for_rule
from pp_graph.odrl.terms import PERMITTED


@dataclass(frozen=True)
class PreferenceRow:
    site: str
    rule: str
    action: str
    target: str
    recipient: str
    purposes: str
    verdict: str
    decided_by: str
    practice: str  # the practice in the site's policy graph the rule was exported from (its evidence)

    @property
    def conflict(self) -> bool:
        return self.verdict != PERMITTED


def compare_site(prefs: Policy, site_graph: Graph, site_policy: Node) -> list[PreferenceRow]:
    site = parse_policy(site_graph, str(site_policy), site_policy)
    world_graph = party_types(site_graph)
    out = []
    for rule in site.rules:
        if rule.kind != "Permission":
            continue  # a site's prohibition is a promise not to act: nothing to check against the user
        req = request_for_rule(rule)
        rep = evaluate_parsed(prefs, req, world_graph, f"the parties of {site_policy}")
        out.append(
            PreferenceRow(
                site=_site_name(site_graph, site_policy),
                rule=str(rule.iri),
                action=_short(rule.actions[0].iri) if rule.actions else "-",
                target=", ".join(_short(t) for t in rule.targets) or "-",
                recipient=", ".join(_short(a) for a in rule.assignees) or "the site",
                purposes=", ".join(_short(p) for p in purposes_of(rule.constraints)) or "-",
                verdict=rep.verdict,
                decided_by=", ".join(_short(r) for r in rep.deciding) or "-",
                practice=str(site_graph.value(rule.iri, DCTERMS.source) or ""),
            )
        )
    return out


def check_preferences(prefs_path: Path, graphs: Iterable[Path]) -> list[PreferenceRow]:
    from pp_graph.export import export_files

    g, name = load_graph(prefs_path, "preferences")
    prefs = parse_policy(g, name)
    rows: list[PreferenceRow] = []
    for _, site_graph in sorted(export_files("odrl", list(graphs)).items()):
        for pol in policies(site_graph, "an exported ODRL policy"):
            rows.extend(compare_site(prefs, site_graph, pol))
    return rows


def _site_name(g: Graph, pol: Node) -> str:
    src = str(g.value(pol, DCTERMS.source) or pol)
    return src.removeprefix("urn:pp-graph:policy:").rsplit(":", 1)[0]


def _short(n: object) -> str:
    s = str(n)
    for ns, prefix in (("https://w3id.org/dpv/pd#", "pd:"), ("https://w3id.org/dpv#", "dpv:")):
        if s.startswith(ns):
            return prefix + s[len(ns) :]
    if s.startswith("http://www.w3.org/ns/odrl/2/"):
        return "odrl:" + s.rsplit("/", 1)[-1]
    return s.rsplit("/", 1)[-1] if "/party/" in s else s
