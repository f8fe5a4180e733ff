"""Load time and query latency, rdflib vs pyoxigraph, on the converted corpus and a ~1M-triple graph.

Prints one table (median of repeats) and checks the targets: a top-N query on 1M triples in ≤ 0.2 s and
≥ 20× faster than rdflib; also times SHACL validation of the whole corpus when pp_graph.validate exists.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _shared import CORPUS

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
QUERY = "top-data-classes"
UNDER = "https://w3id.org/dpv#PersonalData"


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


RDFLIB_BUDGET = 150.0  # seconds for rdflib's load + queries on one dataset; beyond it the query time is a bound


def rdflib_side(files: list[Path], text: str, repeats: int) -> tuple[float, float, int]:
    """rdflib in a child process, stopped after RDFLIB_BUDGET: (load s, query s, rows); query = budget if cut."""
    import multiprocessing as mp

    q: Any = mp.Queue()
    proc = mp.Process(target=_rdflib_child, args=(files, text, repeats, q))
    start = time.perf_counter()
    proc.start()
    load = q.get(timeout=RDFLIB_BUDGET)
    try:
        t_q, rows = q.get(timeout=max(1.0, RDFLIB_BUDGET - (time.perf_counter() - start)))
    except Exception:  # queue.Empty: the query did not finish within the budget
        proc.terminate()
        proc.join()
        return load, float("inf"), -1
    proc.join()
    return load, t_q, rows


def _rdflib_child(files: list[Path], text: str, repeats: int, q: Any) -> None:
    from rdflib import Dataset, URIRef

    from pp_graph.resources import DPV_FILES

    def load() -> Dataset:
        ds = Dataset(default_union=True)
        dpv = ds.graph(URIRef("urn:pp-graph:graph:dpv"))
        for f in DPV_FILES:
            dpv.parse(f, format="turtle")
        for f in files:
            ds.parse(f, format="trig" if f.suffix == ".trig" else "nquads")
        return ds

    t_load, ds = timed(load, 1)
    q.put(t_load)
    t_q, rows = timed(lambda: list(ds.query(text, initBindings={"under": URIRef(UNDER)})), repeats)
    q.put((t_q, len(rows)))


def oxigraph_side(files: list[Path], text: str, repeats: int) -> tuple[float, float, int]:
    from pp_graph.store.embedded import open_store

    t_load, store = timed(lambda: open_store(files), 1)
    t_q, rows = timed(lambda: store.query(text, {"under": UNDER}), repeats)
    return t_load, t_q, len(rows)


def corpus_files(tmp: Path) -> list[Path]:
    from pp_graph.batch import convert_batch

    out = tmp / "corpus"
    convert_batch([CORPUS], out, fmt="trig", backend="offline", options={}, jobs=2)
    return sorted(out.glob("*.trig"))


def main() -> int:
    from make_synthetic import generate

    from pp_graph.query.runner import load_query

    text = load_query(QUERY).text
    results: list[tuple[str, int, tuple[float, float, int], tuple[float, float, int]]] = []
    ok = True
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        datasets: list[tuple[str, list[Path], int]] = []
        if CORPUS.is_dir():
            t = time.perf_counter()
            datasets.append(("corpus (40 policies)", corpus_files(tmp), 3))
            print(f"converted the corpus in {time.perf_counter() - t:.1f}s", flush=True)
        syn = tmp / "synthetic.nq"
        n = generate(syn, 1_000_000)
        datasets.append((f"synthetic ({n / 1e6:.2f}M triples)", [syn], 1))
        for name, files, repeats in datasets:
            ox_res = oxigraph_side(files, text, 7)
            rdf_res = rdflib_side(files, text, repeats)  # rdflib takes minutes on 1M triples: fewer repeats
            if rdf_res[2] >= 0 and ox_res[2] != rdf_res[2]:
                print(f"warning: {name}: rdflib returned {rdf_res[2]} rows, pyoxigraph {ox_res[2]}")
            results.append((name, n, rdf_res, ox_res))
            print(f"done: {name}", flush=True)

        print(f"\nquery: {QUERY} (median latency), load includes DPV")
        print(
            f"{'dataset':28} {'rdflib load':>12} {'oxigraph load':>14} {'rdflib query':>13} "
            f"{'oxigraph query':>15} {'speed-up':>9} {'rows':>5}"
        )
        for name, _, r, o in results:
            cut = r[1] == float("inf")  # rdflib did not finish within its budget: a lower bound
            r_q = RDFLIB_BUDGET - r[0] if cut else r[1]
            mark = ">" if cut else ""
            print(
                f"{name:28} {r[0]:11.2f}s {o[0]:13.2f}s {mark + format(r_q, '.3f'):>12}s {o[1]:14.4f}s "
                f"{mark + format(r_q / o[1], '.0f'):>8}× {o[2]:5}"
            )
        _, _, r, o = results[-1]
        cut = r[1] == float("inf")
        speed = (RDFLIB_BUDGET - r[0] if cut else r[1]) / o[1]
        ok = o[1] <= 0.2 and speed >= 20
        print(
            f"target top-N on 1M triples ≤ 0.2 s and ≥ 20× rdflib: {'met' if ok else 'NOT met'} "
            f"({o[1]:.3f}s, {'>' if cut else ''}{speed:.0f}×)"
        )

        if CORPUS.is_dir():
            try:
                from pp_graph.validate import validate_files  # type: ignore[attr-defined]
            except ImportError:
                print("SHACL validation of the corpus: pp_graph.validate.validate_files not available")
            else:
                files = sorted((tmp / "corpus").glob("*.trig"))
                t = time.perf_counter()
                reports = validate_files(files)
                dt = time.perf_counter() - t
                good = sum(1 for _, rep in reports if rep.conforms)
                print(
                    f"SHACL validation of the corpus: {dt:.2f}s for {len(files)} graphs ({good} conform); "
                    f"target ≤ 5 s: {'met' if dt <= 5 else 'NOT met'}"
                )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
