"""What the residual sweep costs on real text without personal data: the share of word tokens it masks in
sentences of the project's privacy-policy corpus (``../shared/corpus/policies``, Open Terms Archive, ODC-BY 1.0;
read in place, never copied). Policies name the company and its products, so a few masks are right; most are
utility lost (defined terms like "Privacy Policy", technical tokens like "IPv6").

    python benchmarks/bench_sweep_utility.py                 # every policy, the first 60 sentences of each
    python benchmarks/bench_sweep_utility.py --per-file 0    # every sentence (slower)
    python benchmarks/bench_sweep_utility.py --show 20       # also print 20 masked tokens with their rule

The detector runs in mode "none" (patterns only: cheap, and what it finds is not the sweep's doing); only the
sweep's own spans are counted. Exit 1 when more than ``TARGET`` of the word tokens are masked, 2 on bad input.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from pp_graph.anonymize import recognize
from pp_graph.anonymize.sweep import DEFAULT_SWEEP, sweep

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus" / "policies"
# At most 5% of the word tokens of policy text masked by the sweep: what is left is mostly the names of the
# company, its products and partners (an organisation the detector masks at L3 anyway).
TARGET = 0.05
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(])")
_TOKEN = re.compile(r"\w+")


def sentences(path: Path, per_file: int) -> list[str]:
    """The prose sentences of one markdown policy: links become their text, markup and short lines go."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = _LINK.sub(r"\1", line).strip().lstrip("#*->|").strip().replace("**", "")
        if len(line) < 20 or line.count("|") > 1:
            continue
        out.extend(s for s in _SENT.split(line) if len(s) >= 20)
        if per_file and len(out) >= per_file:
            return out[:per_file]
    return out


def measure(texts: list[str], show: int) -> tuple[int, int, Counter[str]]:
    """(word tokens, tokens the sweep masks, masked tokens by rule and value when ``show``)."""
    total = masked = 0
    seen: Counter[str] = Counter()
    for t in texts:
        spans = sweep(t, recognize(t, ner=False), DEFAULT_SWEEP)
        cover = bytearray(len(t))
        for e in spans:
            cover[e.start : e.end] = b"\x01" * (e.end - e.start)
        for m in _TOKEN.finditer(t):
            total += 1
            if any(cover[m.start() : m.end()]):
                masked += 1
        if show:
            seen.update(f"{e.recognizer.split(':')[1]}: {t[e.start : e.end]}" for e in spans)
    return total, masked, seen


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-file", type=int, default=60, help="sentences read from each policy (0: all)")
    ap.add_argument("--show", type=int, default=0, help="print the N most frequent masked spans")
    a = ap.parse_args()
    files = sorted(CORPUS.glob("*.md")) if CORPUS.is_dir() else []
    files = [f for f in files if f.name != "SOURCE.md"]
    if a.per_file < 0 or not files:
        print(f"bench_sweep_utility: no policies under {CORPUS} or --per-file {a.per_file} < 0", file=sys.stderr)
        return 2
    texts = [s for f in files for s in sentences(f, a.per_file)]
    total, masked, seen = measure(texts, a.show)
    share = masked / total
    print(f"{len(texts)} sentences of {len(files)} policies, {total:,} word tokens: the sweep masks {masked:,}")
    print(f"share of word tokens masked: {share:.4f} (target ≤ {TARGET})")
    for span, n in seen.most_common(a.show):
        print(f"  {n:5}  {span}")
    if share > TARGET:
        print(f"TARGET MISSED: {share:.4f} > {TARGET}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
