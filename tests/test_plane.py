"""The privacy data plane end to end on real SQLite files: typed fields, contracts, projections, site tightening,
scoped memory, the tool wrapper, the seed's five scenarios, the canary scan and the CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.errors import ContractError, LedgerError, PlaneError
from pp_graph.plane import Contracts, DataPlane, EgressDenied, Field
from pp_graph.plane import demo as demo_mod
from pp_graph.plane.contracts import parse_contract
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.memory import DAY

KEYS = PlaneKeys(bytes(range(32)))
CARE = "dpv:CustomerCare"
CANARIES = ("jane.roe@example.org", "sk-live-4f9a7c2e1b", "retry storm on node 7", "X1234567", "CASE-1042")


def contract(**fields: dict[str, Any]) -> dict[str, Any]:
    return {"contract": {"name": "t", "boundary": "tool", "purpose": CARE}, "fields": fields}


@pytest.fixture
def plane(tmp_path: Path) -> Any:
    clock = demo_mod.Clock()
    p = demo_mod.demo_plane(tmp_path / "agent.db", KEYS, clock)
    yield p
    p.close()


# -- typed fields and contracts --


def test_untyped_values_are_rejected(plane: DataPlane) -> None:
    with pytest.raises(PlaneError, match="untyped value"):
        plane.context({"customer_email": "jane.roe@example.org"}, purpose=CARE, principal="bot")
    with pytest.raises(PlaneError, match="untyped value"):
        plane.egress("ticket.create", [Field("case_id", "C-1", "internal"), {"summary": "x"}])
    with pytest.raises(PlaneError, match="unknown privacy class 'private'"):
        Field("x", "v", "private")
    with pytest.raises(PlaneError, match="missing privacy class"):
        Field("x", "v", "")  # type: ignore[arg-type]
    with pytest.raises(PlaneError, match=r"not a DPV 2\.3 personal-data category"):
        Field("x", "v", "personal", category="pd:ShoeSize")
    with pytest.raises(PlaneError, match="missing subject label"):
        plane.context([Field("customer_email", "a@b.org", "personal")], purpose="dpv:ServiceProvision", principal="b")
    assert len(plane.ledger) == 0  # refused input leaves no half-written entry


@pytest.mark.parametrize(
    ("doc", "key", "says"),
    [
        (contract(x={"classes": ["secrett"]}), "fields.x.classes", "unknown class 'secrett'"),
        (contract(x={"classes": ["personal"], "category": "pd:Nope"}), "fields.x.category", "not a DPV"),
        (contract(x={"classes": ["public"], "requried": True}), "fields.x", "unknown key(s) requried"),
        (contract(x={"classes": []}), "fields.x.classes", "missing or empty"),
        (contract(x={"classes": ["public"], "required": "yes"}), "fields.x.required", "true or false"),
        ({"contract": {"name": "t", "boundary": "disk", "purpose": CARE}, "fields": {}}, "contract.boundary", "disk"),
        ({"contract": {"name": "t", "boundary": "tool", "purpose": "dpv:Nope"}}, "contract.purpose", "not a DPV"),
        ({"contract": {"name": "t", "boundary": "tool", "purpose": CARE}}, "fields", "no [fields.NAME]"),
        ({"fields": {}}, "contract", "missing [contract]"),
    ],
)
def test_contract_errors_name_file_and_key(doc: dict[str, Any], key: str, says: str) -> None:
    with pytest.raises(ContractError) as e:
        parse_contract(doc, "contracts/t.toml")
    assert e.value.source == "contracts/t.toml" and e.value.key == key
    assert says in str(e.value)


def test_contract_files(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(
        '[contract]\nname = "a"\nboundary = "tool"\npurpose = "dpv:CustomerCare"\n[fields.x]\nclasses = ["public"]\n'
    )
    (tmp_path / "b.toml").write_text((tmp_path / "a.toml").read_text())
    with pytest.raises(ContractError, match="also defined in"):
        Contracts.load(tmp_path)
    (tmp_path / "b.toml").write_text("[contract\nname=")
    with pytest.raises(ContractError, match=r"b\.toml: \[file\] not valid TOML"):
        Contracts.load(tmp_path)


def test_contract_naming_a_field_the_tool_does_not_take(plane: DataPlane) -> None:
    with pytest.raises(ContractError, match=r"\[fields.summary\] names a field that create\(\) does not take"):

        @plane.tool("ticket.create")
        def create(case_id: str) -> None: ...


# -- projections --


def test_context_projection(plane: DataPlane) -> None:
    ctx = plane.context(demo_mod.working_state(), purpose=CARE, principal="support-bot")
    actions = {d.name: d.action for d in ctx.decisions}
    assert actions == {
        "issue": "transform",
        "account_tier": "allow",
        "customer_email": "token",
        "api_key": "deny",
        "debug_note": "omit",
        "case_id": "omit",
    }
    assert dict(ctx)["account_tier"] == "pro"
    # Tokens are stable and subject-scoped.
    again = plane.context(demo_mod.working_state(), purpose=CARE, principal="support-bot")
    assert again["customer_email"] == ctx["customer_email"]
    other = Field("customer_email", "jane.roe@example.org", "personal", subject="user:43")
    assert plane.context([other], purpose=CARE, principal="b")["customer_email"] != ctx["customer_email"]


def test_context_without_a_contract_uses_the_purpose(plane: DataPlane) -> None:
    fields = [
        Field("a", "x", "internal", purpose="dpv:ServiceProvision"),
        Field("b", "y", "internal", purpose="dpv:Marketing"),
        Field("c", "z", "public"),
        Field("d", "k", "secret", purpose="dpv:ServiceProvision"),
    ]
    ctx = plane.context(fields, purpose="dpv:ServiceProvision", principal="bot")
    assert dict(ctx) == {"a": "x", "c": "z"}
    assert [d.action for d in ctx.decisions] == ["allow", "omit", "allow", "deny"]


def test_site_policy_tightens_never_loosens(tmp_path: Path) -> None:
    """ticket.create to a site without a policy: L = 1, so AMRSF tightens what the contract would pass."""
    c = demo_mod.demo_plane(tmp_path / "a.db", KEYS, demo_mod.Clock())
    fields = [
        Field("case_id", "C-9", "internal"),
        Field("summary", "card 4111 1111 1111 1111 declined", "internal", subject="user:42", free_text=True),
    ]
    known = c.egress("ticket.create", fields)
    unknown = c.egress("ticket.create", fields, site="no-policy.example")
    rank = {"allow": 0, "token": 1, "transform": 1, "deny": 2, "omit": 2}
    for a, b in zip(known.decisions, unknown.decisions, strict=True):
        assert rank[b.action] >= rank[a.action]  # a second site can only tighten
    summary = {d.name: d for d in unknown.decisions}["summary"]
    assert summary.action in ("deny", "transform") and any("no-policy.example" in r for r in summary.reasons)
    assert "4111 1111 1111 1111" not in json.dumps(unknown.data)
    c.close()


def test_required_field_missing_or_denied(plane: DataPlane) -> None:
    with pytest.raises(PlaneError, match=r"requires field\(s\) summary"):
        plane.egress("ticket.create", [Field("case_id", "C-1", "internal")])

    @plane.tool("ticket.create")
    def create(case_id: str, summary: str) -> str:
        raise AssertionError("must not be called")

    with pytest.raises(EgressDenied, match="summary"):
        create([Field("case_id", "C-1", "internal"), Field("summary", "s", "secret")])
    last = list(plane.ledger.entries())[-1][1]
    assert {f["name"]: f["action"] for f in last["fields"]}["summary"] == "deny"


# -- memory --


def test_memory_ttl_refusals_and_compact(tmp_path: Path) -> None:
    clock = demo_mod.Clock()
    p = demo_mod.demo_plane(tmp_path / "m.db", KEYS, clock)
    pref = Field(
        "language", "canary-lang-fr", "personal", category="pd:Language", subject="user:1", retention="preference"
    )
    r = p.remember(pref, subject="user:1", purpose="dpv:Personalisation")
    assert r.stored and r.expires == clock.now + 30 * DAY
    assert not p.remember(
        Field("pw", "hunter2", "personal", category="pd:Password", subject="user:1", retention="preference"),
        subject="user:1",
        purpose="dpv:Personalisation",
    ).stored
    assert not p.remember(
        Field("id", "X1", "personal", retention="identifier"), subject="user:1", purpose="dpv:Personalisation"
    ).stored
    with pytest.raises(PlaneError, match="missing retention label"):
        p.remember(Field("x", "y", "personal"), subject="user:1", purpose="dpv:Personalisation")
    with pytest.raises(PlaneError, match="unknown retention class 'forever'"):
        p.remember(Field("x", "y", "personal", retention="forever"), subject="user:1", purpose="dpv:Personalisation")
    clock.now += 29 * DAY
    assert [m.value for m in p.recall("user:1", "dpv:Personalisation")] == ["canary-lang-fr"]
    clock.now += 2 * DAY
    assert p.recall("user:1") == []
    p.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"canary-lang-fr" in (tmp_path / "m.db").read_bytes()  # expired is not erased …
    assert p.memory.compact() == 1
    blob = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.name.startswith("m.db"))
    assert b"canary-lang-fr" not in blob  # … until compact
    assert p.ledger.verify().ok  # compacting memory leaves the ledger intact
    p.close()


def test_cross_subject_reads_and_writes_are_impossible(plane: DataPlane) -> None:
    f = Field("channel", "canary-sms", "personal", subject="user:42", retention="preference")
    assert plane.remember(f, subject="user:42", purpose="dpv:Personalisation").stored
    assert plane.recall("user:43") == [] and plane.scope("user:43").recall() == []
    with pytest.raises(PlaneError, match="another subject"):
        plane.remember(f, subject="user:43", purpose="dpv:Personalisation")
    assert [m.value for m in plane.scope("user:42").recall()] == ["canary-sms"]
    with pytest.raises(PlaneError):
        plane.scope("")


# -- the seed's five scenarios, the canary scan --


@pytest.mark.parametrize("scenario", demo_mod.SCENARIOS, ids=lambda s: s.__name__)
def test_seed_scenario(tmp_path: Path, scenario: Any) -> None:
    clock = demo_mod.Clock()
    with demo_mod.demo_plane(tmp_path / "s.db", KEYS, clock) as p:
        run = demo_mod.Run(p, clock)
        for before in demo_mod.SCENARIOS[: demo_mod.SCENARIOS.index(scenario)]:
            before(run)
        scenario(run)  # raises ScenarioFailed when its check does not hold
        assert run.lines


def test_scenario_check_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        demo_mod,
        "working_state",
        lambda: [Field("issue", "x", "internal", free_text=True), Field("api_key", "k", "internal")],
    )
    with demo_mod.demo_plane(tmp_path / "s.db", KEYS, demo_mod.Clock()) as p, pytest.raises(demo_mod.ScenarioFailed):
        demo_mod.context_minimisation(demo_mod.Run(p, demo_mod.Clock()))


def test_no_raw_value_in_the_database_file(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    lines = demo_mod.run_demo(db, KEYS)
    assert lines[-1].startswith("all 5 scenarios hold")
    with sqlite3.connect(db) as c:
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert c.execute("SELECT COUNT(*) FROM ledger").fetchone()[0] >= 5
    blob = b"".join(f.read_bytes() for f in tmp_path.iterdir() if f.name.startswith("c.db"))
    for canary in CANARIES:
        assert canary.encode() not in blob, canary
    with sqlite3.connect(db) as c:
        ledger = b"".join(r[0] for r in c.execute("SELECT entry FROM ledger"))
    assert b"user:42" not in ledger and b"tok_" in ledger  # the ledger names subjects by token only


# -- CLI --


def test_cli(tmp_path: Path) -> None:
    db, key = tmp_path / "a.db", tmp_path / "a.key"
    r = CliRunner().invoke(main, ["plane", "demo", "--db", str(db), "--key-file", str(key)])
    assert r.exit_code == 0, r.output
    assert "all 5 scenarios hold" in r.output and key.is_file()
    r = CliRunner().invoke(main, ["ledger", "verify", str(db), "--format", "json"])
    assert r.exit_code == 0 and json.loads(r.output)[0]["ok"] is True
    r = CliRunner().invoke(main, ["ledger", "checkpoint", str(db), "--key-file", str(key)])
    assert r.exit_code == 0
    cp = tmp_path / "cp.json"
    cp.write_text(r.output)
    r = CliRunner().invoke(main, ["ledger", "replay", str(db), "--format", "csv"])
    assert r.exit_code == 0 and "ticket.create" in r.output and "jane.roe" not in r.output
    assert CliRunner().invoke(main, ["ledger", "verify", str(db), "--since", str(cp)]).exit_code == 0
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    r = CliRunner().invoke(main, ["ledger", "verify", str(db), "--since", str(junk)])
    assert r.exit_code == 2 and "not a JSON checkpoint" in r.output
    with sqlite3.connect(db) as c:
        c.execute("DELETE FROM ledger WHERE seq = 1")
    r = CliRunner().invoke(main, ["ledger", "verify", str(db)])
    assert r.exit_code == 1 and "entry 1 is missing" in r.output
    assert CliRunner().invoke(main, ["memory", "compact", str(db)]).exit_code == 0
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"\x00garbage" * 64)
    r = CliRunner().invoke(main, ["ledger", "verify", str(bad)])
    assert r.exit_code == 2 and "not a usable plane database" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["ledger", "verify", str(tmp_path / "none.db")])
    assert r.exit_code == 2 and "no such database" in r.output


def test_corrupt_database_loses_nothing_written(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    demo_mod.run_demo(db, KEYS)
    key = tmp_path / "a.key"
    key.write_text(KEYS.secret.hex() + "\n")
    before = key.read_bytes()
    with pytest.raises(LedgerError, match="not an SQLite file"):
        DataPlane.open(key, key=KEYS.secret)  # a small non-database file: refused, not adopted and overwritten
    assert key.read_bytes() == before
    with DataPlane.open(db, key=KEYS.secret) as p:  # the real one opens and still verifies
        assert p.ledger.verify().ok and len(p.ledger) == 6


def test_open_with_graph_files_and_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    graphs = tmp_path / "graphs"
    graphs.mkdir()
    from pp_graph.api import convert_text

    text = (demo_mod.DEMO / "helpdesk.example.md").read_text(encoding="utf-8")
    convert_text(text, "helpdesk.example").dataset.serialize(str(graphs / "helpdesk.example.trig"), format="trig")
    monkeypatch.delenv("PP_GRAPH_PLANE_KEY", raising=False)
    monkeypatch.delenv("PP_GRAPH_PLANE_KEY_FILE", raising=False)
    with pytest.raises(Exception, match="no plane key"):
        DataPlane.open(tmp_path / "a.db", contracts=demo_mod.DEMO / "contracts")
    monkeypatch.setenv("PP_GRAPH_PLANE_KEY", KEYS.secret.hex())
    with pytest.raises(PlaneError, match="not found"):
        DataPlane.open(tmp_path / "a.db", contracts=demo_mod.DEMO / "contracts", graph=tmp_path / "nope")
    with DataPlane.open(tmp_path / "a.db", contracts=demo_mod.DEMO / "contracts", graph=graphs) as p:
        out = p.egress("ticket.create", [Field("case_id", "C-1", "internal"), Field("summary", "hi", "internal")])
        assert dict(out) == {"case_id": "C-1", "summary": "hi"}
        assert all(any("site helpdesk.example: AMRSF" in r for r in d.reasons) for d in out.decisions)
        assert p.ledger.verify().ok


def test_a_site_without_policy_graphs_is_denied_not_an_assertion(tmp_path: Path) -> None:
    """A plane opened without graphs cannot judge a destination site: every field to it is denied (fail closed),
    with the reason, instead of an AssertionError."""
    with DataPlane.open(tmp_path / "a.db", contracts=demo_mod.DEMO / "contracts", key=KEYS.secret) as p:
        fields = [Field("case_id", "C-1", "internal"), Field("summary", "hi", "internal")]
        out = p.egress("ticket.create", fields, site="helpdesk.example")
        assert out.decisions and {d.action for d in out.decisions} <= {"deny", "omit"}
        assert any("no policy graphs" in r for d in out.decisions for r in d.reasons)
        assert out.data == {} or all(v is None for v in out.data.values())
