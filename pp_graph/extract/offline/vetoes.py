"""The veto rules of the sentence and trigger scopes: a sentence that states no practice, a trigger word that
is not one (a noun, a reference, the reader's act, another statement…). A trigger veto returns True to stop
reading the trigger; a sentence veto returns False to end the sentence.
"""

from __future__ import annotations

import bisect
import re

from pp_graph.extract.offline.facts import (
    LOOKAHEAD_REACH,
    SegmentState,
    SentenceFacts,
    ends_before,
    within_words,
)
from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns.collection import (
    CHOICE_BEFORE,
    CONSENT_OBJECT,
    IF_CLAUSE,
    RECEIVE_NOT_DATA,
    REQUEST_VERB_AFTER,
    THEN_SHARE,
    TOOL_OBJECT,
)
from pp_graph.extract.offline.patterns.practices import DETAIL_OF
from pp_graph.extract.offline.patterns.retention import (
    BROWSER_CLOSE,
    HIRE,
    HIRED,
    HIRED_PARTY,
    HIRER,
    KEEP_DOING,
    KEEP_STATE,
    KEPT_PRONOUN,
    OFF_LIST,
    ON_DEVICE,
    ONTO_DEVICE,
    PRACTICE_LIST,
    SECURE_PLACE,
    VERB_LIST,
)
from pp_graph.extract.offline.patterns.scope import AUDIENCE, IDENTIFIES, SCOPE
from pp_graph.extract.offline.patterns.security import (
    DATA_OBJECT,
    FOR_RIGHTS,
    NOT_DATA_PROTECTION,
    NOT_DATA_THREAT,
    PROTECT_PERSON,
    PURPOSE_TO,
    SECURE_AIM,
    SECURE_SERVICE_AFTER,
    SECURE_SERVICE_BEFORE,
    SUBJECT_TO,
)
from pp_graph.extract.offline.patterns.sentences import (
    AMBIGUOUS,
    META,
    NOUN_BEFORE,
    PASSIVE,
    PURPOSE_REF,
)
from pp_graph.extract.offline.patterns.sharing import (
    AUTHORIZE,
    BY_PEOPLE,
    ENGAGEMENT_AFTER,
    ENGAGEMENT_BEFORE,
    FEATURE_BEFORE,
    SHARE_TOOL,
    THREAT_LIST,
    TO_PARTY,
    TO_RECIPIENT,
    YOU_AND_SHARE,
)
from pp_graph.extract.offline.patterns.tracking import (
    IN_TRACKER,
    TRACKER,
)
from pp_graph.extract.offline.reading import (
    Sentence,
    Trigger,
    sentence_rule,
    trigger_rule,
)
from pp_graph.model import (
    AttributeKind,
    PartyKind,
    PartyMention,
)


@sentence_rule("veto.sentence.scope", "veto.sentence.audience")
def sentence_scope(sentence: Sentence) -> bool:
    """The sentence-scope vetoes: about the policy itself, other sites or definitions; about children or state
    residents (only a retention statement with its period is kept). False: the sentence states no practice."""
    wording = sentence.wording
    identifies = [(sentence.start + m.start(), sentence.start + m.end()) for m in IDENTIFIES.finditer(wording)]
    scope = SCOPE.search(IDENTIFIES.sub(" ", wording) if identifies else wording)
    if scope:
        sentence.note("veto.sentence.scope", "vetoed", sentence.start, sentence.end, "", scope.group(0))
        return False
    sentence.trigger_hits = [hit for hit in sentence.trigger_hits if not any(a <= hit.start < b for a, b in identifies)]
    audience = AUDIENCE.search(wording)
    if audience:
        if not any(
            a.kind == AttributeKind.RETENTION_PERIOD and sentence.start <= a.span.start < sentence.end
            for a in sentence.state.attributes
        ):
            sentence.note("veto.sentence.audience", "vetoed", sentence.start, sentence.end, "", audience.group(0))
            return False
        sentence.note(
            "veto.sentence.audience", "changed", sentence.start, sentence.end, "", "retention with its period only"
        )
        sentence.trigger_hits = [hit for hit in sentence.trigger_hits if hit.entry.value[0] == "retain"]
        sentence.cue = sentence.tracking = None
    return True


