"""The engine of the sentence and trigger rules: a sentence's rules run in their declared order.

The sentence rules declared before the trigger rules run first (the scope vetoes); then each trigger word
(collect, share, retain, protect…) is read by the trigger rules, which veto it, change its reading or make its
practice; then the sentence rules declared after them (practices named without a trigger word, the cue gate).
The rules themselves are in one module per kind: vetoes, promotions, candidates and cues (see reading.py for
the sentence and trigger they read).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pp_graph.extract.offline import candidates, cues, promotions, vetoes
from pp_graph.extract.offline.facts import LineNotes, SegmentState
from pp_graph.extract.offline.reading import SENTENCE_RULES, TRIGGER_RULES, Sentence, SentenceRule, Trigger, TriggerRule
from pp_graph.extract.offline.rules import Trace, ordered, phases
from pp_graph.model import Policy, PracticeMention, Segment

# The modules whose rules register themselves in TRIGGER_RULES and SENTENCE_RULES when imported.
RULE_MODULES = (vetoes, promotions, candidates, cues)
__all__ = ["RULE_MODULES", "SENTENCE_RULES", "TRIGGER_RULES", "run_trigger", "sentence_practices"]


def run_trigger(trigger: Trigger, order: Sequence[tuple[str, TriggerRule]]) -> None:
    """Run the trigger rules in their declared order; the ids of those that changed the reading are kept."""
    sentence = trigger.sentence
    for rid, fn in order:
        trigger.rule = rid
        reading_before = (trigger.ptype, trigger.needs, trigger.subject_sets, len(sentence.found))
        stop = fn(trigger)
        made = sentence.found[reading_before[3] :]
        for p in made:
            sentence.note(rid, "made", p.span.start, p.span.end, p.type.value)
        if stop:
            if not made:
                sentence.note(rid, "vetoed", trigger.hit.start, trigger.hit.end, trigger.ptype.value, trigger.word)
            return
        if (trigger.ptype, trigger.needs, trigger.subject_sets) != reading_before[:3]:
            trigger.rules.append(rid)
            sentence.note(rid, "changed", trigger.hit.start, trigger.hit.end, trigger.ptype.value, trigger.word)


@cache
def _sentence_phases() -> tuple[tuple[SentenceRule, ...], tuple[SentenceRule, ...]]:
    """The sentence rules run before the trigger rules, and after them."""
    return phases("sentence", SENTENCE_RULES, "trigger")


def sentence_practices(
    policy: Policy,
    segment: Segment,
    state: SegmentState,
    start: int,
    end: int,
    notes: LineNotes,
    trace: Trace | None = None,
) -> list[PracticeMention]:
    """The practices one sentence states: the sentence rules declared before the triggers, the trigger rules on
    each trigger word, then the sentence rules after them (practices named without a trigger, the cue gate)."""
    sentence = Sentence(policy, segment, state, start, end, notes)
    sentence.trace = trace
    if (
        not sentence.trigger_hits
        and not sentence.cue
        and not sentence.tracking
        and not sentence.third
        and not sentence.facts.public
    ):
        return []
    before, after = _sentence_phases()
    if not all(fn(sentence) for fn in before):
        return []
    sentence.read()
    order = ordered("trigger", TRIGGER_RULES)
    for hit in sentence.trigger_hits:
        run_trigger(Trigger(sentence, hit), order)
    for fn in after:
        made = len(sentence.found)
        if not fn(sentence):
            return []
        for p in sentence.found[made:]:
            sentence.note(p.rules[-1], "made", p.span.start, p.span.end, p.type.value)
    return sentence.found
