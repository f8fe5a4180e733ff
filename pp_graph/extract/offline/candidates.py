"""The candidate rules: those that make practices, at a trigger word (candidate.trigger and the related
practices some triggers add) and in a sentence without one (tracking, security cues, third parties' practices,
data handed to a recipient).
"""

from __future__ import annotations

import bisect
import re

from pp_graph.extract.offline.facts import (
    SegmentState,
    is_negated,
    joint_subject,
    within_words,
)
from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns.collection import (
    AGENT_MODIFIERS,
    BY_OTHER,
    DEFINED_AS,
    HELD_BY,
    HOLD,
    RECORD_OF,
)
from pp_graph.extract.offline.patterns.practices import GENERIC_DATA
from pp_graph.extract.offline.patterns.security import (
    SECURE_CUE,
)
from pp_graph.extract.offline.patterns.sentences import (
    OUR_SUBJECT,
    THIRD_SUBJECT,
)
from pp_graph.extract.offline.patterns.sharing import (
    AWARE,
    GIVE,
    GIVE_WITH,
    HAVE_ACCESS,
    LET,
    LET_ACT,
    POSTED_BY_THIRD,
    TO_US,
    WITH_DATA,
)
from pp_graph.extract.offline.patterns.tracking import (
    COOKIE_SETTING,
    JOINT_ACT,
    JOINT_SUBJECT,
    THIRD_TRACKER,
    TRACK_VERB,
)
from pp_graph.extract.offline.reading import (
    Sentence,
    Trigger,
    sentence_rule,
    trigger_rule,
)
from pp_graph.model import (
    PartyKind,
    PracticeMention,
    PracticeType,
    Span,
)


@trigger_rule("candidate.shared-with-us")
def shared_with_us(trigger: Trigger) -> bool:
    # "information you share with us", "disclosed to the Company": data coming to the site, which OPP-115 counts
    # as the site's collection when the data is named. Only giving verbs count: data the reader transmits, sends
    # or forwards to the site is transport wording, not collection, and is dropped here on purpose.
    sentence = trigger.sentence
    if not (trigger.kind == "share" and TO_US.match(sentence.text[trigger.hit.end : sentence.end])):
        return False
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    if (
        sentence.has_data
        and fp not in sentence.seen
        and not sentence.own_choice
        and trigger.word.startswith(("shar", "provid", "disclos", "giv"))
    ):
        trigger.add(fp, trigger.negated())
    return True


@trigger_rule("candidate.held-by-host")
def held_by_host(trigger: Trigger) -> bool:
    # "we store your data with a cloud provider", "it is kept by our hosting provider"
    sentence, subject, text = trigger.sentence, trigger.subject, trigger.sentence.text
    host_share = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    if (
        trigger.kind == "retain"
        and host_share not in sentence.seen
        and sentence.has_data
        and trigger.word.startswith(HOLD)
        and (trigger.passive or (subject is not None and subject.kind == PartyKind.FIRST_PARTY))
        and (by_host := HELD_BY.match(text, trigger.hit.end, sentence.end))
        and any(
            AGENT_MODIFIERS.fullmatch(text, by_host.end(), p.span.start)
            for p in within_words(sentence.third, text, by_host.end())
        )
    ):
        trigger.add(host_share, trigger.negated())
    return False


