"""OPP-115: load policies and annotations, build segment-level gold, score an extraction backend.

Gold (documented choice): OPP-115 has three annotators per policy and no consolidated labels in the raw
files. A segment has category C in gold when at least 2 of its 3 annotators labelled it C; likewise an
attribute label (a personal-information type or purpose, mapped to DPV via data/opp115-dpv-mapping.tsv)
is gold for a segment when at least 2 annotators gave a value with that label anywhere in the segment.

Each OPP-115 segment (split on ``|||``) is turned into plain text (``<br>`` → new line, tags dropped),
the segments of a policy are joined by blank lines into one policy, and the backend runs on it as on any
policy. A prediction for an OPP-115 segment is the union over the lines (pp-graph segments) inside it.

OPP-115 is licensed for research only: nothing from it is stored in the repository.
"""

from __future__ import annotations

import csv
import hashlib
import html
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError, InputError
from pp_graph.evaluate.metrics import PRF, Interval, LabelScores, bootstrap_macro_f1, name_labels
from pp_graph.extract.learned.model import Label, LearnedModel
from pp_graph.model import Policy, PolicyExtraction, PracticeType, Role, SegmentExtraction
from pp_graph.resources import DATA

MAPPING_FILE = DATA / "opp115-dpv-mapping.tsv"
SPLIT_FILE = DATA / "opp115-split.tsv"
DEV_FILE = DATA / "opp115-dev.tsv"
DEV_SIZE = 20
# 'dev' is the fixed development subset of train (where the learned layer's practice-category choices are made;
# data and purposes are chosen on grouped cross-validation over train: see evaluate.learn_opp115); 'fit' is train
# without dev.
SPLITS = ("train", "test", "all", "dev", "fit")
MIN_AGREEMENT = 2  # of 3 annotators
TRAIN_SIZE = 65

CATEGORY = "category"
# A scored kind that is not a practice type: a storage practice that says where data is kept or sent (a place or a
# transfer safeguard tied to it) and not for how long. OPP-115's annotators file such text under International and
# Specific Audiences (audience "Citizens from other countries"), and Data Retention is how long data is kept: of the
# 40 train-split segments that say data is stored, processed or transferred in a country, 14 have International and
# Specific Audiences in gold, 12 Other, 10 Third Party Sharing and 3 Data Retention.
STORAGE_PLACE = "storage-place"
PLACE_ROLES = frozenset({Role.STORAGE_PLACE, Role.TRANSFER_SAFEGUARD})
SCORED_KINDS = frozenset({t.value for t in PracticeType} | {STORAGE_PLACE})
DATA_ATTRIBUTE = "Personal Information Type"
PURPOSE_ATTRIBUTE = "Purpose"


@dataclass(frozen=True)
class Annotation:
    annotator: str
    segment: int
    category: str
    values: tuple[tuple[str, str], ...]  # (attribute, value) pairs, "not-selected" dropped


@dataclass
class OppPolicy:
    policy_id: str
    site: str
    segments: list[str]  # plain text of each OPP-115 segment
    annotations: list[Annotation] = field(default_factory=list)

    def text_and_offsets(self) -> tuple[str, list[tuple[int, int]]]:
        """The policy as one text (segments separated by a blank line) and each segment's bounds."""
        parts: list[str] = []
        bounds: list[tuple[int, int]] = []
        pos = 0
        for seg in self.segments:
            bounds.append((pos, pos + len(seg)))
            parts.append(seg)
            pos += len(seg) + 2
        return "\n\n".join(parts) + "\n", bounds

    def gold(self, key: Callable[[Annotation], Iterable[str]]) -> list[set[str]]:
        """Per segment, the labels at least MIN_AGREEMENT distinct annotators gave."""
        votes: list[dict[str, set[str]]] = [{} for _ in self.segments]
        for a in self.annotations:
            if 0 <= a.segment < len(self.segments):
                for lab in key(a):
                    votes[a.segment].setdefault(lab, set()).add(a.annotator)
        return [{lab for lab, who in v.items() if len(who) >= MIN_AGREEMENT} for v in votes]


_TAG = re.compile(r"<[^>]+>")
_BR = re.compile(r"<br\s*/?>", re.I)


def segment_text(raw: str) -> str:
    """One OPP-115 segment (minimal HTML) → plain text, one line per ``<br>``-separated line."""
    text = html.unescape(_TAG.sub("", _BR.sub("\n", raw)))
    lines = (re.sub(r"[ \t\u00a0]+", " ", ln).strip() for ln in text.split("\n"))
    return "\n".join(ln for ln in lines if ln)


# ---- mapping and split data files ----


