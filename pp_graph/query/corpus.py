"""A read-only view of a folder of policy graphs: the records the HTML report and the browser UI show.

Everything comes from the graphs by the ``view-*`` named queries (explicit GRAPH patterns, so they mean
the same on any store), plus the batch's ``<site>.report.json`` sidecars for what a graph cannot say
(rejections per stage, seconds). Summaries are computed once when the corpus is opened: the UI never
re-queries the whole store per page.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pp_graph.errors import InputError
from pp_graph.graph.files import graph_files
from pp_graph.model import PracticeType
from pp_graph.query.runner import load_query
from pp_graph.resources import PR2GRAPH_ONTOLOGY
from pp_graph.sites import site_host
from pp_graph.store.embedded import EmbeddedStore, open_store
from pp_graph.vocab.dpv import compact, vocabulary

PRACTICE_TYPES = tuple(t.value for t in PracticeType)  # the report's and the UI's columns and colours, in order
# Link roles that point at a DPV concept (shown with its label and definition) rather than a party.
CONCEPT_ROLES = ("data", "purpose", "hasLegalBasis", "protectAgainst", "method")
PARTY_ROLES = ("receiver", "provider", "sharer", "user", "collector", "holder", "protector")
VIEW_CACHE = 32  # policy views kept in memory by the UI
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
SKOS_DEFINITION = "http://www.w3.org/2004/02/skos/core#definition"


@dataclass(frozen=True)
class PolicySummary:
    policy: str  # the policy IRI (also its graph name)
    site: str
    source: str
    digest: str
    characters: int
    practices: dict[str, int]
    negated: int
    file: str  # the graph file's name, relative to the folder it was found in
    converted: str  # the graph file's modification time (UTC, ISO 8601)
    valid_from: str | None = None  # a dated version: when it came into force (ISO 8601 UTC)
    language: str = (
        ""  # ISO 639 code of the language the text looks written in ("" in graphs made before it was recorded)
    )

    @property
    def total(self) -> int:
        return sum(self.practices.values())

    @property
    def key(self) -> str:
        """The policy's short id in URLs: the last part of its IRI (site:digest prefix)."""
        return self.policy.rsplit(":", 2)[-1]


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str


@dataclass
class Link:
    role: str
    value: str  # a DPV concept IRI or a party IRI
    name: str | None = None  # a party's name
    kind: str | None = None  # a recipient kind (ppg:recipient-…)
    spans: list[Span] = field(default_factory=list)


@dataclass
class Segment:
    iri: str
    index: int
    start: int
    end: int
    heading: str
    text: str


@dataclass
class Practice:
    iri: str
    type: str
    negated: bool
    inherited: bool
    segment: str
    trigger: Span | None
    retention: str | None
    retention_text: str | None
    storage_place: str | None
    provenance: dict[str, str]
    links: list[Link] = field(default_factory=list)
    details: list[tuple[str, str]] = field(default_factory=list)  # (ppg property's local name, coded value)

    @property
    def id(self) -> str:
        """A short, stable id for anchors: the practice IRI's last two parts."""
        return "p-" + self.iri.rsplit("/", 1)[-1]

    def concepts(self, role: str) -> list[str]:
        return sorted({ln.value for ln in self.links if ln.role == role})

    def parties(self) -> list[Link]:
        return [ln for ln in self.links if ln.role in PARTY_ROLES]

    def spans(self) -> list[Span]:
        """Every evidence span of this practice: the trigger and the spans of its links."""
        out = [self.trigger] if self.trigger else []
        for ln in self.links:
            out.extend(ln.spans)
        return sorted(set(out), key=lambda s: (s.start, s.end))


@dataclass
class PolicyView:
    summary: PolicySummary
    segments: list[Segment]
    practices: list[Practice]

    def practices_by_segment(self) -> dict[str, list[Practice]]:
        out: dict[str, list[Practice]] = defaultdict(list)
        for p in self.practices:
            out[p.segment].append(p)
        return out


def _iso(value: Any) -> str | None:
    """An xsd:dateTime as written by rdflib (``+00:00``) or by hand (``Z``) → ``YYYY-MM-DDTHH:MM:SSZ``."""
    if not value:
        return None
    v = str(value)
    return v[:-6] + "Z" if v.endswith("+00:00") else v