@trigger_rule("veto.noun-or-other-verb")
def noun_or_other_verb(trigger: Trigger) -> bool:
    sentence = trigger.sentence
    return _noun_or_other_verb_at(
        sentence.text,
        trigger.hit,
        sentence.start,
        trigger.kind,
        trigger.word,
        trigger.before,
        trigger.after,
        trigger.prev,
    )


@trigger_rule("veto.request-noun")
def request_noun(trigger: Trigger) -> bool:
    # "valid requests", "rights request": the reader's request, a noun
    return (
        trigger.kind == "collect"
        and trigger.word in ("request", "requests")
        and not REQUEST_VERB_AFTER.search(trigger.before)
        and not any(0 <= trigger.hit.start - p.span.end <= 1 for p in trigger.sentence.state.parties)
    )


@trigger_rule("veto.receive-not-data")
def receive_not_data(trigger: Trigger) -> bool:
    # "if we receive a court order / your request": not data coming to the site
    return trigger.word in ("receive", "receives", "received", "get", "gets") and bool(
        RECEIVE_NOT_DATA.match(trigger.after)
    )


@trigger_rule("veto.tell-us-instruction")
def tell_us_instruction(trigger: Trigger) -> bool:
    # "when you tell us to", "if you tell us that you no longer want…": an instruction, not data given
    return trigger.word.endswith("tell us") and bool(
        re.match(r"\W*(?:to|not to|so|(?:that\s+)?you\s+(?:no\s+longer|do\s+not|don['’]t))\b", trigger.after, re.I)
    )


@trigger_rule("veto.accessed-by-people")
def accessed_by_people(trigger: Trigger) -> bool:
    # "may be accessed by others / by many people": the public, not the site's collection
    return trigger.word == "accessed" and bool(BY_PEOPLE.match(trigger.after))


@trigger_rule("veto.another-statement")
def another_statement(trigger: Trigger) -> bool:
    sentence = trigger.sentence
    choice = sentence.own_choice if trigger.kind == "collect" else sentence.choice
    return _another_statement_at(
        sentence.text,
        trigger.hit,
        sentence.facts,
        trigger.kind,
        trigger.word,
        trigger.before,
        trigger.after,
        choice,
        sentence.abroad,
    )


@trigger_rule("veto.reader-shares")
def reader_shares(trigger: Trigger) -> bool:
    sentence, subject = trigger.sentence, trigger.subject
    if (
        trigger.kind == "share"
        and subject is not None
        and subject.kind == PartyKind.USER
        and not ends_before(PASSIVE, sentence.text, sentence.start, trigger.hit.start)
        and not AUTHORIZE.search(sentence.text[subject.span.end : trigger.hit.start])
    ) or (trigger.kind == "share" and YOU_AND_SHARE.search(trigger.before)):
        # "when you share content on a social network", "the app lets you organize, view, and share photos"
        sentence.notes.user_act = True
        return True
    return False


@trigger_rule("veto.advice-to-reader")
def advice_to_reader(trigger: Trigger) -> bool:
    # "do not share your password", "do not use your own name in your username": advice to the reader, whatever
    # the verb (the site states no practice in an imperative)
    sentence = trigger.sentence
    return bool(
        re.match(
            r"\W*(?:please\s+)?(?:do not|don't|never)\s*$", sentence.text[sentence.start : trigger.hit.start], re.I
        )
    )


@trigger_rule("veto.required-to-provide-disclosure")
def required_to_provide(trigger: Trigger) -> bool:
    # "we may be required to provide it to the authorities": a disclosure, not collection
    sentence, subject = trigger.sentence, trigger.subject
    return trigger.hit.entry.phrase.lower() == "required to provide" and (
        (subject is not None and subject.kind != PartyKind.USER)
        or any(
            p.span.start > trigger.hit.end and TO_PARTY.search(sentence.text, trigger.hit.end, p.span.start)
            for p in sentence.third
        )
    )


@trigger_rule("veto.reader-acts")
def reader_acts(trigger: Trigger) -> bool:
    # "you can access / request / use…" is the user's action ("you are asked to" is not)
    subject, phrase = trigger.subject, trigger.hit.entry.phrase.lower()
    return (
        trigger.kind == "collect"
        and subject is not None
        and subject.kind == PartyKind.USER
        and "you" not in phrase
        and not phrase.startswith(("asked", "required"))
    )


