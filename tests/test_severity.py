"""Severities of changes between policy versions (data/versions/severity.toml) and diff --fail-on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.versions.severity import at_least, severity

OLD = "We collect your email address to provide the service.\nWe do not sell your personal information.\n"


def _diff(tmp_path: Path, new: str, *extra: str) -> tuple[int, str]:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    a, b = tmp_path / "old" / "shop.example.md", tmp_path / "new" / "shop.example.md"
    a.write_text(OLD, encoding="utf-8")
    b.write_text(new, encoding="utf-8")
    r = CliRunner().invoke(main, ["diff", str(a), str(b), *extra])
    return r.exit_code, r.stdout


@pytest.mark.parametrize(
    ("kind", "type_", "data", "details", "level"),
    [
        ("added", "first-party-collection-use", "https://w3id.org/dpv/pd#Health", {"negated": False}, "high"),
        ("added", "third-party-sharing-disclosure", "https://w3id.org/dpv/pd#EmailAddress", {"negated": False}, "high"),
        ("added", "third-party-sharing-disclosure", "https://w3id.org/dpv/pd#EmailAddress", {"negated": True}, "low"),
        ("removed", "third-party-sharing-disclosure", "https://w3id.org/dpv#PersonalData", {"negated": True}, "high"),
        ("negation-flipped", "x", "d", {"negated_before": True, "negated_after": False}, "high"),
        ("negation-flipped", "x", "d", {"negated_before": False, "negated_after": True}, "low"),
        ("broadened", "x", "https://w3id.org/dpv/pd#Contact", {"negated": False}, "medium"),
        ("narrowed", "x", "https://w3id.org/dpv/pd#EmailAddress", {"negated": False}, "low"),
        ("purpose-added", "x", "d", {"negated": False}, "medium"),
        ("recipient-kind-added", "x", "d", {"negated": False, "values": ["advertising"]}, "high"),
        ("retention-changed", "x", "d", {"from": ["P30D"], "to": ["P2Y"]}, "high"),
        ("retention-changed", "x", "d", {"from": ["P2Y"], "to": ["P30D"]}, "medium"),
        ("right-removed", None, None, {"values": ["eu-gdpr:A15"]}, "high"),
        ("right-added", None, None, {"values": ["eu-gdpr:A15"]}, "low"),
    ],
)
def test_severity_rules(kind: str, type_: str | None, data: str | None, details: dict, level: str) -> None:  # type: ignore[type-arg]
    assert severity(kind, type_, data, details)[0] == level


def test_levels_order_and_unknown_level() -> None:
    from pp_graph.errors import ConfigError

    assert at_least("high", "medium") and not at_least("low", "medium")
    with pytest.raises(ConfigError, match="low, medium, high"):
        at_least("high", "critical")


def test_diff_reports_severity_and_fails_on_high(tmp_path: Path) -> None:
    new = OLD.replace("We do not sell", "We sell") + "We collect your health data.\n"
    code, out = _diff(tmp_path, new, "--format", "json", "--fail-on", "high")
    assert code == 1
    d = json.loads(out)
    levels = {c["severity"] for part in ("added", "removed", "changed") for c in d[part]}
    assert "high" in levels and all(c["severity_reason"] for c in d["added"] + d["changed"])


def test_diff_fail_on_ignores_lesser_changes(tmp_path: Path) -> None:
    code, out = _diff(tmp_path, OLD + "We do not share your phone number.\n", "--format", "json", "--fail-on", "high")
    d = json.loads(out)
    assert d["added"] and all(c["severity"] == "low" for c in d["added"] + d["changed"] + d["removed"])
    assert code == 0
