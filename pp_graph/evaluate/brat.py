"""brat standoff annotations (.ann beside .txt): loader and span-level scoring of a backend.

Expected annotation scheme (Policy-IE / Pr2Graph style; type names are matched case-insensitively):

- text-bound entities ``T``: ``Data``, ``Purpose``, ``First-party-entity``, ``Third-party-entity``, ``User``,
  and practice triggers named by the practice types (``first-party-collection-use``…);
- events ``E``: ``<practice type>:T<trigger> Role:T<arg> …`` with Policy-IE roles (``Data-Collected``…);
- relations ``R``: ``Role Arg1:T<practice trigger> Arg2:T<entity>`` (the same tuples, written as relations);
- attributes ``A``: ``Concept T<n> pd:EmailAddress`` gives the DPV class of a Data or Purpose entity.

Spans are scored with the relaxed symmetric LCS ratio and optimal one-to-one matching (metrics.py);
relations count when their practice and entity are matched spans and the role is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.evaluate.metrics import (
    PRF,
    Compatible,
    Item,
    Matching,
    SegmentScores,
    hierarchy_compatible,
    match_items,
    same_label,
)
from pp_graph.model import PartyKind, PolicyExtraction, PracticeType, SegmentExtraction

PARTY_TYPES = {
    "first-party-entity": PartyKind.FIRST_PARTY,
    "third-party-entity": PartyKind.THIRD_PARTY,
    "user": PartyKind.USER,
}
CONCEPT_ATTRIBUTES = {"concept", "class", "dpv"}


@dataclass(frozen=True)
class Entity:
    id: str
    type: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Event:
    id: str
    type: str
    trigger: str  # entity id
    args: tuple[tuple[str, str], ...]  # (role, entity id)


@dataclass(frozen=True)
class BinaryRelation:
    id: str
    type: str
    arg1: str
    arg2: str


@dataclass
class BratDocument:
    name: str
    text: str
    entities: dict[str, Entity] = field(default_factory=dict)
    events: dict[str, Event] = field(default_factory=dict)
    relations: list[BinaryRelation] = field(default_factory=list)
    concepts: dict[str, str] = field(default_factory=dict)  # entity id → DPV CURIE/IRI

    def tuples(self) -> set[tuple[str, str, str]]:
        """(practice trigger id, role, entity id) from events and relations alike."""
        out = {(e.trigger, role, arg) for e in self.events.values() for role, arg in e.args}
        out |= {(r.arg1, r.type, r.arg2) for r in self.relations}
        return out


def load_document(ann: Path) -> BratDocument:
    """Read ``X.ann`` and ``X.txt``; every text-bound span must equal the text at its offsets."""
    txt = ann.with_suffix(".txt")
    try:
        text = txt.read_text(encoding="utf-8")
        lines = ann.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(ann.name, f"cannot read the .ann/.txt pair ({e.strerror})") from e
    doc = BratDocument(ann.stem, text)
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        where = f"{ann.name}:{n}"
        fields = line.split("\t")
        ident = fields[0]
        try:
            if ident[0] == "T":
                type_, _, offs = fields[1].partition(" ")
                frags = [tuple(int(x) for x in f.split()) for f in offs.split(";")]
                start, end = frags[0][0], frags[-1][1]
                surface = fields[2] if len(fields) > 2 else ""
                if len(frags) == 1 and text[start:end] != surface:
                    raise InputError(where, f"span {start}-{end} is {text[start:end]!r} in the .txt, not {surface!r}")
                doc.entities[ident] = Entity(ident, type_, start, end, text[start:end])
            elif ident[0] == "E":
                parts = fields[1].split()
                type_, _, trig = parts[0].partition(":")
                args = tuple((r.rstrip("0123456789"), a) for r, _, a in (p.partition(":") for p in parts[1:]))
                doc.events[ident] = Event(ident, type_, trig, args)
            elif ident[0] == "R":
                type_, a1, a2 = fields[1].split()[:3]
                doc.relations.append(BinaryRelation(ident, type_, a1.partition(":")[2], a2.partition(":")[2]))
            elif ident[0] == "A":
                parts = fields[1].split()
                if parts[0].lower() in CONCEPT_ATTRIBUTES and len(parts) == 3:
                    doc.concepts[parts[1]] = parts[2]
        except (IndexError, ValueError) as e:
            raise InputError(where, f"malformed brat line {line!r}") from e
    # Events point at their trigger entity; resolve ids so every reference exists.
    for ev in doc.events.values():
        for ref in (ev.trigger, *(a for _, a in ev.args)):
            if ref not in doc.entities and ref not in doc.events:
                raise InputError(ann.name, f"event {ev.id} refers to {ref}, which is not defined")
    for r in doc.relations:
        for ref in (r.arg1, r.arg2):
            if ref not in doc.entities and ref not in doc.events:
                raise InputError(ann.name, f"relation {r.id} refers to {ref}, which is not defined")
    return doc


def load_folder(folder: Path) -> list[BratDocument]:
    if not folder.is_dir():
        raise InputError(str(folder), "no such folder")
    anns = sorted(folder.rglob("*.ann"))
    if not anns:
        raise InputError(str(folder), "contains no .ann files")
    return [load_document(a) for a in anns]


# ---- scoring ----

TASKS = (
    "data spans",
    "data classes (exact)",
    "data classes (hierarchy)",
    "purpose spans",
    "purpose classes (exact)",
    "purpose classes (hierarchy)",
    "parties",
    "practices",
    "relations",
)


def _trigger_id(doc: BratDocument, ref: str) -> str:
    return doc.events[ref].trigger if ref in doc.events else ref


def score_document(doc: BratDocument, ex: PolicyExtraction, scores: dict[str, SegmentScores]) -> None:
    """Add one document's per-segment results to ``scores`` (task → SegmentScores)."""
    from pp_graph.vocab.dpv import vocabulary

    hier = hierarchy_compatible(vocabulary().ancestors)
    ents = sorted(doc.entities.values(), key=lambda e: (e.start, e.end))
    doc_tuples = doc.tuples()  # gold relations of the document, read once
    for res in ex.results:
        seg = res.segment
        gold = _gold_items(doc, [e for e in ents if seg.start <= e.start < seg.end])
        pred, prac_idx = _predicted_items(res)
        matched = _score_spans(pred, {k: items for k, (items, _) in gold.items()}, hier, scores)
        scores["relations"].add(_relations_prf(doc, doc_tuples, res, matched, gold, prac_idx))


