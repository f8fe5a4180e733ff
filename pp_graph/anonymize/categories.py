"""Anonymizer entity types → DPV personal-data categories, from ``data/anonymize/dpv-categories.tsv``.

The anonymizer speaks of entity types (PERSON, IBAN_CODE, …); the data plane's ledger and the risk controller
speak DPV. The table is data (one row per type, with the reason for the choice) and is checked at load: the header,
every category a DPV personal-data concept, every anonymizer type mapped exactly once.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pp_graph.anonymize.recognizers.base import TYPES as DETECTED
from pp_graph.anonymize.sweep import TYPES as SWEPT
from pp_graph.datafiles import tsv_lines
from pp_graph.errors import DataFileError, VocabularyError
from pp_graph.resources import DATA
from pp_graph.vocab.dpv import expand, vocabulary

CATEGORY_TABLE = DATA / "anonymize" / "dpv-categories.tsv"
HEADER = ["type", "category", "rationale"]
TYPES = DETECTED + SWEPT  # the detector's types and the residual sweep's (L3 and above)


def load_categories(path: Path = CATEGORY_TABLE, types: tuple[str, ...] = TYPES) -> dict[str, str]:
    """``{entity type: pd: IRI}``; raises DataFileError naming the file and line of any bad row."""
    vocab = vocabulary()
    rows = list(tsv_lines(path))
    if not rows or rows[0][1] != HEADER:
        raise DataFileError(f"{path.name}: the first row must be the header {' / '.join(HEADER)}")
    out: dict[str, str] = {}
    for n, parts, line in rows[1:]:
        if len(parts) != 3 or not all(parts):
            raise DataFileError(f"{path.name}:{n}: expected 'type<TAB>category<TAB>rationale', got {line!r}")
        type_, term, _ = parts
        if type_ not in types:
            raise DataFileError(f"{path.name}:{n}: {type_!r} is not an anonymizer entity type")
        if type_ in out:
            raise DataFileError(f"{path.name}:{n}: {type_} is mapped twice")
        try:
            iri = expand(term)
        except VocabularyError as e:
            raise DataFileError(f"{path.name}:{n}: {e}") from None
        if iri not in vocab.labels or not vocab.is_personal_data(iri):
            raise DataFileError(f"{path.name}:{n}: {term} is not a DPV personal-data concept")
        out[type_] = iri
    missing = [t for t in types if t not in out]
    if missing:
        raise DataFileError(f"{path.name}: no category for entity type(s) {', '.join(missing)}")
    return out


@cache
def categories() -> dict[str, str]:
    return load_categories()


def category(type_: str) -> str:
    """The DPV category of an entity type (every type of the recognisers and of the sweep has one; checked at
    load)."""
    return categories()[type_]
