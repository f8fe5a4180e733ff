"""pp-graph odrl preferences: a user's ODRL policy against every site's exported ODRL policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
PREFS = """
@prefix odrl: <http://www.w3.org/ns/odrl/2/> .
@prefix dpv: <https://w3id.org/dpv#> .
@prefix pd: <https://w3id.org/dpv/pd#> .
@prefix ex: <http://example.org/> .
ex:me a odrl:Set ; odrl:uid ex:me ; odrl:permission ex:collect, ex:share ; odrl:prohibition ex:no-marketing .
ex:collect a odrl:Permission ; odrl:action dpv:Collect .
ex:share a odrl:Permission ; odrl:action dpv:Share ; odrl:assignee dpv:ThirdParty .
ex:no-marketing a odrl:Prohibition ; odrl:action odrl:use ;
  odrl:constraint [ odrl:leftOperand odrl:purpose ; odrl:operator odrl:isA ; odrl:rightOperand dpv:Marketing ] .
"""


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("odrl-graphs")
    res = CliRunner().invoke(main, ["convert", str(FIXTURES / "policies"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


def test_each_site_practice_is_checked_against_the_preferences(graphs: Path, tmp_path: Path) -> None:
    prefs = tmp_path / "prefs.ttl"
    prefs.write_text(PREFS)
    res = CliRunner().invoke(main, ["odrl", "preferences", str(prefs), "--graph", str(graphs), "--format", "json"])
    assert res.exit_code == 1, res.output  # some practice is not permitted
    rows = json.loads(res.output)
    assert {r["site"] for r in rows} == {"tinyshop.example", "lists.example"}
    by = {(r["site"], r["action"], r["target"]): r for r in rows}
    # Sharing e-mail addresses with service providers for direct marketing: the user's marketing ban decides.
    share = by[("tinyshop.example", "dpv:Share", "pd:EmailAddress")]
    assert share["verdict"] == "prohibited" and "no-marketing" in share["decided_by"]
    assert share["purposes"] == "dpv:DirectMarketing" and share["practice"].endswith("/practice/5-0")
    # Collecting for fraud prevention: permitted (and no marketing purpose).
    assert by[("tinyshop.example", "dpv:Collect", "pd:IPAddress")]["verdict"] == "permitted"
    # Storing is no kind of collecting or sharing: not permitted by these preferences.
    assert by[("tinyshop.example", "dpv:Store", "dpv:PersonalData")]["verdict"] == "not-permitted"
    # A practice stating no purpose cannot be cleared of the marketing ban: undetermined, not permitted.
    assert by[("tinyshop.example", "dpv:Collect", "pd:Name")]["verdict"] == "undetermined"


def test_bad_preferences_exit_2(graphs: Path, tmp_path: Path) -> None:
    prefs = tmp_path / "prefs.ttl"
    prefs.write_text("this is not turtle")
    res = CliRunner().invoke(main, ["odrl", "preferences", str(prefs), "--graph", str(graphs)])
    assert res.exit_code == 2 and "prefs.ttl" in res.output
