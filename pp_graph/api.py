"""The library's front door: one policy (file or text) → a graph and a report (re-exported by ``pp_graph``)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rdflib import Dataset, URIRef

from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import Backend, get_backend
from pp_graph.graph.build import policy_quads, policy_stream, to_dataset, triples_of
from pp_graph.graph.terms import Triple
from pp_graph.load.language import language_name
from pp_graph.load.sources import load_policy, policy_from_text
from pp_graph.model import Language, Policy, PolicyExtraction, SegmentExtraction
from pp_graph.vocab.dpv import compact

if TYPE_CHECKING:
    import pyoxigraph as ox

    from pp_graph.extract.learned.model import LearnedModel
    from pp_graph.extract.learned.transparency import TransparencyModel


@dataclass
class PolicyReport:
    """What one conversion found (``<site>.report.json``): segments, practices by type, classes, mentions, triples,
    what the checks rejected per stage, time, backend figures, and the ids of the rules behind each practice and
    mention (offsets and classes, never the text)."""

    source: str
    site: str
    segments: int = 0
    practices: dict[str, int] = field(default_factory=dict)
    negated_practices: int = 0
    data_classes: int = 0
    purpose_classes: int = 0
    data_mentions: int = 0
    purpose_mentions: int = 0
    triples: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    backend: dict[str, Any] = field(default_factory=dict)
    # per practice, the ids of the extractor rules that made or changed it (offline backend: data/rules/)
    practice_rules: list[dict[str, Any]] = field(default_factory=list)
    # per data, purpose and party mention: the ids of the rules that made it and tied it to a practice
    mention_rules: list[dict[str, Any]] = field(default_factory=list)
    # what the reading could not recover (a run of text without paragraphs or sentences, read in windows)
    warnings: list[str] = field(default_factory=list)
    # the language detected (pp_graph.load.language): code, English name, the model's confidence, whether it is sure
    language: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        # Shallow: every field is already JSON-shaped (numbers, strings, lists and dicts of them). asdict's deep
        # copy of the per-mention rule lists cost about 5% of a conversion.
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class Conversion:
    """One converted policy: its named graph's IRI, its quads (pyoxigraph), the typed extraction and the report."""

    graph: URIRef  # the policy's named graph
    quads: list[ox.Quad]  # its quads, each subject's together, in the order built: what the writers write
    extraction: PolicyExtraction
    report: PolicyReport

    @cached_property
    def triples(self) -> dict[Triple, None]:
        """The graph's triples as pyoxigraph terms (subject, predicate, object), in the quads' order; made on first
        use (writing a file needs only ``quads``)."""
        return dict.fromkeys(triples_of(self.quads))

    @cached_property
    def dataset(self) -> Dataset:
        """The graph as an rdflib Dataset, built on first use (writing a file needs only ``quads``)."""
        return to_dataset(self.graph, self.triples)


def report_for(ex: PolicyExtraction, triples: int, seconds: float) -> PolicyReport:
    practices: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    data: set[str] = set()
    purposes: set[str] = set()
    negated = data_mentions = purpose_mentions = 0
    practice_rules: list[dict[str, Any]] = []
    mention_rules: list[dict[str, Any]] = []
    for r in ex.results:
        mention_rules.extend(_mention_rules(r))
        rejected.update(r.rejected)
        for p in r.practices:
            practices[p.type.value] += 1
            negated += p.negated
            if p.rules:
                at = {"segment": r.segment.index, "start": p.span.start, "end": p.span.end, "type": p.type.value}
                practice_rules.append(at | {"rules": list(p.rules)})
        # Mentions that a practice uses are what the graph holds; count those.
        linked = {rel.entity for rel in r.relations}
        for i, d in enumerate(r.data):
            if f"data:{i}" in linked and d.concept:
                data.add(d.concept)
                data_mentions += 1
        for i, pu in enumerate(r.purposes):
            if f"purpose:{i}" in linked and pu.concept:
                purposes.add(pu.concept)
                purpose_mentions += 1
    return PolicyReport(
        source=ex.policy.source_name,
        site=ex.policy.site,
        segments=len(ex.segments),
        practices=dict(sorted(practices.items())),
        negated_practices=negated,
        data_classes=len(data),
        purpose_classes=len(purposes),
        data_mentions=data_mentions,
        purpose_mentions=purpose_mentions,
        triples=triples,
        rejected=dict(sorted(rejected.items())),
        seconds=round(seconds, 4),
        backend={k: v for k, v in ex.stats.items() if k != "extract_seconds"},
        practice_rules=practice_rules,
        mention_rules=mention_rules,
        warnings=list(ex.warnings),
        language=_language(ex.language),
    )