@trigger_rule("veto.agent-needed")
def agent_needed(trigger: Trigger) -> bool:
    return (
        trigger.needs == "agent"
        and (trigger.subject is None or trigger.subject.kind == PartyKind.USER)
        and not trigger.passive
        and not trigger.implicit_third
    )


@trigger_rule("veto.reduced-relative")
def reduced_relative(trigger: Trigger) -> bool:
    # "we may disclose information collected through…": a reduced relative clause, a reference
    state, text = trigger.sentence.state, trigger.sentence.text
    return (
        trigger.kind == "collect"
        and trigger.word.endswith("ed")
        and not trigger.passive
        and any(
            not text[d.end : trigger.hit.start].strip()
            for d in state.data_ending(trigger.hit.start - 2, trigger.hit.start)
        )
    )


@trigger_rule("veto.participle-reference")
def participle_reference(trigger: Trigger) -> bool:
    # "information collected through the site…": a reference, not a statement
    return (
        trigger.kind == "collect"
        and trigger.word.endswith("ed")
        and trigger.subject is None
        and not trigger.passive
        and not trigger.implicit_third
        and not trigger.sentence.segment.text.rstrip().endswith(":")
    )


@trigger_rule("veto.use-of-tool")
def use_of_tool(trigger: Trigger) -> bool:
    # "we use encryption to protect…": a tool, not data use
    if not (trigger.kind == "collect" and trigger.word.startswith(("us", "utili"))):
        return False
    sentence, state, text = trigger.sentence, trigger.sentence.state, trigger.sentence.text
    i = bisect.bisect_left(state.data_starts, trigger.hit.end)
    window = (
        text[trigger.hit.end : state.data[i].start]
        if i < len(state.data) and state.data[i].start < sentence.end
        else trigger.after
    )
    return bool(TOOL_OBJECT.match(window))


@trigger_rule("veto.reference")
def reference(trigger: Trigger) -> bool:
    # "how we collect…", "the information we collect is…": a reference, not a statement
    sentence = trigger.sentence
    return trigger.kind in ("collect", "share") and bool(
        META.search(trigger.before)
        or (
            sentence.state.referenced_by(sentence.text, trigger.hit.start)
            and not sentence.segment.text.rstrip().endswith(":")
        )
    )


@trigger_rule("veto.purpose-reference")
def purpose_reference(trigger: Trigger) -> bool:
    # "for the purposes for which it was collected": a reference, not a statement
    return trigger.kind == "collect" and bool(PURPOSE_REF.search(trigger.before))


@trigger_rule("veto.others-keep")
def others_keep(trigger: Trigger) -> bool:
    # a third party's or the user's keeping/deleting is not the site's retention
    sentence, subject = trigger.sentence, trigger.subject
    return trigger.kind == "retain" and (
        trigger.implicit_third
        or (
            subject is not None
            and subject.kind != PartyKind.FIRST_PARTY
            and not any(
                p.kind == PartyKind.FIRST_PARTY
                and sentence.start <= p.span.start < trigger.hit.start
                and p.span.text.lower() not in ("our", "its")  # "our ad servers": an owner, not an actor
                for p in sentence.state.parties
            )
        )
    )


@trigger_rule("veto.verb-list")
def verb_list(trigger: Trigger) -> bool:
    # "we collect, retain and use…": retention named in a list of verbs, not a statement
    sentence, hit, text = trigger.sentence, trigger.hit, trigger.sentence.text
    return (
        trigger.kind == "retain"
        and not trigger.period_here
        and bool(
            VERB_LIST.search(
                text[max(sentence.start, hit.start - 40) : hit.start]
                + "#"
                + text[hit.end : min(sentence.end, hit.end + 40)]
            )
        )
    )


@trigger_rule("veto.secure-place")
def secure_place(trigger: Trigger) -> bool:
    # "information is retained in secure facilities": where data is kept safe, a security measure
    return (
        trigger.kind == "retain"
        and not trigger.period_here
        and not trigger.timed
        and bool(SECURE_PLACE.match(trigger.after))
    )


@trigger_rule("veto.reader-right-or-choice")
def reader_right_or_choice(trigger: Trigger) -> bool:
    # "you may ask us to delete…", "you may opt out of…": a user right or choice
    facts = trigger.sentence.facts
    return trigger.kind == "retain" and (
        (
            facts.user_choice
            and not ((trigger.period_here or trigger.truncated) and not facts.user_choice_before(trigger.hit.start))
        )
        or (trigger.word.startswith(("delet", "eras", "remov")) and facts.user_request and not trigger.timed)
    )