@dataclass(frozen=True)
class Mapping:
    """attribute → value (lower case) → target ('-' = not scored)."""

    rows: dict[str, dict[str, str]]

    def target(self, attribute: str, value: str) -> str | None:
        t = self.rows.get(attribute, {}).get(value.strip().lower())
        return None if t in (None, "-") else t

    def labels(self, attribute: str) -> dict[str, frozenset[str]]:
        """Scored labels of an attribute: label (the target string) → its DPV concept IRIs."""
        from pp_graph.vocab.dpv import expand

        return {
            t: frozenset(expand(c) for c in t.split())
            for t in sorted(set(self.rows.get(attribute, {}).values()))
            if t != "-"
        }

    def practice_types(self) -> dict[str, frozenset[str]]:
        """OPP-115 category → the scored kinds that predict it (practice types, or STORAGE_PLACE)."""
        return {cat: frozenset(t.split()) for cat, t in self.rows.get(CATEGORY, {}).items() if t != "-"}


def load_mapping(path: Path = MAPPING_FILE) -> Mapping:
    from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, expand, vocabulary

    vocab = vocabulary()
    rows: dict[str, dict[str, str]] = {}
    for n, parts, line in tsv_lines(path):
        if len(parts) != 4 or not all(p.strip() for p in parts):
            raise DataFileError(
                f"{path.name}:{n}: expected attribute, value, target, rationale (4 tab-separated fields), got {line!r}"
            )
        attribute, value, target, _ = (p.strip() for p in parts)
        if target != "-":
            for t in target.split():
                bad = None
                if attribute == CATEGORY and t not in SCORED_KINDS:
                    bad = f"not a practice type or {STORAGE_PLACE!r}"
                elif attribute in (DATA_ATTRIBUTE, PURPOSE_ATTRIBUTE):
                    top = PERSONAL_DATA if attribute == DATA_ATTRIBUTE else PURPOSE
                    try:
                        if not vocab.in_scheme(expand(t), top):
                            bad = "not in the DPV scheme it should be in"
                    except Exception:
                        bad = "not a DPV CURIE"
                if bad:
                    raise DataFileError(f"{path.name}:{n}: target {t!r} is {bad}")
        rows.setdefault(attribute, {})[value.lower()] = target
    return Mapping(rows)


def load_split(path: Path = SPLIT_FILE) -> dict[str, str]:
    """policy_id → 'train' | 'test'."""
    out: dict[str, str] = {}
    for n, parts, line in tsv_lines(path):
        if len(parts) != 3 or parts[2] not in ("train", "test"):
            raise DataFileError(f"{path.name}:{n}: expected policy_id, site, train|test; got {line!r}")
        out[parts[0]] = parts[2]
    return out


def load_dev(path: Path = DEV_FILE, split_file: Path = SPLIT_FILE) -> list[str]:
    """The fixed development subset (policy ids in file order); every id must be a train policy."""
    splits = load_split(split_file)
    out: list[str] = []
    for n, parts, line in tsv_lines(path):
        if len(parts) != 2 or not parts[0].strip():
            raise DataFileError(f"{path.name}:{n}: expected policy_id, site; got {line!r}")
        if splits.get(parts[0]) != "train":
            raise DataFileError(f"{path.name}:{n}: policy {parts[0]} is not in the train split")
        out.append(parts[0])
    return out


def dev_order(train_ids: Iterable[str]) -> list[str]:
    """The seeded rule the dev subset was drawn by: train ids sorted by sha256('opp115-dev:' + id)."""
    return sorted(train_ids, key=lambda p: hashlib.sha256(f"opp115-dev:{p}".encode()).hexdigest())