@trigger_rule("candidate.held-named-data")
def held_named_data(trigger: Trigger) -> bool:
    # "we store the date of each request and your IP address", "your card number is kept": the site keeping
    # named data holds it, which OPP-115 reads as its collection as well
    sentence, hit, subject = trigger.sentence, trigger.hit, trigger.subject
    facts, text = sentence.facts, sentence.text
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    passive = trigger.kind == "retain" and trigger.passive
    if (
        trigger.kind == "retain"
        and fp not in sentence.seen
        and trigger.word.startswith(HOLD)
        and not trigger.implicit_third
        and (
            (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
            or (subject is None and passive and not facts.tracker)
        )
        and not sentence.details
        and not trigger.timed
        and not facts.kept_how
        and not sentence.abroad
        and not sentence.cue
        and not sentence.secure_here
        and not (
            passive
            and (BY_OTHER.match(trigger.after) or (bool(sentence.third) and sentence.third[0].span.start < hit.start))
        )
        and not facts.public
        and not facts.user_choice
        and not facts.user_request
        and not trigger.negated()
        and (
            (not passive and RECORD_OF.match(trigger.after))  # "we keep a record of that correspondence"
            or (
                (kept := _held_object(sentence.state, sentence.start, sentence.end, hit, passive)) is not None
                and kept.entry.value[0] != GENERIC_DATA
                and not (passive and BY_OTHER.search(text, kept.end, hit.start))
            )
        )
        and not (
            # "we share information we store (such as…)": a reference, unless it is defined ("the
            # information we store is your name…")
            sentence.state.referenced_by(text, hit.start) and not DEFINED_AS.match(trigger.after)
        )
    ):
        sentence.notes.held.append(trigger.add(fp, False))
    return False


@trigger_rule("candidate.joint-subject")
def joint_subject_collects(trigger: Trigger) -> bool:
    # "we and our service providers may collect…": the site collects too
    sentence, fp = trigger.sentence, PracticeType.FIRST_PARTY_COLLECTION_USE
    if (
        trigger.ptype == PracticeType.THIRD_PARTY_COLLECTION_USE
        and fp not in sentence.seen
        and joint_subject(sentence.text, sentence.state, sentence.start, trigger.hit)
    ):
        trigger.add(fp, trigger.negated())
    return False


@trigger_rule("candidate.trigger")
def trigger_practice(trigger: Trigger) -> bool:
    trigger.add(trigger.ptype, trigger.negated())
    return True


def _held_object(state: SegmentState, start: int, end: int, hit: Hit, passive: bool) -> Hit | None:
    """The data a keeping verb acts on: its object (the first data named just after an active verb) or,
    for a passive, the nearest data named before it in the sentence."""
    if passive:
        i = bisect.bisect_left(state.data_starts, hit.start) - 1
        return state.data[i] if i >= 0 and state.data[i].start >= start else None
    i = bisect.bisect_left(state.data_starts, hit.end)
    return state.data[i] if i < len(state.data) and state.data[i].start < min(end, hit.end + 40) else None


@sentence_rule("candidate.own-tracking", "candidate.security-cue")
def cue_paths(sentence: Sentence) -> bool:
    """Practices named without a trigger word, after the trigger loop: the site's own tracking technologies
    (first-party collection) and security measures found by the sentence's security cue (reading.py)."""
    text, start, third = sentence.text, sentence.start, sentence.third
    tracking, cue, has_data = sentence.tracking, sentence.cue, sentence.has_data
    choice, seen, found = sentence.own_choice, sentence.seen, sentence.found
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    if (
        tracking
        and fp not in seen
        and PracticeType.THIRD_PARTY_COLLECTION_USE not in seen
        and not choice
        and not THIRD_SUBJECT.search(text, start, start + tracking.start())
        and not third
    ):
        seen.add(fp)
        span = Span.at(text, start + tracking.start(), start + tracking.end())
        found.append(
            PracticeMention(
                span, fp, is_negated(text, start, start + tracking.start()), rules=("candidate.own-tracking",)
            )
        )
    sec = PracticeType.DATA_SECURITY_PROTECTION
    if cue and sec not in seen and (has_data or cue.re is not SECURE_CUE or cue.group("strong")):
        # OPP-115's security measures beyond encryption: access limits, confidentiality duties, seals, breaches.
        found.append(
            PracticeMention(
                Span.at(text, start + cue.start(), start + cue.end()),
                sec,
                is_negated(text, start, start + cue.start()),
                rules=("candidate.security-cue",),
            )
        )
    return True


@sentence_rule(
    "candidate.public-disclosure",
    "candidate.third-party-access",
    "candidate.third-party-tracks",
    "candidate.third-party-tracker",
    "candidate.joint-tracking",
)
def third_party_paths(sentence: Sentence) -> bool:
    """Third-party practices phrased without a sharing trigger: tracking by a named third party, data handed
    to a named recipient with a general verb, and a third party let to see or collect data."""
    text, start, third, facts = sentence.text, sentence.start, sentence.third, sentence.facts
    choice, seen, found = sentence.choice, sentence.seen, sentence.found
    wording = facts.sentence
    sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    pub = facts.public or POSTED_BY_THIRD.search(wording)
    if pub and sh not in seen and (not choice or AWARE.search(wording)):
        seen.add(sh)
        span = Span.at(text, start + pub.start(), start + pub.end())
        found.append(
            PracticeMention(
                span, sh, is_negated(text, start, start + pub.start()), rules=("candidate.public-disclosure",)
            )
        )
    if choice or not third:
        return True
    acc = HAVE_ACCESS.search(wording)
    if acc and sh not in seen and any(p.span.start < start + acc.start() for p in third):
        seen.add(sh)  # "our service providers have access to your personal information"
        span = Span.at(text, start + acc.start(), start + acc.end())
        found.append(
            PracticeMention(
                span, sh, is_negated(text, start, start + acc.start()), rules=("candidate.third-party-access",)
            )
        )
    tc = PracticeType.THIRD_PARTY_COLLECTION_USE
    if tc not in seen:
        for m in TRACK_VERB.finditer(wording):
            verb = start + m.start()
            before = text[start:verb]
            if any(p.span.end <= verb and len(text[p.span.end : verb].split()) <= 4 for p in third) or (
                THIRD_SUBJECT.search(before) and not OUR_SUBJECT.search(before)
            ):
                seen.add(tc)
                span = Span.at(text, verb, start + m.end())
                found.append(
                    PracticeMention(span, tc, is_negated(text, start, verb), rules=("candidate.third-party-tracks",))
                )
                break
    for tt in THIRD_TRACKER.finditer(wording) if tc not in seen else ():
        if COOKIE_SETTING.search(wording, max(0, tt.start() - 40), tt.start()):
            continue  # "set your browser to accept third-party cookies": the reader's setting
        seen.add(tc)  # "the site contains third-party cookies": a third party collects on the site
        span = Span.at(text, start + tt.start(), start + tt.end())
        found.append(
            PracticeMention(
                span, tc, is_negated(text, start, start + tt.start()), rules=("candidate.third-party-tracker",)
            )
        )
        break
    joint = JOINT_SUBJECT.search(wording)
    if tc not in seen and joint and JOINT_ACT.search(wording, joint.end()):
        seen.add(tc)  # "we and our advertising partners may use cookies…": the partners collect too
        span = Span.at(text, start + joint.start(), start + joint.end())
        found.append(
            PracticeMention(
                span, tc, is_negated(text, start, start + joint.start()), rules=("candidate.joint-tracking",)
            )
        )
    return True


@sentence_rule("candidate.give-to-recipient")
def give_to_recipient(sentence: Sentence) -> bool:
    """Data handed to a named recipient with a general verb ("we may provide advertisers with…"), when nothing
    else in the sentence shared data and the reader makes no choice."""
    text, state, start, end = sentence.text, sentence.state, sentence.start, sentence.end
    third, seen, found = sentence.third, sentence.seen, sentence.found
    sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    if sentence.choice or not third or sh in seen or not sentence.has_data:
        return True
    for p in third:
        before = text[max(start, p.span.start - 80) : p.span.start]
        lead = re.sub(r"(?:(?:the|our|other|any|such|certain|selected|trusted|these|those|some|its)\s+)+$", "", before)
        give = GIVE.search(lead)
        if (
            give is not None
            and not re.search(r"\b(?:it|them)\b", give.group(0), re.I)
            and not any(
                p.span.start - len(before) + give.start() < d.start and d.end <= p.span.start for d in state.data
            )
        ):
            give = None  # "we provide our services to advertisers": no personal data handed over
        if give is None and (with_ := GIVE_WITH.search(lead)):
            after_p = text[p.span.end : end]
            if any(
                p.span.end < d.start < end and WITH_DATA.fullmatch(text[p.span.end : d.start]) for d in state.data
            ) and not re.match(r"\s+with\s+(?:you|us)\b", after_p, re.I):
                give = with_  # "we may provide advertisers with aggregate information about our users"
        if give is None and LET_ACT.match(text[p.span.end : end]):
            give = LET.search(lead)  # "allow third parties to see your profile"
        if give is None:
            continue
        given_at = p.span.start - len(before) + give.start()
        seen.add(sh)
        span = Span.at(text, given_at, given_at + len(give.group(0).rstrip()))
        found.append(
            PracticeMention(span, sh, is_negated(text, start, given_at), rules=("candidate.give-to-recipient",))
        )
        return True
    return True
