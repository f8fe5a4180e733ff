"""Versions of the offline extractor that change whenever its behaviour can.

The rule-set version is a digest of the rule code (this package's modules) and of the rule and lexicon data
files, so no rule can change without it; the DPV digest covers the vocabulary the lexicons are read against.
Both feed the graph's provenance and the batch settings digest (resume).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pp_graph.extract.offline.lexicon import digest_files
from pp_graph.resources import DATA, DPV_FILES

RULESET_NAME = "offline-rules-13"  # 13: runs on units of meaning (pp_graph.load.reading), not lines
CODE_DIR = Path(__file__).resolve().parent
RULE_DATA = (DATA / "lexicon", DATA / "rules")


def rule_files() -> list[Path]:
    """Everything the rules are made of: the extractor's modules (its subpackages too) and its data files."""
    files = sorted(CODE_DIR.rglob("*.py"))
    for folder in RULE_DATA:
        if folder.is_dir():
            files.extend(sorted(p for p in folder.iterdir() if p.is_file()))
    return files


@cache
def ruleset_digest() -> str:
    return digest_files(rule_files())


@cache
def dpv_digest() -> str:
    return digest_files(DPV_FILES)


def ruleset_version() -> str:
    return f"{RULESET_NAME}+{ruleset_digest()}"
