"""A SPARQL 1.1 server as a store: queries and updates over the SPARQL Protocol, uploads by the Graph Store
Protocol or by SPARQL Update.

SPARQL 1.1 has no standard way to pass parameters, so bound values travel as a VALUES block placed at
the start of the query's outer WHERE group. Every value there is produced by :func:`serialize_term`,
which accepts only validated IRIs and escaped literals: a value cannot end the block or add a clause.

The named queries read policy graphs and DPV through explicit ``GRAPH`` patterns, so they need no
particular default graph (plain ``oxigraph serve``, ``--union-default-graph`` and Virtuoso answer alike).
URL layouts (:data:`LAYOUTS`) give each server's query, update and graph-store paths; each URL can be
set on its own. Basic and digest authentication answer whichever challenge the server sends.
"""

from __future__ import annotations

import base64
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pp_graph.errors import ConfigError, InputError, PPGraphError
from pp_graph.graph.files import graph_files
from pp_graph.graph.namespaces import POLICY_BASE
from pp_graph.resources import DPV_FILES
from pp_graph.store.embedded import DPV_GRAPH, dpv_closure, read_graph_file, to_term
from pp_graph.store.sparql_text import mask
from pp_graph.store.values import XSD_NS, literal_value

# RFC 3987 IRIs in SPARQL/N-Triples syntax: a scheme, then no spaces, controls or <>"{}|^`\ characters.
_IRI = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:[^\x00-\x20<>\"{}|^`\\]*")
_LANG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}

# Server kind → (query, update, graph store) paths under the base URL.
LAYOUTS: dict[str, tuple[str, str, str]] = {
    "oxigraph": ("/query", "/update", "/store"),
    "virtuoso": ("/sparql", "/sparql-auth", "/sparql-graph-crud-auth"),
    "fuseki": ("/query", "/update", "/data"),  # base URL = the dataset, e.g. http://host:3030/ds
}
PUSH_METHODS = ("auto", "gsp", "update")
UPDATE_CHUNK = 2000  # triples per INSERT DATA request
TEMPLATE_CHUNK = 200  # triples with blank nodes per INSERT … WHERE request (Virtuoso limits its SQL size)
_XSD_DURATION = XSD_NS + "duration"
_PUSH_LABEL = "urn:pp-graph:ontology#pushLabel"  # temporary: finds a blank node again in a later request
PASSWORD_ENV = "PP_GRAPH_SPARQL_PASSWORD"
USER_ENV = "PP_GRAPH_SPARQL_USER"


class RemoteError(PPGraphError):
    """The SPARQL server refused a request, could not be reached, or does not hold what the queries need."""


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


@dataclass
class PushReport:
    """What a push sent: by which method to which URL, and the distinct triples per graph."""

    method: str  # "gsp" (Graph Store Protocol PUT) or "update" (DROP + INSERT DATA)
    url: str
    graphs: dict[str, int] = field(default_factory=dict)
    note: str = ""  # why auto chose the method it used


