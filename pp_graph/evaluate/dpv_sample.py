"""Mention precision against the labelled sample of the modern corpus (``tests/fixtures/dpv-sample``).

A prediction is a (site, start, end) span the extractor tied to a practice with a DPV class. It is right when the
class is the gold concept or one of its alternatives; a span whose gold is NONE is not personal data (or not a
purpose) at all. Recall is over the sample: the share of its gold (not NONE) mentions that a run still predicts
with a right class, so a change that drops mentions shows up even though the sample cannot count new ones.
"""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pp_graph.errors import ConfigError, DataFileError
from pp_graph.vocab.dpv import compact, expand, vocabulary

SAMPLE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dpv-sample" / "mentions.tsv"
FRESH = SAMPLE.with_name("fresh.tsv")  # drawn and labelled after the mention rules were written: scored only
FRESH2 = SAMPLE.with_name("fresh2.tsv")  # drawn after fresh.tsv's error kinds were used: the unseen-text figure
# drawn from the output of the rules before the third round of mention rules, labelled while they were written: the
# unseen-text figure of that round (its spans are those the earlier rules tied to practices); the fourth round was
# written against its errors
FRESH3 = SAMPLE.with_name("fresh3.tsv")
# drawn from the output of the third round of mention rules, labelled while the fourth was written against fresh3:
# the unseen-text figure of the third round, and of the fourth for the spans the third already found
FRESH4 = SAMPLE.with_name("fresh4.tsv")
# 300 data + 300 purposes drawn from the output of the final rules of that stop, labelled blind by three more
# annotators after every rule was written: the unseen-text figure of the extractor as it is, no rule written against it
FRESH5 = SAMPLE.with_name("fresh5.tsv")
# 150 data + 150 purposes drawn from the output of the rules after issue 25's rounds (statement types, lead-ins, DPV
# fixes), labelled blind by two more annotators before any rule was written against them (FRESH6-NOTES.md)
FRESH6 = SAMPLE.with_name("fresh6.tsv")
# 150 data + 150 purposes drawn (seed "fresh7") from the output of the rules after issue 25's DPV round, which was
# written against fresh..fresh6; its predictions are in fresh7-predictions.tsv, its labels come from two blind
# annotators (benchmarks/draw_dpv_sample.py merges them): scored once fresh7.tsv exists
FRESH7 = SAMPLE.with_name("fresh7.tsv")
# 150 data + 150 purposes drawn (seed "fresh8") after the purpose round written against fresh..fresh7, labelled blind
# by two more annotators (FRESH8-NOTES.md) before any rule was written against them
FRESH8 = SAMPLE.with_name("fresh8.tsv")
# 150 data + 150 purposes drawn (seed "fresh9") after the data round written against fresh..fresh8, labelled blind
# by two more annotators (FRESH9-NOTES.md) before any rule was written against them
FRESH9 = SAMPLE.with_name("fresh9.tsv")
# 200 data + 200 purposes drawn (seed "fresh10") after the second data round written against fresh..fresh9, labelled
# blind by four more annotators, 100 rows each (FRESH10-NOTES.md), before any rule was written against them
FRESH10 = SAMPLE.with_name("fresh10.tsv")
# The fresh samples in the order they were drawn; the last may be drawn but not yet labelled.
FRESH_SAMPLES = ("fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10")
AGREEMENT = SAMPLE.with_name("fresh2-agreement.tsv")  # 200 of fresh2's rows labelled again by another annotator
NONE = "NONE"
# The sample is split by policy into a half whose errors rules may be written against ("work") and a half that is
# only scored ("check"), by a fixed seeded hash so the split never moves.
HALVES = ("work", "check")
_SPLIT_SEED = "dpv-sample-split:"


def labelled_fresh_samples(folder: Path = SAMPLE.parent) -> list[tuple[str, Path]]:
    """(name, path) of the fresh samples whose labelled file exists in ``folder``, in the order drawn."""
    return [(name, folder / f"{name}.tsv") for name in FRESH_SAMPLES if (folder / f"{name}.tsv").is_file()]


