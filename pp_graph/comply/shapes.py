"""A law's checklist as a SHACL shapes graph (the profile ``<law>-transparency``): one node shape per item.

Each item's shape targets the policies that carry transparency facts (``sh:targetSubjectsOf
ppg:transparencyRules``) and asks for ``ppg:addressesRequirement`` with the item's requirement; an item owed
only under a condition is ``sh:or ( [ sh:not <condition> ] <addressed> )``. A policy without transparency facts
gets one result telling to convert it again instead of one per item. Only SHACL Core: any engine agrees, and the
results match ``pp-graph comply`` (missing ⇔ a violation; denied and not applicable conform).
The files in ontologies/profiles/ are generated from data/laws/ by :func:`write_profiles` (a test keeps them equal).
"""

from __future__ import annotations

from pathlib import Path

from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.namespace import RDF, RDFS, SH

from pp_graph.comply.laws import Condition, Item, Law, get_law, known_laws
from pp_graph.errors import ConfigError
from pp_graph.graph.namespaces import PPG, PR2G, bind_prefixes
from pp_graph.resources import ONTOLOGIES

PPS = Namespace("urn:pp-graph:shapes#")
PROFILES = ONTOLOGIES / "profiles"
SUFFIX = "-transparency"


def _list(g: Graph, items: list[URIRef | BNode]) -> BNode:
    head = BNode()
    Collection(g, head, list(items))
    return head


def _has(g: Graph, path: URIRef | BNode, value: URIRef) -> BNode:
    node, prop = BNode(), BNode()
    g.add((node, SH.property, prop))
    g.add((prop, SH.path, path))
    g.add((prop, SH.hasValue, value))
    return node


def _condition(g: Graph, c: Condition) -> BNode:
    if c.requirement is not None:
        return _has(g, PPG.addressesRequirement, PPG["gdpr-" + c.requirement])
    path: URIRef | BNode = URIRef(c.path[0]) if len(c.path) == 1 else _list(g, [URIRef(p) for p in c.path])
    node = BNode()
    g.add((node, SH["or"], _list(g, [_has(g, path, URIRef(v)) for v in sorted(c.concepts)])))
    return node


def _item(g: Graph, law: Law, item: Item) -> None:
    shape = PPS[f"{law.id}-{item.id}"]
    g.add((shape, RDF.type, SH.NodeShape))
    g.add((shape, RDFS.label, Literal(item.label)))
    g.add((shape, SH.targetSubjectsOf, PPG.transparencyRules))
    g.add((shape, SH.message, Literal(f"{law.id.upper()} {item.article}: '{item.label}' is not addressed")))
    addressed = _has(g, PPG.addressesRequirement, PPG["gdpr-" + item.requirement])
    if not item.applies_when:
        g.add((shape, SH.node, addressed))
        return
    cond = BNode()
    g.add((cond, SH["or"], _list(g, [_condition(g, c) for c in item.applies_when])))
    not_owed = BNode()
    g.add((not_owed, SH["not"], cond))
    g.add((shape, SH["or"], _list(g, [not_owed, addressed])))


def law_shapes(law: Law) -> Graph:
    g = Graph()
    bind_prefixes(g)
    g.bind("sh", SH)
    g.bind("pps", PPS)
    stale = PPS[f"{law.id}-converted-with-transparency"]
    g.add((stale, RDF.type, SH.NodeShape))
    g.add((stale, SH.targetClass, PR2G.PrivacyPolicy))
    prop = BNode()
    g.add((stale, SH.property, prop))
    g.add((prop, SH.path, PPG.transparencyRules))
    g.add((prop, SH.minCount, Literal(1)))
    g.add((prop, SH.message, Literal("converted before transparency requirements were extracted: convert it again")))
    for item in law.items:
        _item(g, law, item)
    return g


def known_profiles() -> list[str]:
    return [law + SUFFIX for law in known_laws()]


def profile_path(name: str) -> Path:
    """The shapes file of a profile; ConfigError listing the known profiles for an unknown one."""
    if name not in known_profiles():
        raise ConfigError(f"unknown profile {name!r}; known profiles: {', '.join(known_profiles())}")
    return PROFILES / f"{name}.ttl"


def write_profiles() -> list[Path]:
    """(Re)generate ontologies/profiles/<law>-transparency.ttl from data/laws/ (run after editing a law)."""
    PROFILES.mkdir(parents=True, exist_ok=True)
    out = []
    for law in known_laws():
        path = PROFILES / f"{law}{SUFFIX}.ttl"
        head = f"# Generated from data/laws/{law}.toml by pp_graph.comply.shapes.write_profiles(); do not edit.\n"
        path.write_text(head + law_shapes(get_law(law)).serialize(format="turtle"), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":
    for p in write_profiles():
        print(p.name)
