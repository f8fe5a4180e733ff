"""benchmarks/cv_anonymize.py's detection cache: its key covers the training script, the split and the checksum
code and the libraries' versions; a malformed cache file is a clear error, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

import _pii  # noqa: E402
import cv_anonymize  # noqa: E402

needs_dataset = pytest.mark.skipif(
    not _pii.DATASET.is_file(), reason="the pii-synth dataset is not beside the checkout"
)


@needs_dataset
def test_the_key_covers_training_split_and_checksum_code_and_library_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    names = {p.name for p in cv_anonymize.OTHER_FILES}
    assert names == {"train_ner_crf.py", "_pii.py", "checksums.py"} and all(
        p.is_file() for p in cv_anonymize.OTHER_FILES
    )
    key = cv_anonymize._cache_key("hybrid")
    monkeypatch.setattr(cv_anonymize, "_version", lambda p: "0.0-other")
    assert cv_anonymize._cache_key("hybrid") != key  # another crfsuite or spaCy: another key


@pytest.mark.parametrize(
    "body",
    ["not json", "[]", json.dumps({"key": "k", "entities": {"t": [["PERSON", 0, "x", "r"]]}}), json.dumps({"key": 1})],
)
def test_a_malformed_cache_is_a_clear_error(tmp_path: Path, body: str) -> None:
    cache = tmp_path / "cache.json"
    cache.write_text(body, encoding="utf-8")
    with pytest.raises(cv_anonymize.CacheError, match=r"cache\.json"):
        cv_anonymize.read_cache(cache)


def test_a_well_formed_cache_reads_back(tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    cache.write_text(json.dumps({"key": "k", "entities": {"Jane": [["PERSON", 0, 4, "r"]]}}), encoding="utf-8")
    key, ents = cv_anonymize.read_cache(cache)
    assert key == "k" and [(e.type, e.start, e.end) for e in ents["Jane"]] == [("PERSON", 0, 4)]


@needs_dataset
def test_the_script_exits_2_on_a_malformed_cache(tmp_path: Path) -> None:
    cache = tmp_path / "cache.json"
    cache.write_text("{broken", encoding="utf-8")
    r = subprocess.run(
        [sys.executable, str(BENCH / "cv_anonymize.py"), "--cache", str(cache)], capture_output=True, text=True
    )
    assert r.returncode == 2 and "cache.json" in r.stderr and "Traceback" not in r.stderr, r.stderr
