"""Paragraph-level rules of the offline extractor, after OPP-115's paragraph labels.

OPP-115 labels whole paragraphs, not sentences, so the sentence rules (backend.py) are followed by a pass
over paragraphs (blocks separated by a blank line). A paragraph's title line adds cues and the gate
(gate.passes) re-scores the practice with them and drops it: ``@passing_mention`` for a practice the title
does not cover that is mentioned only once in passing, ``@replaced_party`` for the body's collection by another
party than the titled one (whose collection is added instead: the site's or third parties'). The title also
confirms the practice it names from a weaker trigger in the body; and the items of one list share the practice
most of their siblings inherited from the lead-in line.
The line-shape tests used to find titles and list items in plain text live here too. The rules borrow the
sentence-level reading (segment analysis, sentence bounds, subjects, negation) through a SentenceReader;
the per-sentence facts both scopes read are in facts.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from pp_graph.extract.offline.facts import SegmentState
from pp_graph.extract.offline.gate import features, passes
from pp_graph.extract.offline.lexicon import Hit
from pp_graph.extract.offline.patterns.headings import LIST_ITEM, OFF_TOPIC, TITLE_START
from pp_graph.extract.offline.patterns.practices import CATEGORY, PRACTICE_OF
from pp_graph.extract.offline.patterns.scope import AUDIENCE, SCOPE
from pp_graph.extract.offline.patterns.security import NOT_DATA_PROTECTION
from pp_graph.extract.offline.patterns.sentences import AMBIGUOUS, META, NOUN_BEFORE, PASSIVE, THIRD_SUBJECT
from pp_graph.extract.offline.rules import ordered, register
from pp_graph.load.reading import is_contents_entry
from pp_graph.model import PartyKind, PartyMention, Policy, PracticeMention, PracticeType, Segment, Span


class SentenceReader(NamedTuple):
    """What the paragraph rules borrow from the sentence rules (see backend.OfflineBackend)."""

    state: Callable[[Policy, Segment], SegmentState]  # the segment's analysis: data, parties, triggers…
    sentences: Callable[[Segment], list[tuple[int, int]]]  # sentence bounds inside a segment
    subject: Callable[[str, SegmentState, int, Hit], PartyMention | None]  # the party acting at a trigger
    negated: Callable[[str, int, int], bool]  # a negation before the trigger in its clause
    # records a rule's event when a trace is attached: (rule, action, segment, start, end, practice, why)
    note: Callable[[str, str, int, int, int, str, str], None] | None = None


def title_like(line: str) -> bool:
    """A short line that reads as a section title ("3. Information We Share", "Children's Privacy.")."""
    t = line.strip()
    if not t:
        return False
    words = t.split()
    question = t[-1] in "?-" and len(words) <= 20 and sum(w[0].isupper() for w in words) >= 0.6 * len(words)
    if not (1 <= len(words) <= 12 or question) or t[0] in "*-+•" or not TITLE_START.match(t):
        return False
    long = [w for w in words if len(w) > 3 and w[0].isalpha()]
    title_case = bool(long) and sum(w[0].isupper() for w in long) >= 0.6 * len(long)
    if (LIST_ITEM.match(t) or re.match(r"To\s+[a-z]+\s", t)) and not title_case:
        return False  # a numbered list item or a purpose item ("To process your orders"), not a section title
    end = t[-1]
    if end in "?-–—":
        return True
    if end in ".:;,!)":
        if end == ":" and len(words) >= 3 and words[0].lower() in {"we", "you", "our", "it", "they"}:
            return False  # "We may use Personal Information:": a capitalised lead-in sentence
        return title_case and (end != "." or len(words) <= 6)
    return title_case or words[0].lower() not in {"we", "you", "our", "your", "if", "this", "it", "they"}


def contents_like(line: str) -> bool:
    """A table of contents or one entry of it: links to the policy's own sections only ("[Your rights](#rights)
    [Cookies](#cookies)", see pp_graph.load.reading.is_contents_entry), or a long run of capitalised section titles
    without a sentence's punctuation ("Children under 13 Information We Collect How We Use Information Your Opt-Out
    Choices …")."""
    t = line.strip()
    if is_contents_entry(t):
        return True
    words = t.split()
    if len(words) < 8 or re.search(r"[.!?;:](?:\s|$)", t):
        return False
    long = [w for w in words if len(w) > 3 and w[0].isalpha()]
    return len(long) >= 6 and sum(w[0].isupper() for w in long) >= 0.75 * len(long)


def list_like(line: str) -> bool:
    """A bulleted line, or an unbulleted list item: starting in lower case or ending in ';' / ', and'."""
    t = line.strip()
    return bool(LIST_ITEM.match(t)) or (
        bool(t)
        and (
            t[0].islower()
            or bool(re.search(r"(?:;|;\s*(?:and|or)|,\s*(?:and|or))$", t))
            # an unpunctuated purpose item: "To process your orders"
            or bool(re.match(r"(?:To|For|In)\s+\w+[^.!?:]*$", t) and len(t.split()) <= 40)
        )
    )


# Paragraph topics a title can name (see _paragraph_rules): the practice categories, and
# topics that are no data practice (the reader's rights and choices).
_PARA_TOPICS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:shar(?:e|es|ed|ing)|disclos\w*|sell|sold|sale|transfer\w*|recipients?|third[- ]part\w*|"
            r"partners?|(?:service )?providers?|with whom|affiliates)\b",
            re.I,
        ),
        "third-party",
    ),
    (
        re.compile(
            r"\b(?:collect\w*|gather\w*|obtain\w*|receive|use|uses|using|process\w*|information we|data we)\b",
            re.I,
        ),
        "first-party",
    ),
    (
        re.compile(
            r"\b(?:secur\w*|safeguard\w*|protect(?:s|ing|ion)?\b(?!\s+(?:of\s+)?(?:our|the)\s+(?:company|rights)))",
            re.I,
        ),
        "security",
    ),
    (re.compile(r"\b(?:retain\w*|retention|(?<!local )stor(?:e|age)|keep|delet\w*|how long)\b", re.I), "retention"),
    (
        re.compile(
            r"\b(?:access(?:ing)?|correct\w*|updat\w*|review\w*|edit\w*|choices?|opt[- ]?(?:out|in)\w*|"
            r"preferences?|control\w*|rights?|unsubscrib\w*|contact(?:ing)?\s+us|questions?)\b",
            re.I,
        ),
        "user",
    ),
)


