"""Batch conversion: per-file reports, bad files don't stop the batch, resume, force, parallel jobs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pp_graph.batch import atomic_write, convert_batch

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "policies"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    shutil.copytree(FIXTURES, src)
    (src / "broken.example.md").write_bytes(b"\x00\x01binary")
    (src / "README.md").write_text("not a policy", encoding="utf-8")
    return src


def test_batch_converts_reports_and_keeps_going(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    rep = convert_batch([folder], out)
    status = {f.source: f.status for f in rep.files}
    assert status == {
        "broken.example.md": "failed",
        "README.md": "skipped",
        "lists.example.md": "converted",
        "tinyshop.example.md": "converted",
    }
    failed = next(f for f in rep.files if f.status == "failed")
    assert "broken.example.md" in (failed.error or "") and "binary" in (failed.error or "")
    assert not rep.ok
    report = json.loads((out / "tinyshop.example.report.json").read_text())
    assert report["segments"] > 5 and report["triples"] > 50
    assert report["practices"]["third-party-sharing-disclosure"] == 2
    assert (out / "tinyshop.example.trig").stat().st_size > 1000
    assert not list(out.glob(".*.tmp"))  # no temporary files left behind


def test_resume_skips_unchanged_and_redoes_changed(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    convert_batch([folder], out)
    before = (out / "lists.example.trig").stat().st_mtime_ns
    rep = convert_batch([folder], out)
    assert {f.source: f.status for f in rep.files}["tinyshop.example.md"] == "unchanged"
    assert (out / "lists.example.trig").stat().st_mtime_ns == before
    (folder / "tinyshop.example.md").write_text("We collect your email address.\n", encoding="utf-8")
    rep = convert_batch([folder], out)
    status = {f.source: f.status for f in rep.files}
    assert status["tinyshop.example.md"] == "converted" and status["lists.example.md"] == "unchanged"
    rep = convert_batch([folder], out, force=True)
    assert {f.source: f.status for f in rep.files}["lists.example.md"] == "converted"
    # A graph deleted by hand is rebuilt even though its report is still there.
    (out / "lists.example.trig").unlink()
    rep = convert_batch([folder], out)
    assert {f.source: f.status for f in rep.files}["lists.example.md"] == "converted"


def test_format_change_is_not_unchanged(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    convert_batch([folder], out)
    rep = convert_batch([folder], out, fmt="nq")
    assert {f.source: f.status for f in rep.files}["lists.example.md"] == "converted"
    assert (out / "lists.example.nq").exists()


def test_parallel_jobs_give_the_same_graphs(folder: Path, tmp_path: Path) -> None:
    convert_batch([folder], tmp_path / "one", jobs=1)
    convert_batch([folder], tmp_path / "two", jobs=2)
    for name in ("lists.example.trig", "tinyshop.example.trig"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_atomic_write_leaves_old_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "g.trig"
    atomic_write(target, "old")

    class Boom(str):
        def encode(self, *_: object, **__: object) -> bytes:  # type: ignore[override]
            raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        atomic_write(target, Boom("new"))
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.trig"]


def test_settings_digest_follows_config_contents(tmp_path: Path) -> None:
    from pp_graph.batch import settings_digest

    cfg = tmp_path / "pp-graph.toml"
    cfg.write_text('model = "a"\n', encoding="utf-8")
    first = settings_digest("llm", {"config": str(cfg)}, "trig")
    assert settings_digest("llm", {"config": str(cfg)}, "trig") == first
    cfg.write_text('model = "b"\n', encoding="utf-8")
    assert settings_digest("llm", {"config": str(cfg)}, "trig") != first
    assert settings_digest("offline", {}, "trig") != settings_digest("offline", {}, "nq")


def test_two_files_for_one_site_do_not_overwrite_each_other(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "shop.example.md").write_text("We collect your email address.\n", encoding="utf-8")
    (src / "shop.example.txt").write_text("We collect your phone number.\n", encoding="utf-8")
    rep = convert_batch([src], tmp_path / "out")
    status = {f.source: f.status for f in rep.files}
    assert status == {"shop.example.md": "converted", "shop.example.txt": "failed"}
    failed = next(f for f in rep.files if f.status == "failed")
    assert "same site shop.example as shop.example.md" in (failed.error or "")


def test_site_option_is_normalised_before_resume(tmp_path: Path) -> None:
    src = FIXTURES / "tinyshop.example.md"
    convert_batch([src], tmp_path / "out", site="Shop.Example")
    rep = convert_batch([src], tmp_path / "out", site="Shop.Example")
    assert [f.status for f in rep.files] == ["unchanged"]


def test_budget_and_cache_options_do_not_force_reconversion() -> None:
    from pp_graph.batch import settings_digest

    base = settings_digest("llm", {"model": "m"}, "trig")
    assert settings_digest("llm", {"model": "m", "budget": 5.0, "no_cache": True}, "trig") == base
    assert settings_digest("llm", {"model": "other"}, "trig") != base
