"""The ODRL conformance cases (tests/fixtures/odrl-test-suite, MIT, see its NOTICE.md): one test per case,
compared by rule activation, by premise satisfaction and, where the case points at a duty of the evaluated
rule, by the duty's deontic state."""

from __future__ import annotations

from pathlib import Path

import pytest

from pp_graph.odrl import conformance
from pp_graph.odrl.conformance import load_cases, run_case

SUITE = Path(__file__).parent / "fixtures" / "odrl-test-suite"
CASES = load_cases(SUITE)


def test_every_case_of_the_suite_is_here() -> None:
    assert len(CASES) == 68


@pytest.mark.parametrize("case", CASES, ids=[c.path.stem for c in CASES])
def test_case(case: conformance.Case) -> None:
    res = run_case(case)
    problems = [p for p in res.problems if not p.startswith("note:")]
    assert res.activation, problems
    assert res.premises, problems
    assert res.duties is not False, problems


def test_duty_deontic_states_are_compared_in_the_duty_cases() -> None:
    by_name = {c.path.stem: c for c in CASES}
    for name in ("testcase-059-nonset", "testcase-060-fulfilled", "testcase-061-violated"):
        assert run_case(by_name[name]).duties is True


def test_a_violated_duty_makes_the_permission_inactive() -> None:
    """Case 061, the one the suite's reference evaluator gets wrong: Alice may read X on condition of a duty;
    the state of the world reports the duty Violated, so the permission is not active."""
    case = next(c for c in CASES if c.path.stem == "testcase-061-violated")
    from pp_graph.odrl import evaluate

    rep = evaluate(case.policy, case.request, case.sotw)
    (rule,) = rep.rules
    assert rule.activation == "Inactive"
    assert [p.state for p in rule.premises] == ["Satisfied"] * 3  # every premise holds; the duty decides
    assert rule.conditions[0].deontic == "Violated"
    assert rep.verdict == "not-permitted"


def test_the_comparison_catches_a_wrong_activation(monkeypatch: pytest.MonkeyPatch) -> None:
    """An evaluator ignoring duties (as the reference one does on 061) fails that case here."""
    from pp_graph.odrl import evaluator

    real = evaluator.duty_report

    def forgetful(*args: object, **kw: object) -> object:
        rep = real(*args, **kw)  # type: ignore[arg-type]
        rep.deontic = "NonSet"
        return rep

    monkeypatch.setattr(evaluator, "duty_report", forgetful)
    case = next(c for c in CASES if c.path.stem == "testcase-061-violated")
    res = run_case(case)
    assert not res.activation and res.duties is False


def test_the_comparison_catches_a_wrong_premise(monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.odrl import constraints

    monkeypatch.setattr(constraints, "combine", lambda logical, states: "Satisfied")
    case = next(c for c in CASES if c.path.stem == "testcase-049-alice-read-x-past")
    res = run_case(case)
    assert not res.premises
    assert any("ConstraintReport" in p for p in res.problems)


def test_conformance_command_reports_every_case(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pp_graph.cli import main

    res = CliRunner().invoke(main, ["odrl", "conformance", str(SUITE), "--format", "json"])
    assert res.exit_code == 0, res.output
    import json

    rows = json.loads(res.output)
    assert len(rows) == 68 and all(r["result"] == "pass" for r in rows)
    bad = CliRunner().invoke(main, ["odrl", "conformance", str(tmp_path)])
    assert bad.exit_code == 2 and "test_cases" in bad.output