def _converted(path: Path) -> str:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Corpus:
    """Policy graphs under one or more paths, opened once in an embedded store with DPV."""

    def __init__(self, store: EmbeddedStore, files: dict[Path, list[str]], roots: list[Path]) -> None:
        self.store = store
        self.files = files
        self.roots = roots
        self.vocab = vocabulary()

    @classmethod
    def open(cls, paths: Iterable[Path]) -> Corpus:
        roots = [Path(p) for p in paths]
        for p in roots:
            if not p.exists():
                raise InputError(str(p), "no such file or folder")
        files = graph_files(roots)
        if not files:
            raise InputError(", ".join(map(str, roots)), "holds no graph files (.trig, .nq, .jsonld, .ttl, .nt)")
        store = open_store([], dpv=True)
        loaded = store.load_files(files)
        return cls(store, loaded, roots)

    def query(self, name: str, **params: str) -> list[dict[str, Any]]:
        return load_query(name).run(self.store, params)

    # -- summaries (computed once) --

    @cached_property
    def policies(self) -> list[PolicySummary]:
        graph_file = {g: f for f, gs in self.files.items() for g in gs}
        rows: dict[str, dict[str, Any]] = {}
        for r in self.query("view-policies"):
            row = rows.setdefault(r["policy"], {"r": r, "practices": {}, "negated": 0})
            if r.get("type"):
                row["practices"][r["type"]] = int(r["practices"])
                row["negated"] += int(r["negated"] or 0)
        out = []
        for iri, row in rows.items():
            r = row["r"]
            f = graph_file.get(iri)
            out.append(
                PolicySummary(
                    policy=iri,
                    site=str(r["site"]),
                    source=str(r.get("source") or ""),
                    digest=str(r.get("digest") or ""),
                    characters=int(r.get("characters") or 0),
                    practices=dict(sorted(row["practices"].items())),
                    negated=row["negated"],
                    file=self._relative(f) if f else "",
                    converted=_converted(f) if f else "",
                    valid_from=_iso(r.get("validFrom")),
                    language=str(r.get("language") or ""),
                )
            )
        # Versions in date order; undated graphs (a site converted at different times) by conversion time.
        return sorted(out, key=lambda s: (s.site, s.valid_from or "", s.converted, s.policy))

    def _relative(self, f: Path) -> str:
        for root in self.roots:
            if root.is_dir() and f.is_relative_to(root):
                return str(f.relative_to(root))
        return f.name

    @cached_property
    def sites(self) -> dict[str, list[PolicySummary]]:
        """Site → its policy graphs, oldest first (several when the folder holds several versions)."""
        out: dict[str, list[PolicySummary]] = defaultdict(list)
        for s in self.policies:
            out[s.site].append(s)
        return dict(sorted(out.items()))

    def versions_of(self, site: str, place: str = "in the corpus") -> list[PolicySummary]:
        """The site's versions, oldest first. The site is given as a domain or a URL (read as its host, the one
        normalisation of ``pp_graph.sites``); InputError naming it, without user information, when there are none."""
        versions = self.sites.get(site.strip().lower()) or self.sites.get(site_host(site))
        if not versions:
            raise InputError(site, f"no policy graph for this site {place}")
        return versions

    def as_of(self, site: str, date: str) -> PolicySummary:
        """The site's version in force on ``date`` (ISO 8601 UTC): the newest one dated on or before it."""
        versions = self.versions_of(site)
        dated = [v for v in versions if v.valid_from]
        if not dated:
            raise InputError(site, "its policy graphs carry no version date (convert <domain>/<date>.md or use --date)")
        before = [v for v in dated if v.valid_from and v.valid_from <= date]
        if not before:
            raise InputError(date, f"is before the first version of {site} ({dated[0].valid_from})")
        return before[-1]

    @cached_property
    def policy_statements(self) -> dict[str, dict[str, set[str]]]:
        """Policy IRI → {"legal-basis": bases it states, "right": rights it discloses}."""
        out: dict[str, dict[str, set[str]]] = defaultdict(lambda: {"legal-basis": set(), "right": set()})
        for r in self.query("view-policy-statements"):
            out[str(r["policy"])][str(r["kind"])].add(str(r["concept"]))
        return out

    def find(self, site: str, key: str | None = None) -> PolicySummary:
        """A site's policy (the newest unless ``key`` names one); InputError naming what was asked."""
        versions = self.versions_of(site)
        if key is None:
            return versions[-1]
        for s in versions:
            if s.key == key:
                return s
        raise InputError(key, f"no policy version with this id for {site}")

    @cached_property
    def reports(self) -> dict[str, dict[str, Any]]:
        """Policy IRI → its batch report (``<name>.report.json`` beside the graph file), when present."""
        out: dict[str, dict[str, Any]] = {}
        for f, graphs in self.files.items():
            side = f.with_suffix(".report.json")
            if not side.is_file():
                continue
            try:
                data = json.loads(side.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a damaged sidecar only hides the rejection counts, which the report says
            for g in graphs:
                out[g] = data
        return out

    # -- one policy --

    def view(self, summary: PolicySummary) -> PolicyView:
        """:meth:`policy`, remembered for the last few policies asked for (the corpus never changes)."""
        cache: dict[str, PolicyView] = self.__dict__.setdefault("_views", {})
        if summary.policy not in cache:
            if len(cache) >= VIEW_CACHE:
                cache.pop(next(iter(cache)))
            cache[summary.policy] = self.policy(summary)
        return cache[summary.policy]

    def policy(self, summary: PolicySummary) -> PolicyView:
        segments = [
            Segment(
                str(r["segment"]),
                int(r["index"]),
                int(r["start"]),
                int(r["end"]),
                str(r.get("heading") or ""),
                str(r["text"]),
            )
            for r in self.query("view-segments", policy=summary.policy)
        ]
        practices = {r["practice"]: _practice(r) for r in self.query("view-practices", policy=summary.policy)}
        spans: dict[str, list[tuple[Span, str | None]]] = defaultdict(list)  # owner → (span, concept it denotes)
        for r in self.query("view-mentions", policy=summary.policy):
            spans[r["owner"]].append((Span(int(r["start"]), int(r["end"]), str(r["anchor"])), r.get("denotes")))
        bounds = {s.iri: (s.start, s.end) for s in segments}
        for r in self.query("view-practice-details", policy=summary.policy):
            if r["practice"] in practices:
                practices[r["practice"]].details.append((str(r["detail"]), str(r["value"])))
        for r in self.query("view-practice-links", policy=summary.policy):
            p = practices.get(r["practice"])
            if p is not None:
                p.links.append(_link(r, p, spans, bounds.get(p.segment, (0, 0))))
        return PolicyView(summary, segments, sorted(practices.values(), key=lambda p: _practice_order(p.iri)))

    # -- DPV --

    def label(self, iri: str) -> str:
        """A person's name for a concept: DPV's label ("Right to object (Art. 21)" for a GDPR right), the
        pp-graph ontology's label ("Service provider" for a recipient kind), else the compact IRI."""
        if iri.startswith("https://w3id.org/dpv"):
            return readable_label(self.vocab.label(iri))
        name = ontology_labels().get(iri)
        return name[:1].upper() + name[1:] if name else compact(iri)

    @cached_property
    def _definitions(self) -> dict[str, str]:
        rows = self.store.store.quads_for_pattern(None, ox.NamedNode(SKOS_DEFINITION), None, None)
        return {
            q.subject.value: q.object.value
            for q in rows
            if isinstance(q.subject, ox.NamedNode) and isinstance(q.object, ox.Literal)
        }

    def definition(self, iri: str) -> str:
        return self._definitions.get(iri, "")


def _link(
    r: dict[str, Any], p: Practice, spans: dict[str, list[tuple[Span, str | None]]], bounds: tuple[int, int]
) -> Link:
    """A practice's link with its evidence: the practice's spans denoting the concept, or the party's spans
    in the practice's own line (a party has one node per policy, with evidence all over the text)."""
    value = str(r["value"])
    lo, hi = bounds
    if value in spans:
        found = [sp for sp, _ in spans[value] if lo <= sp.start and sp.end <= hi]
    else:
        found = [sp for sp, denotes in spans.get(p.iri, []) if denotes == value]
    return Link(str(r["role"]), value, r.get("name"), r.get("kind"), sorted(set(found), key=lambda s: s.start))


def _practice(r: dict[str, Any]) -> Practice:
    trigger = None
    if r.get("triggerStart") is not None:
        trigger = Span(int(r["triggerStart"]), int(r["triggerEnd"]), str(r["trigger"]))
    prov = {k: str(r[k]) for k in ("extractor", "model", "promptVersion", "segmenterVersion") if r.get(k)}
    return Practice(
        iri=str(r["practice"]),
        type=str(r["type"]),
        negated=bool(r["negated"]),
        inherited=bool(r.get("inherited")),
        segment=str(r["segment"]),
        trigger=trigger,
        retention=r.get("retention"),
        retention_text=r.get("retentionText"),
        storage_place=r.get("storagePlace"),
        provenance=prov,
    )


def _practice_order(iri: str) -> tuple[int, int]:
    """Practices are named ``…/practice/<segment>-<n>``: order by line, then by position in it."""
    tail = iri.rsplit("/", 1)[-1]
    seg, _, n = tail.partition("-")
    return (int(seg), int(n)) if seg.isdigit() and n.isdigit() else (1 << 30, 0)


def type_counts(policies: Iterable[PolicySummary]) -> Counter[str]:
    out: Counter[str] = Counter()
    for s in policies:
        out.update(s.practices)
    return out


_ARTICLE = re.compile(r"^A(\d+)(?:-(\d+))?\s+(.+)$")


def readable_label(label: str) -> str:
    """DPV's GDPR labels open with the article code ("A15 Right of Access"): the name first, the article after."""
    m = _ARTICLE.match(label)
    if not m:
        return label
    article = m.group(1) + (f"({m.group(2)})" if m.group(2) else "")
    return f"{m.group(3)} (Art. {article})"


@cache
def ontology_labels() -> dict[str, str]:
    """The pp-graph ontology's rdfs:labels by IRI (read once)."""
    with PR2GRAPH_ONTOLOGY.open("rb") as fh:
        return {
            q.subject.value: q.object.value
            for q in ox.parse(fh, format=ox.RdfFormat.TURTLE)
            if q.predicate.value == RDFS_LABEL and isinstance(q.subject, ox.NamedNode)
        }
