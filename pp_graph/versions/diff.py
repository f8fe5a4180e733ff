"""Semantic diff of two policy versions: what they say about data, not which words changed.

Each version is reduced to *statements*: one per (practice type, polarity, data class), carrying the purposes,
recipient kinds and retention periods its practices attach, and their evidence (line text and offsets). Two
versions are aligned statement by statement, by meaning:

- a statement in both versions whose purposes, recipient kinds or retention differ is **changed**;
- the same (type, data) with its polarity flipped ("we share" → "we do not share") is a **negation flipped**;
- a data class replaced by a broader or narrower one in the DPV hierarchy (pd:EmailAddress → pd:Contact) under the
  same type and polarity is **broadened** / **narrowed**, not a removal plus an addition;
- what is left is **added** or **removed**.
Policy-level statements (legal bases, rights) are compared as sets. Wording-only edits leave every statement as it
was, so they give an empty diff however large the text diff is.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from pp_graph.query.corpus import Corpus, PolicySummary, PolicyView, Practice, Segment
from pp_graph.versions.severity import severity
from pp_graph.vocab.dpv import compact

GENERIC = "https://w3id.org/dpv#PersonalData"  # a practice that names no data class speaks of personal data


@dataclass(frozen=True)
class Evidence:
    text: str
    start: int
    end: int
    practice: str
    inherited: bool = False  # the practice was read from the line's heading, not from the line itself

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "practice": self.practice,
            "from_heading": self.inherited,
        }


@dataclass
class Statement:
    type: str
    negated: bool
    data: str
    purposes: set[str] = field(default_factory=set)
    recipients: set[str] = field(default_factory=set)
    retention: set[str] = field(default_factory=set)
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, bool, str]:
        return (self.type, self.negated, self.data)

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "negated": self.negated,
            "data": compact(self.data),
            "purposes": sorted(map(compact, self.purposes)),
            "recipients": sorted(self.recipients),
            "retention": sorted(self.retention),
            "evidence": [e.to_dict() for e in self.evidence[:3]],
        }


@dataclass
class Change:
    kind: str  # added, removed, changed, negation-flipped, broadened, narrowed, legal-basis-added …
    type: str | None
    data: str | None
    details: dict[str, Any]
    old: list[Evidence] = field(default_factory=list)
    new: list[Evidence] = field(default_factory=list)

    @property
    def from_heading(self) -> bool:
        """Every practice behind this change was read from a heading: moving or renaming a heading can cause it."""
        ev = self.old + self.new
        return bool(ev) and all(e.inherited for e in ev)

    @property
    def severity(self) -> tuple[str, str]:
        """(level, reason): low, medium or high, by data/versions/severity.toml."""
        return severity(self.kind, self.type, self.data, self.details)

    def to_dict(self) -> dict[str, Any]:
        level, why = self.severity
        return {
            "kind": self.kind,
            "severity": level,
            "severity_reason": why,
            "from_heading": self.from_heading,
            "type": self.type,
            "data": compact(self.data) if self.data else None,
            **self.details,
            "evidence_old": [e.to_dict() for e in self.old[:3]],
            "evidence_new": [e.to_dict() for e in self.new[:3]],
        }


@dataclass
class Diff:
    site: str
    old: PolicySummary
    new: PolicySummary
    added: list[Change]
    removed: list[Change]
    changed: list[Change]
    # {"from": …, "to": …} when the two graphs were made by different extractors (rules, lexicons or segmenter):
    # then the changes can come from the extractor, not from the text
    extractor: dict[str, dict[str, str]] | None = None

    @property
    def extractor_changed(self) -> bool:
        return self.extractor is not None

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "site": self.site,
            "from": {"valid_from": self.old.valid_from, "policy": self.old.policy, "digest": self.old.digest},
            "to": {"valid_from": self.new.valid_from, "policy": self.new.policy, "digest": self.new.digest},
            "text_changed": self.old.digest != self.new.digest,
            "extractor_changed": self.extractor_changed,
            "extractor": self.extractor,
            "added": [c.to_dict() for c in self.added],
            "removed": [c.to_dict() for c in self.removed],
            "changed": [c.to_dict() for c in self.changed],
        }


def statements(view: PolicyView) -> dict[tuple[str, bool, str], Statement]:
    segs = {s.iri: s for s in view.segments}
    out: dict[tuple[str, bool, str], Statement] = {}
    for p in view.practices:
        seg = segs.get(p.segment)
        for d in p.concepts("data") or [GENERIC]:
            st = out.setdefault((p.type, p.negated, d), Statement(p.type, p.negated, d))
            _attach(st, p, seg)
    return out


def _attach(st: Statement, p: Practice, seg: Segment | None) -> None:
    st.purposes.update(p.concepts("purpose"))
    st.recipients.update(
        ln.kind.rsplit("#", 1)[-1].removeprefix("recipient-") for ln in p.links if ln.role == "receiver" and ln.kind
    )
    if p.retention:
        st.retention.add(str(p.retention))
    if seg is not None:
        st.evidence.append(Evidence(seg.text, seg.start, seg.end, p.iri, p.inherited))


def diff_views(c: Corpus, old: PolicyView, new: PolicyView) -> Diff:
    a, b = statements(old), statements(new)
    added: list[Change] = []
    removed: list[Change] = []
    changed: list[Change] = []
    only_a = {k: v for k, v in a.items() if k not in b}
    only_b = {k: v for k, v in b.items() if k not in a}
    for k in sorted(set(a) & set(b)):
        changed.extend(_compare(a[k], b[k]))
    _pair_flips(only_a, only_b, changed)
    _pair_hierarchy(c, only_a, only_b, changed)
    added.extend(_single("added", st, new=True) for _, st in sorted(only_b.items()))
    removed.extend(_single("removed", st, new=False) for _, st in sorted(only_a.items()))
    changed.extend(_policy_level(c, old.summary, new.summary))
    before, after = extractor_of(old), extractor_of(new)
    moved = {"from": before, "to": after} if before and after and before != after else None
    return Diff(new.summary.site, old.summary, new.summary, added, removed, changed, moved)


# Graphs made before segments were units of meaning record no segmenter: theirs cut one segment per line.
LINE_SEGMENTER = "units-1"


def extractor_of(view: PolicyView) -> dict[str, str]:
    """The extractor that made a graph's practices: backend, rule-set or model, lexicon/prompt hash, segmenter
    (empty when the graph has no practice to tell)."""
    for p in view.practices:
        prov = p.provenance
        if prov.get("extractor"):
            keys = ("extractor", "model", "promptVersion")
            return {k: prov.get(k, "") for k in keys} | {"segmenter": prov.get("segmenterVersion", LINE_SEGMENTER)}
    return {}


def _single(kind: str, st: Statement, *, new: bool) -> Change:
    details = {
        "negated": st.negated,
        "purposes": sorted(map(compact, st.purposes)),
        "recipients": sorted(st.recipients),
        "retention": sorted(st.retention),
    }
    return Change(kind, st.type, st.data, details, [] if new else st.evidence, st.evidence if new else [])


def _compare(x: Statement, y: Statement) -> list[Change]:
    out = []
    for attr, label in (("purposes", "purpose"), ("recipients", "recipient-kind"), ("retention", "retention")):
        before, after = getattr(x, attr), getattr(y, attr)
        if before == after:
            continue
        if attr == "retention" and before and after:
            details = {"negated": x.negated, "from": sorted(before), "to": sorted(after)}
            out.append(Change("retention-changed", x.type, x.data, details, x.evidence, y.evidence))
            continue
        for kind, values in ((f"{label}-added", after - before), (f"{label}-removed", before - after)):
            if values:
                shown = sorted(map(compact, values)) if attr == "purposes" else sorted(values)
                out.append(
                    Change(kind, x.type, x.data, {"negated": x.negated, "values": shown}, x.evidence, y.evidence)
                )
    return out


def _pair_flips(only_a: dict[Any, Statement], only_b: dict[Any, Statement], changed: list[Change]) -> None:
    for key in sorted(only_b):
        t, neg, d = key
        other = (t, not neg, d)
        if other in only_a:
            x, y = only_a.pop(other), only_b.pop(key)
            details = {"negated_before": x.negated, "negated_after": y.negated}
            changed.append(Change("negation-flipped", t, d, details, x.evidence, y.evidence))


def _pair_hierarchy(
    c: Corpus, only_a: dict[Any, Statement], only_b: dict[Any, Statement], changed: list[Change]
) -> None:
    """A data class swapped for an ancestor or descendant under the same type and polarity."""
    by_head: dict[tuple[str, bool], list[tuple[str, bool, str]]] = defaultdict(list)
    for key in sorted(only_a):
        by_head[key[:2]].append(key)
    for key in sorted(only_b):
        t, neg, d = key
        for old_key in by_head.get((t, neg), []):
            if old_key not in only_a:
                continue
            od = old_key[2]
            if d in c.vocab.broader_closure(od) and d != od:
                kind = "broadened"
            elif od in c.vocab.broader_closure(d) and d != od:
                kind = "narrowed"
            else:
                continue
            x, y = only_a.pop(old_key), only_b.pop(key)
            details = {"negated": neg, "from": compact(od), "to": compact(d)}
            changed.append(Change(kind, t, d, details, x.evidence, y.evidence))
            break


def _policy_level(c: Corpus, old: PolicySummary, new: PolicySummary) -> list[Change]:
    out = []
    for kind in ("legal-basis", "right"):
        before, after = c.policy_statements[old.policy][kind], c.policy_statements[new.policy][kind]
        for label, values in ((f"{kind}-added", after - before), (f"{kind}-removed", before - after)):
            if values:
                out.append(Change(label, None, None, {"values": sorted(map(compact, values))}))
    return out


def diff(c: Corpus, old: PolicySummary, new: PolicySummary) -> Diff:
    return diff_views(c, c.view(old), c.view(new))


@dataclass
class Point:
    """One step of a site's history: a version and what changed since the one before it."""

    version: PolicySummary
    diff: Diff | None  # None for the first version

    def to_dict(self) -> dict[str, Any]:
        d = self.diff
        return {
            "valid_from": self.version.valid_from,
            "policy": self.version.policy,
            "digest": self.version.digest,
            "practices": self.version.total,
            "text_changed": d.old.digest != d.new.digest if d else None,
            "added": len(d.added) if d else 0,
            "removed": len(d.removed) if d else 0,
            "changed": len(d.changed) if d else 0,
            "changes": [c.to_dict() for c in (d.added + d.removed + d.changed)] if d else [],
        }


def history(c: Corpus, site: str) -> list[Point]:
    """Every version of ``site`` in date order, each with its semantic diff from the previous one."""
    versions = c.versions_of(site)
    points = [Point(versions[0], None)]
    points.extend(Point(b, diff(c, a, b)) for a, b in pairwise(versions))
    return points
