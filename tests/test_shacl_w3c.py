"""The W3C SHACL core test suite (98 tests, read from ../shared; skipped when absent) through validate()."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import shacl_suite as suite

pytestmark = pytest.mark.skipif(not (suite.SUITE / "manifest.ttl").is_file(), reason="W3C SHACL tests not present")


def test_suite_has_all_core_tests() -> None:
    assert len(suite.cases()) == 98


def test_whole_suite_through_validate_auto() -> None:
    passed, failed, unsupported = suite.run("auto")
    assert failed == {} and unsupported == []
    assert len(passed) == 98


def test_native_engine_passes_every_test_it_claims() -> None:
    passed, failed, unsupported = suite.run("core")
    assert failed == {}
    # What the native engine leaves to pyshacl: sh:closed, qualified value shapes, SPARQL.
    assert len(passed) == 90, unsupported


@pytest.mark.slow
def test_whole_suite_through_pyshacl() -> None:
    """The reference engine as we call it (detail results and paths read back) passes it too."""
    passed, failed, _ = suite.run("pyshacl")
    assert set(failed) <= {"property/uniqueLang-002"}  # pyshacl's own bug: "1"^^xsd:boolean activates it
    assert len(passed) >= 97


SCRIPT = """
import sys
from pathlib import Path
from rdflib import Graph
from pp_graph.validate import validate
g = Graph().parse(Path(sys.argv[1]), format="turtle")  # rdflib's defaults: "none"^^xsd:boolean reads as "false"
rep = validate(g, shapes=g)
print(sorted((str(r.focus), str(r.value), r.component) for r in rep.results))
"""


def test_same_answer_every_run_whatever_the_hash_seed() -> None:
    """property/or-datatypes-001 used to pass or fail by run: an ill-typed literal rdflib normalised to
    "false" shared its index key with the manifest's true "false", and set order picked which one was seen."""
    path = suite.SUITE / "property" / "or-datatypes-001.ttl"
    tests_dir = str(Path(__file__).resolve().parent)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(path)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            cwd=tests_dir,
        )
        for seed in ("0", "1", "2", "3", "4", "5")
    ]
    outs = {p.communicate(timeout=120)[0] for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(outs) == 1, outs
    (out,) = outs
    assert "OrConstraintComponent" in out and "InvalidResource1" in out and "ValidResource1'" not in out
