"""The trigger rules of the offline extractor: a sentence's practice triggers read one by one.

Each trigger word (collect, share, retain, protect…) becomes a practice unless a rule vetoes it; rules may also
change its type or add a related practice. Practices named without a trigger word follow (cue paths).
"""

from __future__ import annotations

import bisect
import re

from pp_graph.extract.offline.cues import CueTable
from pp_graph.extract.offline.facts import (
    _LOOKAHEAD_REACH,
    _THIRD_NOUN_START,
    _ends_before,
    _joint_subject,
    _LineNotes,
    _negated,
    _SegState,
    _SentenceFacts,
    _site_subject,
    _within_words,
    subject_at,
)
from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns import (
    _ABROAD,
    _AGENT_MODIFIERS,
    _AMBIGUOUS,
    _AUDIENCE,
    _AUTHORIZE,
    _AUX_ONLY,
    _AWARE,
    _BOUND_TO,
    _BROWSER_CLOSE,
    _BY_AGENT,
    _BY_OTHER,
    _BY_PEOPLE,
    _CATEGORY,
    _CHOICE_BEFORE,
    _CHOICE_LINE,
    _CLAUSE_SPLIT,
    _CONSENT_OBJECT,
    _CONTACT_WHEN,
    _COOKIE_SETTING,
    _DATA_OBJECT,
    _DEFINED_AS,
    _DELETE_TIMING,
    _DETAIL_OF,
    _DETECTING,
    _DISPOSE,
    _ENGAGEMENT_AFTER,
    _ENGAGEMENT_BEFORE,
    _FEATURE_BEFORE,
    _FOR_RIGHTS,
    _GENERIC_DATA,
    _GIVE,
    _GIVE_WITH,
    _HAVE_ACCESS,
    _HELD_BY,
    _HIRE,
    _HIRED,
    _HIRED_PARTY,
    _HIRER,
    _HOLD,
    _IDENTIFIES,
    _IF_CLAUSE,
    _IN_TRACKER,
    _INCIDENT,
    _INFINITIVE,
    _JOINT_ACT,
    _JOINT_SUBJECT,
    _KEEP_DOING,
    _KEEP_STATE,
    _KEPT_PRONOUN,
    _LEGAL_KEEP,
    _LET,
    _LET_ACT,
    _LET_US,
    _META,
    _MUST_FOR,
    _MUST_GIVE,
    _NAME_SUBJECT,
    _NOT_DATA_PROTECTION,
    _NOUN_BEFORE,
    _OFF_LIST,
    _ON_DEVICE,
    _ON_OUR_BEHALF,
    _ONTO_DEVICE,
    _OUR_SUBJECT,
    _OUR_THING,
    _OWN_MEDIUM,
    _OWN_TRACKING,
    _PASSIVE,
    _PASSIVE_AND,
    _PASSIVE_NOT,
    _POSTED_BY_THIRD,
    _PRACTICE_LIST,
    _PRACTICE_OF,
    _PURPOSE_REF,
    _PURPOSE_TO,
    _READER_NEED,
    _RECEIVE_NOT_DATA,
    _RECORD_OF,
    _RELATIVE,
    _REQUEST_VERB_AFTER,
    _RIGHTS_REQUEST,
    _ROUTINE,
    _SCOPE,
    _SECURE_AIM,
    _SECURE_CUE,
    _SECURE_IDENTITY,
    _SECURE_MORE,
    _SECURE_OF,
    _SECURE_PLACE,
    _SECURE_SERVICE_AFTER,
    _SECURE_SERVICE_BEFORE,
    _SECURE_SIGN_IN,
    _SECURE_STAFF,
    _SECURITY_ASIDE,
    _SHARE_TOOL,
    _SUBJECT_TO,
    _THEN_SHARE,
    _THIRD_NOUN,
    _THIRD_SUBJECT,
    _THIRD_TRACKER,
    _THREAT_LIST,
    _TO_PARTY,
    _TO_RECIPIENT,
    _TO_US,
    _TOOL_OBJECT,
    _TRACK_VERB,
    _TRACKER,
    _TRUNCATED_CARD,
    _VERB_LIST,
    _WE_AND_AGENTS,
    _WITH_DATA,
    _YOU_AND_SHARE,
)
from pp_graph.model import (
    AttributeKind,
    PartyKind,
    PartyMention,
    Policy,
    PracticeMention,
    PracticeType,
    Segment,
    Span,
)


