"""psDToU export (perennial semantic Data Terms of Use, ``dtou: urn:dtou:core#``), following the spec.

One ``dtou:AppPolicy`` per service (``dtou:name`` = the site), one ``dtou:InputSpec`` per data class
the service collects (stated, non-negated collection/use practices) with ``dtou:data``, a
``dtou:port`` and ``dtou:purpose`` → ``dtou:PurposeExpectation`` (``dtou:descriptor`` = the DPV
purpose IRI); data the policy says it shares with third parties gets ``dtou:downstream`` →
``dtou:DownstreamSpec`` (``dtou:app_name`` = the recipient, ``dtou:purpose``). As the spec says, the
AppPolicy has no ``dtou:app_name`` and expectations are typed, never a generic ``dtou:Expectation``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS

from pp_graph.export.source import policy_rows
from pp_graph.graph.namespaces import DPV, PD, slug
from pp_graph.query.runner import Store

DTOU = Namespace("urn:dtou:core#")
COLLECTION = {"first-party-collection-use", "third-party-collection-use"}
SHARING = "third-party-sharing-disclosure"


def export_policy(store: Store, policy: str) -> Graph:
    src = policy_rows(store, policy)
    return build_dtou(policy, src.site, src.domain, src.practices, src.party_names)


def _local(iri: str) -> str:
    return slug(iri.rsplit("#", 1)[-1].rsplit("/", 1)[-1])


def build_dtou(
    policy: str, site: str, domain: str, practices: Iterable[dict[str, Any]], names: dict[str, str]
) -> Graph:
    g = Graph()
    for prefix, ns in (("dtou", DTOU), ("dpv", DPV), ("pd", PD), ("dct", DCTERMS), ("rdfs", RDFS)):
        g.bind(prefix, ns)
    base = policy + "/dtou"
    app = URIRef(base)
    g.add((app, RDF.type, DTOU.AppPolicy))
    g.add((app, DTOU.name, URIRef(site)))
    g.add((app, DCTERMS.source, URIRef(policy)))
    g.add((URIRef(site), RDFS.label, Literal(domain)))

    collected: dict[str, set[str]] = defaultdict(set)  # data → purposes
    shared: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # data → recipient → purposes
    for row in practices:
        if row["negated"]:
            continue
        datas = row["dataClasses"] or [str(DPV.PersonalData)]
        if row["type"] in COLLECTION:
            for d in datas:
                collected[d].update(row["purposes"])
        elif row["type"] == SHARING:
            for d in datas:
                for r in row["receivers"]:
                    shared[d][r].update(row["purposes"])
    # Shared data was collected first, even where the text only mentions the sharing.
    for d in shared:
        collected.setdefault(d, set())

    def expectation(purpose: str) -> URIRef:
        node = URIRef(f"{base}/purpose/{_local(purpose)}")
        g.add((node, RDF.type, DTOU.PurposeExpectation))
        g.add((node, DTOU.descriptor, URIRef(purpose)))
        return node

    for data in sorted(collected):
        key = _local(data)
        spec = URIRef(f"{base}/input/{key}")
        port = URIRef(f"{base}/port/{key}")
        g.add((app, DTOU.input_spec, spec))
        g.add((spec, RDF.type, DTOU.InputSpec))
        g.add((spec, DTOU.data, URIRef(data)))
        g.add((port, RDF.type, DTOU.Port))
        g.add((port, DTOU.name, Literal(key)))
        g.add((spec, DTOU.port, port))
        for p in sorted(collected[data]):
            g.add((spec, DTOU.purpose, expectation(p)))
        for recipient in sorted(shared.get(data, {})):
            ds = URIRef(f"{base}/downstream/{key}/{_local(recipient)}")
            g.add((spec, DTOU.downstream, ds))
            g.add((ds, RDF.type, DTOU.DownstreamSpec))
            g.add((ds, DTOU.app_name, URIRef(recipient)))
            if recipient in names:
                g.add((URIRef(recipient), RDFS.label, Literal(names[recipient])))
            for p in sorted(shared[data][recipient]):
                g.add((ds, DTOU.purpose, expectation(p)))
    return g
