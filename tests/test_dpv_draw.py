"""Drawing a fresh DPV mention sample, merging its annotators' gold files, and scoring it once labelled."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import pytest

from pp_graph.errors import DataFileError
from pp_graph.evaluate.dpv_draw import (
    PREDICTION_COLUMNS,
    SAMPLE_COLUMNS,
    Drawn,
    draw,
    earlier_spans,
    merge,
    read_drawn,
    write_tsv,
)
from pp_graph.evaluate.dpv_sample import SAMPLE, labelled_fresh_samples, load_sample, score

_TEXT = "We collect your email address and content you post to personalise ads and improve the service. " * 3


def _predictions() -> dict[tuple[str, str, int, int], str]:
    preds: dict[tuple[str, str, int, int], str] = {}
    for n in range(3):
        base = n * 96
        preds[("data", "a.example", base + 16, base + 29)] = "https://w3id.org/dpv/pd#EmailAddress"
        preds[("data", "a.example", base + 34, base + 41)] = "pd:SocialMediaCommunication"
        preds[("purpose", "a.example", base + 58, base + 72)] = "https://w3id.org/dpv#PersonalisedAdvertising"
    return preds


def test_draw_is_seeded_leaves_out_earlier_spans_and_hides_nothing_it_should_not() -> None:
    preds = _predictions()
    seen = {("data", "a.example", 16, 29)}
    rows = draw(preds, {"a.example": _TEXT}, seen, "fresh-test", 2, "z", reach=20)
    assert rows == draw(preds, {"a.example": _TEXT}, seen, "fresh-test", 2, "z", reach=20)  # same seed, same rows
    assert Counter(r.kind for r in rows) == {"data": 2, "purpose": 2}
    assert [r.id for r in rows] == ["z000", "z001", "z002", "z003"]
    assert all((r.kind, r.site, r.start, r.end) not in seen for r in rows)
    assert all(_TEXT[r.start : r.end] == r.mention and f"[[{r.mention}]]" in r.context for r in rows)
    assert {r.predicted for r in rows} <= {
        "pd:EmailAddress",
        "pd:SocialMediaCommunication",
        "dpv:PersonalisedAdvertising",
    }
    with pytest.raises(DataFileError, match="only 0 unseen purpose spans"):
        draw({k: v for k, v in preds.items() if k[0] == "data"}, {"a.example": _TEXT}, set(), "s", 1, "z")


def test_earlier_spans_reads_every_sample_file(tmp_path: Path) -> None:
    write_tsv(
        tmp_path / "one.tsv", SAMPLE_COLUMNS, [{"id": "a", "kind": "data", "site": "s.example", "start": 1, "end": 4}]
    )
    write_tsv(tmp_path / "two.tsv", ("id", "note"), [{"id": "b", "note": "no spans here"}])
    assert earlier_spans(tmp_path) == {("data", "s.example", 1, 4)}


def _drawn() -> list[Drawn]:
    return [
        Drawn("z000", "data", "a.example", 16, 29, "email address", "pd:EmailAddress", "… [[email address]] …"),
        Drawn("z001", "purpose", "a.example", 58, 72, "personalise ads", "dpv:PersonalisedAdvertising", "…"),
    ]


def _gold(path: Path, rows: list[dict[str, str]]) -> Path:
    write_tsv(path, ("id", "gold", "alternatives", "note"), rows)
    return path


def test_merge_builds_a_sample_the_scorer_reads_and_scores(tmp_path: Path) -> None:
    # a tiny synthetic gold file per annotator, merged into fresh7.tsv and scored as eval_dpv_sample does
    gold_l = _gold(
        tmp_path / "L.tsv",
        [{"id": "z000", "gold": "pd:EmailAddress", "alternatives": "pd:Contact dpv:PersonalData", "note": "x"}],
    )
    gold_m = _gold(tmp_path / "M.tsv", [{"id": "z001", "gold": "dpv:Advertising", "alternatives": "", "note": ""}])
    rows = merge(_drawn(), [gold_l, gold_m])
    assert rows[0]["alternatives"] == "pd:Contact,dpv:PersonalData"
    folder = tmp_path / "dpv-sample"
    folder.mkdir()
    write_tsv(folder / "fresh7.tsv", SAMPLE_COLUMNS, rows)
    assert labelled_fresh_samples(folder) == [("fresh7", folder / "fresh7.tsv")]
    sample = load_sample(folder / "fresh7.tsv")
    preds = {(d.kind, d.site, d.start, d.end): d.predicted for d in _drawn()}
    got = score(sample, preds)
    assert (got["data"].right, got["data"].predicted) == (1, 1)
    assert (got["purpose"].right, got["purpose"].predicted) == (0, 1)  # predicted personalised, gold plain ads


def test_a_drawn_but_unlabelled_sample_is_not_scored(tmp_path: Path) -> None:
    write_tsv(tmp_path / "fresh7-predictions.tsv", ("id",), [{"id": "z000"}])
    assert labelled_fresh_samples(tmp_path) == []


@pytest.mark.parametrize(
    ("rows", "error"),
    [
        ([{"id": "z000", "gold": "pd:EmailAddress", "alternatives": ""}], "no gold label for 1 drawn ids"),
        ([{"id": "z009", "gold": "pd:EmailAddress", "alternatives": ""}], "'z009' was not drawn"),
        (
            [
                {"id": "z000", "gold": "pd:Age", "alternatives": ""},
                {"id": "z000", "gold": "pd:Age", "alternatives": ""},
            ],
            "'z000' is labelled twice",
        ),
    ],
)
def test_merge_refuses_missing_unknown_and_doubled_ids(tmp_path: Path, rows: list[dict[str, str]], error: str) -> None:
    with pytest.raises(DataFileError, match=error):
        merge(_drawn(), [_gold(tmp_path / "g.tsv", rows)])


def test_drawn_rows_round_trip_and_a_bad_file_is_named(tmp_path: Path) -> None:
    write_tsv(tmp_path / "p.tsv", PREDICTION_COLUMNS, (asdict(d) for d in _drawn()))
    assert read_drawn(tmp_path / "p.tsv") == _drawn()
    write_tsv(tmp_path / "bad.tsv", ("id", "kind"), [{"id": "z000", "kind": "data"}])
    with pytest.raises(DataFileError, match=r"bad\.tsv: no column site"):
        read_drawn(tmp_path / "bad.tsv")


def test_the_draw_script_reports_bad_input_without_a_traceback(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "draw_dpv_sample.py"
    res = subprocess.run(
        [sys.executable, str(script), "merge", "no-such-sample", str(tmp_path / "g.tsv")],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2, res.stdout + res.stderr
    assert "Traceback" not in res.stderr and res.stderr.startswith("draw_dpv_sample: "), res.stderr


def test_the_fresh7_draw_is_well_formed_and_disjoint_from_every_earlier_sample(tmp_path: Path) -> None:
    folder = SAMPLE.parent
    drawn = read_drawn(folder / "fresh7-predictions.tsv")
    assert Counter(d.kind for d in drawn) == {"data": 150, "purpose": 150}
    assert [d.id for d in drawn] == [f"y{i:03d}" for i in range(300)]
    assert all(d.end - d.start == len(d.mention) and f"[[{d.mention}]]" in d.context for d in drawn)
    for path in folder.glob("*.tsv"):  # the earlier samples only
        if not path.name.startswith("fresh7"):
            (tmp_path / path.name).write_bytes(path.read_bytes())
    assert not earlier_spans(tmp_path) & {(d.kind, d.site, d.start, d.end) for d in drawn}
