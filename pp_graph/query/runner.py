"""Named SPARQL queries (``queries/*.rq``): header parsing, validation at load, parameter binding.

Header (comment lines before the query)::

    # name: top-data-classes
    # purpose: data classes by mentions and by number of policies
    # param under (iri) = dpv:PersonalData: only classes under this DPV concept (skos:broader*)

``# lists: col col`` names GROUP_CONCAT columns (separator ``|``) returned as sorted lists, so
results do not depend on an engine's concatenation order.

A parameter line is ``# param NAME [(KIND)] [= DEFAULT]: meaning``. Parameters without a default are
required. Kinds: ``iri``, ``string``, ``integer``, and kinds checked against what they mean: ``data``
(a DPV personal-data concept), ``purpose`` (a DPV purpose), ``practice-type`` (a Policy-IE label) and
``domain`` (a site, matched case-insensitively). Values are turned into RDF terms here (CURIEs such as
``pd:Contact`` expanded via DPV's prefixes) and bound by the store, never spliced into the query text.
An unknown concept or label is an error naming the parameter and the nearest known value, never an
empty answer; :meth:`NamedQuery.check_store` also refuses a site or policy the store does not hold.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import pyoxigraph as ox

from pp_graph.errors import DataFileError, InputError, VocabularyError
from pp_graph.model import PracticeType
from pp_graph.query.service import services
from pp_graph.resources import QUERIES
from pp_graph.store.sparql_text import mask as mask
from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, compact, expand, vocabulary

LIST_SEPARATOR = "|"
KINDS = ("auto", "iri", "string", "integer", "data", "purpose", "practice-type", "domain")
_PARAM = re.compile(
    r"^param\s+(?P<name>[A-Za-z_]\w*)\s*(?:\((?P<kind>[\w-]+)\))?\s*(?:=\s*(?P<default>\S+?))?\s*:\s+(?P<meaning>.+)$"
)
_KEY = re.compile(r"^(?P<key>[a-z]+)\s*:\s*(?P<value>.*)$")
_VAR = re.compile(r"[?$]([A-Za-z_]\w*)")
_XSD_INTEGER = ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")


class Store(Protocol):
    def query(self, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]: ...


@dataclass(frozen=True)
class Param:
    name: str
    meaning: str
    kind: str = "auto"
    default: str | None = None


@dataclass(frozen=True)
class NamedQuery:
    name: str
    purpose: str
    params: tuple[Param, ...]
    text: str
    path: Path
    lists: tuple[str, ...] = ()
    services: tuple[str, ...] = ()  # endpoints of SERVICE calls (ad-hoc files only; refused unless allowed)

    def bindings(
        self, values: Mapping[str, str] | None = None, how: str = "pass --param {name}=VALUE"
    ) -> dict[str, ox.NamedNode | ox.Literal]:
        """User values (strings) plus defaults → terms; unknown or missing parameters raise InputError. ``how``
        tells the caller's user how to give a missing one (``{name}``: its name): the command line's flag by
        default, a tool argument or a form field elsewhere."""
        values = dict(values or {})
        declared = {p.name for p in self.params}
        unknown = sorted(set(values) - declared)
        if unknown:
            hint = ", ".join(sorted(declared)) or "none"
            raise InputError(self.path.name, f"unknown parameter(s) {', '.join(unknown)}; this query takes: {hint}")
        out: dict[str, ox.NamedNode | ox.Literal] = {}
        for p in self.params:
            raw = values.get(p.name, p.default)
            if raw is None:
                raise InputError(
                    self.path.name, f"missing parameter {p.name!r} ({p.meaning}); {how.format(name=p.name)}"
                )
            out[p.name] = term_for(raw, p.kind, f"{self.path.name}: parameter {p.name}")
        return out

    def check_store(self, store: Store, bound: Mapping[str, ox.NamedNode | ox.Literal]) -> None:
        """InputError when a ``domain`` or ``policy`` parameter names something the store does not hold."""
        for p in self.params:
            value = bound.get(p.name)
            if value is None:
                continue
            if p.kind == "domain":
                known = sorted({str(r["d"]) for r in store.query(_DOMAINS)})
                if value.value not in known:
                    raise InputError(
                        f"{self.path.name}: parameter {p.name}",
                        f"no policy in the store is for site {value.value!r}{_nearest(value.value, known)}",
                    )
            elif (
                p.name == "policy"
                and isinstance(value, ox.NamedNode)
                and not store.query(_HAS_POLICY, {"policy": value})[0]["ask"]
            ):
                raise InputError(
                    f"{self.path.name}: parameter {p.name}", f"no policy graph <{value.value}> in the store"
                )

    def run(
        self, store: Store, values: Mapping[str, str] | None = None, how: str = "pass --param {name}=VALUE"
    ) -> list[dict[str, Any]]:
        """Rows of the query; the (constant) parameter columns are left out."""
        return self.run_bound(store, self.bindings(values, how))

    def run_bound(self, store: Store, bound: Mapping[str, ox.NamedNode | ox.Literal]) -> list[dict[str, Any]]:
        """:meth:`run` with terms already made by :meth:`bindings`."""
        rows = store.query(self.text, bound)
        names = {p.name for p in self.params}
        return [{k: (_split(v) if k in self.lists else v) for k, v in r.items() if k not in names} for r in rows]


def _split(v: Any) -> list[str]:
    return sorted(x for x in str(v).split(LIST_SEPARATOR) if x) if v is not None else []


def term_for(raw: str, kind: str, where: str) -> ox.NamedNode | ox.Literal:
    """A parameter value → an RDF term. ``auto``: IRIs and DPV CURIEs become IRIs, the rest strings."""
    try:
        if kind == "integer":
            return ox.Literal(str(int(raw)), datatype=_XSD_INTEGER)
        if kind == "string":
            return ox.Literal(raw)
        if kind in _CONCEPT_KINDS:
            return ox.NamedNode(_concept(raw, kind, where))
        if kind == "practice-type":
            return ox.Literal(_practice_type(raw, where))
        if kind == "domain":
            return ox.Literal(site_domain(raw, where))
        if kind == "iri" or raw.startswith(("http://", "https://", "urn:")):
            return ox.NamedNode(expand(raw))
        try:
            return ox.NamedNode(expand(raw))
        except VocabularyError:
            return ox.Literal(raw)
    except VocabularyError as e:
        raise InputError(where, str(e)) from e
    except ValueError as e:
        raise InputError(where, f"{raw!r} is not a valid {kind if kind != 'auto' else 'value'}: {e}") from e


_CONCEPT_KINDS = {"data": (PERSONAL_DATA, "DPV personal-data concept"), "purpose": (PURPOSE, "DPV purpose")}
_DOMAINS = "PREFIX pr2g: <urn:pp-analyze:core#> SELECT DISTINCT ?d WHERE { GRAPH ?g { ?g pr2g:for/pr2g:hasDomain ?d } }"
_HAS_POLICY = "PREFIX pr2g: <urn:pp-analyze:core#> ASK { GRAPH ?policy { ?policy a pr2g:PrivacyPolicy } }"


def _concept(raw: str, kind: str, where: str) -> str:
    """A CURIE or IRI of a concept under the kind's DPV top concept; else InputError with the nearest."""
    top, what = _CONCEPT_KINDS[kind]
    members = vocabulary().members(top)
    try:
        iri = expand(raw.strip())
    except VocabularyError:
        iri = raw.strip()
    if iri in members:
        return iri
    names = sorted(compact(m) for m in members)
    by_lower = {n.lower(): n for n in names}
    near = by_lower.get(compact(iri).lower())
    hint = f"; did you mean {near}?" if near else _nearest(compact(iri), names)
    raise InputError(where, f"{raw!r} is not a {what} (under {compact(top)}){hint}")