def half_of(site: str) -> str:
    """The half of the sample a policy's mentions belong to (deterministic)."""
    return HALVES[hashlib.sha256(f"{_SPLIT_SEED}{site}".encode()).digest()[0] % 2]


@dataclass(frozen=True)
class Gold:
    id: str
    kind: str  # data | purpose
    site: str
    start: int
    end: int
    mention: str
    gold: str  # a compact DPV concept or NONE
    alternatives: tuple[str, ...]

    def accepts(self, concept: str) -> bool:
        return concept == self.gold or concept in self.alternatives


@dataclass
class Score:
    kind: str
    sample: int = 0
    predicted: int = 0  # sample spans the run still predicts
    right: int = 0
    gold_mentions: int = 0  # sample spans whose gold is not NONE
    found: int = 0  # of those, predicted with a right class
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else float("nan")

    @property
    def recall(self) -> float:
        return self.found / self.gold_mentions if self.gold_mentions else float("nan")


def load_sample(path: Path = SAMPLE) -> list[Gold]:
    vocab = vocabulary()
    tops = {"data": "https://w3id.org/dpv#PersonalData", "purpose": "https://w3id.org/dpv#Purpose"}
    out = []
    with path.open(encoding="utf-8", newline="") as fh:
        for n, row in enumerate(csv.DictReader(fh, delimiter="\t"), 2):
            kind = row["kind"]
            if kind not in tops:
                raise DataFileError(f"{path.name}:{n}: kind {kind!r} is neither data nor purpose")
            concepts = [row["gold"], *(a for a in row["alternatives"].split(",") if a)]
            for c in concepts:
                if c != NONE and not vocab.in_scheme(expand(c), tops[kind]):
                    raise DataFileError(f"{path.name}:{n}: {c} is not a DPV {kind} concept")
            out.append(
                Gold(
                    row["id"],
                    kind,
                    row["site"],
                    int(row["start"]),
                    int(row["end"]),
                    row["mention"],
                    row["gold"],
                    tuple(concepts[1:]),
                )
            )
    return out


def score(
    sample: Iterable[Gold], predictions: Mapping[tuple[str, str, int, int], str], half: str | None = None
) -> dict[str, Score]:
    """``predictions``: (kind, site, start, end) → predicted concept IRI (or CURIE); ``half``: score only the
    mentions of that half of the sample (see half_of)."""
    if half is not None and half not in HALVES:
        raise ConfigError(f"half must be one of {HALVES}, not {half!r}")
    out = {k: Score(k) for k in ("data", "purpose")}
    for g in sample:
        if half is not None and half_of(g.site) != half:
            continue
        s = out[g.kind]
        s.sample += 1
        s.gold_mentions += g.gold != NONE
        pred = predictions.get((g.kind, g.site, g.start, g.end))
        if pred is None:
            continue
        c = compact(pred)
        s.predicted += 1
        if g.accepts(c):
            s.right += 1
            s.found += g.gold != NONE
        else:
            s.confusions[(c, g.gold)] += 1
    return out


@dataclass(frozen=True)
class Agreement:
    kind: str
    rows: int  # rows labelled by both
    same: int  # the same gold concept
    accepted: int  # the second annotator's gold is among the first's accepted concepts


def agreement(first: Iterable[Gold], second: Iterable[Gold]) -> dict[str, Agreement]:
    """How often two annotators of the same spans agree, per kind (rows of ``second`` not in ``first`` are an error)."""
    by_span = {(g.kind, g.site, g.start, g.end): g for g in first}
    counts: dict[str, list[int]] = {k: [0, 0, 0] for k in ("data", "purpose")}
    for g in second:
        f = by_span.get((g.kind, g.site, g.start, g.end))
        if f is None:
            raise DataFileError(f"{g.id}: {g.kind} span {g.site} {g.start}-{g.end} is not in the first sample")
        c = counts[g.kind]
        c[0] += 1
        c[1] += g.gold == f.gold
        c[2] += f.accepts(g.gold)
    return {k: Agreement(k, *c) for k, c in counts.items()}