class RemoteStore:
    """The same query API as EmbeddedStore, against a SPARQL 1.1 server."""

    def __init__(
        self,
        endpoint: str | None = None,
        query_url: str | None = None,
        store_url: str | None = None,
        timeout: float = 60.0,
        *,
        update_url: str | None = None,
        server: str = "oxigraph",
        user: str | None = None,
        password: str | None = None,
    ) -> None:
        if server not in LAYOUTS:
            raise ConfigError(f"--server {server!r}: expected one of {', '.join(LAYOUTS)}")
        q, u, s = LAYOUTS[server]
        base = _check_url("--endpoint", endpoint).rstrip("/") if endpoint else None
        if base is None and query_url is None:
            raise ConfigError("give --endpoint URL (the server's base URL) or --query-url URL")
        self.query_url = _check_url("--query-url", query_url) if query_url else f"{base}{q}"
        self.update_url = _check_url("--update-url", update_url) if update_url else (f"{base}{u}" if base else None)
        self.store_url = _check_url("--store-url", store_url) if store_url else (f"{base}{s}" if base else None)
        self.timeout = timeout
        self.user = user
        handlers: list[urllib.request.BaseHandler] = []
        self._digest: urllib.request.HTTPDigestAuthHandler | None = None
        self._basic = ""
        self._challenges: dict[str, str | None] = {}  # URL → the scheme challenge it sent (None: no auth needed)
        if user:
            if password is None:
                raise ConfigError(f"--user {user!r} needs a password: set {PASSWORD_ENV} or pass --password")
            mgr = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            urls = [x for x in (self.query_url, self.update_url, self.store_url) if x]
            mgr.add_password(None, urls, user, password)
            # Both handlers share the credentials; the server's challenge decides which one answers.
            self._digest = urllib.request.HTTPDigestAuthHandler(mgr)
            handlers += [self._digest, urllib.request.HTTPBasicAuthHandler(mgr)]
            self._basic = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        self._opener = urllib.request.build_opener(*handlers)
        self._checked: set[str] = set()

    # -- HTTP ------------------------------------------------------------------------------------
    def _authorize(self, req: urllib.request.Request) -> None:
        """Credentials on a request with a body before it is sent.

        A server that answers 401 before reading a large body breaks the pipe, so the challenge is
        fetched first with a body-less HEAD (once per URL) and the Authorization header computed for
        the real request.
        """
        if self._digest is None or req.data is None:
            return
        url = _url_only(req)
        if url not in self._challenges:
            head = urllib.request.Request(url, method="HEAD")
            try:
                with urllib.request.urlopen(head, timeout=self.timeout):
                    self._challenges[url] = None
            except urllib.error.HTTPError as e:
                self._challenges[url] = e.headers.get("WWW-Authenticate") if e.code == 401 else None
            except (urllib.error.URLError, OSError):
                self._challenges[url] = None  # the real request reports the failure
        challenge = self._challenges[url]
        if not challenge:
            return
        scheme, _, rest = challenge.partition(" ")
        if scheme.lower() == "basic":
            req.add_unredirected_header("Authorization", f"Basic {self._basic}")
        elif scheme.lower() == "digest":
            chal = urllib.request.parse_keqv_list(urllib.request.parse_http_list(rest))
            auth = self._digest.get_authorization(req, chal)
            if auth:
                req.add_unredirected_header("Authorization", f"Digest {auth}")

    def _send(self, req: urllib.request.Request) -> bytes:
        self._authorize(req)
        try:
            with self._opener.open(req, timeout=self.timeout) as resp:
                body: bytes = resp.read()
                return body
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace").strip()[:300]
            hint = ""
            if e.code == 401:
                hint = " (authentication required: pass --user and set " + PASSWORD_ENV + ")"
            raise RemoteHTTPError(e.code, f"{req.get_method()} {_url_only(req)}: HTTP {e.code}{hint}: {detail}") from e
        except (urllib.error.URLError, OSError) as e:
            raise RemoteError(f"{req.get_method()} {_url_only(req)}: {e}") from e
        except ValueError as e:  # e.g. an authentication scheme urllib does not speak
            raise RemoteError(f"{req.get_method()} {_url_only(req)}: {e}") from e

    def _form(self, url: str, key: str, text: str, accept: str) -> bytes:
        data = urllib.parse.urlencode({key: text}).encode("utf-8")
        headers = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8", "Accept": accept}
        return self._send(urllib.request.Request(url, data=data, method="POST", headers=headers))

    # -- queries ---------------------------------------------------------------------------------
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """SELECT rows as dicts of plain values (same conversion as the embedded store) or [{'ask': b}]."""
        text = bind_values(sparql, bindings or {})
        form = query_form(text)  # refuse updates and graph forms before anything is sent
        raw = self._form(self.query_url, "query", text, "application/sparql-results+json")
        try:
            res = json.loads(raw)
        except ValueError as e:
            raise RemoteError(f"{self.query_url}: the answer is not SPARQL JSON results: {raw[:120]!r}") from e
        if not isinstance(res, dict):
            raise RemoteError(f"{self.query_url}: expected SPARQL JSON results, got {type(res).__name__}")
        if "boolean" in res:
            return [{"ask": _json_boolean(res["boolean"])}]
        if form == "ASK":  # Virtuoso may answer ASK as a one-cell table (__ask_retval)
            cells = [v for b in res.get("results", {}).get("bindings", []) for v in b.values()]
            if len(cells) != 1:
                raise RemoteError(f"{self.query_url}: an ASK answer without a boolean: {raw[:120]!r}")
            return [{"ask": _json_boolean(cells[0].get("value"))}]
        names = res.get("head", {}).get("vars", [])
        return [{n: _json_value(b.get(n)) for n in names} for b in res.get("results", {}).get("bindings", [])]

    def ask(self, sparql: str) -> bool:
        return bool(self.query(sparql)[0]["ask"])

    def check_dataset(self, needs_dpv: bool = True) -> None:
        """Raise RemoteError unless the queries can see policy graphs (and DPV when needed).

        Empty answers from a server that holds nothing visible would otherwise pass for "no results".
        """
        if "policies" not in self._checked:
            if not self.ask(_PROBE_POLICIES):
                hint = ""
                if self.ask(_PROBE_DEFAULT):
                    hint = (
                        " Its default graph holds policies but no named graph does: load them with "
                        "pp-graph push (one named graph per policy)."
                    )
                raise RemoteError(
                    f"{self.query_url}: the server holds no policy graph visible to queries "
                    f"(GRAPH ?g {{ ?p a pr2g:PrivacyPolicy }} is empty).{hint or ' Load them with pp-graph push.'}"
                )
            self._checked.add("policies")
        if needs_dpv and "dpv" not in self._checked:
            if not self.ask(_PROBE_DPV):
                raise RemoteError(
                    f"{self.query_url}: the server has no DPV graph <{DPV_GRAPH.value}> with its ppg:within "
                    "closure; hierarchy-aware queries would answer nothing. Push with DPV (pp-graph push, "
                    "without --no-dpv)."
                )
            self._checked.add("dpv")

    # -- updates ---------------------------------------------------------------------------------
    def update(self, sparql: str) -> None:
        if not self.update_url:
            raise ConfigError("no SPARQL Update URL: pass --update-url or --endpoint")
        self._form(self.update_url, "update", sparql, "*/*")

    def put_graph(self, graph: str, ntriples: bytes) -> None:
        """Replace one named graph (Graph Store Protocol: HTTP PUT ?graph=IRI)."""
        if not self.store_url:
            raise ConfigError("no Graph Store Protocol URL: pass --store-url or --endpoint")
        url = self.store_url + "?" + urllib.parse.urlencode({"graph": graph})
        headers = {"Content-Type": "application/n-triples"}
        self._send(urllib.request.Request(url, data=ntriples, method="PUT", headers=headers))

    def replace_graph_by_update(self, graph: str, triples: list[ox.Triple]) -> None:
        """DROP the graph, then INSERT its triples in chunks (SPARQL 1.1 Update only).

        A blank node is scoped to one request, and Virtuoso refuses blank nodes and ``xsd:duration``
        literals in INSERT DATA, so those triples go through ``INSERT {…} WHERE {…}``: durations are made
        by ``STRDT``; the first request that mentions a blank node creates it with a temporary
        ``ppg:pushLabel``, later ones find it by that label, and the labels are deleted at the end.
        Nodes stay distinct and whole however the triples are chunked.
        """
        g = serialize_iri(graph)
        self.update(f"DROP SILENT GRAPH {g}")
        plain = [t for t in triples if not _needs_template(t)]
        for i in range(0, len(plain), UPDATE_CHUNK):
            body = (ox.serialize(plain[i : i + UPDATE_CHUNK], format=ox.RdfFormat.N_TRIPLES) or b"").decode("utf-8")
            self.update(f"INSERT DATA {{ GRAPH {g} {{\n{body}}} }}")
        special = [t for t in triples if _needs_template(t)]
        made: set[str] = set()
        for i in range(0, len(special), TEMPLATE_CHUNK):
            self.update(_template_insert(g, special[i : i + TEMPLATE_CHUNK], made))
        if any(_blanks(t) for t in special):
            self.update(f"DELETE WHERE {{ GRAPH {g} {{ ?b <{_PUSH_LABEL}> ?label }} }}")

    def push(self, paths: Iterable[Path], dpv: bool = True, method: str = "auto") -> PushReport:
        """Upload every policy graph under ``paths`` (one named graph each) and DPV into its graph.

        ``method``: ``gsp`` (Graph Store Protocol PUT), ``update`` (SPARQL Update) or ``auto`` (GSP,
        falling back to Update when the server refuses GSP). Graphs are replaced, not merged.
        """
        if method not in PUSH_METHODS:
            raise ConfigError(f"--method {method!r}: expected one of {', '.join(PUSH_METHODS)}")
        report = PushReport(method="gsp" if method != "update" else "update", url="")
        for graph, triples in _graphs_to_push(paths, dpv):
            self._push_graph(report, method, graph, triples)
            report.graphs[graph] = len(triples)
        report.url = (self.store_url if report.method == "gsp" else self.update_url) or ""
        self._checked.clear()
        return report

    def _push_graph(self, report: PushReport, method: str, graph: str, triples: list[ox.Triple]) -> None:
        if report.method == "gsp":
            body = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
            try:
                self.put_graph(graph, body)
                return
            except (RemoteHTTPError, ConfigError) as e:
                fallback = method == "auto" and not report.graphs and self.update_url
                if not fallback or (isinstance(e, RemoteHTTPError) and e.code == 401):
                    raise
                report.method, report.note = "update", f"Graph Store Protocol refused ({e}); used SPARQL Update"
        self.replace_graph_by_update(graph, triples)

    def policies(self) -> list[str]:
        rows = self.query(
            "PREFIX pr2g: <urn:pp-analyze:core#> SELECT DISTINCT ?g WHERE { GRAPH ?g { ?g a pr2g:PrivacyPolicy } }"
        )
        return sorted(r["g"] for r in rows if str(r["g"]).startswith(POLICY_BASE))


