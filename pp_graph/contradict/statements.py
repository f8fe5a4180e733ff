"""The statements a contradiction is made of, read from one policy graph's triples: each data practice with its
practice, polarity, data categories, actors, line and the sentence around its trigger."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from rdflib.namespace import RDF

from pp_graph.contradict.cues import Cues, cues
from pp_graph.errors import InputError
from pp_graph.graph.namespaces import PPG, PR2G

Triple = tuple[str, str, str]

KEEP = frozenset(
    str(p)
    for p in (
        RDF.type,
        PR2G["for"],
        PR2G.hasDomain,
        PR2G.hasDataPractice,
        PPG.sourceName,
        PPG.practiceLabel,
        PPG.negated,
        PPG.inherited,
        PR2G.text,
        PR2G.value,
        PPG.start,
        PPG.end,
        PPG.trigger,
        PR2G.data,
        PR2G.purpose,
        PPG.collector,
        PR2G.receiver,
        PR2G.sharer,
        PPG.recipientKind,
        PPG.evidence,
        PPG.denotes,
        PPG.anchorText,
    )
)
_POLICY = str(PR2G.PrivacyPolicy)
_KIND = str(PPG) + "recipient-"
# A sentence ends at . ! ? ; followed by a space (not inside "e.g. ": good enough for the cues' search).
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?;](?=\s)|\|")  # a table cell is a sentence too
_WORD = re.compile(r"[A-Za-z]{2,}")


@dataclass(frozen=True, slots=True)
class Statement:
    """One data practice as the policy states it; offsets are into the policy text."""

    practice: str  # collect | use | share | sell | retain (see data/contradict/cues.toml)
    covers: frozenset[str]  # the practices its denial denies
    negated: bool
    third_party_collection: bool
    start: int  # the line
    end: int
    text: str
    trigger: tuple[int, int]
    sentence: str  # the sentence of the line that holds the trigger
    data: frozenset[str]
    purposes: frozenset[str]
    collectors: frozenset[str]  # recipient kinds of the collecting parties (first_party for the policy's own)
    sharers: frozenset[str]
    receivers: frozenset[str]


@dataclass
class PolicyStatements:
    file: str
    site: str
    source: str  # the policy file the graph was converted from (ppg:sourceName)
    statements: list[Statement] = field(default_factory=list)
    text: str | None = None  # the policy text, when known (line numbers come from it)


def sentence_at(line: str, offset: int) -> tuple[int, int]:
    """The bounds (relative to the line) of the sentence of ``line`` holding character ``offset``."""
    start = 0
    for m in _SENTENCE_END.finditer(line):
        if m.end() > offset:
            return start, m.end()
        start = m.end()
    return start, len(line)


def is_statement(line: str, sentence: str) -> bool:
    """Whether a line states something: not a heading, a menu of links or a few words (a label, a list item)."""
    from pp_graph.load.reading import is_navigation

    return not line.lstrip().startswith("#") and not is_navigation(line) and len(_WORD.findall(sentence)) >= 5


class _Graph:
    def __init__(self, triples: Iterable[Triple]) -> None:
        self.name = ""
        self.edges: dict[tuple[str, str], list[str]] = defaultdict(list)
        for s, p, o in triples:
            if p in KEEP:
                self.edges[(s, p)].append(o)

    def all(self, s: str, p: object) -> list[str]:
        return self.edges.get((s, str(p)), [])

    def one(self, s: str, p: object) -> str | None:
        vals = self.all(s, p)
        return vals[0] if vals else None

    def kinds(self, parties: list[str]) -> frozenset[str]:
        out = {k[len(_KIND) :].replace("-", "_") for n in parties for k in self.all(n, PPG.recipientKind)}
        return frozenset(k for k in out if k)


def _bare(text: str, span: tuple[int, int], bounds: tuple[int, int], trigger: str, rules: Cues) -> bool:
    """Whether a generic mention ("data", "personal information") stands alone: no word that narrows it right before
    ("image enhancing data") or after ("data that qualifies as sensitive")."""
    before = _WORD.findall(text[bounds[0] : span[0]])
    after = re.match(r"\s*([A-Za-z]+)", text[span[1] : bounds[1]])
    ok_before = not before or before[-1].lower() in rules.generic_before | {w.lower() for w in _WORD.findall(trigger)}
    return ok_before and (after is None or after.group(1).lower() in rules.generic_after)


def _data(
    g: _Graph, node: str, line: tuple[int, str], bounds: tuple[int, int], trigger: tuple[int, int]
) -> frozenset[str]:
    """The practice's data named in the trigger's sentence (after the trigger in the active voice, before it in the
    passive), not by a word pointing back ("this information": the data is named elsewhere, the link is a guess).
    ``trigger``: the trigger's span in the line; ``line``: the line's start offset and text."""
    start, text = line
    rules = cues()
    active = rules.voice.active(text[bounds[0] : trigger[0]], g.name)
    own = text[trigger[0] : trigger[1]]
    linked, out = set(g.all(node, PR2G.data)), set()
    for m in g.all(node, PPG.evidence):
        concept, m_start, m_end = g.one(m, PPG.denotes), g.one(m, PPG.start), g.one(m, PPG.end)
        if concept not in linked or m_start is None or m_end is None:
            continue
        span = (int(m_start) - start, int(m_end) - start)
        if span[0] < bounds[0] or span[1] > bounds[1] or rules.anaphora.search(text[bounds[0] : span[0]]):
            continue
        if (span[0] < trigger[1]) if active else (span[1] > trigger[0]):
            continue
        if concept not in rules.generic_data or _bare(text, span, bounds, own, rules):
            out.add(concept)
    return frozenset(out)


def _statement(g: _Graph, node: str, rules: Cues) -> Statement | None:
    label, trigger = g.one(node, PPG.practiceLabel), g.one(node, PPG.trigger)
    line = g.one(node, PR2G.text)
    if label is None or trigger is None or line is None or g.one(node, PPG.inherited) in ("true", "1"):
        return None  # a type inherited from a heading states nothing of its own line's polarity
    text, start, end = g.one(line, PR2G.value), g.one(line, PPG.start), g.one(line, PPG.end)
    t_start, t_end = g.one(trigger, PPG.start), g.one(trigger, PPG.end)
    if text is None or start is None or end is None or t_start is None or t_end is None:
        raise InputError(node, "a practice lacks its line's text or its trigger's offsets")
    offset = int(t_start) - int(start)
    practice = rules.practice(label, text[offset : int(t_end) - int(start)])
    bounds = sentence_at(text, offset)
    sentence = text[bounds[0] : bounds[1]].strip()
    data = _data(g, node, (int(start), text), bounds, (offset, int(t_end) - int(start)))
    negated = g.one(node, PPG.negated) in ("true", "1")
    if practice is None or not data or not is_statement(text, sentence):
        return None
    if not rules.voice.voiced(text[bounds[0] : offset], negated, g.name):
        return None  # another party's doing, or a negation that belongs to another verb
    return Statement(
        practice=practice.id,
        covers=practice.covers,
        negated=negated,
        third_party_collection=label == "third-party-collection-use",
        start=int(start),
        end=int(end),
        text=text,
        trigger=(int(t_start), int(t_end)),
        sentence=sentence,
        data=data,
        purposes=frozenset(g.all(node, PR2G.purpose)),
        collectors=g.kinds(g.all(node, PPG.collector)),
        sharers=g.kinds(g.all(node, PR2G.sharer)),
        receivers=g.kinds(g.all(node, PR2G.receiver)),
    )


def policy_statements(triples: Iterable[Triple], file: str) -> PolicyStatements:
    """The statements of one policy's named graph; InputError naming ``file`` when it holds no policy."""
    g = _Graph(triples)
    policies = sorted(s for (s, p), os in g.edges.items() if p == str(RDF.type) and _POLICY in os)
    if len(policies) != 1:
        raise InputError(file, f"expected one pr2g:PrivacyPolicy in a policy graph, found {len(policies)}")
    pol = policies[0]
    site_node = g.one(pol, PR2G["for"])
    site = (g.one(site_node, PR2G.hasDomain) if site_node else None) or ""
    g.name = site.split(".")[0]  # the party's own name, as its policy calls itself ("Example does not sell …")
    out = PolicyStatements(file, site, g.one(pol, PPG.sourceName) or "")
    rules = cues()
    for node in sorted(g.all(pol, PR2G.hasDataPractice)):
        st = _statement(g, node, rules)
        if st is not None:
            out.statements.append(st)
    out.statements.sort(key=lambda s: (s.start, s.trigger))
    return out