@trigger_rule("veto.retained-reference")
def retained_reference(trigger: Trigger) -> bool:
    # "information retained by…": a reference
    return trigger.kind == "retain" and trigger.word.endswith("ed") and trigger.subject is None and not trigger.passive


@trigger_rule("veto.keep-state")
def keep_state(trigger: Trigger) -> bool:
    # "keep in mind", "keeping it secure", "keep your details accurate": not keeping data
    sentence = trigger.sentence
    return trigger.word.startswith("keep") and bool(
        KEEP_STATE.match(sentence.text, trigger.hit.end, sentence.end) or KEEP_DOING.match(trigger.after)
    )


@trigger_rule("veto.not-data-security")
def not_data_security(trigger: Trigger) -> bool:
    sentence = trigger.sentence
    return trigger.kind == "secure" and _not_data_security_at(
        sentence.text,
        sentence.state,
        sentence.start,
        trigger.hit,
        trigger.needs,
        trigger.word,
        trigger.before,
        trigger.after,
        sentence.details,
        trigger.sec_detail,
    )


@trigger_rule("veto.not-storage")
def not_storage(trigger: Trigger) -> bool:
    sentence = trigger.sentence
    return trigger.kind == "retain" and _not_storage_at(
        sentence.text, trigger.hit, sentence.third, trigger.subject, trigger.word, trigger.before, trigger.after
    )


@trigger_rule("veto.no-recipient")
def no_recipient(trigger: Trigger) -> bool:
    # (a legal demand or a sale of the business names its recipient implicitly)
    sentence, hit = trigger.sentence, trigger.hit
    return (
        trigger.needs == "third"
        and not sentence.third
        and not (
            trigger.kind == "share"
            and sentence.has_data  # (without data the sharing is dropped below anyway)
            and (
                sentence.facts.implied_recipient
                or TO_RECIPIENT.match(sentence.text, hit.end, min(sentence.end, hit.end + LOOKAHEAD_REACH))
            )
        )
    )


@trigger_rule("veto.no-detail")
def no_detail(trigger: Trigger) -> bool:
    sentence = trigger.sentence
    if trigger.needs == "detail" and not trigger.timed and not sentence.details & DETAIL_OF.get(trigger.kind, set()):
        return True
    # store/keep/delete count with a period, not a place alone (a place is a transfer topic)
    return trigger.needs == "detail" and trigger.kind == "retain" and not trigger.timed and not sentence.has_period_here


@trigger_rule("veto.nothing-acted-on")
def nothing_acted_on(trigger: Trigger) -> bool:
    # A practice needs something to act on: personal data, or for sharing a recipient.
    sentence = trigger.sentence
    has_period = (
        trigger.kind == "retain"
        and sentence.has_period_here
        and (
            trigger.needs != "detail"  # "retain", "retention": about data by the word itself
            or bool(
                sentence.state.data
                or sentence.facts.kept_record
                or ends_before(KEPT_PRONOUN, sentence.text, sentence.start, trigger.hit.start)
            )
        )  # not goods or game items kept ("reserved items are held for three days")
    )
    if (
        not sentence.has_data
        and not (trigger.kind == "share" and sentence.third)
        and trigger.kind != "secure"
        and not has_period
    ):
        return True
    # a security trigger protects data, or names a method or a threat to data ("our databases are protected from
    # unauthorized access": OPP-115's security is protecting the information, wherever it is held)
    return trigger.kind == "secure" and not (
        sentence.has_data
        or AttributeKind.SECURITY_METHOD in sentence.details
        or (
            _threat_to_data(sentence.state, sentence.text, sentence.start, sentence.end)
            and not PROTECT_PERSON.match(trigger.after)
        )
    )


def _threat_to_data(state: SegmentState, text: str, start: int, end: int) -> bool:
    """A threat named in the sentence that is one to data, not to a site or service ("protect against misuse
    or unauthorized use of our web site": the site's property)."""
    return any(
        a.kind == AttributeKind.PROTECT_AGAINST
        and start <= a.span.start < end
        and not NOT_DATA_THREAT.match(text, a.span.end, end)
        for a in state.attributes
    )


