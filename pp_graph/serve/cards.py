"""A practice's card (type, polarity, links with their DPV labels, spans, retention, provenance, offsets) as HTML.

Built in Python rather than in the template: the largest policy has about 500 cards, and a Jinja loop over
them costs most of the page's render time. Every value is escaped here. DPV definitions are not repeated on
each card: the card links each concept to the page's glossary, where its definition is given once.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from pp_graph.query.corpus import Link, Practice, Segment
from pp_graph.vocab.dpv import compact

MAX_SPANS = 3  # spans listed per link; a party can have dozens in one line


def concept_id(iri: str) -> str:
    return "dpv-" + "".join(ch if ch.isalnum() else "-" for ch in compact(iri))


def _spans(ln: Link) -> str:
    out = "".join(f"<br><small>“{escape(s.text)}” [{s.start}–{s.end}]</small>" for s in ln.spans[:MAX_SPANS])
    if len(ln.spans) > MAX_SPANS:
        out += f" <small>and {len(ln.spans) - MAX_SPANS} more</small>"
    return out


def _link(ln: Link, label: Callable[[str], str]) -> str:
    if ln.name:
        kind = ln.kind.rsplit("#", 1)[-1].removeprefix("recipient-") if ln.kind else ""
        value = escape(ln.name) + (f" <small>({escape(kind)})</small>" if kind else "")
    else:
        value = (
            f'<a class="concept" href="#{concept_id(ln.value)}">{escape(label(ln.value))}</a> '
            f"<code>{escape(compact(ln.value))}</code>"
        )
    return f"<dt>{escape(ln.role)}</dt><dd>{value}{_spans(ln)}</dd>"


def card(p: Practice, seg: Segment, label: Callable[[str], str]) -> str:
    flags = (' <span class="neg">negated</span>' if p.negated else "") + (
        ' <span class="inh">from heading</span>' if p.inherited else ""
    )
    rows = []
    if p.trigger:
        rows.append(f"<dt>trigger</dt><dd>“{escape(p.trigger.text)}” [{p.trigger.start}–{p.trigger.end}]</dd>")
    rows.extend(_link(ln, label) for ln in p.links)
    if p.retention or p.retention_text:
        wording = f" “{escape(p.retention_text)}”" if p.retention_text else ""
        rows.append(f"<dt>retention</dt><dd>{escape(p.retention or '')}{wording}</dd>")
    if p.storage_place:
        rows.append(f"<dt>storage place</dt><dd>{escape(p.storage_place)}</dd>")
    rows.extend(f"<dt>{escape(name)}</dt><dd><code>{escape(value)}</code></dd>" for name, value in p.details)
    prov = " · ".join(f"{escape(k)} <code>{escape(v)}</code>" for k, v in p.provenance.items())
    rows.append(f"<dt>provenance</dt><dd>{prov}</dd>")
    rows.append(f"<dt>line</dt><dd>segment {seg.index} [{seg.start}–{seg.end}] · <code>{escape(p.iri)}</code></dd>")
    return (
        f'<article class="practice t-{escape(p.type)}" id="{escape(p.id)}"><h3>{escape(p.type)}{flags}</h3>'
        f"<dl>{''.join(rows)}</dl></article>"
    )
