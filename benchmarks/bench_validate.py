"""SHACL validation time for the whole shared corpus (converted in-process with the offline backend).

    .venv/bin/python benchmarks/bench_validate.py            # core engine
    .venv/bin/python benchmarks/bench_validate.py --pyshacl  # also time pyshacl (slow: tens of seconds)

Prints wall and CPU seconds (CPU is the fairer figure on a busy machine) and whether every graph conforms;
if not, the failing shapes with one example each.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from _shared import CORPUS, corpus_files
from rdflib import Dataset

from pp_graph.extract.pipeline import extract
from pp_graph.extract.registry import get_backend
from pp_graph.graph.build import build_graph
from pp_graph.graph.namespaces import bind_prefixes
from pp_graph.load.sources import policy_from_text
from pp_graph.validate import ValidationReport, ValidationResult, validate, validate_files


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    print(f"{label}: {time.perf_counter() - w:.2f} s wall, {time.process_time() - c:.2f} s CPU")
    return out


def summary(rep: ValidationReport) -> None:
    print(f"  graphs: {len(rep.graphs)}, conform: {rep.conforms}, results: {len(rep.results)}")
    if not rep.conforms:
        bad = {r.graph for r in rep.results}
        print(f"  non-conforming graphs: {len(bad)}")

        def key(r: ValidationResult) -> tuple[str, str, str]:
            return (str(r.shape), str(r.path), r.component)

        seen = Counter(key(r) for r in rep.results)
        for k, n in seen.most_common():
            ex = next(r for r in rep.results if key(r) == k)
            shape, path, comp = k
            print(f"  {n:6d} × {shape} {path} {comp}\n         e.g. {ex.focus} = {ex.value}: {ex.message}")


def main() -> int:
    if not CORPUS.is_dir():
        print(f"skip: no corpus at {CORPUS}")
        return 0
    files = corpus_files()
    ds = Dataset()
    bind_prefixes(ds)
    backend = get_backend("offline")

    def convert() -> None:
        for f in files:
            build_graph(extract(policy_from_text(f.read_text(encoding="utf-8"), f.stem, f.name), backend), ds)

    timed(f"convert {len(files)} policies", convert)
    print(f"  triples: {len(ds)}")
    validate(Dataset())  # load DPV, the typing graph and the shapes once, outside the timing
    rep = timed("validate (core engine, in-memory Dataset)", lambda: validate(ds))
    summary(rep)

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.nq"
        ds.serialize(path, format="nquads")
        [(_, frep)] = timed("validate_files (core engine, N-Quads file incl. parsing)", lambda: validate_files([path]))
        summary(frep)

    if "--pyshacl" in sys.argv:
        import pyshacl

        from pp_graph.resources import PR2GRAPH_SHAPES
        from pp_graph.validate import typing_graph

        def union() -> bool:
            tg = ds.graph("urn:pp-graph:bench-typing")
            for t in typing_graph():
                tg.add(t)
            try:
                conforms, _, _ = pyshacl.validate(ds, shacl_graph=str(PR2GRAPH_SHAPES), inference="none", inplace=True)
            finally:
                ds.remove_graph(tg)
            return bool(conforms)

        ok = timed("pyshacl, one run over the union (+ typing graph), inference none", union)
        print(f"  conform: {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
