"""A synthetic corpus in the graph builder's shape (pp_graph.graph.build), for query benchmarks.

Many policies, each with practices whose data and purposes are sampled from DPV (pd: categories and
dpv:Purpose concepts), mentions, parties and retention periods. Deterministic for a given seed.

    python benchmarks/make_synthetic.py -o /tmp/synthetic.nq --triples 1000000
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from pp_graph.vocab.dpv import PERSONAL_DATA, PURPOSE, vocabulary

PR2G = "urn:pp-analyze:core#"
PPG = "urn:pp-graph:ontology#"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
PROV = "http://www.w3.org/ns/prov#"
XSD = "http://www.w3.org/2001/XMLSchema#"
TYPES = [  # (class, label, weight) roughly as in the converted corpus
    ("DataCollectionUse", "first-party-collection-use", 57),
    ("DataCollectionUse", "third-party-collection-use", 5),
    ("DataSharingDisclosure", "third-party-sharing-disclosure", 22),
    ("DataStorageRetention", "data-storage-retention-deletion", 12),
    ("DataSecurityProtection", "data-security-protection", 7),
]
RECEIVERS = ["advertisers", "analytics providers", "service providers", "affiliates", "law enforcement"]
PERIODS = ["P30D", "P90D", "P1Y", "P2Y", "P5Y", "P7Y"]


def _iri(s: str) -> str:
    return f"<{s}>"


def _lit(s: str, dt: str | None = None) -> str:
    body = s.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{body}"^^<{XSD}{dt}>' if dt else f'"{body}"'


def generate(out: Path, triples: int = 1_000_000, practices_per_policy: int = 50, seed: int = 7) -> int:
    rng = random.Random(seed)
    voc = vocabulary()
    data = sorted(voc.members(PERSONAL_DATA))
    purposes = sorted(voc.members(PURPOSE))
    weights = [w for *_, w in TYPES]
    n = 0
    with open(out, "w", encoding="utf-8") as fh:
        p = 0
        while n < triples:
            site = f"site{p:05d}.example"
            pol = f"urn:pp-graph:policy:{site}:{p:016x}"
            g = _iri(pol)

            def emit(s: str, pred: str, o: str, g: str = g) -> None:
                nonlocal n
                fh.write(f"{s} <{pred}> {o} {g} .\n")
                n += 1

            site_iri = _iri("urn:pp-graph:site:" + site)
            emit(site_iri, RDF_TYPE, _iri(PR2G + "Website"))
            emit(site_iri, PR2G + "hasDomain", _lit(site))
            emit(g, RDF_TYPE, _iri(PR2G + "PrivacyPolicy"))
            emit(g, PR2G + "for", site_iri)
            first = _iri(pol + "/party/first")
            emit(first, RDF_TYPE, _iri(PR2G + "FirstParty"))
            emit(first, PR2G + "name", _lit(site))
            run = _iri(pol + "/extraction/synthetic")
            emit(run, RDF_TYPE, _iri(PROV + "Activity"))
            offset = 0
            for i in range(practices_per_policy):
                cls, label, _ = rng.choices(TYPES, weights)[0]
                pr = _iri(f"{pol}/practice/{i}-0")
                text = _iri(f"{pol}/text/{i}")
                emit(g, PR2G + "hasDataPractice", pr)
                emit(pr, RDF_TYPE, _iri(PR2G + cls))
                emit(pr, PPG + "practiceLabel", _lit(label))
                emit(pr, PPG + "negated", _lit("true" if rng.random() < 0.03 else "false", "boolean"))
                emit(pr, PR2G + "text", text)
                emit(pr, PROV + "wasGeneratedBy", run)
                emit(text, RDF_TYPE, _iri(PR2G + "Text"))
                emit(text, PR2G + "value", _lit(f"Synthetic segment {i} of {site}."))
                concepts = [(PR2G + "data", c) for c in rng.sample(data, rng.randint(1, 3))]
                concepts += [(PR2G + "purpose", c) for c in rng.sample(purposes, rng.randint(0, 2))]
                for prop, c in concepts:
                    m = _iri(f"{pol}/span/{offset}-{offset + 10}")
                    emit(pr, prop, _iri(c))
                    emit(pr, PPG + "evidence", m)
                    emit(m, RDF_TYPE, _iri(PPG + "Mention"))
                    emit(m, PPG + "start", _lit(str(offset), "integer"))
                    emit(m, PPG + "end", _lit(str(offset + 10), "integer"))
                    emit(m, PPG + "denotes", _iri(c))
                    offset += 11
                if label == "third-party-sharing-disclosure":
                    name = rng.choice(RECEIVERS)
                    party = _iri(f"{pol}/party/third-{name.replace(' ', '-')}")
                    emit(pr, PR2G + "receiver", party)
                    emit(party, RDF_TYPE, _iri(PR2G + "ThirdParty"))
                    emit(party, PR2G + "name", _lit(name))
                elif label == "data-storage-retention-deletion" and rng.random() < 0.5:
                    emit(pr, PPG + "retentionPeriod", _lit(rng.choice(PERIODS), "duration"))
                else:
                    emit(pr, PPG + "collector", first)
            p += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", type=Path, required=True, help="N-Quads file to write")
    ap.add_argument("--triples", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    n = generate(a.output, a.triples, seed=a.seed)
    print(f"{n} quads → {a.output}")


if __name__ == "__main__":
    main()
