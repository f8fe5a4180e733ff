"""`plane demo` leaves nothing but the user's database and key beside it, and a missing folder is a clear error
(issue 28 §4)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pp_graph.cli import main


def test_the_tampered_copy_leaves_no_file_beside_the_database(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["plane", "demo", "--db", str(tmp_path / "a.db")])
    assert res.exit_code == 0, res.output
    left = sorted(p.name for p in tmp_path.iterdir())
    assert not [n for n in left if "tampered" in n], left
    assert {"a.db", "a.db.key"} <= set(left) and set(left) <= {"a.db", "a.db.key", "a.db-wal", "a.db-shm"}


def test_a_database_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["plane", "demo", "--db", str(tmp_path / "missing-dir" / "x.db")])
    assert res.exit_code == 2
    assert "missing-dir does not exist" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "missing-dir").exists()