def _gold_items(doc: BratDocument, inside: list[Entity]) -> dict[str, tuple[list[Item], list[str]]]:
    """Per kind, the segment's gold items (labelled with their DPV class, party kind or practice type) and
    their entity ids, in the same order."""
    from pp_graph.vocab.dpv import expand

    practice_types = {t.value for t in PracticeType}

    def concept(eid: str) -> str | None:
        c = doc.concepts.get(eid)
        try:
            return expand(c) if c else None
        except Exception:
            return None

    def gold_of(pred: Callable[[Entity], bool], label: Callable[[Entity], str | None]) -> tuple[list[Item], list[str]]:
        chosen = [e for e in inside if pred(e)]
        return [Item(e.text, e.start, e.end, label(e)) for e in chosen], [e.id for e in chosen]

    return {
        "data": gold_of(lambda e: e.type.lower() == "data", lambda e: concept(e.id)),
        "purpose": gold_of(lambda e: e.type.lower() == "purpose", lambda e: concept(e.id)),
        "party": gold_of(lambda e: e.type.lower() in PARTY_TYPES, lambda e: PARTY_TYPES[e.type.lower()].value),
        "practice": gold_of(lambda e: e.type.lower() in practice_types, lambda e: e.type.lower()),
    }


def _predicted_items(res: SegmentExtraction) -> tuple[dict[str, list[Item]], list[int]]:
    """Per kind, the backend's items in one segment, and the indexes of the practices among them (in
    ``res.practices``): inherited practices point outside the segment and have no trigger here to compare."""
    prac_idx = [i for i, p in enumerate(res.practices) if not p.inherited]
    pracs = [res.practices[i] for i in prac_idx]
    return {
        "data": [Item(d.span.text, d.span.start, d.span.end, d.concept) for d in res.data],
        "purpose": [Item(p.span.text, p.span.start, p.span.end, p.concept) for p in res.purposes],
        "party": [Item(p.span.text, p.span.start, p.span.end, p.kind.value) for p in res.parties],
        "practice": [Item(p.span.text, p.span.start, p.span.end, p.type.value) for p in pracs],
    }, prac_idx


