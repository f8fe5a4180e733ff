"""Run the registered stages over a policy and enforce their contracts.

Every stage output is checked here, whatever the backend: one list per segment, each span equal to
the policy text at its offsets and inside its segment, each concept inside its DPV scheme, each
relation pointing at an existing practice and entity. What fails is dropped and counted per stage.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from pp_graph.errors import StageContractError
from pp_graph.extract.languages import language_warning
from pp_graph.extract.registry import STAGES, Backend, stage
from pp_graph.load.language import detect
from pp_graph.load.reading import VERSION as SEGMENTER
from pp_graph.load.reading import Reading, read
from pp_graph.load.segment import segment_lines, to_source
from pp_graph.model import (
    AttributeKind,
    ClassifiedSpan,
    Policy,
    PolicyExtraction,
    Role,
    Segment,
    SegmentExtraction,
    Span,
)
from pp_graph.vocab.dpv import LEGAL_BASIS, PERSONAL_DATA, PURPOSE, RIGHT, vocabulary


def _aligned(name: str, out: Sequence[object], segments: list[Segment]) -> None:
    if len(out) != len(segments):
        raise StageContractError(f"stage {name}: {len(out)} outputs for {len(segments)} segments")


def _grounded(span: Span, policy: Policy, seg: Segment | None) -> bool:
    if not span.matches(policy.text):
        return False
    return seg is None or (seg.start <= span.start and span.end <= seg.end)


def _classify(
    name: str,
    top: str,
    segs: list[Segment],
    results: list[SegmentExtraction],
    spans: list[list[Span]],
    classes: list[list[str | None]],
    attr: str,
) -> None:
    vocab = vocabulary()
    _aligned(name, classes, segs)
    for res, ss, cs in zip(results, spans, classes, strict=True):
        if len(cs) != len(ss):
            # Only the unmatched tail is lost; items that pair up by position are kept.
            res.reject(name, abs(len(cs) - len(ss)))
        out: list[ClassifiedSpan] = getattr(res, attr)
        for sp, concept in zip(ss, cs, strict=False):
            if concept is None or not vocab.in_scheme(concept, top):
                res.reject(name)
                continue
            out.append(ClassifiedSpan(sp, concept))


def _spans(
    name: str, policy: Policy, segs: list[Segment], results: list[SegmentExtraction], out: list[list[Span]]
) -> list[list[Span]]:
    _aligned(name, out, segs)
    kept: list[list[Span]] = []
    for seg, res, ss in zip(segs, results, out, strict=True):
        ok = [s for s in dict.fromkeys(ss) if _grounded(s, policy, seg)]
        if len(ok) != len(set(ss)):
            res.reject(name, len(set(ss)) - len(ok))
        kept.append(ok)
    return kept


@stage("data", "data entity recognition (spans) and classification into pd: concepts")
def _data(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    spans = _spans("data_spans", policy, segs, results, backend.data_spans(policy, segs))
    classes = backend.data_classes(policy, segs, spans)
    _classify("data_classes", PERSONAL_DATA, segs, results, spans, classes, "data")


@stage("purposes", "purpose entity recognition (spans) and classification into dpv: purposes")
def _purposes(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    spans = _spans("purpose_spans", policy, segs, results, backend.purpose_spans(policy, segs))
    classes = backend.purpose_classes(policy, segs, spans)
    _classify("purpose_classes", PURPOSE, segs, results, spans, classes, "purposes")


@stage("parties", "first party / third party / user mentions")
def _parties(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    out = backend.parties(policy, segs)
    _aligned("parties", out, segs)
    for seg, res, ms in zip(segs, results, out, strict=True):
        for m in ms:
            if _grounded(m.span, policy, seg):
                res.parties.append(m)
            else:
                res.reject("parties")


@stage("practices", "practice triggers typed by Policy-IE label, with polarity")
def _practices(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    out = backend.practices(policy, segs)
    _aligned("practices", out, segs)
    for seg, res, ms in zip(segs, results, out, strict=True):
        for m in ms:
            # An inherited practice points at its trigger in a heading or lead-in line.
            if _grounded(m.span, policy, None if m.inherited else seg):
                res.practices.append(m)
            else:
                res.reject("practices")


_ATTR_SCHEME = {AttributeKind.LEGAL_BASIS: LEGAL_BASIS, AttributeKind.USER_RIGHT: RIGHT}


@stage("attributes", "retention period and place, security method, legal basis, user rights")
def _attributes(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    vocab = vocabulary()
    out = backend.attributes(policy, segs)
    _aligned("attributes", out, segs)
    for seg, res, ms in zip(segs, results, out, strict=True):
        for m in ms:
            top = _ATTR_SCHEME.get(m.kind)
            if not _grounded(m.span, policy, seg) or (
                top is not None and (m.concept is None or not vocab.in_scheme(m.concept, top))
            ):
                res.reject("attributes")
                continue
            res.attributes.append(m)


_ROLE_TARGET = {
    Role.DATA_COLLECTED: "data",
    Role.DATA_SHARED: "data",
    Role.DATA_RETAINED: "data",
    Role.DATA_PROTECTED: "data",
    Role.PURPOSE_ARGUMENT: "purpose",
    Role.DATA_COLLECTOR: "party",
    Role.DATA_PROVIDER: "party",
    Role.DATA_RECEIVER: "party",
    Role.DATA_SHARER: "party",
    Role.DATA_HOLDER: "party",
    Role.DATA_PROTECTOR: "party",
    Role.RETENTION_PERIOD: "attr",
    Role.STORAGE_PLACE: "attr",
    Role.METHOD: "attr",
    Role.PROTECT_AGAINST: "attr",
    Role.LEGAL_BASIS: "attr",
    Role.CONDITION: "attr",
    Role.TRANSFER_SAFEGUARD: "attr",
    Role.CHOICE_SCOPE: "attr",
    Role.CHOICE_MECHANISM: "attr",
    Role.NOTIFICATION_MEANS: "attr",
    Role.AUDIENCE: "attr",
    Role.AGE_LIMIT: "attr",
}


def entity_exists(res: SegmentExtraction, ref: str) -> bool:
    kind, _, idx = ref.partition(":")
    if kind == "party" and idx == "first":  # the policy's own first party, implied
        return True
    pools: dict[str, Sequence[object]] = {
        "data": res.data,
        "purpose": res.purposes,
        "party": res.parties,
        "attr": res.attributes,
    }
    return kind in pools and idx.isdigit() and int(idx) < len(pools[kind])


@stage("relations", "practice → entity tuples with Policy-IE roles; ids given by the code")
def _relations(backend: Backend, policy: Policy, segs: list[Segment], results: list[SegmentExtraction]) -> None:
    out = backend.relations(policy, results)
    _aligned("relations", out, segs)
    for res, rels in zip(results, out, strict=True):
        seen = set()
        for r in rels:
            kind = r.entity.partition(":")[0]
            if (
                not (0 <= r.practice < len(res.practices))
                or not entity_exists(res, r.entity)
                or _ROLE_TARGET.get(r.role) != kind
                or r in seen
            ):
                res.reject("relations")
                continue
            seen.add(r)
            res.relations.append(r)


def extract(
    policy: Policy,
    backend: Backend,
    stages: list[str] | None = None,
    on_stage: Callable[[str, int, int], None] | None = None,
) -> PolicyExtraction:
    """Read a policy into units (pp_graph.load.reading), run the stages over them (all registered ones by
    default, in order) and give every span back in the policy's own text.

    The stages see the reading (its text and segments); the extraction returned holds the policy as given, its
    segments and spans at their offsets there. ``on_stage(name, i, n)`` is called before each stage: the progress
    inside one (large) policy; ``on_stage("reading", 0, 0)`` before the policy is read into units (its own step:
    on a policy of megabytes it takes seconds too).
    """
    t0 = time.perf_counter()
    if on_stage is not None:
        on_stage("reading", 0, 0)
    reading = read(policy)
    view = reading.policy
    segs = segment_lines(view)
    results = [SegmentExtraction(s) for s in segs]
    backend.begin(view, segs)
    todo = [(name, spec) for name, spec in STAGES.items() if stages is None or name in stages]
    for i, (name, spec) in enumerate(todo, 1):
        if on_stage is not None:
            on_stage(name, i, len(todo))
        spec.run(backend, view, segs, results)
    backend.finish(view, results)
    mapped = to_source_results(reading, results)
    prov = replace(backend.provenance, segmenter=SEGMENTER)
    ex = PolicyExtraction(policy, [r.segment for r in mapped], mapped, prov, stages=tuple(name for name, _ in todo))
    ex.warnings = list(reading.warnings) + backend.warnings()
    ex.language = detect(view.text)  # the reading: markup would read as another language
    practices = sum(len(r.practices) for r in mapped)
    warning = language_warning(ex.language, backend.name, backend.languages, practices)
    if warning:
        ex.warnings.append(warning)
    ex.stats = {"extract_seconds": time.perf_counter() - t0, **backend.stats()}
    return ex


def to_source_results(reading: Reading, results: list[SegmentExtraction]) -> list[SegmentExtraction]:
    """Stage outputs over the reading → the same outputs at their offsets (and exact text) in the source."""
    if reading.identical:
        return results
    text = reading.source.text

    def span(s: Span) -> Span:
        return Span.at(text, *reading.source_span(s.start, s.end))

    for r in results:
        r.segment = to_source(reading, r.segment)
        r.data = [replace(d, span=span(d.span)) for d in r.data]
        r.purposes = [replace(p, span=span(p.span)) for p in r.purposes]
        r.parties = [replace(p, span=span(p.span)) for p in r.parties]
        r.practices = [replace(p, span=span(p.span)) for p in r.practices]
        r.attributes = [replace(a, span=span(a.span)) for a in r.attributes]
        r.requirements = [replace(m, span=span(m.span)) for m in r.requirements]
    return results


# The transparency stage lives with the compliance answers; importing it registers it after the stages above.
import pp_graph.comply.stage  # noqa: E402, F401
