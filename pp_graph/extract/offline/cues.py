"""The cue rule of the sentence scope: the gate scores each practice a sentence made by the cue rules of its
category (see gate.py) and drops those that score too low.
"""

from __future__ import annotations

from pp_graph.extract.offline.gate import features, passes
from pp_graph.extract.offline.reading import Sentence, sentence_rule


@sentence_rule("gate.cues")
def cue_gate(sentence: Sentence) -> bool:
    """The gate over a sentence's practices: the cue rules' score for the practice's category (see gate.py)."""
    if sentence.found:
        feats = features(sentence.state, sentence.start, sentence.end)
        note = sentence.note if sentence.trace is not None else None
        # (the same objects are kept: notes.held is compared by identity)
        sentence.found = [p for p in sentence.found if passes(p, sentence.wording, feats, note, at=sentence.start)]
    return True