@trigger_rule("veto.transfer-mechanism")
def transfer_mechanism(trigger: Trigger) -> bool:
    # "appropriate safeguards for transfers outside the EEA": a transfer mechanism
    sentence = trigger.sentence
    if (
        trigger.kind == "secure"
        and AttributeKind.PROTECT_AGAINST not in sentence.details
        and sentence.facts.transfer_mechanism
    ):
        sentence.notes.transfer_mechanism = True
        return True
    return False


@trigger_rule("veto.already-stated")
def already_stated(trigger: Trigger) -> bool:
    # one practice of a type per sentence: a later trigger of the same type adds nothing
    return trigger.ptype in trigger.sentence.seen


def _noun_or_other_verb_at(
    text: str, hit: Hit, start: int, kind: str, word: str, before: str, after: str, prev: list[str]
) -> bool:
    """The trigger word is a noun ("the use of"), or a sharing verb that discloses nothing (sending to the
    reader, sharing buttons, a choice about sharing, a list of threats)."""
    if word in AMBIGUOUS and prev and prev[0] in NOUN_BEFORE:
        return True  # "the use of", "your request", "a record": a noun, not the practice verb
    if word in AMBIGUOUS and kind == "collect" and re.match(r"\s+of\b", after):
        return True  # "their use of cookies": a noun
    if kind == "share" and (
        re.match(r"\s+(?:you|to you|us|it to us|them to us)\b", after, re.I)
        or SHARE_TOOL.match(after)
        or CHOICE_BEFORE.search(before)
        or ON_DEVICE.match(after)
    ):
        return True  # "send you newsletters", "sharing buttons", "opt out of sharing…", "sent to your computer"
    if kind == "share" and (
        (word == "sharing" and FEATURE_BEFORE.search(before) and not re.match(r"\s+(?:with|to)\b", after))
        or (word == "shares" and (ENGAGEMENT_BEFORE.search(before) or ENGAGEMENT_AFTER.match(after)))
    ):
        return True  # "file sharing", "likes, comments and shares": a feature or a count, not a disclosure
    if word.startswith("forward") and re.search(r"\b(?:look|looks|looked|looking|going|moving|step)\s+$", before, re.I):
        return True  # "we look forward to hearing from you", "going forward": not forwarding data
    if word == "traded" and prev == ["publicly"]:
        return True  # "a publicly traded company": listed shares, not data traded
    # "unauthorized access, use or disclosure", "accessed, disclosed, altered": a threat
    return bool(
        (kind == "share" or word.startswith("access"))
        and THREAT_LIST.search(text[max(start, hit.start - 50) : hit.start] + "#" + after[:50])
    )


def _another_statement_at(
    text: str,
    hit: Hit,
    facts: SentenceFacts,
    kind: str,
    word: str,
    before: str,
    after: str,
    choice: bool,
    abroad: bool,
) -> bool:
    """The trigger states something other than the practice: the reader's access, requests or sign-in,
    consent, a list of practice names, a disclosure conditioned on the reader's act, the reader's choices,
    or an international transfer."""
    if word.startswith("access") and re.match(
        r"\s+(?:to|control|controls|logs?|rights?|(?:or|and)\s+control)\b", after, re.I
    ):
        return True  # "access to", "access controls", "no access or control over"
    if word in ("request", "requests") and re.match(r"\s+(?:that|for|from|related|regarding)\b", after, re.I):
        return True  # "requests for removal", "we request that you link to…": a request to the site or reader
    if word.startswith("process") and (
        re.match(r"\s+(?:(?:your|such|these|all|any|the)\s+)?(?:\w+\s+)?(?:requests?|preferences)\b", after, re.I)
        or re.search(r"\b(?:requests?|preferences)\s+(?:\w+\s+){0,3}$", before, re.I)
    ):
        return True  # "allow time for your preferences to be processed", "process your requests"
    if word in ("get", "gets") and re.match(r"\s+(?:back|in touch|started|rid|to know|involved|help)\b", after, re.I):
        return True  # "we will get back to you": not obtaining data
    if word.startswith("log") and re.match(r"\s+(?:in|into|on|onto|out|off)\b", after, re.I):
        return True  # "log into your account": the reader signing in
    if kind == "collect" and CONSENT_OBJECT.match(after):
        return True  # "obtain your written authorization", "ask for your consent": consent, not data
    if word.endswith(("ion", "age")) and (PRACTICE_LIST.search(before) or PRACTICE_LIST.match(after)):
        return True  # "the collection, use and retention of…": a list of practice names
    if (
        kind == "collect"
        and "you" in hit.entry.phrase.lower()
        and IF_CLAUSE.search(before)
        and (comma := facts.comma_next(hit.end)) is not None
        and THEN_SHARE.match(text, comma, facts.end)  # (from the comma: the same match, read once)
    ):
        return True  # "when you provide personal information to…, we may share it with…": a disclosure statement
    if choice and kind == "collect":
        return True  # "you can opt out of…", "to unsubscribe…": the reader's choices
    # "may be transferred to and stored in the United States": an international transfer
    return bool(abroad and kind in ("collect", "retain"))