def _language(lang: Language | None) -> dict[str, Any] | None:
    if lang is None:
        return None
    return {"code": lang.code, "name": language_name(lang.code), "confidence": lang.confidence, "sure": lang.confident}


def _mention_rules(r: SegmentExtraction) -> list[dict[str, Any]]:
    """Offsets, kind, concept (a DPV term or a party kind, never the text) and rule ids of each mention."""
    out: list[dict[str, Any]] = []
    seg = r.segment.index
    for kind, items in (("data", r.data), ("purpose", r.purposes)):
        for d in items:
            if d.rules:
                concept = compact(d.concept) if d.concept else None
                at = {"segment": seg, "kind": kind, "start": d.span.start, "end": d.span.end}
                out.append(at | {"concept": concept, "rules": list(d.rules)})
    for p in r.parties:
        if p.rules:
            at = {"segment": seg, "kind": "party", "start": p.span.start, "end": p.span.end}
            out.append(at | {"concept": p.kind.value, "rules": list(p.rules)})
    return out


def convert_policy(
    policy: Policy,
    backend: Backend | str = "offline",
    learned: LearnedModel | None = None,
    on_stage: Callable[[str, int, int], None] | None = None,
    transparency: TransparencyModel | None = None,
    **options: Any,
) -> Conversion:
    """Extract and build one policy's graph; ``learned`` adds a trained model's classes beside the backend's,
    ``transparency`` a trained model's transparency statements beside the rules' (pp-graph train gdpr)."""
    t0 = time.perf_counter()
    ex, rule_ids = _extracted(policy, backend, learned, on_stage, transparency, options)
    if on_stage is not None:
        on_stage("graph", 0, 0)  # building the graph: as slow as a stage on a large policy
    name, quads = policy_quads(ex, rule_ids=rule_ids)
    return Conversion(URIRef(name.value), quads, ex, report_for(ex, len(quads), time.perf_counter() - t0))


def convert_stream(
    policy: Policy,
    backend: Backend | str = "offline",
    learned: LearnedModel | None = None,
    on_stage: Callable[[str, int, int], None] | None = None,
    transparency: TransparencyModel | None = None,
    **options: Any,
) -> tuple[URIRef, PolicyReport, Iterator[ox.Quad]]:
    """``convert_policy`` for writing a file (what ``convert`` does): the graph's name, the report, and its quads
    in the same order, made one subject at a time as they are read. The extraction is dropped before any quad is
    made, so on a policy of megabytes neither it nor the whole graph as quads is ever in memory beside the other
    (issue 28)."""
    t0 = time.perf_counter()
    ex, rule_ids = _extracted(policy, backend, learned, on_stage, transparency, options)
    if on_stage is not None:
        on_stage("graph", 0, 0)
    name, size, quads = policy_stream(ex, rule_ids=rule_ids)
    return URIRef(name.value), report_for(ex, size, time.perf_counter() - t0), quads


def _extracted(
    policy: Policy,
    backend: Backend | str,
    learned: LearnedModel | None,
    on_stage: Callable[[str, int, int], None] | None,
    transparency: TransparencyModel | None,
    options: dict[str, Any],
) -> tuple[PolicyExtraction, bool]:
    """The policy's extraction, with the learned layers applied, and whether the graph records rule ids."""
    be = get_backend(backend, **options) if isinstance(backend, str) else backend
    ex = extract(policy, be, on_stage=on_stage)  # the pipeline has already dropped every ungrounded item
    if learned is not None:
        learned.annotate(ex)
    if transparency is not None and "transparency" in ex.stages:
        transparency.apply(ex)
    return ex, bool(getattr(be, "rule_ids", False))


def convert(
    source: str | Path, *, site: str | None = None, backend: Backend | str = "offline", **options: Any
) -> Conversion:
    """Convert one policy file (.txt, .md, .html, .pdf) into its Pr2Graph named graph."""
    return convert_policy(load_policy(Path(source), site=site), backend, **options)


def convert_text(
    text: str,
    site: str,
    *,
    media_type: str = "text/markdown",
    backend: Backend | str = "offline",
    **options: Any,
) -> Conversion:
    """Convert a policy given as a string."""
    return convert_policy(policy_from_text(text, site, media_type=media_type), backend, **options)
