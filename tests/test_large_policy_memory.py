"""Memory on a policy of megabytes (issue 28): the graph is held once while it is built, and written as it is made.

A one-line policy of 1 MB gives ~200-500k triples; what each triple costs beyond its pyoxigraph Quad multiplies
by that. These tests count allocations (tracemalloc) and writes, never time, so they hold on a busy machine.
"""

from __future__ import annotations

import gc
import io
import sys
import tracemalloc
from pathlib import Path

import pytest

from pp_graph.api import convert_policy, convert_stream, convert_text
from pp_graph.batch import convert_batch
from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.graph.build import policy_quads, policy_stream
from pp_graph.graph.serialize import FORMATS, serialize_quads, write_quads
from pp_graph.model import Policy

# Dense in mentions and practices: many triples per character, as an adversarial policy is.
SENTENCE = "We collect your name, email address and phone number and share them with advertisers for marketing. "


@pytest.fixture(scope="module")
def dense() -> Policy:
    return Policy("dense.example", SENTENCE * 300, "dense.example.md", "text/markdown")


def test_building_the_graph_holds_each_triple_once(dense: Policy) -> None:
    """The builder's peak (Python heap) stays near what its result keeps: it once held a key tuple per triple
    and a list per subject and predicate beside the quads (2.2x the result; now ~1.1x)."""
    ex = extract(dense, get_backend("offline"))
    tracemalloc.start()
    try:
        _, quads = policy_quads(ex)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(quads) > 10_000
    assert peak <= 1.4 * kept, f"peak {peak / len(quads):.0f} B per triple, kept {kept / len(quads):.0f} B"


def test_the_build_order_is_by_subject_then_predicate(dense: Policy) -> None:
    """Each subject's statements together, each predicate's together, as JSON-LD needs to write a node once."""
    _, quads = policy_quads(extract(dense, get_backend("offline")))
    subjects: list[str] = []
    predicates: dict[str, list[str]] = {}
    for q in quads:
        s, p = q.subject.value, q.predicate.value  # type: ignore[union-attr]
        if not subjects or subjects[-1] != s:
            assert s not in subjects, f"{s} is split"
            subjects.append(s)
        seen = predicates.setdefault(s, [])
        if not seen or seen[-1] != p:
            assert p not in seen, f"{s} {p} is split"
            seen.append(p)
    assert len({(q.subject, q.predicate, q.object) for q in quads}) == len(quads)  # no repeats


class _Chunks(io.RawIOBase):
    """A binary file that records the size of each write."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: bytes) -> int:  # type: ignore[override]
        self.sizes.append(len(b))
        self.data += b
        return len(b)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_graph_is_written_as_it_is_made(dense: Policy, fmt: str) -> None:
    """write_quads gives serialize_quads's bytes, in small writes: the output is never whole in memory."""
    quads = convert_text(dense.text, dense.site).quads
    fh = _Chunks()
    write_quads(quads, fmt, fh)
    whole = serialize_quads(quads, fmt)
    assert bytes(fh.data) == whole
    assert len(fh.sizes) > 10 and max(fh.sizes) <= len(whole) // 10


def test_the_streamed_graph_outlives_its_extraction(dense: Policy) -> None:
    """policy_stream's quads are made from the builder alone: the extraction can be freed before the first one
    (convert drops it, so it and the whole graph as quads are never in memory together), and they are
    policy_quads's, in its order."""
    backend = get_backend("offline")
    name, quads = policy_quads(extract(dense, backend))
    ex = extract(dense, backend)
    held = sys.getrefcount(ex)
    streamed_name, size, stream = policy_stream(ex)
    gc.collect()
    assert sys.getrefcount(ex) == held  # nothing policy_stream returned refers to it
    assert streamed_name == name and size == len(quads)
    assert list(stream) == quads


def test_convert_writes_the_streamed_graph(dense: Policy, tmp_path: Path) -> None:
    """The file convert writes (streamed) is the bytes of convert_policy's quads; the report is the same."""
    conv = convert_policy(dense)
    graph, report, stream = convert_stream(dense)
    assert graph == conv.graph and report.triples == conv.report.triples == len(conv.quads)
    assert list(stream) == conv.quads
    src = tmp_path / "dense.example.md"
    src.write_text(dense.text, encoding="utf-8")
    convert_batch([src], tmp_path / "out", fmt="jsonld")
    assert (tmp_path / "out" / "dense.example.jsonld").read_bytes() == serialize_quads(conv.quads, "jsonld")