# The title topics under which a single mention of a practice type is kept.
_PARA_COVERS = {
    PracticeType.FIRST_PARTY_COLLECTION_USE: {"first-party"},
    PracticeType.THIRD_PARTY_COLLECTION_USE: {"third-party", "first-party"},
    PracticeType.THIRD_PARTY_SHARING_DISCLOSURE: {"third-party", "first-party"},
}


# Title topics that a weak trigger in the paragraph's body can confirm (see _weak_support).
_PARA_SUPPORT = {"first-party": "collect", "retention": "retain", "security": "secure"}


def _at(p: PracticeMention) -> tuple[int, int, str]:
    return p.span.start, p.span.end, p.type.value


def _list_siblings(
    segments: list[Segment],
    heads: list[bool],
    out: list[list[PracticeMention]],
    note: Callable[[str, str, int, int, int, str, str], None] | None = None,
) -> None:
    """Items of one list share their lead-in's practice: when most items of a run of list items inherit a
    practice, the items that found none of it (no personal data named, "conduct market research;") take it too.
    """
    i = 0
    while i < len(segments):
        j = i
        while j < len(segments) and not heads[j] and list_like(segments[j].text):
            j += 1
        run = range(i, j)
        if len(run) >= 3:
            # first-seen order, not a set: enum hashes vary per process and the order reaches the graph
            for ptype in dict.fromkeys(p.type for k in run for p in out[k] if p.inherited):
                having = [k for k in run if any(p.type == ptype for p in out[k])]
                model = next(p for k in run for p in out[k] if p.inherited and p.type == ptype)
                if len(having) >= 2 and 2 * len(having) >= len(run):
                    for k in run:
                        if k not in having:
                            out[k].append(replace(model, rules=(*model.rules, "paragraph.list-siblings")))
                            if note:
                                note("paragraph.list-siblings", "made", k, *_at(model), "")
        i = max(j, i + 1)


def _paragraphs(policy: Policy, segments: list[Segment]) -> list[list[int]]:
    """Segment indices grouped into paragraphs (blocks separated by a blank line)."""
    paras: list[list[int]] = []
    for i, seg in enumerate(segments):
        if i and "\n\n" not in policy.text[segments[i - 1].end : seg.start]:
            paras[-1].append(i)
        else:
            paras.append([i])
    return paras


