"""The seed's support-agent run, offline and deterministic, as five self-checking scenarios.

A customer (subject user:42) writes in; the plane decides what the model sees, what the helpdesk's ticket tool
receives (tightened by helpdesk.example's policy graph, converted from ``data/plane/demo/``), what memory keeps and
for how long, that another subject sees none of it, and that the ledger exposes tampering. Each scenario returns
narration lines and raises ``ScenarioFailed`` if its check does not hold.
"""

from __future__ import annotations

import functools
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pp_graph.errors import PlaneError
from pp_graph.plane.api import DataPlane
from pp_graph.plane.contracts import Contracts
from pp_graph.plane.db import connect
from pp_graph.plane.fields import Field
from pp_graph.plane.keys import PlaneKeys
from pp_graph.plane.ledger import Ledger
from pp_graph.plane.memory import DAY
from pp_graph.resources import DATA

DEMO = DATA / "plane" / "demo"
SITE = "helpdesk.example"
UNKNOWN = "unknown-helpdesk.example"
START = 1_767_225_600.0  # 2026-01-01T00:00:00Z: a fixed clock, so the run is the same every time


class ScenarioFailed(PlaneError):
    """A demo scenario's self-check did not hold."""


@dataclass
class Clock:
    now: float = START

    def __call__(self) -> float:
        return self.now


def working_state() -> list[Field]:
    """Everything the agent holds about the case; the plane decides what goes where."""
    s, care = "user:42", "dpv:CustomerCare"
    return [
        Field(
            "issue",
            "Cannot log in since Monday, reach me at jane.roe@example.org",
            "internal",
            subject=s,
            purpose=care,
            free_text=True,
        ),
        Field("account_tier", "pro", "internal", subject=s, purpose=care),
        Field(
            "customer_email", "jane.roe@example.org", "personal", category="pd:EmailAddress", subject=s, purpose=care
        ),
        Field("api_key", "sk-live-4f9a7c2e1b", "secret", provenance="config"),
        Field("debug_note", "retry storm on node 7", "internal", purpose="dpv:ServiceOptimisation", provenance="logs"),
        Field("case_id", "CASE-1042", "internal", purpose=care, provenance="helpdesk"),
    ]


@functools.cache
def demo_engine() -> Any:
    """The risk engine over helpdesk.example's policy, converted by the offline pipeline (once per process)."""
    from pp_graph.api import convert_text
    from pp_graph.risk.engine import RiskEngine
    from pp_graph.store.embedded import EmbeddedStore

    conv = convert_text((DEMO / f"{SITE}.md").read_text(encoding="utf-8"), SITE)
    store = EmbeddedStore()
    store.load_dataset(conv.dataset)
    return RiskEngine(store)


def demo_plane(db: Path, keys: PlaneKeys, clock: Clock) -> DataPlane:
    """The plane with the demo contracts and the demo site's policy graph."""
    return DataPlane(db, contracts=Contracts.load(DEMO / "contracts"), keys=keys, engine=demo_engine(), clock=clock)


def _check(ok: bool, what: str) -> None:
    if not ok:
        raise ScenarioFailed(what)


def _decisions(proj: object) -> list[str]:
    out = []
    for d in proj.decisions:  # type: ignore[attr-defined]
        out.append(f"    {d.name:<15} {d.cls:<9} {d.action:<9} {'; '.join(d.reasons)}")
    return out


@dataclass
class Run:
    plane: DataPlane
    clock: Clock
    lines: list[str] = field(default_factory=list)

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)


def context_minimisation(r: Run) -> None:
    ctx = r.plane.context(working_state(), purpose="dpv:CustomerCare", principal="support-bot")
    r.say("1. Context minimisation: what the model sees", *_decisions(ctx), f"    model context: {dict(ctx)}")
    _check(set(ctx) == {"issue", "account_tier", "customer_email"}, "context holds exactly issue, tier and email")
    _check(str(ctx["customer_email"]).startswith("tok_"), "the email is a token")
    _check("jane.roe@example.org" not in str(ctx["issue"]), "the email inside the issue text is tokenised")
    _check(ctx["customer_email"] in str(ctx["issue"]), "the same email gets the same subject-scoped token")


def tool_egress(r: Run) -> None:
    sent: dict[str, object] = {}

    @r.plane.tool("ticket.create", principal="support-bot")
    def create_ticket(case_id: str, summary: str) -> str:
        sent.update(case_id=case_id, summary=summary)
        return "TICKET-7"

    summary = Field(
        "summary",
        "Customer jane.roe@example.org cannot log in",
        "internal",
        subject="user:42",
        provenance="model:tool_call",
        free_text=True,
    )
    ticket = create_ticket([*working_state(), summary])
    last = r.plane.ledger.entries(len(r.plane.ledger) - 1)
    _, entry = next(last)
    r.say(f"2. Tool-call egress: ticket.create to {SITE} (its policy graph and AMRSF may only tighten)")
    r.say(*(f"    {f['name']:<15} {f['class']:<9} {f['action']:<9} {'; '.join(f['reasons'])}" for f in entry["fields"]))
    r.say(f"    the tool received: {sent} → {ticket}")
    _check(set(sent) == {"case_id", "summary"}, "the adapter receives only case_id and summary")
    _check("jane.roe" not in str(sent), "no raw email reaches the tool")
    other = r.plane.egress("ticket.create", [*working_state(), summary], site=UNKNOWN, principal="support-bot")
    verdict = {d.name: d.reasons[-1] for d in other.decisions}["summary"]
    r.say(f"    the same call also sent to {UNKNOWN} (no policy in the graph, L = 1): summary: {verdict}")
    _check("→ transform" in verdict or "→ deny" in verdict, "a site without a policy tightens the summary")