class RemoteHTTPError(RemoteError):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


_PROBE_POLICIES = "PREFIX pr2g: <urn:pp-analyze:core#> ASK { GRAPH ?g { ?p a pr2g:PrivacyPolicy } }"
_PROBE_DEFAULT = "PREFIX pr2g: <urn:pp-analyze:core#> ASK { ?p a pr2g:PrivacyPolicy }"
_PROBE_DPV = (
    f"ASK {{ GRAPH <{DPV_GRAPH.value}> {{ <https://w3id.org/dpv/pd#Contact> <urn:pp-graph:ontology#within> "
    "<https://w3id.org/dpv#PersonalData> } }"
)


def _check_url(option: str, url: str) -> str:
    try:  # unbalanced brackets, or a port that is not 0–65535 (read by .port), raise ValueError
        parsed = urllib.parse.urlparse(url)
        parsed.port  # noqa: B018 (read for its check)
    except ValueError as e:
        raise ConfigError(f"{option} {url!r}: not a valid URL ({e})") from e
    if parsed.scheme not in {"http", "https"} or not parsed.netloc:
        raise ConfigError(f"{option} {url!r}: expected an http(s) URL such as http://127.0.0.1:7878")
    if parsed.password is not None:
        raise ConfigError(f"{option}: do not put a password in the URL; pass --user and set {PASSWORD_ENV}")
    return url