def _paragraph_title(segments: list[Segment], heads: list[bool], para: list[int]) -> str:
    """A paragraph's title: its own first line when that is a heading (or title-like in plain text) and a body
    follows."""
    if len(para) > 1 and heads[para[0]]:
        return segments[para[0]].text
    return ""


@dataclass
class ParagraphPass:
    """What the paragraph rules read and change: the practices found per segment (``out``), after the lines."""

    policy: Policy
    segments: list[Segment]
    heads: list[bool]
    out: list[list[PracticeMention]]
    reader: SentenceReader


ParagraphRule = Callable[[ParagraphPass], None]
PARAGRAPH_RULES: dict[str, ParagraphRule] = {}


def run_paragraph_rules(pp: ParagraphPass) -> None:
    """The paragraph-scope rules in their declared order (data/rules/offline.toml)."""
    done: list[ParagraphRule] = []
    for _, fn in ordered("paragraph", PARAGRAPH_RULES):
        if fn not in done:
            done.append(fn)
            fn(pp)


@register(PARAGRAPH_RULES, "paragraph.list-siblings")
def _list_sibling_pass(pp: ParagraphPass) -> None:
    _list_siblings(pp.segments, pp.heads, pp.out, pp.reader.note)


def _titled(pp: ParagraphPass) -> Iterator[tuple[list[int], str, set[str]]]:
    """Each paragraph with a title line naming a topic: its segment indices, the title and the topics named."""
    for para in _paragraphs(pp.policy, pp.segments):
        title = _paragraph_title(pp.segments, pp.heads, para)
        named = {kind for pattern, kind in _PARA_TOPICS if pattern.search(title)} if title else set()
        if named:
            yield para, title, named


@register(PARAGRAPH_RULES, "paragraph.title-party", "paragraph.passing-mention", "paragraph.replaced-party")
def _title_pass(pp: ParagraphPass) -> None:
    """Paragraph-level evidence: a paragraph with a title line is read as a whole, under its title.

    - A paragraph about another topic (its title names sharing but not collection, security, the reader's
      rights or choices…): a practice its title does not cover, stated in only one sentence, is a passing
      mention (the cue paragraph.passing-mention); more than one sentence is what the paragraph is about.
    - Under a title about one party's collection (the site's or third parties', not both) in a paragraph that
      states no collection of that party, the body's collection of the other party is also read as the titled
      party's (paragraph.title-party: "our hosting partners collect…" under "Information We Collect" is
      first-party, "…is used to serve ads" under "Third-Party Ads" third-party), and the other party's, when
      stated in only one sentence, is scored down (the cue paragraph.replaced-party).

    The rule drops nothing itself: a practice with a paragraph cue is re-scored by the gate (gate.passes).
    """
    out, reader = pp.out, pp.reader
    for para, title, named in _titled(pp):
        sents: dict[str, set[int]] = {}
        for i in para:
            bounds = reader.sentences(pp.segments[i])
            for p in out[i]:
                if not p.inherited:
                    k = next((j for j, (a, b) in enumerate(bounds) if a <= p.span.start < b), 0)
                    sents.setdefault(CATEGORY[p.type], set()).add(bounds[k][0])
        fp, tc = PracticeType.FIRST_PARTY_COLLECTION_USE, PracticeType.THIRD_PARTY_COLLECTION_USE
        convert = {}
        if "first-party" in named and "third-party" not in named and "first-party" not in sents:
            convert[tc] = fp
        if "third-party" in named and "first-party" not in named and "third-party" not in sents:
            convert[fp] = tc
        why = f"title: {title.strip()[:60]}"
        for i in para:
            kept = []
            for p in out[i]:
                cue = "" if len(sents.get(CATEGORY[p.type], ())) > 1 else _title_cue(p, convert, named)
                if not cue or _rescore(pp, i, p, cue, why):
                    kept.append(p)
            for p in out[i]:
                if p.type in convert and not p.inherited:
                    kept.append(
                        PracticeMention(p.span, convert[p.type], p.negated, rules=(*p.rules, "paragraph.title-party"))
                    )
                    if reader.note:
                        reader.note("paragraph.title-party", "changed", i, *_at(kept[-1]), why)
            out[i] = kept


