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
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

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


def compact(iri: str) -> str:
    for prefix, ns in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
        if iri.startswith(ns):
            return f"{prefix}:{iri[len(ns) :]}"
    return iri


@dataclass(eq=False)  # identity hash: methods are cached per instance
class Vocabulary:
    labels: dict[str, str] = field(default_factory=dict)  # IRI → prefLabel
    alt_labels: dict[str, list[str]] = field(default_factory=dict)
    broader: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    narrower: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    types: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    def ancestors(self, iri: str, include_self: bool = True) -> set[str]:
        seen: set[str] = {iri} if include_self else set()
        todo = list(self.broader.get(iri, ()))
        while todo:
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo.extend(self.broader.get(c, ()))
        return seen

    def descendants(self, iri: str, include_self: bool = True) -> set[str]:
        seen: set[str] = {iri} if include_self else set()
        todo = list(self.narrower.get(iri, ()))
        while todo:
            c = todo.pop()
            if c not in seen:
                seen.add(c)
                todo.extend(self.narrower.get(c, ()))
        return seen

    def depth(self, iri: str) -> int:
        """Length of the longest broader chain: more specific concepts are deeper."""
        best, todo = 0, [(iri, 0)]
        seen: set[str] = set()
        while todo:
            c, d = todo.pop()
            best = max(best, d)
            for b in self.broader.get(c, ()):
                if b not in seen:
                    seen.add(b)
                    todo.append((b, d + 1))
        return best

    def in_scheme(self, iri: str, top: str) -> bool:
        return iri in self.labels and top in self.ancestors(iri)

    @cache  # noqa: B019 - the vocabulary is a process-wide singleton
    def members(self, top: str) -> frozenset[str]:
        return frozenset(self.descendants(top))

    def is_personal_data(self, iri: str) -> bool:
        return iri in self.members(PERSONAL_DATA)

    def is_purpose(self, iri: str) -> bool:
        return iri in self.members(PURPOSE)

    def label(self, iri: str) -> str:
        return self.labels.get(iri, compact(iri))

    def require(self, iri: str, top: str) -> str:
        """Return the IRI if it is in the scheme under ``top``, else raise VocabularyError."""
        if not self.in_scheme(iri, top):
            raise VocabularyError(f"{compact(iri)} is not a concept under {compact(top)} in DPV 2.3")
        return iri

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
                elif p == RDF_TYPE and isinstance(o, ox.NamedNode):
                    vocab.types[s.value].add(o.value)
    return vocab


@cache
def vocabulary() -> Vocabulary:
    """The process-wide DPV index (about 0.1 s to build)."""
    return _load(DPV_FILES)
