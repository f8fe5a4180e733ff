"""The GDPR transparency dataset: read a policy, find the passages an evidence span overlaps.

The dataset (a folder of ``<app id>.json``, each a list of passages with annotations) is never copied into the
repository; the split file holds only the test documents' ids, fixed by a hash of the id before any was read.
A policy becomes one text line per passage (a headline as a markdown heading), so a passage is one line of the
pipeline and an evidence span counts for a passage when it overlaps the passage's line.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pp_graph.errors import InputError
from pp_graph.resources import DATA

SPLIT_FILE = DATA / "splits" / "gdpr-transparency.toml"


@dataclass(frozen=True, slots=True)
class GdprDoc:
    id: str
    text: str
    passages: tuple[tuple[int, int], ...]  # (start, end) of each passage's line in ``text``
    gold: tuple[frozenset[str], ...]  # per passage: the requirement labels annotated on it

    def labels(self) -> frozenset[str]:
        return frozenset().union(*self.gold) if self.gold else frozenset()


def test_ids() -> frozenset[str]:
    return frozenset(tomllib.loads(SPLIT_FILE.read_text(encoding="utf-8"))["test"])


def doc_paths(folder: Path, split: str) -> list[Path]:
    """The dataset's files of one split ("train" or "test"), sorted by id."""
    test = test_ids()
    paths = sorted(folder.glob("*.json"))
    return [p for p in paths if (p.stem in test) == (split == "test")]


def read_doc(path: Path) -> GdprDoc:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError(path.name, f"not a readable dataset file ({e})") from e
    _check_shape(path, raw)
    lines: list[str] = []
    spans: list[tuple[int, int]] = []
    gold: list[frozenset[str]] = []
    pos = 0
    for p in raw:
        body = " ".join(str(p.get("passage", "")).split())
        if not body:
            continue
        prefix = "## " if p.get("type") == "headline" else ("- " if p.get("type") == "list_item" else "")
        line = prefix + body
        spans.append((pos, pos + len(line)))
        gold.append(frozenset(a["requirement"] for a in p.get("annotations", [])))
        lines.append(line)
        pos += len(line) + 2
    return GdprDoc(path.stem, "\n\n".join(lines), tuple(spans), tuple(gold))


def _check_shape(path: Path, raw: object) -> None:
    """InputError naming the file and the first passage that is not the dataset's shape: a list of passage
    objects, each with a list of annotation objects that name their requirement."""
    if not isinstance(raw, list):
        raise InputError(path.name, f"not a dataset file (a list of passages expected, found {type(raw).__name__})")
    for i, p in enumerate(raw):
        anns = p.get("annotations", []) if isinstance(p, dict) else None
        if not isinstance(anns, list) or not all(
            isinstance(a, dict) and isinstance(a.get("requirement"), str) for a in anns
        ):
            raise InputError(
                path.name,
                f"passage {i} is not a dataset passage (an object whose annotations are objects with a "
                "'requirement' string)",
            )


def unknown_labels(docs: Iterable[GdprDoc], known: Iterable[str]) -> dict[str, str]:
    """Requirement labels of ``docs`` outside ``known``, each with the first document that uses it."""
    ok, out = set(known), dict[str, str]()
    for d in docs:
        for label in sorted(d.labels() - ok):
            out.setdefault(label, d.id)
    return out


def passages_hit(doc: GdprDoc, spans: Iterable[tuple[int, int]]) -> set[int]:
    """Indexes of the passages an evidence span overlaps."""
    hit = set()
    for s, e in spans:
        for i, (ps, pe) in enumerate(doc.passages):
            if s < pe and ps < e:
                hit.add(i)
    return hit