def _title_cue(p: PracticeMention, convert: dict[PracticeType, PracticeType], named: set[str]) -> str:
    """The paragraph cue a practice takes under its paragraph's title (see _title_pass), or ""."""
    if p.type in convert:
        return "@replaced_party"
    if p.type in _PARA_COVERS and not named & _PARA_COVERS[p.type]:
        return "@passing_mention"
    return ""


def _rescore(pp: ParagraphPass, i: int, p: PracticeMention, cue: str, why: str) -> bool:
    """Whether the gate keeps practice ``p`` of segment ``i`` re-scored with a paragraph cue added: read in its
    sentence as the sentence rules read it (its line, for an inherited practice)."""
    seg, note = pp.segments[i], pp.reader.note
    st = pp.reader.state(pp.policy, seg)
    s0, s1 = seg.start, seg.end
    if not p.inherited:
        s0, s1 = next(((a, b) for a, b in pp.reader.sentences(seg) if a <= p.span.start < b), (s0, s1))
    text = pp.policy.text[s0:s1]

    def seg_note(rule: str, action: str, start: int, end: int, practice: str, reason: str) -> None:
        assert note is not None
        note(rule, action, i, start, end, practice, reason)

    return passes(
        p,
        text,
        features(st, s0, s1) | {cue},
        seg_note if note else None,
        inherited=p.inherited,
        at=s0,
        rescored=why,
    )


@register(PARAGRAPH_RULES, "paragraph.weak-support")
def _weak_support_pass(pp: ParagraphPass) -> None:
    """A title naming one practice (and no audience or other off-topic matter) is confirmed by a weaker
    trigger in the body: one that failed only for a missing period, a choice word nearby…"""
    out, reader = pp.out, pp.reader
    for para, title, named in _titled(pp):
        (cat,) = named if len(named) == 1 else ("",)
        found = {CATEGORY[p.type] for i in para for p in out[i]}
        if cat in _PARA_SUPPORT and cat not in found and not OFF_TOPIC.search(title):
            support = _weak_support(pp.policy, pp.segments, para[1:], cat, reader)
            if support is not None:
                out[support[0]].append(support[1])
                if reader.note:
                    reader.note("paragraph.weak-support", "made", support[0], *_at(support[1]), "")


def _weak_support(
    policy: Policy, segments: list[Segment], body: list[int], category: str, reader: SentenceReader
) -> tuple[int, PracticeMention] | None:
    """The first trigger of a category's kind in the body, as the sentence rules would read it but without
    their demands for a period, a security detail or a clean clause: a verb (not "the use of"), not negated,
    the site's own act (or passive, or data the reader gives), in a sentence naming personal data that is
    not about the policy itself or a special audience."""
    kind = _PARA_SUPPORT[category]
    text = policy.text
    for i in body:
        st = reader.state(policy, segments[i])
        for s0, s1 in reader.sentences(segments[i]):
            sentence = text[s0:s1]
            if not any(s0 <= d.start < s1 for d in st.data) or SCOPE.search(sentence) or AUDIENCE.search(sentence):
                continue
            for t in st.triggers:
                if not (s0 <= t.start < s1) or t.entry.value[0] != kind:
                    continue
                word = text[t.start : t.end].lower()
                prev = re.findall(r"[\w']+", text[max(s0, t.start - 30) : t.start].lower())[-1:]
                if word in AMBIGUOUS and prev and prev[0] in NOUN_BEFORE:
                    continue
                if reader.negated(text, s0, t.start) or sentence.rstrip().endswith(":"):
                    continue  # a negation, or a lead-in line whose list follows
                if kind == "secure" and NOT_DATA_PROTECTION.match(text[t.end : s1]):
                    continue  # "protect our rights and property"
                subject = reader.subject(text, st, s0, t)
                before = text[max(s0, t.start - 40) : t.start]
                if (
                    META.search(before)
                    or THIRD_SUBJECT.search(before)
                    or (
                        subject is not None
                        and subject.kind != PartyKind.FIRST_PARTY
                        and "you" not in t.entry.phrase.lower()
                    )
                    or (word.endswith("ed") and subject is None and not PASSIVE.search(before))
                    or (
                        t.entry.value[1] == "agent"
                        and (subject is None or subject.kind == PartyKind.USER)
                        and not PASSIVE.search(before)
                    )
                ):
                    continue  # another party's or the reader's action; "information collected by…": a reference
                return i, PracticeMention(
                    Span.at(text, t.start, t.end), PRACTICE_OF[kind], rules=("paragraph.weak-support",)
                )
    return None