def _not_data_security_at(
    text: str,
    state: SegmentState,
    start: int,
    hit: Hit,
    needs: str,
    word: str,
    before: str,
    after: str,
    details: set[AttributeKind],
    sec_detail: bool,
) -> bool:
    """A security trigger that is not about protecting data: "reasonable steps" to other ends, protecting
    rights or property, or security as the purpose of a use or disclosure."""
    if not needs and " " in word and word.startswith("reasonable") and not sec_detail and not SECURE_AIM.match(after):
        return True  # "reasonable steps to verify your identity / keep it accurate": not security
    if NOT_DATA_PROTECTION.match(after):
        return True  # "protect our rights, property or safety"
    if word.startswith("safeguard") and (SUBJECT_TO.search(before) or FOR_RIGHTS.match(after)):
        return True  # "subject to appropriate safeguards", "safeguards for individuals' rights": legal terms
    if word == "secure" and AttributeKind.SECURITY_METHOD not in details:
        # "to keep our services secure and up to date", "safe, secure products": the aim of a use, unless
        # data is kept secure with them ("make sure our site is secure and your data protected")
        held = SECURE_SERVICE_BEFORE.search(before)
        said = SECURE_SERVICE_AFTER.match(after)
        near_start = hit.start - len(before) + held.start() if held else hit.start
        near_end = hit.end + max(40, said.end() if said else 0)
        if (held or said) and not any(near_start <= d.start < near_end for d in state.data):
            return True
    # "we use your IP address to protect our site from abuse": security as a purpose of use
    return bool(
        PURPOSE_TO.search(before)
        and AttributeKind.SECURITY_METHOD not in details
        and not DATA_OBJECT.match(after)
        and any(
            start <= u.start < hit.start
            and u.entry.value[0] in ("collect", "share")
            and not TOOL_OBJECT.match(text[u.end : hit.start])
            for u in state.triggers
        )
    )


def _not_storage_at(
    text: str,
    hit: Hit,
    third: list[PartyMention],
    subject: PartyMention | None,
    word: str,
    before: str,
    after: str,
) -> bool:
    """A retention trigger that is not the site keeping data: hiring ("we retain an outside company"),
    a mailing-list opt-out, or a cookie's own lifetime."""
    if HIRE.match(after) or ON_DEVICE.match(after) or ONTO_DEVICE.match(after):
        return True  # "service providers we have retained to perform…", "cookies stored on your computer"
    if BROWSER_CLOSE.match(after):
        return True  # "some are erased when you close your browser": a session cookie's lifetime
    if word.startswith("retain") and (
        HIRED.match(after)
        or HIRER.search(before)
        or any(HIRED_PARTY.fullmatch(text[hit.end : p.span.start]) for p in within_words(third, text, hit.end))
    ):
        return True  # "we retain an outside company", "a retained agent", "vendors we retain": hiring
    if OFF_LIST.match(after):
        return True  # "we will remove your name from our mailing list": an opt-out, not retention
    # "session cookies are deleted when you close…", "stored in a cookie": a cookie's lifetime
    return bool(
        (
            (subject is None or subject.kind != PartyKind.FIRST_PARTY)
            and (
                re.search(TRACKER + r"[\"”]?\s+(?:[\w-]+\s+){0,6}?$", before, re.I)
                or re.match(r"\s+(?:[\w-]+\s+){0,2}?" + TRACKER + r"\b", after, re.I)
            )
        )
        or IN_TRACKER.match(after)
    )
