"""Graph writers: the same bytes as rdflib's writers for policy graphs, in linear time, deterministic."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF

from pp_graph import api
from pp_graph.graph import serialize as ser
from pp_graph.graph.namespaces import PPG

FIXTURES = Path(__file__).parent / "fixtures" / "policies"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "policies"

ODD = (
    '# Privacy at Ödd Shop\n\nWe collect your email address (and your "name") to send you offers; '
    "100% of it is kept for 30 days.\nWe share your IP address with advertisers\x0cand analytics providers.\n"
    "We sell your phone number to data brokers\u2028for marketing \\ profit.\n"
)


def _rdflib_bytes(conv: api.Conversion, fmt: str) -> str:
    """What pp-graph wrote before its own writers: rdflib's output, N-Triples/N-Quads sorted by line."""
    target = conv.dataset if fmt in ser.QUAD_FORMATS else conv.dataset.graph(conv.graph)
    out = target.serialize(format=ser.FORMATS[fmt])
    if fmt in {"nt", "nq"}:
        out = "".join(sorted((ln + "\n" for ln in out.split("\n") if ln.strip()), key=lambda r: r[:-1]))
    return out


@functools.cache
def _conversions() -> list[api.Conversion]:
    return [api.convert(p) for p in sorted(FIXTURES.glob("*.md"))] + [api.convert_text(ODD, "ödd.example")]


@pytest.mark.parametrize("fmt", ["trig", "ttl", "nt", "nq"])
def test_writers_give_rdflib_bytes(fmt: str) -> None:
    for conv in _conversions():
        fast = ser.serialize_policy(conv.triples, conv.graph, fmt)
        assert fast == _rdflib_bytes(conv, fmt), (conv.graph, fmt)
        assert ser.serialize(conv.dataset, conv.graph, fmt) == fast


@functools.cache
def _corpus_conversions() -> list[api.Conversion]:
    """Converted once for the four formats (a third of the cost of this test was converting again)."""
    return [api.convert(p) for p in sorted(CORPUS.glob("*.md")) if p.name != "SOURCE.md"]


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not found")
@pytest.mark.parametrize("fmt", ["trig", "ttl", "nt", "nq"])
def test_writers_give_rdflib_bytes_on_the_corpus(fmt: str) -> None:
    convs = _corpus_conversions()
    assert len(convs) == 40
    for conv in convs:
        assert ser.serialize_policy(conv.triples, conv.graph, fmt) == _rdflib_bytes(conv, fmt), conv.graph


@pytest.mark.parametrize("fmt", sorted(ser.FORMATS))
def test_every_format_parses_back_to_the_same_graph(fmt: str) -> None:
    conv = _conversions()[-1]
    text = ser.serialize_policy(conv.triples, conv.graph, fmt)
    back = Dataset()
    back.parse(data=text, format=ser.FORMATS[fmt])
    got = back.graph(conv.graph) if fmt in ser.QUAD_FORMATS else back.default_graph
    assert isomorphic(got, conv.dataset.graph(conv.graph))


def test_line_separators_in_literals_do_not_split_ntriples() -> None:
    """A form feed or U+2028 in the text used to cut a line in two when the lines were sorted."""
    conv = api.convert_text(ODD, "odd.example")
    for fmt in ("nt", "nq"):
        text = ser.serialize(conv.dataset, conv.graph, fmt)
        assert all(line.endswith(" .") for line in text.split("\n")[:-1])
        back = Dataset()
        back.parse(data=text, format=ser.FORMATS[fmt])
        assert len(back) == len(conv.dataset.graph(conv.graph))


def test_jsonld_is_the_same_bytes_whatever_the_hash_seed(tmp_path: Path) -> None:
    code = (
        "import sys; from pp_graph.api import convert; from pp_graph.graph.serialize import serialize;"
        "c = convert(sys.argv[1]); sys.stdout.write(serialize(c.dataset, c.graph, 'jsonld'))"
    )
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", code, str(FIXTURES / "tinyshop.example.md")],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outs.add(run.stdout)
    assert len(outs) == 1
    doc = json.loads(outs.pop())
    ids = [n["@id"] for n in doc[0]["@graph"]]
    assert ids == sorted(ids)


def test_turtle_writer_does_not_compute_a_qname_per_iri(monkeypatch: pytest.MonkeyPatch) -> None:
    """rdflib's qname lookup grows a trie with every span IRI (quadratic: 24 minutes for 5 MB): not used."""
    from rdflib.namespace import NamespaceManager

    calls = 0
    real = NamespaceManager.compute_qname

    def counting(self: NamespaceManager, uri: str, generate: bool = True) -> tuple[str, URIRef, str]:
        nonlocal calls
        calls += 1
        return real(self, uri, generate)

    monkeypatch.setattr(NamespaceManager, "compute_qname", counting)
    conv = api.convert(FIXTURES / "tinyshop.example.md")
    ds = conv.dataset  # built before counting: only the writers are measured
    calls = 0
    for fmt in ("trig", "ttl"):
        ser.serialize(ds, conv.graph, fmt)
    assert calls == 0


def test_graphs_outside_the_fast_shape_go_to_rdflib() -> None:
    from rdflib import BNode

    ds = Dataset()
    g = ds.graph(URIRef("urn:x:g"))
    g.add((URIRef("urn:x:s"), PPG.evidence, BNode("b1")))
    g.add((BNode("b1"), RDF.type, PPG.Mention))
    g.add((URIRef("urn:x:s"), URIRef("urn:unbound:p"), Literal(1)))
    for fmt in ser.FORMATS:
        text = ser.serialize(ds, URIRef("urn:x:g"), fmt)
        back = Dataset()
        back.parse(data=text, format=ser.FORMATS[fmt])
        assert len(back) == 3
