"""The offline extractor's behaviour snapshot: a digest of each corpus graph and of the OPP-115 predictions.

Refactoring the rules must not change what they find. The snapshot pins it without copying any corpus text or
OPP-115 content into the repository: only sha256 digests of our own outputs are stored
(tests/fixtures/offline-snapshot.json). The extractor's provenance (rule-set and lexicon versions) is replaced by a
fixed placeholder before the graph is built, since those versions are digests of the rule code and change with any
refactoring; everything else in the graph is compared byte for byte.

Regenerate deliberately, with the reason in the commit message::

    .venv/bin/python tests/offline_snapshot.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus" / "policies"
OPP115 = SHARED / "datasets" / "opp115"
SNAPSHOT = Path(__file__).resolve().parent / "fixtures" / "offline-snapshot.json"
FORMAT = "trig"


def _backend() -> Any:
    from pp_graph.extract.registry import get_backend

    return get_backend("offline")


def corpus_files() -> list[Path]:
    from pp_graph.load.sources import policy_files

    return sorted(policy_files([CORPUS])[0], key=lambda p: p.name)


def graph_digest(path: Path, backend: Any) -> str:
    """sha256 of the policy's TriG graph, built with a fixed provenance (see the module doc)."""
    from dataclasses import replace

    from pp_graph.extract.pipeline import extract
    from pp_graph.extract.registry import STAGES
    from pp_graph.graph.build import build_graph
    from pp_graph.graph.serialize import serialize
    from pp_graph.load.sources import load_policy

    # The offline extractor's stages only: the transparency stage (pp_graph.comply) has tests of its own.
    ex = extract(load_policy(path), backend, stages=[s for s in STAGES if s != "transparency"])
    ex.provenance = replace(ex.provenance, model="snapshot", prompt_version="snapshot", vocabulary="", software="")
    ds, name = build_graph(ex)
    out = serialize(ds, name, FORMAT)
    return hashlib.sha256(out.encode("utf-8") if isinstance(out, str) else out).hexdigest()


def corpus_digests(files: list[Path] | None = None) -> dict[str, str]:
    backend = _backend()
    return {f.name: graph_digest(f, backend) for f in (files if files is not None else corpus_files())}


def opp115_digests(split: str) -> dict[str, str]:
    """Per OPP-115 policy of ``split``: sha256 of its per-segment predictions (practices, data, purposes)."""
    from pp_graph.evaluate.opp115 import load_corpus, load_split, predictions, site_for
    from pp_graph.extract.pipeline import extract
    from pp_graph.model import Policy

    ids = {p for p, s in load_split().items() if s == split}
    backend = _backend()
    out: dict[str, str] = {}
    for pol in load_corpus(OPP115, ids):
        text, bounds = pol.text_and_offsets()
        ex = extract(Policy(site_for(pol), text, f"opp115-{pol.policy_id}.txt", "text/plain"), backend)
        preds = [{k: sorted(str(x) for x in v) for k, v in sorted(p.items())} for p in predictions(pol, ex, bounds)]
        out[pol.policy_id] = hashlib.sha256(json.dumps(preds, sort_keys=True).encode()).hexdigest()
    return dict(sorted(out.items()))


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    return data


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(f"usage: {sys.argv[0]} --write", file=sys.stderr)
        return 2
    if not CORPUS.is_dir() or not (OPP115 / "sanitized_policies").is_dir():
        print("the shared corpus and OPP-115 are both needed to write the snapshot", file=sys.stderr)
        return 1
    snap = {
        "about": "sha256 of offline outputs; regenerate only deliberately (tests/offline_snapshot.py --write)",
        "corpus": corpus_digests(),
        "opp115": {split: opp115_digests(split) for split in ("train", "test")},
    }
    SNAPSHOT.write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(
        f"wrote {SNAPSHOT.name}: {len(snap['corpus'])} graphs, "
        + ", ".join(f"{k} {len(v)}" for k, v in snap["opp115"].items())
    )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
