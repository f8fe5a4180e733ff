"""Edge cases of the native SHACL engine: odd literals, recursion, implicit targets, paths, result counting."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import XSD

from pp_graph.errors import InputError
from pp_graph.validate import validate, validate_files
from pp_graph.validate.literals import compare, well_formed

PREFIXES = """
@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <urn:ex:> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
"""
EX = "urn:ex:"
MINI = Path(__file__).resolve().parent / "fixtures" / "graphs" / "mini.trig"
SHOP = "urn:pp-graph:policy:shop.example:aaaaaaaaaaaaaaaa"


def ttl(text: str) -> Graph:
    return Graph().parse(data=PREFIXES + text, format="turtle")


def keys(rep: object, engine: str = "") -> list[tuple[str, str, str]]:
    return sorted((str(r.focus), str(r.value), r.component) for r in rep.results)  # type: ignore[attr-defined]


def _lit(lex: str, dt: URIRef) -> tuple[str, str, None]:
    return (lex, str(dt), None)


# -- literals --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        (("NaN", XSD.double), ("0", XSD.integer), None),
        (("INF", XSD.double), ("0", XSD.integer), 1),
        (("-INF", XSD.float), ("-1e300", XSD.double), -1),
        (("1.0", XSD.decimal), ("1", XSD.integer), 0),
        (("1_000", XSD.integer), ("0", XSD.integer), None),  # Python's int() reads it; XSD does not
        (("inf", XSD.double), ("0", XSD.integer), None),
        (("2002-10-10T12:00:00-05:00", XSD.dateTime), ("2002-10-10T12:00:00", XSD.dateTime), None),
        (("2002-10-09T12:00:00-05:00", XSD.dateTime), ("2002-10-10T12:00:00", XSD.dateTime), -1),
        (("2002-10-10T12:00:00Z", XSD.dateTime), ("2002-10-10T13:00:00+02:00", XSD.dateTime), 1),
        (("2002-10-10T24:00:00Z", XSD.dateTime), ("2002-10-11T00:00:00Z", XSD.dateTime), 0),
        (("12:00:00Z", XSD.time), ("12:00:00", XSD.time), None),  # rdflib says greater
        (("2002-10-10", XSD.date), ("2002-10-12Z", XSD.date), -1),
        (("P1M", XSD.duration), ("P30D", XSD.duration), None),  # rdflib says less
        (("P1M", XSD.duration), ("P27D", XSD.duration), 1),
        (("PT36H", XSD.duration), ("P1D", XSD.duration), 1),
        (("PT36H", XSD.dayTimeDuration), ("P1D", XSD.duration), 1),
        (("P1Y", XSD.yearMonthDuration), ("P365D", XSD.dayTimeDuration), None),
        (("http://a", XSD.anyURI), ("http://b", XSD.anyURI), None),  # SPARQL has no order on IRIs
        (("b", XSD.string), ("a", XSD.string), 1),
    ],
)
def test_literal_order_is_xsd_order(a: tuple[str, URIRef], b: tuple[str, URIRef], want: int | None) -> None:
    assert compare(_lit(*a), _lit(*b)) == want
    if want is not None:
        assert compare(_lit(*b), _lit(*a)) == -want


@pytest.mark.parametrize(
    ("lex", "dt", "ok"),
    [
        ("1_000", XSD.integer, False),
        (" 5", XSD.integer, False),
        ("300", XSD.byte, False),
        ("-1", XSD.nonNegativeInteger, False),
        ("255", XSD.unsignedByte, True),
        ("NaN", XSD.double, True),
        ("nan", XSD.double, False),
        ("inf", XSD.float, False),
        ("-INF", XSD.float, True),
        ("1e5", XSD.decimal, False),
        ("2002-02-30", XSD.date, False),
        ("2002-10-10T25:00:00", XSD.dateTime, False),
        ("2002-10-10T12:00:00+15:00", XSD.dateTime, False),
        ("2002-10-10T12:00:00", XSD.dateTimeStamp, False),
        # rdflib checks none of these lexical spaces
        ("---32", XSD.gDay, False),
        ("---31", XSD.gDay, True),
        ("--13", XSD.gMonth, False),
        ("--02-30", XSD.gMonthDay, False),
        ("--02-29", XSD.gMonthDay, True),
        ("P1Y", XSD.dayTimeDuration, False),
        ("P1D", XSD.yearMonthDuration, False),
        ("PT5M", XSD.dayTimeDuration, True),
        ("abc", XSD.hexBinary, False),
        ("!!", XSD.base64Binary, False),
        ("aGk=", XSD.base64Binary, True),
        ("en US", XSD.language, False),
        ("two\nlines", XSD.normalizedString, False),
        (" padded", XSD.token, False),
    ],
)
def test_lexical_spaces(lex: str, dt: URIRef, ok: bool) -> None:
    assert well_formed(lex, str(dt)) is ok


def test_nan_is_a_violation_not_a_crash(tmp_path: Path) -> None:
    """A "NaN"^^xsd:double against sh:minInclusive 0 used to raise decimal.InvalidOperation."""
    text = MINI.read_text().replace('ppg:characterCount "400"^^xsd:integer', 'ppg:characterCount "NaN"^^xsd:double', 1)
    bad = tmp_path / "nan.trig"
    bad.write_text(text)
    [(_, rep)] = validate_files([bad])
    comps = sorted(r.component for r in rep.results if str(r.focus) == SHOP)
    assert comps == ["DatatypeConstraintComponent", "MinInclusiveConstraintComponent"]


def test_ill_typed_literal_does_not_depend_on_triple_order() -> None:
    """rdflib reads "none"^^xsd:boolean as "false" (flagged ill-typed); a real "false" elsewhere must not
    hide it, whichever of the two the graph yields first."""
    shapes = ttl("ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:datatype xsd:boolean ] .")
    for order in ((True, False), (False, True)):
        g = Graph()
        for ill in order:
            if ill:
                g.add((URIRef(EX + "a"), URIRef(EX + "p"), Literal("none", datatype=XSD.boolean)))
            else:
                g.add((URIRef(EX + "b"), URIRef(EX + "p"), Literal("false", datatype=XSD.boolean)))
        for engine in ("core", "pyshacl"):
            rep = validate(g, shapes=shapes, engine=engine)
            assert [r.component for r in rep.results] == ["DatatypeConstraintComponent"], (order, engine)


@pytest.mark.parametrize("engine", ["core", "pyshacl"])
def test_ill_typed_and_well_typed_literals_stay_apart_in_files(tmp_path: Path, engine: str) -> None:
    """Read from a file, "none" and "false" are two values; the pyshacl copy used to merge them."""
    f = tmp_path / "two.ttl"
    f.write_text(PREFIXES + 'ex:a ex:p "none"^^xsd:boolean, "false"^^xsd:boolean .')
    shapes = ttl("ex:S sh:targetNode ex:a ; sh:property [ sh:path ex:p ; sh:datatype xsd:boolean ; sh:maxCount 1 ] .")
    [(_, rep)] = validate_files([f], shapes=shapes, engine=engine)
    assert sorted((r.component, str(r.value)) for r in rep.results) == [
        ("DatatypeConstraintComponent", "none"),
        ("MaxCountConstraintComponent", "None"),
    ]


# -- recursion, implicit targets, result counting ----------------------------------------------------

PERSON = """
ex:Person a sh:NodeShape ; sh:targetClass ex:Person ;
    sh:property [ sh:path ex:name ; sh:minCount 1 ] ;
    sh:property [ sh:path ex:knows ; sh:node ex:Person ] .
