"""pp-graph coverage: a real SQLite ledger written by the data plane, judged against dated policy versions."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.plane import DataPlane, Field

KEY = "6b" * 32
OTHER_KEY = "7c" * 32
V2025 = """# Shop Example privacy policy

We collect your email address to provide customer support.

We do not collect your precise geolocation.
"""
V2026 = V2025.replace(
    "\nWe do not", "\nWe collect your phone number to provide customer support.\n\nWe do not"
)  # the newer version also states the phone number
# What the plane ran with (a stale, permissive graph): it let the location through.
PLANE_POLICY = """# Shop Example privacy policy

We collect your email address, your phone number and your precise geolocation to provide customer support.
"""
CONTRACT = """[contract]
name = "order.update"
boundary = "tool"
purpose = "dpv:CustomerCare"
site = "shop.example"

[fields.email]
classes = ["personal"]
category = "pd:EmailAddress"

[fields.phone]
classes = ["personal"]
category = "pd:TelephoneNumber"

[fields.location]
classes = ["personal"]
category = "pd:CurrentLocation"

[fields.note]
classes = ["internal"]
"""
JUNE_2025, JUNE_2026 = 1_748_736_000.0, 1_780_272_000.0


def _convert(src: Path, out: Path) -> Path:
    res = CliRunner().invoke(main, ["convert", str(src), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("coverage")
    versions = root / "versions" / "shop.example"
    versions.mkdir(parents=True)
    (versions / "20250101T000000Z.md").write_text(V2025, encoding="utf-8")
    (versions / "20260101T000000Z.md").write_text(V2026, encoding="utf-8")
    graph = _convert(root / "versions", root / "graph")
    (root / "plane-src").mkdir()
    (root / "plane-src" / "shop.example.md").write_text(PLANE_POLICY, encoding="utf-8")
    plane_graph = _convert(root / "plane-src", root / "plane-graph")
    (root / "contracts").mkdir()
    (root / "contracts" / "order.toml").write_text(CONTRACT, encoding="utf-8")
    db = root / "plane.db"
    now = {"t": JUNE_2025}
    fields = [
        Field("email", "jane@shop-customer.example", "personal", category="pd:EmailAddress", subject="user:1"),
        Field("phone", "+1 415 555 0100", "personal", category="pd:TelephoneNumber", subject="user:1"),
        Field("location", "48.137, 11.575", "personal", category="pd:CurrentLocation", subject="user:1"),
        Field("note", "priority", "internal"),
    ]
    with DataPlane.open(db, contracts=root / "contracts", graph=plane_graph, key=KEY, clock=lambda: now["t"]) as plane:
        plane.egress("order.update", fields)
        plane.egress("order.update", fields)
        plane.context(fields, purpose="dpv:CustomerCare", principal="bot")  # the model's view: no site, not a flow
        now["t"] = JUNE_2026
        plane.egress("order.update", fields[:2])
        checkpoint = plane.ledger.checkpoint()
    (root / "checkpoint.json").write_text(json.dumps(checkpoint), encoding="utf-8")
    (root / "key").write_text(KEY, encoding="utf-8")
    (root / "other.key").write_text(OTHER_KEY, encoding="utf-8")
    return {"root": root, "graph": graph, "db": db}


def _run(*args: str) -> Any:
    return CliRunner().invoke(main, ["coverage", *args])


def _flows(setup: dict[str, Path]) -> list[dict[str, Any]]:
    res = _run("--ledger", str(setup["db"]), "--graph", str(setup["graph"]), "--format", "json")
    assert res.exit_code == 1, res.output  # a flow is denied or silent
    return json.loads(res.stdout)["flows"]


def test_flows_judged_against_the_version_in_force(setup: dict[str, Path]) -> None:
    got = {(f["category"], f["version"][:4]): f for f in _flows(setup)}
    assert set(got) == {
        ("pd:EmailAddress", "2025"),
        ("pd:EmailAddress", "2026"),
        ("pd:TelephoneNumber", "2025"),
        ("pd:TelephoneNumber", "2026"),
        ("pd:CurrentLocation", "2025"),
    }
    email = got[("pd:EmailAddress", "2025")]
    assert email["verdict"] == "stated" and email["calls"] == 2 and email["action"] == "token"
    assert email["site"] == "shop.example" and email["purpose"] == "dpv:CustomerCare"
    assert email["first"] == email["last"] == "2025-06-01T00:00:00Z"
    assert email["evidence"]["text"] == "We collect your email address to provide customer support."
    # the phone number: not in the policy in force in June 2025, stated by the one in force in June 2026
    assert got[("pd:TelephoneNumber", "2025")]["verdict"] == "silent"
    assert got[("pd:TelephoneNumber", "2025")]["evidence"] is None
    phone26 = got[("pd:TelephoneNumber", "2026")]
    assert phone26["verdict"] == "stated" and "phone number" in phone26["evidence"]["text"]
    location = got[("pd:CurrentLocation", "2025")]
    assert location["verdict"] == "denied" and location["match"] == "negated"
    assert location["evidence"]["text"] == "We do not collect your precise geolocation."
    assert not any(f["category"] is None for f in got.values())  # the internal note is no personal data


def test_table_and_markdown_and_exit_codes(setup: dict[str, Path]) -> None:
    res = _run("--ledger", str(setup["db"]), "--graph", str(setup["graph"]), "--format", "markdown")
    assert res.exit_code == 1
    assert "| shop.example | pd:CurrentLocation | dpv:CustomerCare | token | 2 |" in res.stdout
    assert "3 stated, 1 denied, 1 silent flow(s)" in res.stdout
    # only what was stated: a ledger whose flows the policy all states exits 0
    only = setup["root"] / "only-email.db"
    with DataPlane.open(only, contracts=setup["root"] / "contracts", graph=setup["graph"], key=KEY) as plane:
        plane.egress(
            "order.update", [Field("email", "x@y.example", "personal", category="pd:EmailAddress", subject="user:2")]
        )
    ok = _run("--ledger", str(only), "--graph", str(setup["graph"]))
    assert ok.exit_code == 0, ok.output
    assert "stated" in ok.stdout and "silent" not in ok.stdout.split("\n", 2)[2]


def _tampered(setup: dict[str, Path], tmp_path: Path, seq: int) -> Path:
    """A copy of the ledger whose entry ``seq`` hides that a field crossed ("token" → "omit")."""
    bad = tmp_path / "tampered.db"
    src = sqlite3.connect(setup["db"])
    src.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    src.close()
    shutil.copy(setup["db"], bad)
    db = sqlite3.connect(bad)
    entry = db.execute("SELECT entry FROM ledger WHERE seq = ?", (seq,)).fetchone()[0]
    forged = entry.replace(b'"token"', b'"omit"', 1)
    assert forged != entry
    db.execute("UPDATE ledger SET entry = ? WHERE seq = ?", (forged, seq))
    db.commit()
    db.close()
    return bad


def test_tampered_ledger_is_refused_naming_the_entry(setup: dict[str, Path], tmp_path: Path) -> None:
    bad = _tampered(setup, tmp_path, 1)
    res = _run("--ledger", str(bad), "--graph", str(setup["graph"]))
    assert res.exit_code == 2
    assert "does not verify at entry 1" in res.output and "coverage refused" in res.output
    assert "shop.example" not in res.stdout  # no table from a broken ledger


def test_checkpoint_from_another_key_is_refused(setup: dict[str, Path]) -> None:
    root = setup["root"]
    base = ["--ledger", str(setup["db"]), "--graph", str(setup["graph"]), "--checkpoint", str(root / "checkpoint.json")]
    own = _run(*base, "--key-file", str(root / "key"))
    assert own.exit_code == 1, own.output  # verified; the flows are judged
    other = _run(*base, "--key-file", str(root / "other.key"))
    assert other.exit_code == 2
    assert "signed by another key" in other.output and "coverage refused" not in other.stdout
    no_cp = _run("--ledger", str(setup["db"]), "--graph", str(setup["graph"]), "--key-file", str(root / "key"))
    assert no_cp.exit_code == 2 and "--checkpoint" in no_cp.output


def test_no_policy_in_force_is_silent(setup: dict[str, Path], tmp_path: Path) -> None:
    early = tmp_path / "early.db"
    with DataPlane.open(
        early, contracts=setup["root"] / "contracts", graph=setup["graph"], key=KEY, clock=lambda: 1_700_000_000.0
    ) as plane:  # November 2023: before the first version
        plane.egress(
            "order.update", [Field("email", "x@y.example", "personal", category="pd:EmailAddress", subject="user:2")]
        )
    res = _run("--ledger", str(early), "--graph", str(setup["graph"]), "--format", "json")
    assert res.exit_code == 1
    (flow,) = json.loads(res.stdout)["flows"]
    assert flow["version"] == "none" and flow["verdict"] == "silent" and flow["match"] == "no_policy"


def test_the_report_has_a_coverage_section_from_the_ledger(setup: dict[str, Path], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "report.html"
    res = CliRunner().invoke(main, ["report", str(setup["graph"]), "-o", str(out), "--ledger", str(setup["db"])])
    assert res.exit_code == 0, res.output
    html = out.read_text(encoding="utf-8")
    section = html.split('id="coverage"', 1)[1].split("</section>", 1)[0]
    assert "3 stated" in section and "1 denied" in section and "1 silent" in section
    rows = section.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("<tr ")[1:]
    assert [r.split('"', 2)[1] for r in rows] == ["denied", "silent", "stated", "stated", "stated"]  # worst first
    assert "We do not collect your precise geolocation." in section  # the denial's evidence line
    assert "jane@shop-customer.example" not in html  # the values that crossed are not in the ledger, nor here
    plain = tmp_path / "plain.html"
    assert CliRunner().invoke(main, ["report", str(setup["graph"]), "-o", str(plain)]).exit_code == 0
    assert 'id="coverage"' not in plain.read_text(encoding="utf-8")


def test_the_report_refuses_a_tampered_ledger(setup: dict[str, Path], tmp_path: Path) -> None:
    bad = _tampered(setup, tmp_path, 2)
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["report", str(setup["graph"]), "-o", str(out), "--ledger", str(bad)])
    assert res.exit_code == 2 and "does not verify at entry 2" in res.output and not out.exists()
    assert "Traceback" not in res.output


def test_coverage_and_report_leave_the_ledger_folder_as_found(setup: dict[str, Path], tmp_path: Path) -> None:
    """Coverage only reads the ledger: no -wal or -shm left beside it, the file's bytes and mtime unchanged."""
    folder = tmp_path / "audit"
    folder.mkdir()
    shutil.copy2(setup["db"], folder / "plane.db")

    def state() -> dict[str, tuple[bytes, int]]:
        return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}

    before = state()
    assert set(before) == {"plane.db"}
    assert _run("--ledger", str(folder / "plane.db"), "--graph", str(setup["graph"])).exit_code == 1
    assert state() == before
    out = tmp_path / "r.html"
    db = str(folder / "plane.db")
    res = CliRunner().invoke(main, ["report", str(setup["graph"]), "-o", str(out), "--ledger", db])
    assert res.exit_code == 0, res.output
    assert state() == before
