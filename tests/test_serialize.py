"""Graph writers: what is written reads back to the graph built (Conversion.dataset), byte-identical every run."""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF

from pp_graph import api
from pp_graph.errors import ConfigError
from pp_graph.graph import serialize as ser
from pp_graph.graph.build import to_dataset
from pp_graph.graph.namespaces import PPG

FIXTURES = Path(__file__).parent / "fixtures" / "policies"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "policies"

ODD = (
    '# Privacy at Ödd Shop\n\nWe collect your email address (and your "name") to send you offers; '
    "100% of it is kept for 30 days.\nWe share your IP address with advertisers\x0cand analytics providers.\n"
    "We sell your phone number to data brokers\u2028for marketing \\ profit.\n"
)


def _parsed(text: str, fmt: str, graph: URIRef) -> Graph:
    """The policy graph read back from ``text`` by rdflib (the quad formats: the named graph)."""
    back = Dataset()
    back.parse(data=text, format=ser.FORMATS[fmt])
    return back.graph(graph) if fmt in ser.QUAD_FORMATS else back.default_graph


@functools.cache
def _conversions() -> list[api.Conversion]:
    return [api.convert(p) for p in sorted(FIXTURES.glob("*.md"))] + [api.convert_text(ODD, "ödd.example")]


@pytest.mark.parametrize("fmt", sorted(ser.FORMATS))
def test_every_format_parses_back_to_the_datasets_graph(fmt: str) -> None:
    """What is written is what Conversion.dataset holds: rdflib reads it back to the same triples, from the builder's
    quads as from the rdflib Dataset."""
    for conv in _conversions():
        text = ser.serialize_quads(conv.quads, fmt).decode("utf-8")
        expected = conv.dataset.graph(conv.graph)
        got = _parsed(text, fmt, conv.graph)
        assert len(got) == len(expected) == len(conv.quads), (conv.graph, fmt)
        assert set(got) == set(expected), (conv.graph, fmt)  # no blank nodes: equal triples, not only isomorphic
        assert set(_parsed(ser.serialize(conv.dataset, conv.graph, fmt), fmt, conv.graph)) == set(expected)


def test_quads_are_written_in_the_order_built() -> None:
    """No sort at write time: N-Quads has the builder's quads line by line, and the builder keeps each subject's
    quads together, and each predicate's within them (so Turtle, TriG and JSON-LD write each subject once)."""
    for conv in _conversions():
        lines = ser.serialize_quads(conv.quads, "nq").decode("utf-8").split("\n")[:-1]  # not at U+2028
        assert lines == [f"{q} ." for q in conv.quads]
        for key in (lambda q: q.subject, lambda q: (q.subject, q.predicate)):
            keys = [key(q) for q in conv.quads]
            runs = [k for i, k in enumerate(keys) if i == 0 or k != keys[i - 1]]
            assert len(runs) == len(set(runs)), conv.graph
        assert conv.quads[0].graph_name.value == str(conv.graph)
        assert len({q.graph_name for q in conv.quads}) == 1


def test_written_literals_have_the_datasets_lexical_forms() -> None:
    """Read back without rdflib (which would normalise both sides): a retention period of 18 months is "P1Y6M" in
    the file as in Conversion.dataset, and a dated version's validFrom has the same form in both."""
    import pyoxigraph as ox

    from pp_graph.graph.terms import from_rdflib
    from pp_graph.load.sources import policy_from_text

    text = ODD.replace("30 days", "18 months")
    dated = api.convert_policy(policy_from_text(text, "dated.example", valid_from="2023-01-01T09:30:00Z"))
    for conv in [*_conversions(), dated]:
        text = ser.serialize_quads(conv.quads, "nq")
        written = {str(q) for q in ox.parse(text, format=ox.RdfFormat.N_QUADS)}
        name = ox.NamedNode(str(conv.graph))
        expected = {str(ox.Quad(*(from_rdflib(t) for t in spo), name)) for spo in conv.dataset.graph(conv.graph)}
        assert written == expected, conv.graph
    assert any('"P1Y6M"^^' in q for q in written) and any('"2023-01-01T09:30:00+00:00"^^' in q for q in written)


@pytest.mark.parametrize("fmt", sorted(ser.FORMATS))
def test_a_datasets_bytes_do_not_depend_on_the_order_it_was_filled_in(fmt: str) -> None:
    """An rdflib Dataset has no order of its own: its triples are sorted before writing."""
    conv = _conversions()[-1]
    built = list(conv.triples)
    shuffled = built[:]
    random.Random(7).shuffle(shuffled)
    assert shuffled != built
    first = ser.serialize(to_dataset(conv.graph, built), conv.graph, fmt)
    assert ser.serialize(to_dataset(conv.graph, shuffled), conv.graph, fmt) == first
    assert ser.write({conv.quads[0].graph_name: shuffled}, fmt) == first


