"""How the data of an affirmation relates to the data of a denial along the DPV hierarchy (skos:broader)."""

from __future__ import annotations

from collections.abc import Iterable

from pp_graph.contradict.cues import cues
from pp_graph.vocab.dpv import vocabulary

SAME, NARROWER, BROADER = "same", "narrower", "broader"
_RANK = {SAME: 0, NARROWER: 1, BROADER: 2}


def relation(denied: str, affirmed: str) -> str | None:
    """``same``; ``narrower`` when the affirmed category lies below the denied one ("personal data" denied, "email
    address" affirmed: a direct contradiction); ``broader`` when it lies above; None when they are unrelated (or the
    cues file says policies do not mean the one to contain the other: not_narrower)."""
    if denied == affirmed:
        return SAME
    vocab, exempt = vocabulary(), cues().not_narrower
    if affirmed in vocab.narrower_closure(denied) and (denied, affirmed) not in exempt:
        return NARROWER
    if affirmed in vocab.broader_closure(denied) and (affirmed, denied) not in exempt:
        return BROADER
    return None


def closest(denied: Iterable[str], affirmed: Iterable[str], broader: bool = False) -> tuple[str, str, str] | None:
    """The closest related (denied category, affirmed category, relation), same before narrower before broader;
    ``broader`` pairs only when asked (a denial of a narrow category and an affirmation of a broad one need not
    disagree: "no biometric data" and "we collect personal data")."""
    found = []
    for d in sorted(denied):
        for a in sorted(affirmed):
            rel = relation(d, a)
            if rel is not None and (rel != BROADER or broader):
                found.append((_RANK[rel], d, a, rel))
    if not found:
        return None
    _, d, a, rel = min(found)
    return d, a, rel
