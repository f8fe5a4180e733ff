"""`make bench` / `make eval` write their figures, with date, commit and machine, into the docs' generated page."""

from __future__ import annotations

import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import _report

WHEN = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)


def test_a_run_keeps_standard_output_and_the_exit_code(tmp_path: Path) -> None:
    ok = tmp_path / "ok.py"
    ok.write_text("import sys\nprint('throughput: 42 policies/min')\nprint('noise', file=sys.stderr)\n")
    bad = tmp_path / "bad.py"
    bad.write_text("import sys\nprint('target (p99 < 1 ms): NOT met')\nsys.exit('corpus not found')\n")
    runs = [_report.run_script(str(ok)), _report.run_script(str(bad))]
    assert runs[0].returncode == 0 and runs[0].lines == ["throughput: 42 policies/min"]
    assert runs[1].returncode == 1 and runs[1].lines == ["target (p99 < 1 ms): NOT met"]
    assert runs[0].errors == ["noise"] and runs[1].errors == ["corpus not found"]
    page = _report.section("bench", runs, WHEN, "abc", _report.machine())
    assert page.count("Standard error, last lines:") == 1 and "corpus not found" in page  # only for the failed one


def test_the_page_names_date_commit_machine_and_figures(tmp_path: Path) -> None:
    page = tmp_path / "figures.md"
    runs = [_report.Run("benchmarks/bench_x.py", 0, 3.2, ["throughput: 42 policies/min"])]
    text = _report.write_page("bench", runs, page, WHEN).read_text(encoding="utf-8")
    assert "Run 2026-01-02 03:04 UTC on commit `" in text
    assert f"Machine: {_report.machine()['cores']} cores (" in text and "GiB memory" in text
    assert "throughput: 42 policies/min" in text and "| `benchmarks/bench_x.py` | ok | 3 |" in text
    assert "run `make eval` to fill this section" in text  # the other kind: a placeholder until measured


def test_each_kind_rewrites_only_its_own_section(tmp_path: Path) -> None:
    page = tmp_path / "figures.md"
    _report.write_page("bench", [_report.Run("bench_a.py", 0, 1.0, ["A: 1"])], page, WHEN)
    _report.write_page("eval", [_report.Run("eval_b.py", 1, 2.0, ["B: 2"])], page, WHEN)
    _report.write_page("bench", [_report.Run("bench_c.py", 0, 1.0, ["C: 3"])], page, WHEN)
    text = page.read_text(encoding="utf-8")
    assert "C: 3" in text and "A: 1" not in text  # bench replaced
    assert "B: 2" in text and "exit 1 (target missed or error)" in text  # eval kept
    assert text.count("<!-- section:bench -->") == 1 and text.count("<!-- section:eval -->") == 1


def test_long_output_is_cut_with_a_note(tmp_path: Path) -> None:
    lines = [f"line {i}" for i in range(_report.MAX_LINES + 5)]
    text = _report.section("eval", [_report.Run("e.py", 0, 1.0, lines)], WHEN, "abc", _report.machine())
    assert f"line {_report.MAX_LINES - 1}" in text and f"line {_report.MAX_LINES}\n" not in text
    assert "(5 more lines left out)" in text


def test_usage_error_without_scripts() -> None:
    assert _report.main(["bench"]) == 2
    assert _report.main(["nope", "x.py"]) == 2


def test_the_committed_page_has_both_sections() -> None:
    text = _report.PAGE.read_text(encoding="utf-8")
    for kind in _report.KINDS:
        assert f"<!-- section:{kind} -->" in text and f"<!-- /section:{kind} -->" in text
