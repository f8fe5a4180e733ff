"""The promotion rules of the trigger scope: they change a trigger's reading (its practice type, subject,
what it needs) and return False, so the rules after them read the changed trigger.
"""

from __future__ import annotations

import bisect
import re

from pp_graph.extract.offline.facts import (
    ends_before,
    site_subject,
    within_words,
)
from pp_graph.extract.offline.patterns.collection import (
    AGENT_MODIFIERS,
    BY_AGENT,
    LET_US,
    ON_OUR_BEHALF,
    WE_AND_AGENTS,
)
from pp_graph.extract.offline.patterns.retention import (
    DISPOSE,
)
from pp_graph.extract.offline.patterns.sentences import (
    AUX_ONLY,
    INFINITIVE,
    RELATIVE,
    THIRD_NOUN,
)
from pp_graph.extract.offline.reading import (
    Trigger,
    trigger_rule,
)
from pp_graph.model import (
    PartyKind,
    PracticeType,
)

# "protect your personal information", "safeguard the data": protecting the data itself
_PROTECT_DATA = re.compile(
    r"\s+(?:(?:the|all|any)\s+)?(?:your|this|such|that|the|our users'?|customers'?|visitors'?)\s+"
    r"(?:\w+\s+)?"
    r"(?:personal\s+|personally\s+identifiable\s+|financial\s+)?(?:information|data)\b",
    re.I,
)


@trigger_rule("promotion.third-party-before")
def third_party_before(trigger: Trigger) -> bool:
    sentence = trigger.sentence
    if (
        trigger.kind == "collect"
        and trigger.subject is None
        and (
            trigger.implicit_third
            or (
                bool(sentence.third)
                and sentence.third[0].span.start < trigger.hit.start
                and not sentence.first_own < trigger.hit.start
            )
        )
    ):
        trigger.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("promotion.collector-before-infinitive")
def collector_before_infinitive(trigger: Trigger) -> bool:
    # "we work with ad networks to collect…", "an advertiser may place a cookie in order to collect…",
    # "ad companies, which may collect…": the nearest party before the verb does the collecting.
    sentence, hit, state, text = trigger.sentence, trigger.hit, trigger.sentence.state, trigger.sentence.text
    if not (
        trigger.kind == "collect"
        and trigger.subject is None
        and (INFINITIVE.search(trigger.before) or RELATIVE.search(trigger.before))
    ):
        return False
    # (of the parties only the last one counts: parties are sorted by start)
    i = bisect.bisect_left(state.party_starts, hit.start) - 1
    while i >= 0 and state.parties[i].span.text.lower() in ("your", "our", "their", "its"):
        i -= 1
    near = [
        (p.span.start, p.kind == PartyKind.THIRD_PARTY)
        for p in state.parties[i : i + 1]
        if i >= 0 and sentence.start <= p.span.start
    ]
    # (and of the nouns the last one: tried from the sentence's candidates back from the trigger)
    noun_starts = sentence.noun_starts
    k = bisect.bisect_left(noun_starts, hit.start)
    while k and not THIRD_NOUN.match(text, noun_starts[k - 1], hit.start):
        k -= 1
    near += [(sentence.start + noun_starts[k - 1], True)] if k else []
    if near:
        at, is_third = max(near)
        if (
            is_third
            and (
                RELATIVE.search(trigger.before) or not re.search(r"\bby\s+(?:\w+\s+){0,3}$", text[sentence.start : at])
            )
            and not ON_OUR_BEHALF.match(text[hit.end : sentence.end])
        ):
            trigger.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("promotion.reader-lets-us")
def reader_lets_us(trigger: Trigger) -> bool:
    sentence, subject, text = trigger.sentence, trigger.subject, trigger.sentence.text
    if (
        trigger.kind == "collect"
        and subject is not None
        and subject.kind == PartyKind.USER
        and LET_US.match(text, subject.span.end, trigger.hit.start)
        and re.search(r"\bus\b", text[subject.span.end : trigger.hit.start], re.I)
    ):
        trigger.subject = site_subject(text, sentence.start)  # "you authorize us to obtain…": the site collects
    return False


