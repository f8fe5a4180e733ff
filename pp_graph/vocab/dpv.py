"""DPV 2.3 loaded once: labels, ``skos:broader`` closure, scheme membership, IRI checks.

Uses the SKOS serialisation (``dpv:``/``pd:`` IRIs as used in instance data); the OWL files mint
``/owl#`` IRIs that would silently break joins. Hierarchy is ``skos:broader`` only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pp_graph.errors import VocabularyError
from pp_graph.resources import DPV_FILES

DPV = "https://w3id.org/dpv#"
PD = "https://w3id.org/dpv/pd#"
EU_GDPR = "https://w3id.org/dpv/legal/eu/gdpr#"
SKOS = "http://www.w3.org/2004/02/skos/core#"

PREFIXES = {"dpv": DPV, "pd": PD, "eu-gdpr": EU_GDPR}

# Top concepts of the schemes pp-graph uses.
PERSONAL_DATA = DPV + "PersonalData"
PURPOSE = DPV + "Purpose"
LEGAL_BASIS = DPV + "LegalBasis"
RIGHT = DPV + "Right"
PROCESSING = DPV + "Processing"


def expand(term: str) -> str:
    """'pd:EmailAddress' → full IRI; full IRIs pass through."""
    if term.startswith(("http://", "https://", "urn:")):
        return term
    prefix, sep, local = term.partition(":")
    if sep and prefix in PREFIXES:
        return PREFIXES[prefix] + local
    raise VocabularyError(f"{term!r} is not a DPV term; write it as pd:Name, dpv:Name or a full IRI")


_BY_LENGTH = tuple(sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])))  # longest namespace first


def compact(iri: str) -> str:
    for prefix, ns in _BY_LENGTH:
        if iri.startswith(ns):
            return f"{prefix}:{iri[len(ns) :]}"
    return iri


@dataclass(eq=False)  # identity hash: methods are cached per instance (build it fully before querying)
class Vocabulary:
    labels: dict[str, str] = field(default_factory=dict)  # IRI → prefLabel
    alt_labels: dict[str, list[str]] = field(default_factory=dict)
    broader: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    narrower: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    @cache  # noqa: B019 - the vocabulary is a process-wide singleton
    def broader_closure(self, iri: str) -> frozenset[str]:
        """``iri`` and every concept above it along ``skos:broader`` (cached)."""
        return _closure(iri, self.broader)

    @cache  # noqa: B019
    def narrower_closure(self, iri: str) -> frozenset[str]:
        """``iri`` and every concept below it along ``skos:broader`` (cached)."""
        return _closure(iri, self.narrower)

    def ancestors(self, iri: str) -> set[str]:
        """A fresh mutable copy of ``broader_closure`` (for callers typed against ``set``)."""
        return set(self.broader_closure(iri))

    def descendants(self, iri: str) -> set[str]:
        return set(self.narrower_closure(iri))

    def in_scheme(self, iri: str, top: str) -> bool:
        return iri in self.labels and iri in self.members(top)

    def members(self, top: str) -> frozenset[str]:
        return self.narrower_closure(top)

    def is_personal_data(self, iri: str) -> bool:
        return iri in self.members(PERSONAL_DATA)

    def is_purpose(self, iri: str) -> bool:
        return iri in self.members(PURPOSE)

    def label(self, iri: str) -> str:
        return self.labels.get(iri, compact(iri))

    def resolve(self, term: str, top: str) -> str | None:
        """A label, CURIE or IRI → an IRI in the scheme under ``top``; None if nothing matches."""
        term = term.strip()
        try:
            iri = expand(term)
            if self.in_scheme(iri, top):
                return iri
        except VocabularyError:
            pass
        key = _norm(term)
        return self._label_index(top).get(key)

    @cache  # noqa: B019
    def _label_index(self, top: str) -> dict[str, str]:
        index: dict[str, str] = {}
        for iri in sorted(self.members(top)):
            local = iri.rsplit("#", 1)[-1]
            for name in (self.labels.get(iri, ""), *self.alt_labels.get(iri, ()), local):
                if name:
                    index.setdefault(_norm(name), iri)
        return index


def _closure(iri: str, edges: dict[str, set[str]]) -> frozenset[str]:
    seen = {iri}
    todo = list(edges.get(iri, ()))
    while todo:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo.extend(edges.get(c, ()))
    return frozenset(seen)


def _norm(s: str) -> str:
    return "".join(ch for ch in s.lower() if ch.isalnum())


def _load(paths: Iterable[Path]) -> Vocabulary:
    import pyoxigraph as ox

    vocab = Vocabulary()
    pref, alt, broader = SKOS + "prefLabel", SKOS + "altLabel", SKOS + "broader"
    for path in paths:
        with open(path, "rb") as fh:
            for q in ox.parse(fh, format=ox.RdfFormat.TURTLE):
                s, p, o = q.subject, q.predicate.value, q.object
                if not isinstance(s, ox.NamedNode):
                    continue
                if p == pref and isinstance(o, ox.Literal) and (o.language in (None, "en")):
                    vocab.labels[s.value] = o.value
                elif p == alt and isinstance(o, ox.Literal):
                    vocab.alt_labels.setdefault(s.value, []).append(o.value)
                elif p == broader and isinstance(o, ox.NamedNode):
                    vocab.broader[s.value].add(o.value)
                    vocab.narrower[o.value].add(s.value)
    return vocab


@cache
def vocabulary() -> Vocabulary:
    """The process-wide DPV index (about 0.1 s to build)."""
    return _load(DPV_FILES)


WITHIN = "urn:pp-graph:ontology#within"  # ?c ppg:within ?top: ?c is ?top or below it along skos:broader


def within_pairs(vocab: Vocabulary | None = None) -> list[tuple[str, str]]:
    """(concept, concept or an ancestor) for every DPV concept: the reflexive-transitive skos:broader closure.

    Stores hold it as ``ppg:within`` triples in the DPV graph, so the named queries need no property
    path: engines disagree on ``skos:broader*`` (duplicate solutions, unbound ends, aggregates).
    """
    v = vocab or vocabulary()
    concepts = sorted(set(v.labels) | set(v.broader) | set(v.narrower))
    return [(c, a) for c in concepts for a in sorted(v.broader_closure(c))]
