"""The risk engine's ODRL check: the agent's call against the site's exported ODRL policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.errors import InputError
from pp_graph.risk.engine import ActionContext, RiskEngine
from pp_graph.store.embedded import EmbeddedStore

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> EmbeddedStore:
    out = tmp_path_factory.mktemp("risk-odrl")
    res = CliRunner().invoke(main, ["convert", str(FIXTURES / "policies"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    st = EmbeddedStore()
    assert st.load([out])
    return st


def sell(**kw: object) -> ActionContext:
    args: dict[str, object] = {
        "site": "tinyshop.example",
        "data": ("pd:EmailAddress",),
        "purposes": ("dpv:SellDataToThirdParties",),
        "recipients": ("advertising",),
        "likelihood": 0.0,  # AMRSF alone would allow: only the ODRL prohibition denies
    }
    args.update(kw)
    return ActionContext(**args)  # type: ignore[arg-type]


def test_an_active_prohibition_denies_naming_the_rule_and_its_line(store: EmbeddedStore) -> None:
    d = RiskEngine(store).decide(sell())
    assert d.decision == "deny"
    assert d.odrl is not None and d.odrl["verdict"] == "prohibited" and d.odrl["amrsf"] == "allow"
    (rule,) = d.odrl["rules"]
    assert rule["kind"] == "prohibition" and "/practice/6-0/odrl/" in rule["rule"]
    assert rule["text"] == "We do not sell your personal information."
    assert any("ODRL: prohibition" in r and "We do not sell" in r for r in d.reasons)


def test_without_odrl_amrsf_alone_decides(store: EmbeddedStore) -> None:
    d = RiskEngine(store, odrl=False).decide(sell())
    assert d.decision == "allow" and d.odrl is None


def test_a_stated_practice_permits_and_amrsf_keeps_its_verdict(store: EmbeddedStore) -> None:
    ctx = sell(purposes=("dpv:DirectMarketing",), recipients=("service_provider",), likelihood=None)
    d = RiskEngine(store).decide(ctx)
    assert d.odrl is not None and d.odrl["verdict"] == "permitted"
    assert d.decision == d.odrl["amrsf"]  # a permission never loosens AMRSF
    assert any("/practice/5-0/" in r["rule"] for r in d.odrl["rules"])
    other = RiskEngine(store).decide(sell(purposes=("dpv:DirectMarketing",), recipients=("data_broker",)))
    assert other.odrl is not None and other.odrl["verdict"] == "not-permitted"


def test_an_unreadable_odrl_policy_fails_closed(store: EmbeddedStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from pp_graph.risk import odrl_check

    def broken(self: object, policy: str) -> object:
        raise InputError(policy, "cannot be exported")

    monkeypatch.setattr(odrl_check.OdrlCheck, "site_policy", broken)
    d = RiskEngine(store).decide(sell(purposes=("dpv:ServiceProvision",), recipients=("first_party",)))
    assert d.decision == "deny" and d.odrl is not None and d.odrl["verdict"] == "error"


def test_no_policy_no_odrl_verdict(store: EmbeddedStore) -> None:
    d = RiskEngine(store).decide(sell(site="nowhere.example"))
    assert d.odrl is None


def test_cli_odrl_switch(tmp_path_factory: pytest.TempPathFactory) -> None:
    import json

    out = tmp_path_factory.mktemp("risk-odrl-cli")
    assert CliRunner().invoke(main, ["convert", str(FIXTURES / "policies"), "-o", str(out)]).exit_code == 0
    args = ["risk", "--graph", str(out), "--site", "tinyshop.example", "--data", "pd:EmailAddress"]
    args += ["--purpose", "dpv:SellDataToThirdParties", "--recipient", "advertising", "--likelihood", "0"]
    on = json.loads(CliRunner().invoke(main, args).output)
    off = json.loads(CliRunner().invoke(main, [*args, "--no-odrl"]).output)
    assert (on["decision"], on["odrl"]["verdict"]) == ("deny", "prohibited")
    assert (off["decision"], off["odrl"]) == ("allow", None)


def test_the_memoised_rule_activations_equal_the_full_evaluation(store: EmbeddedStore) -> None:
    """The risk path's RuleMemo decides premises with the evaluator's own functions; the activation of every rule
    for a grid of calls must be the full evaluation's."""
    import itertools

    from pp_graph.odrl.evaluator import evaluate_rules
    from pp_graph.odrl.model import Request
    from pp_graph.risk.odrl_check import Call, OdrlCheck, request_of
    from pp_graph.vocab.dpv import expand

    engine = RiskEngine(store)
    check = OdrlCheck(store)
    compared = 0
    for site in ("tinyshop.example", "lists.example"):
        prof = engine.profile(site)
        assert prof is not None
        sp = check.site_policy(prof.policies[0])
        grid = itertools.product(
            ("pd:EmailAddress", "pd:Name", "pd:CurrentLocation", "pd:IPAddress"),
            ((), ("https://w3id.org/dpv#DirectMarketing",), ("https://w3id.org/dpv#SellDataToThirdParties",)),
            ((), ("advertising",), ("service_provider",), ("first_party",)),
            (None, "https://w3id.org/dpv#Collect", "https://w3id.org/dpv#Store"),
        )
        for data, purposes, recipients, op in grid:
            cat = expand(data)
            for q in request_of(Call((cat,), purposes, recipients, op)).rules:
                everything = list(range(len(sp.policy.rules)))
                fast = sp.memo.activations(everything, q)
                full = evaluate_rules(sp.policy, Request(q.iri, (q,)), sp.world, sp.hier)
                assert [(r.rule, r.activation) for r in fast] == [(r.rule, r.activation) for r in full]
                compared += len(fast)
    assert compared > 500
