"""Contradictions as JSON (the contract), a table, markdown or CSV rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pp_graph.contradict.find import PolicyContradictions
from pp_graph.contradict.pairs import Contradiction
from pp_graph.contradict.statements import Statement
from pp_graph.report.formats import Report, aligned, csv_text
from pp_graph.vocab.dpv import compact

CSV_COLUMNS = (
    *("file", "site", "practice", "data", "relation", "reason"),
    *("line_1", "start_1", "end_1", "negated_1", "text_1", "line_2", "start_2", "end_2", "negated_2", "text_2"),
)


def _statement(p: PolicyContradictions, s: Statement) -> dict[str, Any]:
    return {"line": p.line(s.start), "start": s.start, "end": s.end, "text": s.text, "negated": s.negated}


def _entry(p: PolicyContradictions, c: Contradiction) -> dict[str, Any]:
    return {
        "statements": [_statement(p, s) for s in c.statements],
        "practice": c.practice,
        "data": compact(c.data),
        "relation": c.relation,
        "reason": c.reason,
    }


def to_json(results: Sequence[PolicyContradictions]) -> dict[str, Any]:
    """``{"policies": [{"file", "site", "contradictions": [{"statements": [{"line", "start", "end", "text",
    "negated"}, {…}], "practice", "data", "relation", "reason"}]}]}``; ``line`` is 1-based, null for a graph."""
    return {
        "policies": [
            {"file": p.policy.file, "site": p.policy.site, "contradictions": [_entry(p, c) for c in p.contradictions]}
            for p in results
        ]
    }


def _where(p: PolicyContradictions, s: Statement) -> str:
    line = p.line(s.start)
    return f"line {line}" if line is not None else f"chars {s.start}-{s.end}"


def to_table(results: Sequence[PolicyContradictions]) -> str:
    rows = [("site", "denial", "affirmation", "practice", "data", "relation")]
    for p in results:
        for c in p.contradictions:
            where = (_where(p, c.denial), _where(p, c.affirmation))
            rows.append((p.policy.site or p.policy.file, *where, c.practice, compact(c.data), c.relation))
    lines = aligned(rows, trim=True)
    total = sum(len(p.contradictions) for p in results)
    return "\n".join([*lines, f"{total} contradiction(s) in {len(results)} polic{'y' if len(results) == 1 else 'ies'}"])


def to_markdown(results: Sequence[PolicyContradictions]) -> str:
    out: list[str] = []
    for p in results:
        out.append(f"## {p.policy.site or p.policy.file}\n")
        out.append(f"Source: `{p.policy.file}`. {len(p.contradictions) or 'No'} contradiction(s).\n")
        for c in p.contradictions:
            out.append(f"- **{c.practice}** `{compact(c.data)}` ({c.relation}): {c.reason}")
            for s in c.statements:
                out.append(f"  - {_where(p, s)} ({'denies' if s.negated else 'states'}): {s.text}")
        out.append("")
    return "\n".join(out)


def _csv_row(p: PolicyContradictions, c: Contradiction) -> list[Any]:
    row: list[Any] = [p.policy.file, p.policy.site, c.practice, compact(c.data), c.relation, c.reason]
    for s in c.statements:
        row += [p.line(s.start), s.start, s.end, s.negated, s.text]
    return row


def to_csv(results: Sequence[PolicyContradictions]) -> str:
    return csv_text(CSV_COLUMNS, (_csv_row(p, c) for p in results for c in p.contradictions))


REPORT = Report(to_json, to_table, to_markdown, to_csv)