def _score_spans(
    pred: dict[str, list[Item]],
    gold: dict[str, list[Item]],
    hier: Compatible,
    scores: dict[str, SegmentScores],
) -> dict[str, Matching]:
    """Score the span tasks (data and purpose spans and classes, parties, practices); the span matchings."""
    m = {
        "data": match_items(pred["data"], gold["data"]),
        "purpose": match_items(pred["purpose"], gold["purpose"]),
        "party": match_items(pred["party"], gold["party"], same_label),
        "practice": match_items(pred["practice"], gold["practice"], same_label),
    }
    for kind in ("data", "purpose"):
        scores[f"{kind} spans"].add(m[kind].prf)
        g_c = [g for g in gold[kind] if g.label]
        p_c = [p for p in pred[kind] if p.label]
        scores[f"{kind} classes (exact)"].add(match_items(p_c, g_c, same_label).prf)
        scores[f"{kind} classes (hierarchy)"].add(match_items(p_c, g_c, hier).prf)
    scores["parties"].add(m["party"].prf)
    scores["practices"].add(m["practice"].prf)
    return m


def _relations_prf(
    doc: BratDocument,
    doc_tuples: Iterable[tuple[str, str, str]],
    res: SegmentExtraction,
    matched: dict[str, Matching],
    gold: dict[str, tuple[list[Item], list[str]]],
    prac_idx: list[int],
) -> PRF:
    """Relations: predicted ids mapped onto gold ids through the span matchings; a gold tuple counts once."""
    align: dict[str, tuple[str, float]] = {}
    for kind in ("data", "purpose", "party"):
        gids = gold[kind][1]
        for i, j, s in matched[kind].pairs:
            align[f"{kind}:{i}"] = (gids[j], s)
    g_prac_ids = gold["practice"][1]
    prac_align = {prac_idx[i]: (g_prac_ids[j], s) for i, j, s in matched["practice"].pairs}
    gold_t = {
        (_trigger_id(doc, t), role, a)
        for t, role, a in doc_tuples
        if t in g_prac_ids or (t in doc.events and doc.events[t].trigger in g_prac_ids)
    }
    pred_t = [r for r in res.relations if r.entity != "party:first"]  # the implied first party has no span
    tp = 0.0
    used: set[tuple[str, str, str]] = set()
    for r in pred_t:
        if r.practice in prac_align and r.entity in align:
            gt, s1 = prac_align[r.practice]
            ge, s2 = align[r.entity]
            key = (gt, r.role.value, ge)
            if key in gold_t and key not in used:
                used.add(key)
                tp += s1 * s2
    return PRF.one_to_one(tp, len(pred_t), len(gold_t))


def evaluate_brat(folder: Path, backend_name: str = "offline", **backend_options: object) -> dict[str, SegmentScores]:
    """Run a backend over every .txt with a .ann under ``folder`` and score each task per segment."""
    from pp_graph.extract.pipeline import extract
    from pp_graph.extract.registry import get_backend
    from pp_graph.load.sources import check_site, policy_from_text, site_from_name

    docs = load_folder(folder)
    backend = get_backend(backend_name, **backend_options)
    scores = {t: SegmentScores() for t in TASKS}
    for doc in docs:
        try:
            site = check_site(site_from_name(Path(doc.name)), doc.name)
        except InputError:
            site = "example.com"
        policy = policy_from_text(doc.text, site, f"{doc.name}.txt", media_type="text/plain")
        if policy.text != doc.text:
            raise InputError(f"{doc.name}.txt", "use LF line ends: brat offsets must stay valid after loading")
        score_document(doc, extract(policy, backend), scores)
    return scores
