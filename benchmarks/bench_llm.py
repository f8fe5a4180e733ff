"""Requests and tokens per policy: the paper's scheme vs ours, ours with --prefilter (no network).

Runs the LLM backend through the real ``openai`` client against the local fake server of the tests
(127.0.0.1, keyword-spotting answers, usage = characters / 4), on the same segments for each scheme.
Target: with --prefilter at most 1/5 of the paper scheme's requests and tokens per policy.

    python benchmarks/bench_llm.py [--all | --every K]

The paper scheme makes ~4.7 requests per segment (~48,000 over the 40 policies); through the real
client that is ~4 ms each, so by default the three schemes are compared on every 4th policy (10
policies, same segments for each scheme) and ours also runs over the whole corpus. ``--all``
compares on all 40 (about 4 minutes more).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
import urllib.request
from pathlib import Path
from statistics import mean
from typing import Any

from _shared import CORPUS, corpus_files

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SCHEMES: dict[str, dict[str, Any]] = {  # label → backend options
    "paper": {"scheme": "paper"},
    "ours": {"scheme": "ours"},
    "ours --prefilter": {"scheme": "ours", "prefilter": True},
}


def run(
    backend_cls: Any, extract: Any, base_url: str, concurrency: int, opts: dict[str, Any], policies: list[Any]
) -> list[dict[str, float]]:
    t = time.perf_counter()
    backend = backend_cls(
        model="fake-model", base_url=base_url, api_key="test", no_cache=True, concurrency=concurrency, **opts
    )
    out = []
    for p in policies:
        st = extract(p, backend).stats
        out.append(
            {
                "requests": st["requests"],
                "tokens": st["prompt_tokens"] + st["completion_tokens"],
                "prompt": st["prompt_tokens"],
                "completion": st["completion_tokens"],
                "segments": st["segments_sent"] + st["segments_skipped"],
                "sent": st["segments_sent"],
            }
        )
    print(f"  {opts}: {len(policies)} policies in {time.perf_counter() - t:.1f}s", file=sys.stderr)
    return out


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=4, help="compare on every K-th policy (default 4)")
    ap.add_argument("--all", action="store_true", help="compare on all policies")
    ap.add_argument("--concurrency", type=int, default=64)
    return ap.parse_args()


Rows = dict[str, list[dict[str, float]]]


def _measure(files: list[Path], sample: list[Path], concurrency: int) -> tuple[Rows, Rows, dict[str, Any], float]:
    """Every scheme over ``sample``, ours (with and without the prefilter) over all ``files`` when the sample is
    smaller, against the fake server in its own process; the server's own count of requests; the seconds taken
    once the server was up."""
    from llm_server import serve_forever

    from pp_graph.extract.llm.backend import LLMBackend
    from pp_graph.extract.pipeline import extract
    from pp_graph.load.sources import load_policy

    ctx = mp.get_context("spawn")
    ready = ctx.Queue()
    server = ctx.Process(target=serve_forever, args=(ready,), daemon=True)  # its own process: its own GIL
    server.start()
    base_url = ready.get(timeout=30)
    t0 = time.perf_counter()
    try:
        everything = [load_policy(f) for f in files]
        policies = [load_policy(f) for f in sample]
        rows: Rows = {}
        for label, opts in SCHEMES.items():
            rows[label] = run(LLMBackend, extract, base_url, concurrency, opts, policies)
        whole = (
            {
                label: run(LLMBackend, extract, base_url, concurrency, SCHEMES[label], everything)
                for label in ("ours", "ours --prefilter")
            }
            if len(policies) < len(everything)
            else {}
        )
        with urllib.request.urlopen(base_url.rsplit("/v1", 1)[0] + "/stats", timeout=10) as r:
            served = json.loads(r.read())
    finally:
        server.terminate()
        server.join()
    return rows, whole, served, time.perf_counter() - t0


def _print_schemes(rows: Rows) -> dict[str, tuple[float, float]]:
    """The per-scheme table; per scheme, (requests, tokens) relative to the paper's scheme."""
    paper = rows["paper"]
    head = (
        f"{'scheme':<18}{'requests/policy':>16}{'tokens/policy':>15}{'prompt':>10}{'completion':>12}"
        f"{'segments sent':>15}{'req vs paper':>14}{'tok vs paper':>14}"
    )
    print(head)
    print("-" * len(head))
    p_req, p_tok = mean(r["requests"] for r in paper), mean(r["tokens"] for r in paper)
    result = {}
    for label, rs in rows.items():
        req, tok = mean(r["requests"] for r in rs), mean(r["tokens"] for r in rs)
        result[label] = (req / p_req, tok / p_tok)
        print(
            f"{label:<18}{req:>16.1f}{tok:>15.0f}{mean(r['prompt'] for r in rs):>10.0f}"
            f"{mean(r['completion'] for r in rs):>12.0f}{mean(r['sent'] for r in rs):>15.1f}"
            f"{req / p_req:>14.3f}{tok / p_tok:>14.3f}"
        )
    return result


def _print_whole(whole: Rows, n_policies: int) -> None:
    n_segments = int(sum(r["segments"] for r in next(iter(whole.values()))))
    print(f"\nours over all {n_policies} policies ({n_segments} segments):")
    for label, rs in whole.items():
        print(
            f"{label:<18}{mean(r['requests'] for r in rs):>16.1f}{mean(r['tokens'] for r in rs):>15.0f}"
            f"{mean(r['prompt'] for r in rs):>10.0f}{mean(r['completion'] for r in rs):>12.0f}"
            f"{mean(r['sent'] for r in rs):>15.1f}"
        )


def main() -> int:
    args = _args()
    files = corpus_files()
    if not files:
        print(f"skipped: no corpus at {CORPUS}")
        return 0
    sample = files if args.all else files[:: max(1, args.every)]
    rows, whole, served, seconds = _measure(files, sample, args.concurrency)
    print(
        f"LLM backend, {len(sample)} of {len(files)} policies, "
        f"{int(sum(r['segments'] for r in rows['paper']))} segments "
        f"(fake server on 127.0.0.1; tokens = characters / 4; {seconds:.0f}s)\n"
    )
    result = _print_schemes(rows)
    if whole:
        _print_whole(whole, len(files))
    total = sum(r["requests"] for rs in (*rows.values(), *whole.values()) for r in rs)
    print(f"\nserver saw {served['requests']} requests (backends counted {int(total)})")
    ok = result["ours --prefilter"][0] <= 0.2 and result["ours --prefilter"][1] <= 0.2 and result["ours"][1] < 0.5
    print("target (prefilter ≤ 1/5 of the paper's requests and tokens):", "met" if ok else "NOT met")
    return 0 if ok and served["requests"] == total else 1


if __name__ == "__main__":
    raise SystemExit(main())
