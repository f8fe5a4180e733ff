"""A SPARQL 1.1 server as a store: SELECT/ASK queries via SPARQLWrapper, uploads via the Graph Store HTTP Protocol.

SPARQL 1.1 has no standard way to pass parameters, so bound values travel as a VALUES block placed at
the start of the query's outer WHERE group. Every value there is produced by :func:`serialize_term`,
which accepts only validated IRIs and escaped literals: a value cannot end the block or add a clause.
Defaults follow Oxigraph's server (``/query`` for queries, ``/store`` for graph uploads); the server must
treat the default graph as the union of the named graphs (``oxigraph serve --union-default-graph``).
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pp_graph.errors import ConfigError, InputError, PPGraphError
from pp_graph.graph.files import graph_files
from pp_graph.graph.namespaces import POLICY_BASE
from pp_graph.query.runner import mask
from pp_graph.resources import DPV_FILES
from pp_graph.store.embedded import DPV_GRAPH, XSD_NS, literal_value, read_graph_file, to_term

# RFC 3987 IRIs in SPARQL/N-Triples syntax: a scheme, then no spaces, controls or <>"{}|^`\ characters.
_IRI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x20<>\"{}|^`\\]*")
_LANG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


class RemoteError(PPGraphError):
    """The SPARQL server refused a request or could not be reached."""


def serialize_iri(iri: str) -> str:
    if not _IRI.fullmatch(iri):
        raise InputError(iri, "not a valid IRI (no spaces, quotes, braces or angle brackets allowed)")
    return f"<{iri}>"


def serialize_literal(value: str, datatype: str | None = None, language: str | None = None) -> str:
    body = "".join(_ESCAPES.get(ch, ch) for ch in value)
    if language:
        if not _LANG.fullmatch(language):
            raise InputError(language, "not a valid language tag")
        return f'"{body}"@{language}'
    if datatype and datatype != XSD_NS + "string":
        return f'"{body}"^^{serialize_iri(datatype)}'
    return f'"{body}"'


def serialize_term(term: Any) -> str:
    """One RDF term in SPARQL syntax, strictly: IRIs validated, literals escaped. Nothing else passes."""
    try:
        t = to_term(term)
    except ValueError as e:
        raise InputError(repr(term), f"not a valid RDF term: {e}") from e
    if isinstance(t, ox.NamedNode):
        return serialize_iri(t.value)
    if isinstance(t, ox.Literal):
        return serialize_literal(t.value, t.datatype.value if t.datatype else None, t.language)
    raise InputError(repr(term), "only IRIs and literals can be bound")


def _outer_where_brace(sparql: str) -> int:
    """Index of the '{' opening the outer WHERE group (comments, strings and IRIs ignored)."""
    masked = mask(sparql)
    m = re.search(r"\bWHERE\s*\{", masked, re.IGNORECASE)
    if m:
        return m.end() - 1
    i = masked.find("{")
    if i < 0:
        raise InputError("query", "no WHERE group to bind parameters in")
    return i


def query_form(sparql: str) -> str:
    """SELECT or ASK, read from the query text; other forms are refused before anything is sent."""
    m = re.search(r"\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b", mask(sparql), re.IGNORECASE)
    if m is None or m.group(1).upper() not in {"SELECT", "ASK"}:
        raise InputError("query", "only SELECT and ASK queries can be run on a server store")
    return m.group(1).upper()


def bind_values(sparql: str, bindings: Mapping[str, Any]) -> str:
    """The query with ``VALUES (?a ?b) { (term term) }`` at the start of its outer WHERE group."""
    if not bindings:
        return sparql
    names = sorted(bindings)
    for n in names:
        if not re.fullmatch(r"[A-Za-z_]\w*", n):
            raise InputError(n, "not a valid SPARQL variable name")
    row = " ".join(serialize_term(bindings[n]) for n in names)
    block = f" VALUES ({' '.join('?' + n for n in names)}) {{ ({row}) }} "
    at = _outer_where_brace(sparql) + 1
    return sparql[:at] + block + sparql[at:]


class RemoteStore:
    """The same query API as EmbeddedStore, against a SPARQL 1.1 server."""

    def __init__(
        self,
        endpoint: str,
        query_url: str | None = None,
        store_url: str | None = None,
        timeout: float = 60.0,
    ) -> None:
        parsed = urllib.parse.urlparse(endpoint)
        if parsed.scheme not in {"http", "https"} or not parsed.netloc:
            raise ConfigError(f"--endpoint {endpoint!r}: expected an http(s) URL such as http://127.0.0.1:7878")
        base = endpoint.rstrip("/")
        self.query_url = query_url or base + "/query"
        self.store_url = store_url or base + "/store"
        self.timeout = timeout

    # -- queries ---------------------------------------------------------------------------------
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """SELECT rows as dicts of plain values (same conversion as the embedded store) or [{'ask': b}]."""
        from SPARQLWrapper import JSON, POST, SPARQLWrapper
        from SPARQLWrapper.SPARQLExceptions import SPARQLWrapperException

        text = bind_values(sparql, bindings or {})
        sw = SPARQLWrapper(self.query_url)
        sw.setMethod(POST)
        sw.setReturnFormat(JSON)
        sw.setTimeout(int(self.timeout))
        sw.setQuery(text)
        # SPARQLWrapper guesses the form with a regex that also reads comments ("address" → ADD, an
        # update); decide it from the query with comments and strings masked out.
        sw.queryType = query_form(text)
        try:
            res = sw.query().convert()
        except (SPARQLWrapperException, urllib.error.URLError, OSError) as e:
            raise RemoteError(f"{self.query_url}: query failed: {e}") from e
        if not isinstance(res, dict):
            raise RemoteError(f"{self.query_url}: expected SPARQL JSON results, got {type(res).__name__}")
        if "boolean" in res:
            return [{"ask": bool(res["boolean"])}]
        names = res["head"].get("vars", [])
        return [{n: _json_value(b.get(n)) for n in names} for b in res["results"]["bindings"]]

    # -- Graph Store HTTP Protocol ---------------------------------------------------------------
    def put_graph(self, graph: str, ntriples: bytes) -> None:
        """Replace one named graph (HTTP PUT ?graph=IRI)."""
        url = self.store_url + "?" + urllib.parse.urlencode({"graph": graph})
        req = urllib.request.Request(
            url, data=ntriples, method="PUT", headers={"Content-Type": "application/n-triples"}
        )
        self._send(req)

    def _send(self, req: urllib.request.Request) -> None:
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                resp.read()
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")[:300]
            raise RemoteError(f"{req.get_method()} {req.full_url}: HTTP {e.code}: {detail}") from e
        except (urllib.error.URLError, OSError) as e:
            raise RemoteError(f"{req.get_method()} {req.full_url}: {e}") from e

    def push(self, paths: Iterable[Path], dpv: bool = True) -> dict[str, int]:
        """Upload every policy graph under ``paths`` (one named graph each) and DPV into its graph.

        Returns graph IRI → triples sent.
        """
        sent: dict[str, int] = {}
        if dpv:
            data = b"".join(_ntriples(ox.parse(path=str(f), format=ox.RdfFormat.TURTLE)) for f in DPV_FILES)
            self.put_graph(DPV_GRAPH.value, data)
            sent[DPV_GRAPH.value] = data.count(b"\n")
        for f in graph_files(paths):
            for graph, quads in read_graph_file(f).items():
                self.put_graph(graph, _ntriples(quads))
                sent[graph] = len(quads)
        return sent

    def policies(self) -> list[str]:
        rows = self.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }")
        return sorted(r["g"] for r in rows if str(r["g"]).startswith(POLICY_BASE))


def _ntriples(quads: Iterable[Any]) -> bytes:
    triples = [ox.Triple(q.subject, q.predicate, q.object) for q in quads]
    out = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES)
    assert out is not None
    return out


def _json_value(b: Mapping[str, Any] | None) -> Any:
    """A SPARQL-JSON binding → the same plain value as the embedded store's ``to_python``."""
    if b is None:
        return None
    if b.get("type") in {"uri", "bnode"}:
        return b["value"]
    return literal_value(b["value"], b.get("datatype"))