def memory_retention(r: Run) -> None:
    pref = Field(
        "preferred_language",
        "de-AT",
        "personal",
        category="pd:Language",
        subject="user:42",
        retention="preference",
        provenance="user",
    )
    passport = Field(
        "passport_number",
        "X1234567",
        "sensitive",
        category="pd:Passport",
        subject="user:42",
        retention="government-identifier",
        provenance="user",
    )
    a = r.plane.remember(pref, subject="user:42", purpose="dpv:Personalisation", principal="support-bot")
    b = r.plane.remember(passport, subject="user:42", purpose="dpv:Personalisation", principal="support-bot")
    kept = r.plane.recall("user:42", "dpv:Personalisation")
    r.say(
        "3. Scoped memory retention",
        f"    preferred_language: stored={a.stored} ({a.reason})",
        f"    passport_number:    stored={b.stored} ({b.reason})",
        f"    recall(user:42) now: {[(m.name, m.value) for m in kept]}",
    )
    _check(a.stored and not b.stored, "the preference is kept and the identifier refused")
    _check(a.expires == r.clock.now + 30 * DAY, "the preference expires 30 days after it was written")
    r.clock.now += 31 * DAY
    later = r.plane.recall("user:42", "dpv:Personalisation")
    erased = r.plane.memory.compact()
    raw = r.plane.path.read_bytes()
    r.say(
        f"    after 31 days: recall → {later}; compact erased {erased} row(s); value bytes in file: {b'de-AT' in raw}"
    )
    _check(later == [] and erased == 1 and b"de-AT" not in raw, "expired rows are gone, physically")


def cross_subject_isolation(r: Run) -> None:
    mine = Field("contact_channel", "email", "personal", subject="user:42", retention="preference")
    r.plane.remember(mine, subject="user:42", purpose="dpv:Personalisation")
    other = r.plane.recall("user:43")
    try:
        r.plane.remember(mine, subject="user:43", purpose="dpv:Personalisation")
        crossed = True
    except PlaneError as e:
        crossed, why = False, str(e)
    r.say(
        "4. Cross-subject isolation",
        f"    recall(user:43) → {other}",
        f"    user:42's field written as user:43 → {why}",
    )
    _check(other == [] and not crossed, "another subject neither reads nor receives user:42's memory")
    _check(len(r.plane.recall("user:42")) == 1, "user:42 still sees its own row")


def audit_tamper(r: Run) -> None:
    led = r.plane.ledger
    rep = led.verify()
    cp = led.checkpoint(r.clock.now)
    r.say(
        "5. Audit tamper detection",
        f"    ledger: {rep.size} entries, chain and Merkle tree verify: {rep.ok}",
        f"    checkpoint: size {cp['size']}, root {cp['root'][:16]}…, signed by {cp['key'][:16]}…",
    )
    r.plane.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # The tampered copy lives in a folder of its own, removed with its -wal and -shm files whatever happens:
    # nothing is left beside the user's database.
    with tempfile.TemporaryDirectory(prefix="pp-graph-demo-") as tmp:
        copy = Path(tmp) / (r.plane.path.stem + "-tampered.db")
        shutil.copy(r.plane.path, copy)
        db = sqlite3.connect(copy)
        try:
            entry = db.execute("SELECT entry FROM ledger WHERE seq = 0").fetchone()[0]
            forged = entry.replace(b'"deny"', b'"allow"')
            _check(forged != entry, "entry 0 records a denial to forge")
            db.execute("UPDATE ledger SET entry = ? WHERE seq = 0", (forged,))
            db.commit()
        finally:
            db.close()
        conn = connect(copy)
        try:
            bad = Ledger(conn, r.plane.keys).verify(since=cp)
        finally:
            conn.close()
    r.say(
        f"    a copy with entry 0's 'deny' turned into 'allow': ok={bad.ok}, first bad entry {bad.first_bad}: "
        f"{bad.problem}"
    )
    _check(rep.ok and not bad.ok and bad.first_bad == 0, "the mutated decision is found")


SCENARIOS: list[Callable[[Run], None]] = [
    context_minimisation,
    tool_egress,
    memory_retention,
    cross_subject_isolation,
    audit_tamper,
]


def run_demo(db: Path, keys: PlaneKeys) -> list[str]:
    """Run the five scenarios on a fresh database at ``db``; returns the narration."""
    if not db.parent.is_dir():
        raise PlaneError(f"{db}: the folder {db.parent} does not exist")
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    clock = Clock()
    with demo_plane(db, keys, clock) as plane:
        r = Run(plane, clock)
        for scenario in SCENARIOS:
            scenario(r)
            r.say("")
        r.say(f"all {len(SCENARIOS)} scenarios hold; ledger at {db}")
    return r.lines