@pytest.mark.parametrize("fmt", ["ttl", "trig"])
def test_turtle_writes_each_subject_once(fmt: str) -> None:
    """The builder's quads are grouped by subject: each subject's statements under one subject."""
    for conv in _conversions():
        text = ser.serialize_quads(conv.quads, fmt).decode("utf-8")
        subjects = {s for s, _, _ in conv.triples}
        indent = "\t" if fmt == "trig" else ""
        starts = [ln.split(" ", 1)[0] for ln in text.split("\n") if ln.startswith(indent + "<")]
        assert len(starts) == len(set(starts)) == len(subjects), conv.graph


def test_the_projects_prefixes_are_used() -> None:
    conv = _conversions()[-1]
    for fmt in ("trig", "ttl"):
        text = ser.serialize_quads(conv.quads, fmt).decode("utf-8")
        assert "@prefix ppg: <urn:pp-graph:ontology#> ." in text and " a pr2g:PrivacyPolicy" in text


def test_unknown_format_is_a_config_error() -> None:
    conv = _conversions()[-1]
    with pytest.raises(ConfigError, match="unknown format 'rdfxml'"):
        ser.serialize_quads(conv.quads, "rdfxml")


@functools.cache
def _corpus_conversions() -> list[api.Conversion]:
    """Converted once for the five formats."""
    return [api.convert(p) for p in sorted(CORPUS.glob("*.md")) if p.name != "SOURCE.md"]


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not found")
@pytest.mark.parametrize("fmt", sorted(ser.FORMATS))
def test_every_format_parses_back_on_the_corpus(fmt: str) -> None:
    convs = _corpus_conversions()
    assert len(convs) == 40
    for conv in convs:
        got = _parsed(ser.serialize_quads(conv.quads, fmt).decode("utf-8"), fmt, conv.graph)
        assert isomorphic(got, conv.dataset.graph(conv.graph)), conv.graph


def test_line_separators_in_literals_do_not_split_ntriples() -> None:
    """A form feed or U+2028 in the text must not cut a line in two."""
    conv = api.convert_text(ODD, "odd.example")
    for fmt in ("nt", "nq"):
        for text in (ser.serialize(conv.dataset, conv.graph, fmt), ser.serialize_quads(conv.quads, fmt).decode()):
            assert all(line.endswith(" .") for line in text.split("\n")[:-1])
            assert len(_parsed(text, fmt, conv.graph)) == len(conv.dataset.graph(conv.graph))


def test_every_format_is_the_same_bytes_whatever_the_hash_seed() -> None:
    """Both routes, in fresh processes: the builder's quads (what convert writes) and the rdflib Dataset."""
    code = (
        "import sys; from pp_graph.api import convert; from pp_graph.graph.serialize import FORMATS, serialize,"
        " serialize_quads; c = convert(sys.argv[1]); out = sys.stdout.buffer;"
        "[out.write(serialize_quads(c.quads, f) + serialize(c.dataset, c.graph, f).encode()) for f in FORMATS]"
    )
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", code, str(FIXTURES / "tinyshop.example.md")],
            env=env,
            capture_output=True,
            check=True,
        )
        outs.add(run.stdout)
    assert len(outs) == 1 and b"tinyshop.example" in outs.pop()


def test_jsonld_has_each_node_once() -> None:
    """The builder's quads: each node once, in the order built; an rdflib Dataset's: sorted by id."""
    conv = _conversions()[0]
    built = json.loads(ser.serialize_quads(conv.quads, "jsonld"))
    ids = [n["@id"] for n in built[0]["@graph"]]
    subjects = list(dict.fromkeys(q.subject.value for q in conv.quads))
    assert built[0]["@id"] == str(conv.graph) and ids == subjects
    doc = json.loads(ser.serialize(conv.dataset, conv.graph, "jsonld"))
    assert [n["@id"] for n in doc[0]["@graph"]] == sorted(ids)


def test_writers_do_not_compute_an_rdflib_qname_per_iri(monkeypatch: pytest.MonkeyPatch) -> None:
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
        ser.serialize_quads(conv.quads, fmt)
    assert calls == 0


def test_blank_nodes_and_unprefixed_predicates_are_written_too() -> None:
    from rdflib import BNode

    ds = Dataset()
    g = ds.graph(URIRef("urn:x:g"))
    g.add((URIRef("urn:x:s"), PPG.evidence, BNode("b1")))
    g.add((BNode("b1"), RDF.type, PPG.Mention))
    g.add((URIRef("urn:x:s"), URIRef("urn:unbound:p"), Literal(1)))
    for fmt in ser.FORMATS:
        text = ser.serialize(ds, URIRef("urn:x:g"), fmt)
        assert isomorphic(_parsed(text, fmt, URIRef("urn:x:g")), g), fmt