def _url_only(req: urllib.request.Request) -> str:
    return req.full_url.split("?", 1)[0]


def _graphs_to_push(paths: Iterable[Path], dpv: bool) -> Iterator[tuple[str, list[ox.Triple]]]:
    """Graph IRI → its distinct triples; blank nodes renamed per file so files never share one."""
    if dpv:
        triples: dict[ox.Triple, None] = {}
        for i, f in enumerate(DPV_FILES):
            for q in ox.parse(path=str(f), format=ox.RdfFormat.TURTLE):
                triples[_scoped(q, f"f{i}")] = None
        triples.update(dict.fromkeys(dpv_closure()))
        yield DPV_GRAPH.value, list(triples)
    for n, f in enumerate(graph_files(paths)):
        for graph, quads in read_graph_file(f).items():
            yield graph, list(dict.fromkeys(_scoped(q, f"p{n}") for q in quads))


def _scoped(q: Any, scope: str) -> ox.Triple:
    """The quad's triple with blank nodes labelled per file (parsers keep the file's own labels)."""

    def term(t: Any) -> Any:
        return ox.BlankNode(f"{scope}x{t.value}") if isinstance(t, ox.BlankNode) else t

    return ox.Triple(term(q.subject), q.predicate, term(q.object))


def _blanks(t: ox.Triple) -> list[str]:
    return [x.value for x in (t.subject, t.object) if isinstance(x, ox.BlankNode)]