def sentence_practices(
    cues: CueTable, policy: Policy, seg: Segment, st: _SegState, s0: int, s1: int, notes: _LineNotes
) -> list[PracticeMention]:
    in_sent = [t for t in st.triggers if s0 <= t.start < s1]
    text = policy.text
    sentence = text[s0:s1]
    cue = _security_cue(text, st, s0, s1)
    tracking = _OWN_TRACKING.search(sentence)
    third = [p for p in st.parties if s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY]
    facts = _SentenceFacts(text, s0, s1)
    if not in_sent and not cue and not tracking and not third and not facts.public:
        return []
    identifies = [(s0 + m.start(), s0 + m.end()) for m in _IDENTIFIES.finditer(sentence)]
    if _SCOPE.search(_IDENTIFIES.sub(" ", sentence) if identifies else sentence):
        return []  # about the policy itself, other sites or definitions
    in_sent = [t for t in in_sent if not any(a <= t.start < b for a, b in identifies)]
    if _AUDIENCE.search(sentence):
        # About children or state residents: only a retention statement with its period is kept.
        if not any(a.kind == AttributeKind.RETENTION_PERIOD and s0 <= a.span.start < s1 for a in st.attributes):
            return []
        in_sent = [t for t in in_sent if t.entry.value[0] == "retain"]
        cue = tracking = None
    abroad = bool(_ABROAD.search(sentence))
    choice = bool(_CHOICE_LINE.search(sentence))
    # (for the site's own collection a conditional "when you contact us" is no choice)
    own_choice = choice and bool(
        _CHOICE_LINE.search(
            _CONTACT_WHEN.sub(" ", _MUST_GIVE.sub(" ", sentence) if _MUST_FOR.search(sentence) else sentence)
        )
    )
    has_data = any(s0 <= d.start < s1 for d in st.data)
    # Practice details in this sentence, computed once for all its triggers.
    details = {a.kind for a in st.attributes if s0 <= a.span.start < s1}
    has_period_here = AttributeKind.RETENTION_PERIOD in details
    secure_here = any(h.entry.value[0] == "secure" for h in in_sent)
    last_period = max(  # (a retention period after a trigger: one starting after it in the sentence)
        (a.span.start for a in st.attributes if a.kind == AttributeKind.RETENTION_PERIOD and s0 <= a.span.start < s1),
        default=-1,
    )
    first_own = next(  # the first mention of the site in the sentence (parties are sorted by start)
        (
            p.span.start
            for p in st.parties[bisect.bisect_left(st.party_starts, s0) : bisect.bisect_left(st.party_starts, s1)]
            if p.kind == PartyKind.FIRST_PARTY
        ),
        len(text),
    )
    noun_starts: list[int] | None = None  # where a _THIRD_NOUN may start in the sentence, once needed
    found: list[PracticeMention] = []
    seen: set[PracticeType] = set()
    for t in in_sent:
        kind, needs = t.entry.value[0], t.entry.value[1]
        ptype = _PRACTICE_OF[kind]
        word = text[t.start : t.end].lower()
        before = text[max(s0, t.start - 60) : t.start]
        after = text[t.end : min(s1, t.end + 60)]
        prev = re.findall(r"[\w']+", before.lower())[-1:]
        if _noun_or_other_verb(text, t, s0, kind, word, before, after, prev):
            continue
        if (
            kind == "collect"
            and word in ("request", "requests")
            and not _REQUEST_VERB_AFTER.search(before)
            and not any(0 <= t.start - p.span.end <= 1 for p in st.parties)
        ):
            continue  # "valid requests", "rights request": the reader's request, a noun
        if word in ("receive", "receives", "received", "get", "gets") and _RECEIVE_NOT_DATA.match(after):
            continue  # "if we receive a court order / your request": not data coming to the site
        if word.endswith("tell us") and re.match(
            r"\W*(?:to|not to|so|(?:that\s+)?you\s+(?:no\s+longer|do\s+not|don['’]t))\b", after, re.I
        ):
            # "when you tell us to", "if you tell us that you no longer want…": an instruction, not data given
            continue
        if word == "accessed" and _BY_PEOPLE.match(after):
            continue  # "may be accessed by others / by many people": the public, not the site's collection
        if kind == "share" and _TO_US.match(text[t.end : s1]):
            # "information you share with us", "disclosed to the Company": data coming to the site, which
            # OPP-115 counts as the site's collection when the data is named. Only giving verbs count: data
            # the reader transmits, sends or forwards to the site is transport wording, not collection, and
            # is dropped here on purpose (neither collection nor sharing).
            fp = PracticeType.FIRST_PARTY_COLLECTION_USE
            if has_data and fp not in seen and not own_choice and word.startswith(("shar", "provid", "disclos", "giv")):
                seen.add(fp)
                found.append(PracticeMention(Span.at(text, t.start, t.end), fp, _negated(text, s0, t.start)))
            continue
        if _another_statement(
            text, t, facts, kind, word, before, after, own_choice if kind == "collect" else choice, abroad
        ):
            continue
        subject, implicit_third = _actor(text, st, s0, t, kind, word, before)
        if (
            kind == "collect"
            and subject is None
            and (implicit_third or (bool(third) and third[0].span.start < t.start and not first_own < t.start))
        ):
            ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
        if (
            kind == "share"
            and subject is not None
            and subject.kind == PartyKind.USER
            and not _ends_before(_PASSIVE, text, s0, t.start)
            and not _AUTHORIZE.search(text[subject.span.end : t.start])
        ):
            notes.user_act = True
            continue  # "when you share content on a social network": the reader's own act
        if kind == "share" and _YOU_AND_SHARE.search(before):
            notes.user_act = True
            continue  # "the app lets you organize, view, and share photos": the reader's own act
        if kind == "collect" and subject is None and (_INFINITIVE.search(before) or _RELATIVE.search(before)):
            # "we work with ad networks to collect…", "an advertiser may place a cookie in order to collect…",
            # "ad companies, which may collect…": the nearest party before the verb does the collecting.
            # (of the parties only the last one counts: parties are sorted by start)
            i = bisect.bisect_left(st.party_starts, t.start) - 1
            while i >= 0 and st.parties[i].span.text.lower() in ("your", "our", "their", "its"):
                i -= 1
            near = [
                (p.span.start, p.kind == PartyKind.THIRD_PARTY)
                for p in st.parties[i : i + 1]
                if i >= 0 and s0 <= p.span.start
            ]
            # (and of the nouns the last one: tried from the sentence's candidates back from the trigger)
            if noun_starts is None:
                noun_starts = [m.start() for m in _THIRD_NOUN_START.finditer(text, s0, s1)]
            k = bisect.bisect_left(noun_starts, t.start)
            while k and not _THIRD_NOUN.match(text, noun_starts[k - 1], t.start):
                k -= 1
            near += [(s0 + noun_starts[k - 1], True)] if k else []
            if near:
                at, is_third = max(near)
                if (
                    is_third
                    and (_RELATIVE.search(before) or not re.search(r"\bby\s+(?:\w+\s+){0,3}$", text[s0:at]))
                    and not _ON_OUR_BEHALF.match(text[t.end : s1])
                ):
                    ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
        if kind == "share" and re.match(r"\W*(?:please\s+)?(?:do not|don't|never)\s*$", text[s0 : t.start], re.I):
            continue  # "do not share your password": advice to the reader
        if t.entry.phrase.lower() == "required to provide" and (
            (subject is not None and subject.kind != PartyKind.USER)
            or any(p.span.start > t.end and _TO_PARTY.search(text, t.end, p.span.start) for p in third)
        ):
            continue  # "we may be required to provide it to the authorities": a disclosure, not collection
        if (
            kind == "collect"
            and subject is not None
            and subject.kind == PartyKind.USER
            and _LET_US.match(text, subject.span.end, t.start)
            and re.search(r"\bus\b", text[subject.span.end : t.start], re.I)
        ):
            subject = _site_subject(text, s0)  # "you authorize us to obtain…": the site collects
        if kind == "collect" and subject is not None:
            phrase = t.entry.phrase.lower()
            if subject.kind == PartyKind.USER and "you" not in phrase and not phrase.startswith(("asked", "required")):
                continue  # "you can access / request / use…" is the user's action ("you are asked to" is not)
            if subject.kind == PartyKind.THIRD_PARTY and not _ends_before(_WE_AND_AGENTS, text, s0, subject.span.end):
                ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
        passive = _ends_before(_PASSIVE, text, s0, t.start) or (
            kind == "retain" and _ends_before(_PASSIVE_AND, text, s0, t.start)
        )  # (a second participle: "backups are encrypted and retained for 30 days")
        if (
            kind == "retain"
            and not passive
            and (_DELETE_TIMING.match(after) or facts.period_after(t.end) or (has_data and _OWN_MEDIUM.match(after)))
        ):
            # "is never stored on our servers": not kept, said of the site's own machines
            # "is not retained after the order is shipped", "will not be kept longer than necessary"
            passive = _ends_before(_PASSIVE_NOT, text, s0, t.start)
        by = _BY_AGENT.match(after) if kind == "collect" and word.endswith("ed") and word != "accessed" else None
        if by and (
            by.group(1)
            or any(
                p.kind == PartyKind.THIRD_PARTY and _AGENT_MODIFIERS.fullmatch(text, t.end + by.end(), p.span.start)
                for p in _within_words(st.parties, text, t.end + by.end())
            )
        ):
            # "may be collected and used by others / by advertisers / by a secure third-party processor"
            ptype = PracticeType.THIRD_PARTY_COLLECTION_USE
        if (
            needs == "agent"
            and (subject is None or subject.kind == PartyKind.USER)
            and not passive
            and not (implicit_third)
        ):
            continue
        if (
            kind == "collect"
            and word.endswith("ed")
            and not passive
            and any(not text[d.end : t.start].strip() for d in st.data_ending(t.start - 2, t.start))
        ):
            continue  # "we may disclose information collected through…": a reduced relative clause, a reference
        if (
            kind == "collect"
            and word.endswith("ed")
            and subject is None
            and not passive
            and not implicit_third
            and not seg.text.rstrip().endswith(":")
        ):
            continue  # "information collected through the site…": a reference, not a statement
        if kind == "collect" and word.startswith(("us", "utili")):
            i = bisect.bisect_left(st.data_starts, t.end)
            window = text[t.end : st.data[i].start] if i < len(st.data) and st.data[i].start < s1 else after
            if _TOOL_OBJECT.match(window):
                continue  # "we use encryption to protect…": a tool, not data use
            obj = st.parties[
                bisect.bisect_left(st.party_starts, t.end) : bisect.bisect_left(st.party_starts, min(s1, t.end + 40))
            ]
            if obj and obj[0].kind == PartyKind.THIRD_PARTY and len(text[t.end : obj[0].span.start].split()) <= 3:
                ptype = PracticeType.THIRD_PARTY_COLLECTION_USE  # "we use Google Analytics / ad networks"
        if kind in ("collect", "share") and (
            _META.search(before) or (st.referenced_by(text, t.start) and not seg.text.rstrip().endswith(":"))
        ):
            continue  # "how we collect…", "the information we collect is…": a reference, not a statement
        if kind == "collect" and _PURPOSE_REF.search(before):
            continue  # "for the purposes for which it was collected": a reference, not a statement
        if (
            kind == "retain"
            and (passive or word.startswith(("remain", "persist")))
            and subject is not None
            and subject.kind == PartyKind.USER
            and not _AUX_ONLY.fullmatch(text[subject.span.end : t.start])
        ):
            # "information that you submit is discarded once…", "email you delete can remain in backups…":
            # the user is in a relative clause (what remains or persists is the data)
            subject = None
        host_share = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
        if (
            kind == "retain"
            and host_share not in seen
            and has_data
            and word.startswith(_HOLD)
            and (passive or (subject is not None and subject.kind == PartyKind.FIRST_PARTY))
            and (by_host := _HELD_BY.match(text, t.end, s1))
            and any(
                _AGENT_MODIFIERS.fullmatch(text, by_host.end(), p.span.start)
                for p in _within_words(third, text, by_host.end())
            )
        ):
            seen.add(host_share)  # "we store your data with a cloud provider", "it is kept by our hosting provider"
            found.append(PracticeMention(Span.at(text, t.start, t.end), host_share, _negated(text, s0, t.start)))
        if kind == "retain" and (
            implicit_third
            or (
                subject is not None
                and subject.kind != PartyKind.FIRST_PARTY
                and not any(
                    p.kind == PartyKind.FIRST_PARTY
                    and s0 <= p.span.start < t.start
                    and p.span.text.lower() not in ("our", "its")  # "our ad servers": an owner, not an actor
                    for p in st.parties
                )
            )
        ):
            continue  # a third party's or the user's keeping/deleting is not the site's retention
        timed = kind == "retain" and bool(
            _DELETE_TIMING.match(after)
            or facts.backup
            or (word.startswith(_DISPOSE) and _ROUTINE.search(before))
            or (word.startswith(("keep", "retain", "stor", "hold", "preserv")) and _LEGAL_KEEP.search(before))
        )
        period_here = kind == "retain" and last_period >= t.end
        truncated = (
            kind == "retain"
            and word.startswith(_HOLD)
            and bool(_TRUNCATED_CARD.search(text, t.end, min(s1, t.end + _LOOKAHEAD_REACH)))
        )
        if (
            kind == "retain"
            and not period_here
            and _VERB_LIST.search(text[max(s0, t.start - 40) : t.start] + "#" + text[t.end : min(s1, t.end + 40)])
        ):
            continue  # "we collect, retain and use…": retention named in a list of verbs, not a statement
        if kind == "retain" and not period_here and not timed and _SECURE_PLACE.match(after):
            continue  # "information is retained in secure facilities": where data is kept safe, a security measure
        if kind == "retain" and (
            (facts.user_choice and not ((period_here or truncated) and not facts.user_choice_before(t.start)))
            or (word.startswith(("delet", "eras", "remov")) and facts.user_request and not timed)
        ):
            continue  # "you may ask us to delete…", "you may opt out of…": a user right or choice
        if kind == "retain" and word.endswith("ed") and subject is None and not passive:
            continue  # "information retained by…": a reference
        if word.startswith("keep") and (_KEEP_STATE.match(text, t.end, s1) or _KEEP_DOING.match(after)):
            continue  # "keep in mind", "keeping it secure", "keep your details accurate": not keeping data
        sec_detail = bool(details & _DETAIL_OF["secure"])
        if kind == "secure" and _not_data_security(text, st, s0, t, needs, word, before, after, details, sec_detail):
            continue
        if (
            kind == "secure"
            and needs == "detail"
            and not sec_detail
            and word.startswith(("protect", "safeguard"))
            and re.match(
                r"\s+(?:(?:the|all|any)\s+)?(?:your|this|such|that|the|our users'?|customers'?|visitors'?)\s+"
                r"(?:\w+\s+)?"
                r"(?:personal\s+|personally\s+identifiable\s+|financial\s+)?(?:information|data)\b",
                after,
                re.I,
            )
            and "privacy" not in after[:30].lower()
        ):
            needs = ""  # "we work hard to protect your personal information"
        if kind == "retain" and _not_storage(text, t, third, subject, word, before, after):
            continue
        fp = PracticeType.FIRST_PARTY_COLLECTION_USE
        if (
            kind == "retain"
            and fp not in seen
            and word.startswith(_HOLD)
            and not implicit_third
            and (
                (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
                or (subject is None and passive and not facts.tracker)
            )
            and not details
            and not timed
            and not facts.kept_how
            and not abroad
            and not cue
            and not secure_here
            and not (passive and (_BY_OTHER.match(after) or (bool(third) and third[0].span.start < t.start)))
            and not facts.public
            and not facts.user_choice
            and not facts.user_request
            and not _negated(text, s0, t.start)
            and (
                (not passive and _RECORD_OF.match(after))  # "we keep a record of that correspondence"
                or (
                    (kept := _held_object(st, s0, s1, t, passive)) is not None
                    and kept.entry.value[0] != _GENERIC_DATA
                    and not (passive and _BY_OTHER.search(text, kept.end, t.start))
                )
            )
            and not (
                # "we share information we store (such as…)": a reference, unless it is defined ("the
                # information we store is your name…")
                st.referenced_by(text, t.start) and not _DEFINED_AS.match(after)
            )
        ):
            # "we store the date of each request and your IP address", "your card number is kept":
            # the site keeping named data holds it, which OPP-115 reads as its collection as well
            seen.add(fp)
            found.append(PracticeMention(Span.at(text, t.start, t.end), fp, False))
            notes.held.append(found[-1])
        if (
            needs == "third"
            and not third
            and not (
                kind == "share"
                and has_data  # (without data the sharing is dropped below anyway)
                and (facts.implied_recipient or _TO_RECIPIENT.match(text, t.end, min(s1, t.end + _LOOKAHEAD_REACH)))
            )
        ):
            continue  # (a legal demand or a sale of the business names its recipient implicitly)
        # The site itself keeping/deleting named data ("we do not store card numbers", "we delete…"):
        # retention without a period.
        own = (
            kind == "retain"
            and has_data
            and (
                (subject is not None and subject.kind == PartyKind.FIRST_PARTY)
                # passive: "log files are deleted"; a cookie's own expiry is not the site's retention
                or (subject is None and passive and not implicit_third and not facts.tracker)
            )
            and (word.startswith(_DISPOSE) or _negated(text, s0, t.start) or truncated)
        )
        if own:
            timed = True
        if needs == "detail" and not timed and not details & _DETAIL_OF.get(kind, set()):
            continue
        if needs == "detail" and kind == "retain" and not timed and not has_period_here:
            continue  # store/keep/delete count with a period, not a place alone (a place is a transfer topic)
        # A practice needs something to act on: personal data, or for sharing a recipient.
        has_period = (
            kind == "retain"
            and has_period_here
            and (
                needs != "detail"  # "retain", "retention": about data by the word itself
                or bool(st.data or facts.kept_record or _ends_before(_KEPT_PRONOUN, text, s0, t.start))
            )  # not goods or game items kept ("reserved items are held for three days")
        )
        if not has_data and not (kind == "share" and third) and kind != "secure" and not has_period:
            continue
        if kind == "secure" and not (has_data or AttributeKind.SECURITY_METHOD in details):
            continue
        if kind == "secure" and AttributeKind.PROTECT_AGAINST not in details and facts.transfer_mechanism:
            notes.transfer_mechanism = True
            continue  # "appropriate safeguards for transfers outside the EEA": a transfer mechanism
        fp = PracticeType.FIRST_PARTY_COLLECTION_USE
        if ptype == PracticeType.THIRD_PARTY_COLLECTION_USE and fp not in seen and _joint_subject(text, st, s0, t):
            seen.add(fp)  # "we and our service providers may collect…": the site collects too
            found.append(PracticeMention(Span.at(text, t.start, t.end), fp, _negated(text, s0, t.start)))
        if ptype in seen:
            continue
        seen.add(ptype)
        negated = _negated(text, s0, t.start)
        found.append(PracticeMention(Span.at(text, t.start, t.end), ptype, negated))
    _third_party_paths(text, st, s0, third, facts, has_data, choice, seen, found)
    _cue_paths(text, s0, third, tracking, cue, has_data, own_choice, seen, found)
    if found:
        feats = _features(st, s0, s1)
        found = [
            p
            for p in found
            if cues.score(_CATEGORY[p.type], sentence, feats) > 0
            or (
                # "you must provide your name and a password (which is encrypted)": a security measure in
                # another clause does not make the collection a passing mention in a security statement
                p.type == PracticeType.FIRST_PARTY_COLLECTION_USE
                and not p.span.text.lower().startswith(("us", "utili", "process", "access"))
                and (rest := _without_security_asides(sentence, p.span.start - s0)) != sentence
                and cues.score(_CATEGORY[p.type], rest, feats) > 0
            )
        ]
    return found


def _security_cue(text: str, st: _SegState, s0: int, s1: int) -> re.Match[str] | None:
    """A security measure named without a security trigger: access limits and strong cues (_SECURE_CUE),
    keeping data's security or confidentiality (_SECURE_OF, unless a recipient is bound to it), or the
    organisation's own safeguards (_SECURE_MORE, _SECURE_STAFF), or an identity check for the reader's protection
    (_SECURE_IDENTITY) or a sign-in check (_SECURE_SIGN_IN), unless the sentence is about the reader's access
    or deletion requests)."""
    sentence = text[s0:s1]
    cue = _SECURE_CUE.search(sentence)
    if (
        cue
        and cue.group(0).lower().replace("-", " ") == "need to know"
        and (
            _READER_NEED.search(sentence[max(0, cue.start() - 4) : cue.start()])
            or _READER_NEED.match(sentence[cue.end() : cue.end() + 6])
        )
    ):
        cue = None  # "everything you need to know", ".../what-do-i-need-to-know-about-cookies/"
    if not cue:
        of = _SECURE_OF.search(sentence)
        if (
            of
            and not _BOUND_TO.search(sentence[: of.start()])
            and not re.search(r"\bcommit\w*\b", sentence[: of.start()], re.I)
            and not re.match(r"\W*(?:to|for)\s", sentence)  # "to … protect the security of …": a purpose item
            and not any(s0 <= p.span.start < s0 + of.start() and p.kind == PartyKind.THIRD_PARTY for p in st.parties)
        ):
            cue = of
    if not cue:
        cue = _SECURE_MORE.search(sentence) or _SECURE_STAFF.search(sentence)
    if not cue and not _RIGHTS_REQUEST.search(sentence):
        cue = _SECURE_IDENTITY.search(sentence) or _SECURE_SIGN_IN.search(sentence)
    if cue and _INCIDENT.fullmatch(cue.group(0)) and _DETECTING.search(sentence, 0, cue.start()):
        return None  # "detecting and investigating security incidents": a purpose of use, not a measure
    return cue


def _noun_or_other_verb(
    text: str, t: Hit, s0: int, kind: str, word: str, before: str, after: str, prev: list[str]
) -> bool:
    """The trigger word is a noun ("the use of"), or a sharing verb that discloses nothing (sending to the
    reader, sharing buttons, a choice about sharing, a list of threats)."""
    if word in _AMBIGUOUS and prev and prev[0] in _NOUN_BEFORE:
        return True  # "the use of", "your request", "a record": a noun, not the practice verb
    if word in _AMBIGUOUS and kind == "collect" and re.match(r"\s+of\b", after):
        return True  # "their use of cookies": a noun
    if kind == "share" and (
        re.match(r"\s+(?:you|to you|us|it to us|them to us)\b", after, re.I)
        or _SHARE_TOOL.match(after)
        or _CHOICE_BEFORE.search(before)
        or _ON_DEVICE.match(after)
    ):
        return True  # "send you newsletters", "sharing buttons", "opt out of sharing…", "sent to your computer"
    if kind == "share" and (
        (word == "sharing" and _FEATURE_BEFORE.search(before) and not re.match(r"\s+(?:with|to)\b", after))
        or (word == "shares" and (_ENGAGEMENT_BEFORE.search(before) or _ENGAGEMENT_AFTER.match(after)))
    ):
        return True  # "file sharing", "likes, comments and shares": a feature or a count, not a disclosure
    if word.startswith("forward") and re.search(r"\b(?:look|looks|looked|looking|going|moving|step)\s+$", before, re.I):
        return True  # "we look forward to hearing from you", "going forward": not forwarding data
    if word == "traded" and prev == ["publicly"]:
        return True  # "a publicly traded company": listed shares, not data traded
    # "unauthorized access, use or disclosure", "accessed, disclosed, altered": a threat
    return bool(
        (kind == "share" or word.startswith("access"))
        and _THREAT_LIST.search(text[max(s0, t.start - 50) : t.start] + "#" + after[:50])
    )


def _another_statement(
    text: str,
    t: Hit,
    facts: _SentenceFacts,
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
    if kind == "collect" and _CONSENT_OBJECT.match(after):
        return True  # "obtain your written authorization", "ask for your consent": consent, not data
    if word.endswith(("ion", "age")) and (_PRACTICE_LIST.search(before) or _PRACTICE_LIST.match(after)):
        return True  # "the collection, use and retention of…": a list of practice names
    if (
        kind == "collect"
        and "you" in t.entry.phrase.lower()
        and _IF_CLAUSE.search(before)
        and (comma := facts.comma_next(t.end)) is not None
        and _THEN_SHARE.match(text, comma, facts.s1)  # (from the comma: the same match, read once)
    ):
        return True  # "when you provide personal information to…, we may share it with…": a disclosure statement
    if choice and kind == "collect":
        return True  # "you can opt out of…", "to unsubscribe…": the reader's choices
    # "may be transferred to and stored in the United States": an international transfer
    return bool(abroad and kind in ("collect", "retain"))


def _actor(
    text: str, st: _SegState, s0: int, t: Hit, kind: str, word: str, before: str
) -> tuple[PartyMention | None, bool]:
    """Who acts at a trigger: the party mention before it in its clause, else the site when it is named
    at the sentence start or its own services act; and whether an unnamed third party is the subject."""
    subject = subject_at(text, st, s0, t)
    if (
        subject is None
        and kind in ("collect", "share")
        and _NAME_SUBJECT.match(text[s0 : t.start])
        and not any(s0 <= p.span.start < t.start for p in st.parties)
        and not _THIRD_SUBJECT.search(before)
    ):
        # "Acme Health may use…": the operator named at the start of the sentence.
        subject = _site_subject(text, s0)
    implicit_third = (
        subject is None
        and word != "using"  # "users who access services using several devices": a participle, not a verb
        and bool(_THIRD_SUBJECT.search(before))
        and not _OUR_SUBJECT.search(before)
    )
    if subject is None and kind in ("collect", "retain") and not word.endswith("ing") and _OUR_THING.search(before):
        # "Some of our mobile services use your location", "our servers automatically record…",
        # "our servers do not store card numbers", "the app only records…"
        subject = _site_subject(text, s0)
    return subject, implicit_third


def _not_data_security(
    text: str,
    st: _SegState,
    s0: int,
    t: Hit,
    needs: str,
    word: str,
    before: str,
    after: str,
    details: set[AttributeKind],
    sec_detail: bool,
) -> bool:
    """A security trigger that is not about protecting data: "reasonable steps" to other ends, protecting
    rights or property, or security as the purpose of a use or disclosure."""
    if not needs and " " in word and word.startswith("reasonable") and not sec_detail and not _SECURE_AIM.match(after):
        return True  # "reasonable steps to verify your identity / keep it accurate": not security
    if _NOT_DATA_PROTECTION.match(after):
        return True  # "protect our rights, property or safety"
    if word.startswith("safeguard") and (_SUBJECT_TO.search(before) or _FOR_RIGHTS.match(after)):
        return True  # "subject to appropriate safeguards", "safeguards for individuals' rights": legal terms
    if word == "secure" and AttributeKind.SECURITY_METHOD not in details:
        # "to keep our services secure and up to date", "safe, secure products": the aim of a use, unless
        # data is kept secure with them ("make sure our site is secure and your data protected")
        held = _SECURE_SERVICE_BEFORE.search(before)
        said = _SECURE_SERVICE_AFTER.match(after)
        start = t.start - len(before) + held.start() if held else t.start
        end = t.end + max(40, said.end() if said else 0)
        if (held or said) and not any(start <= d.start < end for d in st.data):
            return True
    # "we use your IP address to protect our site from abuse": security as a purpose of use
    return bool(
        _PURPOSE_TO.search(before)
        and AttributeKind.SECURITY_METHOD not in details
        and not _DATA_OBJECT.match(after)
        and any(
            s0 <= u.start < t.start
            and u.entry.value[0] in ("collect", "share")
            and not _TOOL_OBJECT.match(text[u.end : t.start])
            for u in st.triggers
        )
    )


def _held_object(st: _SegState, s0: int, s1: int, t: Hit, passive: bool) -> Hit | None:
    """The data a keeping verb acts on: its object (the first data named just after an active verb) or,
    for a passive, the nearest data named before it in the sentence."""
    if passive:
        i = bisect.bisect_left(st.data_starts, t.start) - 1
        return st.data[i] if i >= 0 and st.data[i].start >= s0 else None
    i = bisect.bisect_left(st.data_starts, t.end)
    return st.data[i] if i < len(st.data) and st.data[i].start < min(s1, t.end + 40) else None


def _not_storage(
    text: str,
    t: Hit,
    third: list[PartyMention],
    subject: PartyMention | None,
    word: str,
    before: str,
    after: str,
) -> bool:
    """A retention trigger that is not the site keeping data: hiring ("we retain an outside company"),
    a mailing-list opt-out, or a cookie's own lifetime."""
    if _HIRE.match(after) or _ON_DEVICE.match(after) or _ONTO_DEVICE.match(after):
        return True  # "service providers we have retained to perform…", "cookies stored on your computer"
    if _BROWSER_CLOSE.match(after):
        return True  # "some are erased when you close your browser": a session cookie's lifetime
    if word.startswith("retain") and (
        _HIRED.match(after)
        or _HIRER.search(before)
        or any(_HIRED_PARTY.fullmatch(text[t.end : p.span.start]) for p in _within_words(third, text, t.end))
    ):
        return True  # "we retain an outside company", "a retained agent", "vendors we retain": hiring
    if _OFF_LIST.match(after):
        return True  # "we will remove your name from our mailing list": an opt-out, not retention
    # "session cookies are deleted when you close…", "stored in a cookie": a cookie's lifetime
    return bool(
        (
            (subject is None or subject.kind != PartyKind.FIRST_PARTY)
            and (
                re.search(_TRACKER + r"[\"”]?\s+(?:[\w-]+\s+){0,6}?$", before, re.I)
                or re.match(r"\s+(?:[\w-]+\s+){0,2}?" + _TRACKER + r"\b", after, re.I)
            )
        )
        or _IN_TRACKER.match(after)
    )


def _cue_paths(
    text: str,
    s0: int,
    third: list[PartyMention],
    tracking: re.Match[str] | None,
    cue: re.Match[str] | None,
    has_data: bool,
    choice: bool,
    seen: set[PracticeType],
    found: list[PracticeMention],
) -> None:
    """Practices named without a trigger word, after the trigger loop: the site's own tracking technologies
    (first-party collection) and security measures found by _security_cue."""
    fp = PracticeType.FIRST_PARTY_COLLECTION_USE
    if (
        tracking
        and fp not in seen
        and PracticeType.THIRD_PARTY_COLLECTION_USE not in seen
        and not choice
        and not _THIRD_SUBJECT.search(text, s0, s0 + tracking.start())
        and not third
    ):
        seen.add(fp)
        span = Span.at(text, s0 + tracking.start(), s0 + tracking.end())
        found.append(PracticeMention(span, fp, _negated(text, s0, s0 + tracking.start())))
    sec = PracticeType.DATA_SECURITY_PROTECTION
    if cue and sec not in seen and (has_data or cue.re is not _SECURE_CUE or cue.group("strong")):
        # OPP-115's security measures beyond encryption: access limits, confidentiality duties, seals, breaches.
        found.append(
            PracticeMention(Span.at(text, s0 + cue.start(), s0 + cue.end()), sec, _negated(text, s0, s0 + cue.start()))
        )


def _third_party_paths(
    text: str,
    st: _SegState,
    s0: int,
    third: list[PartyMention],
    facts: _SentenceFacts,
    has_data: bool,
    choice: bool,
    seen: set[PracticeType],
    found: list[PracticeMention],
) -> None:
    """Third-party practices phrased without a sharing trigger: tracking by a named third party, data handed
    to a named recipient with a general verb, and a third party let to see or collect data."""
    sentence, s1 = facts.sentence, facts.s1
    sh = PracticeType.THIRD_PARTY_SHARING_DISCLOSURE
    pub = facts.public or _POSTED_BY_THIRD.search(sentence)
    if pub and sh not in seen and (not choice or _AWARE.search(sentence)):
        seen.add(sh)
        span = Span.at(text, s0 + pub.start(), s0 + pub.end())
        found.append(PracticeMention(span, sh, _negated(text, s0, s0 + pub.start())))
    if choice or not third:
        return
    acc = _HAVE_ACCESS.search(sentence)
    if acc and sh not in seen and any(p.span.start < s0 + acc.start() for p in third):
        seen.add(sh)  # "our service providers have access to your personal information"
        span = Span.at(text, s0 + acc.start(), s0 + acc.end())
        found.append(PracticeMention(span, sh, _negated(text, s0, s0 + acc.start())))
    tc = PracticeType.THIRD_PARTY_COLLECTION_USE
    if tc not in seen:
        for m in _TRACK_VERB.finditer(sentence):
            verb = s0 + m.start()
            before = text[s0:verb]
            if any(p.span.end <= verb and len(text[p.span.end : verb].split()) <= 4 for p in third) or (
                _THIRD_SUBJECT.search(before) and not _OUR_SUBJECT.search(before)
            ):
                seen.add(tc)
                span = Span.at(text, verb, s0 + m.end())
                found.append(PracticeMention(span, tc, _negated(text, s0, verb)))
                break
    for tt in _THIRD_TRACKER.finditer(sentence) if tc not in seen else ():
        if _COOKIE_SETTING.search(sentence, max(0, tt.start() - 40), tt.start()):
            continue  # "set your browser to accept third-party cookies": the reader's setting
        seen.add(tc)  # "the site contains third-party cookies": a third party collects on the site
        span = Span.at(text, s0 + tt.start(), s0 + tt.end())
        found.append(PracticeMention(span, tc, _negated(text, s0, s0 + tt.start())))
        break
    joint = _JOINT_SUBJECT.search(sentence)
    if tc not in seen and joint and _JOINT_ACT.search(sentence, joint.end()):
        seen.add(tc)  # "we and our advertising partners may use cookies…": the partners collect too
        span = Span.at(text, s0 + joint.start(), s0 + joint.end())
        found.append(PracticeMention(span, tc, _negated(text, s0, s0 + joint.start())))
    if sh in seen or not has_data:
        return
    for p in third:
        before = text[max(s0, p.span.start - 80) : p.span.start]
        lead = re.sub(r"(?:(?:the|our|other|any|such|certain|selected|trusted|these|those|some|its)\s+)+$", "", before)
        give = _GIVE.search(lead)
        if (
            give is not None
            and not re.search(r"\b(?:it|them)\b", give.group(0), re.I)
            and not any(p.span.start - len(before) + give.start() < d.start and d.end <= p.span.start for d in st.data)
        ):
            give = None  # "we provide our services to advertisers": no personal data handed over
        if give is None and (with_ := _GIVE_WITH.search(lead)):
            after_p = text[p.span.end : s1]
            if any(
                p.span.end < d.start < s1 and _WITH_DATA.fullmatch(text[p.span.end : d.start]) for d in st.data
            ) and not re.match(r"\s+with\s+(?:you|us)\b", after_p, re.I):
                give = with_  # "we may provide advertisers with aggregate information about our users"
        if give is None and _LET_ACT.match(text[p.span.end : s1]):
            give = _LET.search(lead)  # "allow third parties to see your profile"
        if give is None:
            continue
        start = p.span.start - len(before) + give.start()
        seen.add(sh)
        span = Span.at(text, start, start + len(give.group(0).rstrip()))
        found.append(PracticeMention(span, sh, _negated(text, s0, start)))
        return


def _features(st: _SegState, s0: int, s1: int) -> frozenset[str]:
    """Entity features of a text range for the cue scores (see data/lexicon/practice-cues.tsv)."""
    feats = set()
    if any(s0 <= p.span.start < s1 and p.kind == PartyKind.THIRD_PARTY for p in st.parties):
        feats.add("@third_party")
    if any(s0 <= d.start < s1 and d.entry.value[0] != _GENERIC_DATA for d in st.data):
        feats.add("@concrete_data")
    return frozenset(feats)


def _without_security_asides(sentence: str, at: int) -> str:
    """A sentence without the clauses (between _CLAUSE_SPLIT breaks) that name a security measure, except the
    clause around position `at` ("you must provide a password (which is encrypted)" → "you must provide a
    password")."""
    bounds = [0, *(x for m in _CLAUSE_SPLIT.finditer(sentence) for x in (m.start(), m.end())), len(sentence)]
    kept = [
        sentence[a:b]
        for a, b in zip(bounds[::2], bounds[1::2], strict=True)
        if a <= at <= b or not _SECURITY_ASIDE.search(sentence, a, b)
    ]
    return " ".join(kept)
