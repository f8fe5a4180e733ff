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

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.evaluate.metrics import PRF, Item, SegmentScores, hierarchy_compatible, match_items, same_label
from pp_graph.model import PartyKind, PolicyExtraction, PracticeType

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
    from pp_graph.vocab.dpv import expand, vocabulary

    anc = vocabulary().ancestors
    hier = hierarchy_compatible(anc)
    practice_types = {t.value for t in PracticeType}

    def concept(eid: str) -> str | None:
        c = doc.concepts.get(eid)
        try:
            return expand(c) if c else None
        except Exception:
            return None

    ents = sorted(doc.entities.values(), key=lambda e: (e.start, e.end))
    doc_tuples = doc.tuples()  # gold relations of the document, read once
    for res in ex.results:
        seg = res.segment
        inside = [e for e in ents if seg.start <= e.start < seg.end]

        def gold_of(
            pred: Callable[[Entity], bool], label: Callable[[Entity], str | None], inside=inside
        ) -> tuple[list[Item], list[str]]:
            chosen = [e for e in inside if pred(e)]
            return [Item(e.text, e.start, e.end, label(e)) for e in chosen], [e.id for e in chosen]

        g_data, g_data_ids = gold_of(lambda e: e.type.lower() == "data", lambda e: concept(e.id))
        g_purp, g_purp_ids = gold_of(lambda e: e.type.lower() == "purpose", lambda e: concept(e.id))
        g_party, g_party_ids = gold_of(
            lambda e: e.type.lower() in PARTY_TYPES, lambda e: PARTY_TYPES[e.type.lower()].value
        )
        g_prac, g_prac_ids = gold_of(lambda e: e.type.lower() in practice_types, lambda e: e.type.lower())

        p_data = [Item(d.span.text, d.span.start, d.span.end, d.concept) for d in res.data]
        p_purp = [Item(p.span.text, p.span.start, p.span.end, p.concept) for p in res.purposes]
        p_party = [Item(p.span.text, p.span.start, p.span.end, p.kind.value) for p in res.parties]
        # Inherited practices point outside the segment; they have no trigger here to compare.
        p_prac_idx = [i for i, p in enumerate(res.practices) if not p.inherited]
        p_prac = [
            Item(
                res.practices[i].span.text,
                res.practices[i].span.start,
                res.practices[i].span.end,
                res.practices[i].type.value,
            )
            for i in p_prac_idx
        ]

        m_data = match_items(p_data, g_data)
        m_purp = match_items(p_purp, g_purp)
        scores["data spans"].add(m_data.prf)
        g_data_c = [g for g in g_data if g.label]
        p_data_c = [p for p in p_data if p.label]
        scores["data classes (exact)"].add(match_items(p_data_c, g_data_c, same_label).prf)
        scores["data classes (hierarchy)"].add(match_items(p_data_c, g_data_c, hier).prf)
        scores["purpose spans"].add(m_purp.prf)
        g_purp_c = [g for g in g_purp if g.label]
        p_purp_c = [p for p in p_purp if p.label]
        scores["purpose classes (exact)"].add(match_items(p_purp_c, g_purp_c, same_label).prf)
        scores["purpose classes (hierarchy)"].add(match_items(p_purp_c, g_purp_c, hier).prf)
        m_party = match_items(p_party, g_party, same_label)
        m_prac = match_items(p_prac, g_prac, same_label)
        scores["parties"].add(m_party.prf)
        scores["practices"].add(m_prac.prf)

        # Relations: map predicted ids onto gold ids through the span matchings above.
        align: dict[str, tuple[str, float]] = {}
        for kind, m, gids in (
            ("data", m_data, g_data_ids),
            ("purpose", m_purp, g_purp_ids),
            ("party", m_party, g_party_ids),
        ):
            for i, j, s in m.pairs:
                align[f"{kind}:{i}"] = (gids[j], s)
        prac_align = {p_prac_idx[i]: (g_prac_ids[j], s) for i, j, s in m_prac.pairs}
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
        scores["relations"].add(PRF.one_to_one(tp, len(pred_t), len(gold_t)))


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