def _needs_template(t: ox.Triple) -> bool:
    o = t.object
    return bool(_blanks(t)) or (isinstance(o, ox.Literal) and o.datatype.value == _XSD_DURATION)


def _template_insert(g: str, chunk: list[ox.Triple], made: set[str]) -> str:
    """``INSERT {…} WHERE {…}``: new blank nodes created and labelled, known ones looked up, durations by STRDT."""
    var: dict[str, str] = {}
    template: list[str] = []
    lookups: list[str] = []
    binds: list[str] = []

    def term(x: Any) -> str:
        if isinstance(x, ox.Literal) and x.datatype.value == _XSD_DURATION:
            v = f"?d{len(binds)}"
            binds.append(f"BIND (STRDT({serialize_literal(x.value)}, <{_XSD_DURATION}>) AS {v})")
            return v
        if not isinstance(x, ox.BlankNode):
            return _nt(x)
        label = x.value
        if label not in var:
            n, lit = len(var), serialize_literal(label)
            if label in made:
                var[label] = f"?b{n}"
                lookups.append(f"?b{n} <{_PUSH_LABEL}> {lit} .")
            else:
                var[label] = f"_:n{n}"
                template.append(f"_:n{n} <{_PUSH_LABEL}> {lit} .")
        return var[label]

    for t in chunk:
        template.append(f"{term(t.subject)} {_nt(t.predicate)} {term(t.object)} .")
    made.update(var)
    body = "\n".join(template)
    found = f"GRAPH {g} {{ {' '.join(lookups)} }}" if lookups else ""
    return f"INSERT {{ GRAPH {g} {{\n{body}\n}} }} WHERE {{ {found} {' '.join(binds)} }}"


def _nt(x: Any) -> str:
    """One IRI or literal in N-Triples (a subset of SPARQL)."""
    return str(x)


def _json_boolean(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip() in {"true", "1", "false", "0"}:
        return v.strip() in {"true", "1"}
    if isinstance(v, int):
        return v != 0
    raise RemoteError(f"an ASK answer is not a boolean: {v!r}")


def _json_value(b: Mapping[str, Any] | None) -> Any:
    """A SPARQL-JSON binding → the same plain value as the embedded store's ``to_python``."""
    if b is None:
        return None
    if b.get("type") in {"uri", "bnode"}:
        return b["value"]
    return literal_value(b["value"], b.get("datatype"))
