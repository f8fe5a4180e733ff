"""Run the W3C SHACL core test suite (data-shapes test suite, W3C licence) through pp-graph's validator.

The suite is read from ``../shared/vocab/shacl-tests/core`` (or ``$PPG_SHACL_TESTS``); it is not vendored.
Each ``sht:Validate`` entry names a data graph and a shapes graph and the expected report. A test passes
when our report has the same ``conforms`` flag and the same multiset of results, each compared on focus
node, path, value, source shape, constraint component, severity and (when the expected result gives one)
message. Blank nodes compare exactly when data, shapes and expectations come from one file (one parse,
one set of blank node ids), and as "some blank node" otherwise.

``python tests/shacl_suite.py [auto|core|pyshacl]`` prints the counts and the failures.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import rdflib
from rdflib import BNode, Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF, SH

from pp_graph.validate import ValidationReport, validate
from pp_graph.validate.shacl import UnsupportedShapes, render_path

MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
SHT = Namespace("http://www.w3.org/ns/shacl-test#")

_HERE = Path(__file__).resolve().parent
SUITE = Path(os.environ.get("PPG_SHACL_TESTS", _HERE.parent.parent / "shared" / "vocab" / "shacl-tests")) / "core"


@dataclass(frozen=True)
class Case:
    name: str  # e.g. "node/minInclusive-003"
    file: Path
    data: Path
    shapes: Path
    expected: Graph  # the manifest file's graph, holding the expected report
    report: URIRef | BNode


def _parse(path: Path, public_id: str | None = None) -> Graph:
    """Parse keeping every literal as written: rdflib's default normalisation turns "none"^^xsd:boolean into
    "false" and "1" into "true", and the suite tests exactly those lexical forms."""
    old = rdflib.NORMALIZE_LITERALS
    rdflib.NORMALIZE_LITERALS = False
    try:
        return Graph().parse(path, format="turtle", publicID=public_id)
    finally:
        rdflib.NORMALIZE_LITERALS = old


@cache
def cases(root: Path = SUITE) -> list[Case]:
    """Every sht:Validate test under ``root`` (following mf:include), in a stable order."""
    out: list[Case] = []
    seen: set[Path] = set()
    todo = [root / "manifest.ttl"]
    while todo:
        f = todo.pop(0)
        if f in seen:
            continue
        seen.add(f)
        g = _parse(f, f.as_uri())
        for inc in g.objects(None, MF.include):
            todo.append(Path(str(inc).removeprefix("file://")))
        for test in g.subjects(RDF.type, SHT.Validate):
            action = g.value(test, MF.action)
            data = Path(str(g.value(action, SHT.dataGraph)).removeprefix("file://"))
            shapes = Path(str(g.value(action, SHT.shapesGraph)).removeprefix("file://"))
            name = f"{f.parent.name}/{str(test).rsplit('/', 1)[-1]}"
            out.append(Case(name, f, data, shapes, g, g.value(test, MF.result)))  # type: ignore[arg-type]
    return sorted(out, key=lambda c: c.name)  # callers must not modify the graphs


def _term(t: object, exact: bool) -> str:
    if isinstance(t, BNode):
        return f"_:{t}" if exact else "_:"
    if isinstance(t, Literal):
        return t.n3()
    return "" if t is None else str(t)


def _path(g: Graph, p: object) -> str:
    if p is None:
        return ""
    if isinstance(p, URIRef):
        return str(p)
    return str(render_path(g, p))  # type: ignore[arg-type]


Key = tuple[str, str, str, str, str, str]


def _severity(s: object) -> str:
    # The report spells the three SHACL severities by local name and any other severity by its IRI.
    return str(s).removeprefix(str(SH)) if str(s).startswith(str(SH)) else str(s)


def expected_results(case: Case, exact: bool) -> tuple[bool, Counter[Key], dict[Key, set[str]]]:
    g, rep = case.expected, case.report
    conforms = bool(g.value(rep, SH.conforms).toPython())  # type: ignore[union-attr]
    keys: Counter[Key] = Counter()
    messages: dict[Key, set[str]] = {}
    for r in g.objects(rep, SH.result):
        key = (
            _term(g.value(r, SH.focusNode), exact),
            _path(g, g.value(r, SH.resultPath)),
            _term(g.value(r, SH.value), exact),
            _term(g.value(r, SH.sourceShape), exact),
            str(g.value(r, SH.sourceConstraintComponent)).rsplit("#", 1)[-1],
            _severity(g.value(r, SH.resultSeverity)),
        )
        keys[key] += 1
        msgs = {str(m) for m in g.objects(r, SH.resultMessage)}
        if msgs:
            messages[key] = msgs
    return conforms, keys, messages


def actual_results(report: ValidationReport, exact: bool) -> tuple[Counter[Key], dict[Key, set[str]]]:
    keys: Counter[Key] = Counter()
    messages: dict[Key, set[str]] = {}
    for r in report.results:
        key = (
            _term(r.focus, exact),
            "" if r.path is None else str(r.path),
            _term(r.value, exact),
            _term(r.source, exact),
            r.component,
            r.severity,
        )
        keys[key] += 1
        messages.setdefault(key, set()).add(r.message)
    return keys, messages


def _load(case: Case) -> tuple[Graph, Graph, bool]:
    if case.data == case.file and case.shapes == case.file:
        return case.expected, case.expected, True
    data = case.expected if case.data == case.file else _parse(case.data)
    shapes = case.expected if case.shapes == case.file else _parse(case.shapes)
    return data, shapes, False


def check(case: Case, engine: str) -> str | None:
    """None when the test passes, else why it fails. Raises UnsupportedShapes for tests the engine does not claim."""
    data, shapes, exact = _load(case)
    report = validate(data, shapes=shapes, engine=engine)
    conforms, want, want_msgs = expected_results(case, exact)
    got, got_msgs = actual_results(report, exact)
    if report.conforms != conforms:
        return f"conforms {report.conforms}, expected {conforms}"
    if got != want:
        missing, extra = want - got, got - want
        return f"missing {sorted(missing)}; unexpected {sorted(extra)}"
    for key, msgs in want_msgs.items():
        if not msgs <= got_msgs.get(key, set()):
            return f"messages {got_msgs.get(key)} for {key}, expected {msgs}"
    return None


def run(engine: str) -> tuple[list[str], dict[str, str], list[str]]:
    """(passed, failed → why, unsupported) over the whole suite."""
    passed: list[str] = []
    failed: dict[str, str] = {}
    unsupported: list[str] = []
    for case in cases():
        try:
            why = check(case, engine)
        except UnsupportedShapes:
            unsupported.append(case.name)
            continue
        except Exception as e:  # a crash is a failure of that test, not of the run
            why = f"{type(e).__name__}: {e}"
        if why is None:
            passed.append(case.name)
        else:
            failed[case.name] = why
    return passed, failed, unsupported


def main(argv: list[str]) -> int:
    engine = argv[0] if argv else "auto"
    passed, failed, unsupported = run(engine)
    claimed = len(passed) + len(failed)
    print(f"engine={engine}: {len(passed)}/{claimed} passed ({len(unsupported)} not claimed)")
    for name, why in failed.items():
        print(f"FAIL {name}: {why[:300]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
