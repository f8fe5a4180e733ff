"""A site's policy as a short Markdown summary: the MCP resource ``policy://SITE``.

What the graph holds for the site's newest version: where it came from (policy IRIs, content digests, version
date), the practices by type, every negated practice with its line, legal bases, rights and retention.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pp_graph.vocab.dpv import compact

_LINE = 240  # characters of a negated practice's policy line shown


def policy_summary(prof: Any) -> str:
    """Markdown for one ``pp_graph.risk.signals.Profile``."""
    d = prof.describe()
    lines = [f"# Privacy policy of {prof.site}", ""]
    lines += [f"- policy graph: <{p}>" for p in prof.policies]
    lines += [f"- content digest: {x}" for x in prof.content_digests]
    lines.append(f"- graph digest: {d['graph_digest']}")
    if prof.valid_from:
        lines.append(f"- version in force from {prof.valid_from} ({prof.versions} version(s) in the graph)")
    lines.append(f"- {prof.characters:,} characters, {len(prof.practices)} practices")
    lines += ["", "## Practices by type", ""]
    by_type = Counter((p.label, p.negated) for p in prof.practices)
    for (label, negated), n in sorted(by_type.items()):
        lines.append(f"- {label}{' (negated)' if negated else ''}: {n}")
    data = Counter(compact(x) for p in prof.practices if not p.negated for x in p.data)
    if data:
        lines += ["", "## Data categories stated (practices naming each)", ""]
        lines += [f"- {c}: {n}" for c, n in sorted(data.items(), key=lambda kv: (-kv[1], kv[0]))[:25]]
    negated = [p for p in prof.practices if p.negated]
    if negated:
        lines += ["", "## What the policy says it does not do", ""]
        for p in negated:
            text = " ".join((p.text or "").split())
            text = text if len(text) <= _LINE else text[: _LINE - 1] + "…"
            lines.append(f"- {p.label} [{p.start}–{p.end}]: {text}")
    for title, values in (
        ("Legal bases", sorted(compact(x) for x in prof.legal_bases)),
        ("User rights", sorted(compact(x) for x in prof.rights)),
        ("Retention", list(prof.retention)),
    ):
        if values:
            lines += ["", f"## {title}", "", *(f"- {v}" for v in values)]
    return "\n".join(lines) + "\n"
