"""Intent and necessity: is a flow what the user asked for, what the sink needs, or over-exposure?

Intended — the instruction asks for that data: it names the value itself, the data's category ("my phone
number" → pd:TelephoneNumber), a key the value sits under ("the payment date" → ``…date``), or the words
sent are mostly the instruction's own. Words that only name the sink's action ("email", "post", from the
sink tool's name) do not count as asking for data.
Necessary — the sink's contract or JSON schema requires the field, the fact fills it (not a fact tucked into
a free-text body) and its category is the one the field expects.
Everything else is over-exposed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pp_graph.audit.contracts import SinkSpec
from pp_graph.audit.model import INTENDED, NECESSARY, OVER_EXPOSED, Fact, Flow
from pp_graph.audit.text import content_tokens, kinds_named, normalise, sentences
from pp_graph.vocab.dpv import compact

_TOP_FIELD = re.compile(r"\$\.([A-Za-z_][A-Za-z0-9_]*)|\$\['([^']*)'\]")  # the argument a sink path is under
ID_FIELD = 64  # characters: a required field without a category longer than this is free text
FILLS = 0.8  # share of a field's text a fact must cover to fill it
WORDS_FROM_INSTRUCTION = 0.6  # share of a sink sentence's content words that must be the instruction's


@dataclass(frozen=True)
class Instruction:
    norm: str
    tokens: frozenset[str]
    kinds: frozenset[str]

    @classmethod
    def of(cls, text: str, sink_tool: str) -> Instruction:
        n = normalise(text).text
        spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", sink_tool).lower()
        action = set(content_tokens(normalise(spaced).text))
        return cls(f" {n} ", frozenset(content_tokens(n)) - action, frozenset(kinds_named(text)))


def intent(flow: Flow, fact: Fact, instr: Instruction, sink_text: str) -> str | None:
    """Why the instruction asks for this flow, or None."""
    if len(fact.norm) >= 3 and f" {fact.norm} " in instr.norm:
        return "the instruction names this value"
    if fact.kind and fact.unit != "sentence" and fact.kind in instr.kinds:
        # A value's category is what a user names ("my phone number"); a sentence's is a keyword guess.
        return f"the instruction asks for {compact(fact.kind)}"
    for k in fact.keys[-2:]:
        if k in instr.tokens:
            return f"the instruction names the key word {k!r}"
    if flow.unit != "pii":
        s, e = flow.sink_span
        sent = content_tokens(normalise(sink_text[s:e]).text)
        if sent and sum(t in instr.tokens for t in sent) >= WORDS_FROM_INSTRUCTION * len(sent):
            return "the words sent are mostly the instruction's"
    return None


def necessity(flow: Flow, sink: SinkSpec | None, sink_text: str) -> str | None:
    """Why the sink needs this flow, or None."""
    if sink is None:
        return None
    field = _TOP_FIELD.match(flow.sink_path)
    name = (field.group(1) or field.group(2)) if field else None
    spec = sink.fields.get(name or "")
    if spec is None or not spec.required:
        return None
    s, e = flow.sink_span
    if spec.category:
        if flow.kind != spec.category:
            return None
    elif len(sink_text) > ID_FIELD or len(sentences(sink_text)) > 1:
        return None  # a free-text field (a body, a post) requires some text, not this fact
    if (e - s) < FILLS * len(sink_text.strip()):
        return None  # the fact is only part of what the field holds
    how = "contract" if sink.source == "contract" else "JSON schema"
    what = f" ({compact(spec.category)})" if spec.category else ""
    return f"the {how} of {sink.name} requires field {name!r}{what}"


def judge(flow: Flow, fact: Fact, instr: Instruction, sink: SinkSpec | None, sink_text: str) -> None:
    """Set the flow's verdict and reasons."""
    why = intent(flow, fact, instr, sink_text)
    if why:
        flow.verdict, flow.reasons = INTENDED, [why]
        return
    why = necessity(flow, sink, sink_text)
    if why:
        flow.verdict, flow.reasons = NECESSARY, [why]
        return
    flow.verdict = OVER_EXPOSED
    what = compact(fact.kind) if fact.kind else "data"
    flow.reasons = [f"{what} from step {flow.source_step} is neither asked for nor required by {flow.sink_tool}"]
