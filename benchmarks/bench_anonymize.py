"""Anonymization on the public synthetic PII benchmark (held-out half of the templates, seed 13).

Prints detection P/R/F1 per type (token level), per level L1–L5 and adaptive: privacy (gold values gone;
gold tokens gone), utility (non-PII tokens kept), supported-guess rate, latency p50/p99. Exit 1 on a missed target.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import _pii

from pp_graph.anonymize import anonymize, apply_level, recognize

W = re.compile(r"\w+")


def main() -> int:
    _, test = _pii.split(_pii.load())
    ents = {}
    t0 = time.perf_counter()
    for s in test:
        ents[s.text] = recognize(s.text)
    det_ms = (time.perf_counter() - t0) * 1000 / len(test)
    prf = _pii.token_prf(test, lambda x: [(e.type, e.start, e.end) for e in ents[x]])
    print(f"detection on {len(test)} held-out sentences ({det_ms:.1f} ms/sentence):")
    for k, v in prf.items():
        print(f"  {k:18} P {v['P']:.3f} R {v['R']:.3f} F1 {v['F1']:.3f} (tokens {v['support']})")
    print("level     priv(values) priv(tokens) utility guess  p50ms  p99ms")
    for lv in ["1", "2", "3", "4", "5", "adaptive"]:
        hid = tot = htok = ttok = kept = other = guessed = 0
        lat = []
        for s in test:
            t1 = time.perf_counter()
            if lv == "adaptive":
                a = anonymize(s.text, 1, escalate=True, entities=ents[s.text])
                out = a.text
                guessed += any(g.supported for g in a.guesses if g.level == a.level)
            else:
                out = apply_level(s.text, ents[s.text], int(lv))[0]
            lat.append((time.perf_counter() - t1) * 1000)
            toks = {w.lower() for w in W.findall(out)}
            for _, a0, b0 in s.spans:
                tot += 1
                hid += s.text[a0:b0] not in out
                for w in W.findall(s.text[a0:b0]):
                    ttok += 1
                    htok += w.lower() not in toks
            for m in W.finditer(s.text):
                if not any(a0 < m.end() and m.start() < b0 for _, a0, b0 in s.spans):
                    other += 1
                    kept += m.group(0).lower() in toks
        lat.sort()
        p99 = lat[int(0.99 * (len(lat) - 1))]
        print(
            f"L{lv:8} {hid / tot:.3f}        {htok / ttok:.3f}        {kept / other:.3f}   "
            f"{guessed / len(test):.3f}  {statistics.median(lat):.2f}   {p99:.2f}"
        )
    return 0 if prf["micro"]["F1"] >= 0.90 else 1


if __name__ == "__main__":
    sys.exit(main())