"""


def test_recursive_node_shape_on_cyclic_data() -> None:
    data = ttl("""
        ex:a a ex:Person ; ex:name "A" ; ex:knows ex:b, ex:c .
        ex:b a ex:Person ; ex:name "B" ; ex:knows ex:a .
        ex:c ex:knows ex:c .
    """)
    rep = validate(data, shapes=ttl(PERSON))
    # c has no name, so a (who knows c) fails, so b (who knows a) fails, so a fails on b too.
    assert keys(rep) == [
        (EX + "a", EX + "b", "NodeConstraintComponent"),
        (EX + "a", EX + "c", "NodeConstraintComponent"),
        (EX + "b", EX + "a", "NodeConstraintComponent"),
    ]
    ok = ttl("ex:a a ex:Person ; ex:name 'A' ; ex:knows ex:b . ex:b a ex:Person ; ex:name 'B' ; ex:knows ex:a .")
    assert validate(ok, shapes=ttl(PERSON)).conforms


def test_too_deep_a_chain_is_a_clear_error() -> None:
    chain = "\n".join(f"ex:n{i} ex:name 'x' ; ex:knows ex:n{i + 1} ." for i in range(5000))
    data = ttl("ex:n0 a ex:Person .\n" + chain)
    with pytest.raises(InputError, match="deeper than can be checked"):
        validate(data, shapes=ttl(PERSON), engine="core")


@pytest.mark.parametrize("engine", ["core", "pyshacl"])
def test_classes_that_are_shapes_target_their_instances(engine: str) -> None:
    shapes = ttl("""
        ex:C a owl:Class, sh:NodeShape ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .
        ex:D a rdfs:Class ; sh:property [ sh:path ex:p ; sh:minCount 1 ] .
    """)
    data = ttl("""
        ex:Sub rdfs:subClassOf ex:C .
        ex:x a ex:C . ex:y a ex:Sub . ex:z a ex:D . ex:ok a ex:C ; ex:p 1 .
    """)
    rep = validate(data, shapes=shapes, engine=engine)
    assert keys(rep) == [(EX + f, "None", "MinCountConstraintComponent") for f in "xyz"]


@pytest.mark.parametrize("engine", ["core", "pyshacl"])
def test_nested_detail_results_are_not_counted(engine: str) -> None:
    shapes = ttl("""
        ex:S a sh:NodeShape ; sh:targetNode ex:a ; sh:property [ sh:path ex:addr ; sh:node ex:Addr ] .
        ex:Addr a sh:NodeShape ; sh:property [ sh:path ex:zip ; sh:minCount 1 ; sh:datatype xsd:string ] .
    """)
    data = ttl("ex:a ex:addr ex:home . ex:home ex:zip 5 .")
    rep = validate(data, shapes=shapes, engine=engine)
    assert keys(rep) == [(EX + "a", EX + "home", "NodeConstraintComponent")]


# -- paths ---------------------------------------------------------------------------------------------


PATHS = {
    "ex:p*": ("[ sh:zeroOrMorePath ex:p ]", {"a", "b", "c"}),
    "ex:p+": ("[ sh:oneOrMorePath ex:p ]", {"a", "b", "c"}),  # a is reached again through the cycle
    "ex:p?": ("[ sh:zeroOrOnePath ex:p ]", {"a", "b"}),
    "^(ex:p/ex:q)": ("[ sh:inversePath ( ex:p ex:q ) ]", {"z"}),
    "^(ex:p*)": ("[ sh:inversePath [ sh:zeroOrMorePath ex:p ] ]", {"a", "b", "c"}),
    "(ex:p|ex:q)+": ("[ sh:oneOrMorePath [ sh:alternativePath ( ex:p ex:q ) ] ]", {"a", "b", "c", "y"}),
}


@pytest.mark.parametrize("name", sorted(PATHS))
def test_complex_paths_run_natively_and_agree_with_pyshacl(name: str) -> None:
    path, want = PATHS[name]
    # Every value node fails sh:datatype, so the results list the value nodes of the path.
    shapes = ttl(f"ex:S sh:targetNode ex:a, ex:y ; sh:property [ sh:path {path} ; sh:datatype xsd:string ] .")
    data = ttl("ex:a ex:p ex:b . ex:b ex:p ex:c . ex:c ex:p ex:a . ex:z ex:p ex:x . ex:x ex:q ex:a . ex:c ex:q ex:y .")
    core, ref = validate(data, shapes=shapes, engine="core"), validate(data, shapes=shapes, engine="pyshacl")
    assert core.engine == "core"
    assert {str(r.value)[len(EX) :] for r in core.results if str(r.focus) == EX + "a"} == want
    if name == "^(ex:p/ex:q)":
        return  # pyshacl 0.3x finds no value nodes for an inverse sequence path (its bug, not ours)
    assert keys(core) == keys(ref)
    assert {str(r.path) for r in core.results} == {str(r.path) for r in ref.results}
