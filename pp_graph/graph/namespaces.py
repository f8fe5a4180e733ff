"""Namespaces and deterministic IRIs.

``pr2g:`` is the released Pr2Graph vocabulary (kept so graphs interoperate); ``ppg:`` holds our
extensions (offsets, polarity, retention details, provenance, recipient kinds).
Instance IRIs are derived from the site, the policy text's digest and positions only.
"""

from __future__ import annotations

import re
from functools import cache

from rdflib import Dataset, Namespace, URIRef
from rdflib.namespace import DCTERMS, PROV, RDF, RDFS, SKOS, XSD, NamespaceManager

from pp_graph.vocab import dpv

PR2G = Namespace("urn:pp-analyze:core#")
PPG = Namespace("urn:pp-graph:ontology#")
DPV = Namespace(dpv.DPV)
PD = Namespace(dpv.PD)
EU_GDPR = Namespace(dpv.EU_GDPR)
ODRL = Namespace("http://www.w3.org/ns/odrl/2/")

PREFIXES = {
    "pr2g": PR2G,
    "ppg": PPG,
    "dpv": DPV,
    "pd": PD,
    "eu-gdpr": EU_GDPR,
    "prov": PROV,
    "xsd": XSD,
    "rdfs": RDFS,
    "skos": SKOS,
    "dct": DCTERMS,
    "rdf": RDF,
}

SITE_BASE = "urn:pp-graph:site:"
POLICY_BASE = "urn:pp-graph:policy:"


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "x"


def site_iri(site: str) -> URIRef:
    return URIRef(SITE_BASE + site)


def policy_iri(site: str, digest: str, valid_from: str | None = None) -> URIRef:
    """One IRI (and named graph) per policy version: the site plus a digest of its text, and for a dated version
    its date too, so a text that comes back unchanged after a change (a revert) stays a version of its own."""
    stamp = f"@{valid_from.replace('-', '').replace(':', '')}" if valid_from else ""
    return URIRef(f"{POLICY_BASE}{site}:{digest[:16]}{stamp}")


def child(policy: URIRef, *parts: object) -> URIRef:
    return URIRef(str(policy) + "/" + "/".join(str(p) for p in parts))


def recipient_kind_iri(kind: str) -> URIRef:
    return PPG["recipient-" + kind.replace("_", "-")]


def bind_prefixes(graph: object) -> None:
    for prefix, ns in PREFIXES.items():
        graph.bind(prefix, ns, override=True)  # type: ignore[attr-defined]


@cache
def namespace_manager() -> NamespaceManager:
    """The prefixes a policy Dataset carries (rdflib's defaults and ours), for writers that get bare triples."""
    ds = Dataset()
    bind_prefixes(ds)
    return ds.namespace_manager