def split_ids(split: str, split_file: Path = SPLIT_FILE, dev_file: Path = DEV_FILE) -> set[str]:
    """Policy ids of one of SPLITS."""
    if split not in SPLITS:
        raise InputError("--split", f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    splits = load_split(split_file)
    if split == "all":
        return set(splits)
    if split in ("train", "test"):
        return {p for p, s in splits.items() if s == split}
    dev = set(load_dev(dev_file, split_file))
    return dev if split == "dev" else {p for p, s in splits.items() if s == "train"} - dev


def split_order(policy_ids: Iterable[str]) -> list[str]:
    """The deterministic order the split file was made from: sorted by sha256('opp115:' + id)."""
    return sorted(policy_ids, key=lambda p: hashlib.sha256(f"opp115:{p}".encode()).hexdigest())


# ---- loading the corpus ----


def load_corpus(root: Path, policy_ids: set[str] | None = None) -> list[OppPolicy]:
    """Policies (sorted by id) with their annotations; ``policy_ids`` restricts which are read."""
    pol_dir, ann_dir = root / "sanitized_policies", root / "annotations"
    if not pol_dir.is_dir() or not ann_dir.is_dir():
        raise InputError(
            str(root.name or root), "is not an OPP-115 folder (needs sanitized_policies/ and annotations/)"
        )
    out: list[OppPolicy] = []
    for f in sorted(pol_dir.glob("*.html")):
        pid, _, site = f.stem.partition("_")
        if policy_ids is not None and pid not in policy_ids:
            continue
        segments = [segment_text(s) for s in f.read_text(encoding="utf-8").split("|||")]
        pol = OppPolicy(pid, site, segments)
        ann = ann_dir / f"{f.stem}.csv"
        if not ann.is_file():
            raise InputError(f.name, f"has no annotation file annotations/{ann.name}")
        pol.annotations = read_annotations(ann)
        out.append(pol)
    return sorted(out, key=lambda p: int(p.policy_id) if p.policy_id.isdigit() else 0)


def read_annotations(path: Path) -> list[Annotation]:
    out: list[Annotation] = []
    with open(path, encoding="utf-8", newline="") as fh:
        for n, row in enumerate(csv.reader(fh), 1):
            if not row:
                continue
            if len(row) < 7:
                raise InputError(
                    path.name, f"line {n}: expected at least 7 columns (id … category, attributes), got {len(row)}"
                )
            try:
                attrs = json.loads(row[6])
                seg = int(row[4])
            except (ValueError, json.JSONDecodeError) as e:
                raise InputError(path.name, f"line {n}: bad segment id or attribute JSON ({e})") from e
            values = tuple(
                (k, str(v.get("value", "")))
                for k, v in sorted(attrs.items())
                if isinstance(v, dict) and v.get("value") not in (None, "", "not-selected")
            )
            out.append(Annotation(row[2], seg, row[5], values))
    return out


# ---- scoring ----


@dataclass
class Opp115Result:
    categories: LabelScores
    data_exact: LabelScores
    data_hierarchy: LabelScores
    purposes_exact: LabelScores
    purposes_hierarchy: LabelScores
    policies: int = 0
    seconds: float = 0.0
    # per policy, the practice-category counts (the unit of the bootstrap interval)
    category_units: list[dict[str, PRF]] = field(default_factory=list)

    def category_interval(self, resamples: int = 1000) -> Interval:
        """95% bootstrap interval of the practice-category macro F1, resampling policies."""
        return bootstrap_macro_f1(self.category_units, self.categories.labels, resamples)

    def tasks(self) -> dict[str, LabelScores]:
        return {
            "practice categories": self.categories,
            "data classes (exact)": self.data_exact,
            "data classes (hierarchy)": self.data_hierarchy,
            "purpose classes (exact)": self.purposes_exact,
            "purpose classes (hierarchy)": self.purposes_hierarchy,
        }


def site_for(pol: OppPolicy) -> str:
    from pp_graph.load.sources import check_site

    try:
        return check_site(pol.site, pol.policy_id)
    except InputError:
        return f"opp115-{pol.policy_id}.example"


def opp_segment_of(bounds: list[tuple[int, int]], start: int) -> int | None:
    """The OPP-115 segment a pp-graph segment starting at ``start`` lies in (None: between segments)."""
    import bisect

    k = bisect.bisect_right([b[0] for b in bounds], start) - 1
    return None if k < 0 or start >= bounds[k][1] else k


def scored_kinds(res: SegmentExtraction, i: int) -> set[str]:
    """What the segment's practice ``i`` is scored as: its type, except that a storage practice tied to a place or a
    transfer safeguard is STORAGE_PLACE, and also its type only when a retention period is tied to it as well ("we
    keep your data in the EU for two years" says where and how long)."""
    p = res.practices[i]
    if p.type != PracticeType.DATA_STORAGE_RETENTION_DELETION:
        return {p.type.value}
    roles = {r.role for r in res.relations if r.practice == i}
    if not roles & PLACE_ROLES:
        return {p.type.value}
    return {STORAGE_PLACE} | ({p.type.value} if Role.RETENTION_PERIOD in roles else set())


def predictions(
    pol: OppPolicy, ex: PolicyExtraction, bounds: list[tuple[int, int]], learned: Sequence[Label] = ()
) -> list[dict[str, set]]:
    """Per OPP-115 segment: the scored kinds of its practices (scored_kinds), and the DPV classes of data and
    purposes tied to a practice.

    With a learned model's labels, a label in mode 'learned' takes the classifier's decision instead of the
    rules' (its members are dropped, its inferred class kept); in mode 'union' the inferred class is added.
    """
    out: list[dict[str, set]] = [{"practices": set(), "data": set(), "purposes": set()} for _ in bounds]
    inferred: list[set[tuple[str, str]]] = [set() for _ in bounds]
    for res in ex.results:
        k = opp_segment_of(bounds, res.segment.start)
        if k is None:
            continue
        slot = out[k]
        for i in range(len(res.practices)):
            slot["practices"].update(scored_kinds(res, i))
        linked = {r.entity for r in res.relations}
        slot["data"].update(d.concept for i, d in enumerate(res.data) if f"data:{i}" in linked and d.concept)
        slot["purposes"].update(p.concept for i, p in enumerate(res.purposes) if f"purpose:{i}" in linked and p.concept)
        inferred[k].update((c.kind, c.concept) for c in res.inferred)
    pool = {"practice": "practices", "data": "data", "purpose": "purposes"}
    for slot, inf in zip(out, inferred, strict=True):
        for lab in learned:
            target = slot[pool[lab.kind]]
            if lab.mode == "learned":
                target -= set(lab.members)
            if lab.mode != "rules" and (lab.kind, lab.concept) in inf:
                target.add(PracticeType(lab.concept) if lab.kind == "practice" else lab.concept)
    return out


def evaluate_opp115(
    root: Path,
    backend_name: str = "offline",
    *,
    split: str,
    mapping: Mapping | None = None,
    split_file: Path = SPLIT_FILE,
    progress: Callable[[str], None] | None = None,
    learned: LearnedModel | None = None,
    **backend_options: object,
) -> Opp115Result:
    """Run a backend over the OPP-115 policies of ``split`` (one of SPLITS; no default, so the test split is
    read on purpose only) and score it."""
    import time

    from pp_graph.extract.pipeline import extract
    from pp_graph.extract.registry import get_backend
    from pp_graph.vocab.dpv import vocabulary

    mapping = mapping or load_mapping()
    ids = split_ids(split, split_file)
    corpus = load_corpus(root, ids)
    if not corpus:
        raise InputError(str(root.name or root), f"no OPP-115 policies of the {split} split found")
    cat_types = mapping.practice_types()
    data_labels = mapping.labels(DATA_ATTRIBUTE)
    purpose_labels = mapping.labels(PURPOSE_ATTRIBUTE)
    vocab = vocabulary()
    anc = vocab.ancestors
    res = Opp115Result(
        LabelScores(tuple(sorted(cat_types))),
        LabelScores(tuple(data_labels)),
        LabelScores(tuple(data_labels)),
        LabelScores(tuple(purpose_labels)),
        LabelScores(tuple(purpose_labels)),
    )
    backend = get_backend(backend_name, **backend_options)
    t0 = time.perf_counter()
    for pol in corpus:
        if progress:
            progress(pol.policy_id)
        text, bounds = pol.text_and_offsets()
        policy = Policy(site_for(pol), text, f"opp115-{pol.policy_id}.txt", "text/plain")
        ex = extract(policy, backend)
        if learned is not None:
            learned.annotate(ex)
        preds = predictions(pol, ex, bounds, learned.labels if learned else ())
        g_cat = pol.gold(lambda a: [a.category.lower()] if a.category.lower() in cat_types else [])

        def attr_gold(attribute: str, pol: OppPolicy = pol) -> list[set[str]]:
            return pol.gold(
                lambda a: [t for k, v in a.values if k == attribute and (t := mapping.target(k, v)) is not None]
            )

        g_data, g_purp = attr_gold(DATA_ATTRIBUTE), attr_gold(PURPOSE_ATTRIBUTE)
        unit = LabelScores(res.categories.labels)  # this policy alone: the bootstrap's unit
        for k, pr in enumerate(preds):
            p_cat = {c for c, types in cat_types.items() if types & pr["practices"]}
            res.categories.add(g_cat[k], p_cat)
            unit.add(g_cat[k], p_cat)
            for hier, scores in ((False, res.data_exact), (True, res.data_hierarchy)):
                named, unmapped = name_labels(sorted(pr["data"]), data_labels, anc, hier)
                scores.add(g_data[k], named, unmapped)
            for hier, scores in ((False, res.purposes_exact), (True, res.purposes_hierarchy)):
                named, unmapped = name_labels(sorted(pr["purposes"]), purpose_labels, anc, hier)
                scores.add(g_purp[k], named, unmapped)
        res.category_units.append(unit.per_label)
    res.policies = len(corpus)
    res.seconds = time.perf_counter() - t0
    return res
