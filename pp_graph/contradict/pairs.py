"""Candidate pairs of one policy: a denial and an affirmation of a practice it covers, on related data, on
different lines, that nothing reconciles."""

from __future__ import annotations

from dataclasses import dataclass

from pp_graph.contradict.cues import cues
from pp_graph.contradict.reconcile import reconciled
from pp_graph.contradict.relation import closest
from pp_graph.contradict.statements import PolicyStatements, Statement
from pp_graph.vocab.dpv import compact, vocabulary

_VERB = {"collect": "collecting", "use": "using", "share": "sharing", "sell": "selling", "retain": "retaining"}


@dataclass(frozen=True, slots=True)
class Contradiction:
    denial: Statement
    affirmation: Statement
    practice: str  # the affirmed practice
    data: str  # the affirmed data category (an IRI)
    denied_data: str
    relation: str  # how the affirmed category relates to the denied one: same | narrower | broader
    reason: str

    @property
    def statements(self) -> tuple[Statement, Statement]:
        """Both statements in the order of the text."""
        a, b = self.denial, self.affirmation
        return (a, b) if (a.start, a.trigger) <= (b.start, b.trigger) else (b, a)


def _reason(denial: Statement, affirmation: Statement, denied: str, affirmed: str, rel: str) -> str:
    vocab = vocabulary()
    said = f"denies {_VERB[denial.practice]} {vocab.label(denied)} ({compact(denied)})"
    if rel == "same":
        return f"{said} but states {_VERB[affirmation.practice]} it"
    return (
        f"{said} but states {_VERB[affirmation.practice]} {vocab.label(affirmed)} ({compact(affirmed)}), "
        f"a {rel} category in DPV"
    )


def contradiction(denial: Statement, affirmation: Statement, broader: bool = False) -> Contradiction | None:
    """The pair as a contradiction, or None: not a covered practice, same line, unrelated data, or reconciled."""
    if not denial.negated or affirmation.negated or denial.start == affirmation.start:
        return None  # one line that denies and affirms states its own exception ("we do not sell it, but ...")
    if affirmation.practice not in denial.covers:
        return None
    rules = cues()
    stated = affirmation.data
    if affirmation.practice not in rules.generic_practices:
        stated -= rules.generic_data  # "personal data" both times is too vague to tell collecting it apart
    found = closest(denial.data, stated, broader)
    if found is None or reconciled(denial, affirmation):
        return None
    denied, affirmed, rel = found
    return Contradiction(
        denial, affirmation, affirmation.practice, affirmed, denied, rel, _reason(denial, affirmation, *found)
    )


def contradictions(policy: PolicyStatements, broader: bool = False) -> list[Contradiction]:
    """Every contradiction of one policy, one per pair of lines (the first found), in the order of the text."""
    out: dict[tuple[int, int], Contradiction] = {}
    for d in policy.statements:
        for a in policy.statements:
            key = (d.start, a.start)
            if key not in out and (c := contradiction(d, a, broader)) is not None:
                out[key] = c
    return sorted(out.values(), key=lambda c: (c.statements[0].start, c.statements[1].start))
