"""The detection pipeline: the registry's pattern recognisers on the normalised text, the address-block
structure, the NER mode, then name propagation; each stage's spans resolved against what earlier ones took
(``resolve.py``)."""

from __future__ import annotations

from collections.abc import Iterable

from pp_graph.anonymize.modes import detector_digest, mode_entry
from pp_graph.anonymize.ner import freeze_heap as freeze_process_heap
from pp_graph.anonymize.normalize import normalized
from pp_graph.anonymize.recognizers.base import Entity
from pp_graph.anonymize.recognizers.registry import REGISTRY, RecognizerRegistry
from pp_graph.anonymize.resolve import resolve


def rule_entities(text: str, registry: RecognizerRegistry | None = None) -> list[Entity]:
    """The pattern recognisers of ``registry`` (None: ``REGISTRY``) and the address-block structure, overlaps
    resolved (no statistical model)."""
    from pp_graph.anonymize.structure import address_blocks

    # Patterns read the normalised text (full-width forms, zero-width characters, combining accents); spans map
    # back to the original, where overlaps are resolved.
    norm = normalized(text)
    cands: list[tuple[int, int, Entity]] = []
    for r in (REGISTRY if registry is None else registry).ordered():
        for s, e in r.find(norm.text):
            if e > s:
                s, e = norm.span(s, e)
                cands.append((r.priority, -(e - s), Entity(r.type, s, e, r.name)))
    taken = resolve(cands, [])
    streets = [(x.start, x.end) for x in taken if x.type == "STREET_ADDRESS"]
    block = [(29, -(e - s), Entity(t, s, e, "address_block")) for t, s, e in address_blocks(text, streets)]
    return resolve(block, taken)


def warm_up(mode: str | None = None, *, freeze_heap: bool = False) -> None:
    """Load the models NER ``mode`` runs (None: ``DEFAULT_MODE``) now, not at the first detection.

    ``freeze_heap``: then collect garbage and ``gc.freeze()`` every object alive, so later full collections skip
    the models' objects (they made the worst detection latency). It acts on the whole process and is never done
    implicitly: a program that owns its process and wants the tail latency low opts in (pp-graph's CLI does).
    Raises ConfigError for an unknown mode, NERUnavailable / ModelUnavailable when its models are missing."""
    recognize("Jane Roe, 12 Main St", mode=mode)  # a name and an address: every stage of the mode runs once
    detector_digest(mode)  # records name it: hashed now, not in the first decision
    if freeze_heap:
        freeze_process_heap()


def recognize(
    text: str,
    *,
    ner: bool = True,
    types: Iterable[str] | None = None,
    mode: str | None = None,
    registry: RecognizerRegistry | None = None,
) -> list[Entity]:
    """Entities in ``text``, sorted by offset, without overlaps (higher-priority recognisers win).

    Order: pattern recognisers and address-block structure; then the NER ``mode`` (``MODES``; None is
    ``DEFAULT_MODE``): "hybrid" (the sequence model and spaCy, see ``hybrid``), "crf" (the sequence model decides
    all soft types), "spacy" (the spaCy pipeline after the patterns) or "none"; then name propagation (other
    mentions and enumeration members of a detected person). ``ner=False`` is mode "none". ``registry``: the
    pattern recognisers to run (None: ``REGISTRY``, every built-in family)."""
    from pp_graph.anonymize.structure import name_propagation

    entry = mode_entry(mode)
    want = set(types) if types is not None else None
    taken = rule_entities(text, registry)
    if ner:
        taken = entry.run(text, taken)
    persons = [(x.start, x.end) for x in taken if x.type == "PERSON"]
    taken = resolve(
        [(60, -(e - s), Entity(t, s, e, "name_propagation")) for t, s, e in name_propagation(text, persons)], taken
    )
    out = [x for x in taken if want is None or x.type in want]
    out.sort(key=lambda x: (x.start, x.end))
    return out
