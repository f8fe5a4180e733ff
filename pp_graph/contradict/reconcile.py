"""What reconciles a denial with an affirmation that would otherwise contradict it: an exception or condition in
either sentence, de-identified data, a purpose the denial is limited to, recipients the denial does not cover."""

from __future__ import annotations

from pp_graph.contradict.cues import Cues, cues
from pp_graph.contradict.statements import Statement
from pp_graph.vocab.dpv import vocabulary

_SIDES = {"denial": (True,), "affirmation": (False,), "either": (True, False)}


def cue_reason(denial: Statement, affirmation: Statement, rules: Cues | None = None) -> str | None:
    """The reason of the first cue found in the sentence it is looked for in; None when no cue matches."""
    rules = rules or cues()
    for cue in rules.cues:
        for negated in _SIDES[cue.side]:
            if cue.matches((denial if negated else affirmation).sentence):
                return cue.reason
    return None


def purpose_reason(denial: Statement, affirmation: Statement, rules: Cues | None = None) -> str | None:
    """A denial limited to purposes ("for advertising") does not deny the practice for other purposes."""
    rules = rules or cues()
    scope = denial.purposes - rules.practice_purposes
    if not scope:
        return None
    vocab = vocabulary()
    related = {r for p in scope for r in vocab.broader_closure(p) | vocab.narrower_closure(p)}
    if related & affirmation.purposes:
        return None
    return "the denial is limited to a purpose the affirmation does not state"


def party_reason(denial: Statement, affirmation: Statement, rules: Cues | None = None) -> str | None:
    """Different actors: another party collects, or the data goes to recipients the denial does not name."""
    rules = rules or cues()
    if denial.practice in ("share", "sell") or affirmation.practice in ("share", "sell"):
        # A denial in the passive ("is never sold") names no sharer; an affirmation must name the party itself.
        if "first_party" not in affirmation.sharers or (denial.sharers and "first_party" not in denial.sharers):
            return "another party (the user, a third party) is the one sharing"
        named = denial.receivers - {"unknown"}
        if named and not named & affirmation.receivers:
            return "the denial names other recipients"
        if not named and affirmation.practice == "share" and affirmation.receivers <= rules.exempt_receivers:
            return "the affirmation shares only with processors or authorities, which the denial does not cover"
        return None
    if denial.practice != "retain" and not (denial.collectors and affirmation.collectors):
        return "a statement names no party collecting the data"
    if denial.third_party_collection != affirmation.third_party_collection:
        return "one statement is about the party itself, the other about third parties"
    if denial.third_party_collection:
        known = (denial.collectors - {"unknown"}, affirmation.collectors - {"unknown"})
        if all(known) and not known[0] & known[1]:
            return "the statements are about different third parties"
    return None


def reconciled(denial: Statement, affirmation: Statement) -> str | None:
    """Why the pair does not contradict (the first reason found), or None."""
    rules = cues()
    for check in (party_reason, purpose_reason, cue_reason):
        reason = check(denial, affirmation, rules)
        if reason:
            return reason
    return None
