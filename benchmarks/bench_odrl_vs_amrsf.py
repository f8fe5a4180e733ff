"""Where the ODRL verdict and AMRSF disagree on the corpus, and what the ODRL check costs per decision.

Converts ../shared/corpus/policies into a temporary folder (or reads --graph DIR), then decides a grid of calls
per site (data category x purpose x recipient kind) with the ODRL check on. Prints the crosstab of AMRSF's
verdict against the ODRL verdict, lists the hard disagreements (ODRL prohibits what AMRSF lets through; ODRL
permits what AMRSF denies) with the rule and policy line, and times decisions with the ODRL check on and off.
Skips when the corpus is absent.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _shared import CORPUS

from pp_graph.batch import convert_batch
from pp_graph.risk import ActionContext, RiskEngine
from pp_graph.store.embedded import EmbeddedStore

DATA = ["pd:EmailAddress", "pd:Location", "pd:PhysicalAddress", "pd:IPAddress", "pd:BrowserHistory"]
PURPOSES = [
    None,
    "dpv:ServiceProvision",
    "dpv:Marketing",
    "dpv:TargetedAdvertising",
    "dpv:SellDataToThirdParties",
    "dpv:ServiceUsageAnalytics",
]
RECIPIENTS = [None, "first_party", "service_provider", "advertising", "data_broker"]


def calls(sites: list[str]) -> list[ActionContext]:
    out = []
    for site, data, purpose, recipient in itertools.product(sites, DATA, PURPOSES, RECIPIENTS):
        out.append(
            ActionContext(
                site=site,
                data=(data,),
                purposes=(purpose,) if purpose else (),
                recipients=(recipient,) if recipient else (),
                basis="input",
            )
        )
    return out


def disagreement(amrsf: str, odrl: str) -> str | None:
    if odrl == "prohibited" and amrsf != "deny":
        return "ODRL prohibits, AMRSF lets through"
    if odrl == "permitted" and amrsf == "deny":
        return "ODRL permits, AMRSF denies"
    return None


def run(graphs: Path, show: int) -> None:
    store = EmbeddedStore()
    store.load([graphs])
    sites = sorted(p.stem for p in graphs.glob("*.trig"))
    batch = calls(sites)
    timings = {}
    records: list[Any] = []
    for odrl in (False, True):
        engine = RiskEngine(store, odrl=odrl)
        for s in sites:
            engine.profile(s)
        gc.collect()
        gc.freeze()  # as the CLI and bench_risk do: the loaded store is not traversed by every collection
        start = time.thread_time()  # CPU time: the machine is shared, wall time would measure the neighbours
        decided = [engine.decide(c) for c in batch]
        timings[odrl] = time.thread_time() - start
        if odrl:
            records = decided
    cross: Counter[tuple[str, str]] = Counter()
    hard: list[tuple[str, ActionContext, Any]] = []
    for c, d in zip(batch, records, strict=True):
        if d.odrl is None:
            continue
        cross[(d.odrl["amrsf"], d.odrl["verdict"])] += 1
        kind = disagreement(d.odrl["amrsf"], d.odrl["verdict"])
        if kind:
            hard.append((kind, c, d))
    _print(sites, batch, timings, cross, hard, show)


def _print(
    sites: list[str],
    batch: list[ActionContext],
    timings: dict[bool, float],
    cross: Counter[Any],
    hard: list[Any],
    show: int,
) -> None:
    n = len(batch)
    print(f"{len(sites)} sites, {n} calls ({len(DATA)} data x {len(PURPOSES)} purposes x {len(RECIPIENTS)} recipients)")
    print(
        f"CPU time per decision: AMRSF only {timings[False] / n * 1000:.3f} ms, with the ODRL check "
        f"{timings[True] / n * 1000:.3f} ms (every call distinct; each site's ODRL policy is exported and "
        "prepared with its signals, before timing)"
    )
    print("\nAMRSF verdict x ODRL verdict (calls to sites with a policy):")
    for (a, o), k in sorted(cross.items()):
        print(f"  {a:9s} {o:14s} {k:6d}")
    kinds = Counter(k for k, _, _ in hard)
    print(f"\nhard disagreements: {len(hard)} ({', '.join(f'{k}: {v}' for k, v in sorted(kinds.items())) or 'none'})")
    per_site = Counter(c.site for _, c, _ in hard)
    print("by site: " + ", ".join(f"{site} {k}" for site, k in per_site.most_common()))
    seen: set[tuple[str | None, str]] = set()
    examples = []
    for kind, c, d in hard:  # one example per site and rule: the list shows the spread, not one site's grid
        first = d.odrl["rules"][0]["rule"] if d.odrl["rules"] else ""
        if (c.site, first) not in seen:
            seen.add((c.site, first))
            examples.append((kind, c, d))
    print(f"one example per site and rule ({len(examples)}):")
    for kind, c, d in examples[:show]:
        rule = d.odrl["rules"][0] if d.odrl["rules"] else {}
        text = (rule.get("text") or "")[:100]
        print(
            f"- {kind}: {c.site} {c.data[0]} purpose={','.join(c.purposes) or '-'} "
            f"recipient={','.join(c.recipients) or '-'} (AMRSF {d.odrl['amrsf']}, R={d.risk:.2f}); "
            f'rule {rule.get("rule", "-").rsplit("/odrl/", 1)[-1]}: "{text}"'
        )
    if len(examples) > show:
        print(f"  … {len(examples) - show} more (--show N)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--graph", type=Path, help="converted policy graphs (default: convert the corpus)")
    ap.add_argument("--show", type=int, default=25, help="how many disagreements to list")
    args = ap.parse_args()
    if args.graph:
        run(args.graph, args.show)
        return 0
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} not found")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        report = convert_batch([CORPUS], Path(tmp), jobs=2)
        print(f"corpus converted in {time.perf_counter() - t0:.1f}s ({report.count('failed')} failed)")
        run(Path(tmp), args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