@trigger_rule("promotion.third-party-subject")
def third_party_subject(trigger: Trigger) -> bool:
    sentence, subject = trigger.sentence, trigger.subject
    if (
        trigger.kind == "collect"
        and subject is not None
        and subject.kind == PartyKind.THIRD_PARTY
        and not ends_before(WE_AND_AGENTS, sentence.text, sentence.start, subject.span.end)
    ):
        trigger.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("promotion.collected-by-agent")
def collected_by_agent(trigger: Trigger) -> bool:
    # "may be collected and used by others / by advertisers / by a secure third-party processor"
    sentence, text = trigger.sentence, trigger.sentence.text
    by = (
        BY_AGENT.match(trigger.after)
        if trigger.kind == "collect" and trigger.word.endswith("ed") and trigger.word != "accessed"
        else None
    )
    if by and (
        by.group(1)
        or any(
            p.kind == PartyKind.THIRD_PARTY
            and AGENT_MODIFIERS.fullmatch(text, trigger.hit.end + by.end(), p.span.start)
            for p in within_words(sentence.state.parties, text, trigger.hit.end + by.end())
        )
    ):
        trigger.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("promotion.use-named-third-party")
def use_named_third_party(trigger: Trigger) -> bool:
    # "we use Google Analytics / ad networks"
    if not (trigger.kind == "collect" and trigger.word.startswith(("us", "utili"))):
        return False
    sentence, state, hit = trigger.sentence, trigger.sentence.state, trigger.hit
    obj = state.parties[
        bisect.bisect_left(state.party_starts, hit.end) : bisect.bisect_left(
            state.party_starts, min(sentence.end, hit.end + 40)
        )
    ]
    if obj and obj[0].kind == PartyKind.THIRD_PARTY and len(sentence.text[hit.end : obj[0].span.start].split()) <= 3:
        trigger.ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
    return False


@trigger_rule("promotion.user-in-relative-clause")
def user_in_relative_clause(trigger: Trigger) -> bool:
    # "information that you submit is discarded once…", "email you delete can remain in backups…":
    # the user is in a relative clause (what remains or persists is the data)
    subject = trigger.subject
    if (
        trigger.kind == "retain"
        and (trigger.passive or trigger.word.startswith(("remain", "persist")))
        and subject is not None
        and subject.kind == PartyKind.USER
        and not AUX_ONLY.fullmatch(trigger.sentence.text[subject.span.end : trigger.hit.start])
    ):
        trigger.subject = None
    return False


@trigger_rule("promotion.protect-your-data")
def protect_your_data(trigger: Trigger) -> bool:
    # "we work hard to protect your personal information": protecting the data needs no detail
    if (
        trigger.kind == "secure"
        and trigger.needs == "detail"
        and not trigger.sec_detail
        and trigger.word.startswith(("protect", "safeguard"))
        and _PROTECT_DATA.match(trigger.after)
        and "privacy" not in trigger.after[:30].lower()
    ):
        trigger.needs = ""
    return False


@trigger_rule("promotion.own-keeping")
def own_keeping(trigger: Trigger) -> bool:
    # The site itself keeping/deleting named data ("we do not store card numbers", "we delete…"): retention
    # without a period. (passive: "log files are deleted"; a cookie's own expiry is not the site's retention)
    sentence, subject = trigger.sentence, trigger.subject
    if (
        trigger.kind == "retain"
        and sentence.has_data
        and (
            (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
            or (subject is None and trigger.passive and not trigger.implicit_third and not sentence.facts.tracker)
        )
        and (trigger.word.startswith(DISPOSE) or trigger.negated() or trigger.truncated)
        and not trigger.timed
    ):
        trigger.timed = True
        trigger.rules.append(trigger.rule)
        trigger.sentence.note(trigger.rule, "changed", trigger.hit.start, trigger.hit.end, trigger.ptype.value, "timed")
    return False