def _practice_type(raw: str, where: str) -> str:
    allowed = [t.value for t in PracticeType]
    v = raw.strip().lower().replace("_", "-")
    if v not in allowed:
        raise InputError(where, f"{raw!r} is not a practice type; one of: {', '.join(allowed)}{_nearest(v, allowed)}")
    return v


def site_domain(raw: str, where: str = "site") -> str:
    """'https://www.GitHub.com/x' → 'github.com' (parsed as HTTP clients parse it; see pp_graph.sites)."""
    from pp_graph.sites import SiteError, parse_site

    try:
        return parse_site(raw, where)
    except SiteError as e:
        raise InputError(where, f"not a site domain such as github.com: {e.problem}") from e


def _nearest(value: str, known: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(value, known, n=3, cutoff=0.6)
    return f"; nearest: {', '.join(close)}" if close else ""


def variables(text: str) -> set[str]:
    """The variables a query mentions (not counting ``?`` in strings, IRIs or comments)."""
    return set(_VAR.findall(mask(text)))


def _header(path: Path, text: str) -> tuple[dict[str, str], list[Param]]:
    """The ``# key: value`` and ``# param`` lines before the query."""
    meta: dict[str, str] = {}
    params: list[Param] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s:
            continue
        if not s.startswith("#"):
            break
        body = s.lstrip("#").strip()
        if body.startswith("param ") or body.startswith("param\t"):
            m = _PARAM.match(body)
            if not m:
                raise DataFileError(
                    f"{path}:{lineno}: malformed parameter line; expected "
                    "'# param NAME [(iri|string|integer)] [= DEFAULT]: meaning'"
                )
            kind = m["kind"] or "auto"
            if kind not in KINDS:
                raise DataFileError(f"{path}:{lineno}: parameter kind {kind!r} is not one of {', '.join(KINDS)}")
            if any(p.name == m["name"] for p in params):
                raise DataFileError(f"{path}:{lineno}: parameter {m['name']!r} declared twice")
            params.append(Param(m["name"], m["meaning"].strip(), kind, m["default"]))
            continue
        km = _KEY.match(body)
        if km and km["key"] in {"name", "purpose", "lists"}:
            meta[km["key"]] = km["value"].strip()
    return meta, params


def parse(path: Path, *, library: bool = True) -> NamedQuery:
    """Read and validate one .rq file; errors name the file and line. The named-query ``library`` requires the
    ``# name:`` (matching the file) and ``# purpose:`` headers and no SERVICE; an ad-hoc file needs neither."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise InputError(str(path), f"is not valid UTF-8 (byte {e.start})") from e
    meta, params = _header(path, text)
    if library:
        for key in ("name", "purpose"):
            if not meta.get(key):
                raise DataFileError(f"{path}: header lacks '# {key}: …'")
        if meta["name"] != path.stem:
            raise DataFileError(f"{path}: '# name: {meta['name']}' does not match the file name {path.stem!r}")
    used = variables(text)
    for p in params:
        if p.name not in used:
            raise DataFileError(f"{path}: parameter {p.name!r} is declared but ?{p.name} does not occur in the query")
        if p.default is not None:
            term_for(p.default, p.kind, f"{path}: default of {p.name}")
    calls = services(text)
    if calls and library:
        raise DataFileError(f"{path}: named queries may not call SERVICE ({', '.join(calls)})")
    if not calls:  # a dry run of a SERVICE call would already reach out to its endpoint
        _dry_run(path, text, params)
    lists = tuple(meta.get("lists", "").split())
    for col in lists:
        if col not in used:
            raise DataFileError(f"{path}: list column {col!r} is not a variable of the query")
    name, purpose = meta.get("name") or path.stem, meta.get("purpose") or "ad-hoc query"
    return NamedQuery(name, purpose, tuple(params), text, path, lists, calls)


def _dry_run(path: Path, text: str, params: list[Param]) -> None:
    """Run once on an empty store: catches syntax errors, and parameters the store cannot bind
    (pyoxigraph binds only projected variables: a parameter must be in SELECT, and in GROUP BY)."""
    dummy: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {
        ox.Variable(p.name): ox.Literal("x") for p in params
    }
    try:
        _syntax_store().query(text, substitutions=dummy)
    except SyntaxError as e:
        raise DataFileError(f"{path}: SPARQL syntax error: {e}") from e
    except RuntimeError as e:
        raise DataFileError(f"{path}: {e}; project every parameter (SELECT ?name …, GROUP BY ?name …)") from e


@cache
def _syntax_store() -> ox.Store:
    return ox.Store()


def available(folder: Path = QUERIES) -> dict[str, Path]:
    return {p.stem: p for p in sorted(folder.glob("*.rq"))}


@cache
def _load_cached(path: Path, mtime: float, library: bool = True) -> NamedQuery:
    return parse(path, library=library)


def load_query(name_or_path: str | Path, folder: Path = QUERIES) -> NamedQuery:
    """A named query (``top-data-classes``: ``queries/top-data-classes.rq``) or an .rq file.

    A ``Path``, or a string ending in ``.rq`` or with a folder part, is a file; any other string is a
    name, never a file of that name in the working directory.
    """
    s = str(name_or_path)
    if isinstance(name_or_path, Path) or s.endswith(".rq") or "/" in s or os.sep in s:
        p = Path(name_or_path)
        if not p.is_file():
            raise InputError(s, "no such query file")
        p = p.resolve()
        return _load_cached(p, p.stat().st_mtime, p.parent == Path(folder).resolve())
    found = folder / f"{s}.rq"
    if not found.is_file():
        names = ", ".join(available(folder)) or "none"
        raise InputError(s, f"no such named query; available: {names}")
    return _load_cached(found, found.stat().st_mtime)


def load_all(folder: Path = QUERIES) -> list[NamedQuery]:
    """Every query in ``folder``, validated (raises on the first bad file)."""
    return [load_query(p, folder) for p in available(folder).values()]


def run_query(store: Store, name_or_path: str | Path, params: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    return load_query(name_or_path).run(store, params)
