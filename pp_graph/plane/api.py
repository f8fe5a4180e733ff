"""``DataPlane``: the three boundaries of an agent's data path over one SQLite file (ledger + memory).

```python
plane = DataPlane.open("agent.db", contracts="contracts/", graph="outputs/", key_file="agent.key")
ctx = plane.context(fields, purpose="dpv:CustomerCare", principal="support-bot")  # what the model may see
args = plane.egress("ticket.create", fields, site="helpdesk.example")             # what the tool may receive
plane.remember(field, subject="user:42", purpose="dpv:Personalisation")           # TTL set at write time
```
Every call appends one ledger entry (names, classes, actions, reasons, principal, purpose, policy digest, time)
before it returns; the values themselves never enter the ledger.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pp_graph.errors import ContractError, PlaneError
from pp_graph.plane.contracts import Contract, Contracts
from pp_graph.plane.db import connect
from pp_graph.plane.fields import Field, as_fields, dpv_term
from pp_graph.plane.group import GroupCommit
from pp_graph.plane.keys import PlaneKeys, load_keys
from pp_graph.plane.ledger import Ledger, canonical, utc_now
from pp_graph.plane.memory import Memory, MemoryRecord, RetentionTable, Scope, WriteResult
from pp_graph.plane.projection import Projection, Projector, SiteVerdict, TextTransformer, Tokenizer
from pp_graph.plane.text import AnonymizerText
from pp_graph.sites import SiteError, parse_site
from pp_graph.vocab.dpv import PURPOSE

R = TypeVar("R")


class EgressDenied(PlaneError):
    """A tool call whose required fields the policy denied or omitted (the decision is in the ledger)."""


class DataPlane:
    def __init__(
        self,
        db: str | Path,
        *,
        contracts: Contracts,
        keys: PlaneKeys,
        engine: Any = None,
        sync: str = "normal",
        clock: Callable[[], float] = time.time,
        transform_text: TextTransformer | None = None,
        retention: RetentionTable | None = None,
        prepared: bool = True,
        group_commit: bool = False,
    ) -> None:
        self.path = Path(db)
        self.conn = connect(self.path, sync=sync)
        self.contracts = contracts
        self.keys = keys
        self.engine = engine
        self.clock = clock
        self.ledger = Ledger(self.conn, keys)
        # Appends from several threads committed together by one writer (each call returns once its entry is in).
        self.group = GroupCommit(self.path, keys, sync=sync) if group_commit else None
        self.memory = Memory(self.conn, retention or RetentionTable.load(), clock)
        self.projector = Projector(
            Tokenizer(keys.token_key),
            self._site_check if engine else None,
            transform_text or AnonymizerText(),
            prepared=prepared,
        )
        self._verdicts: dict[tuple[str, str, str | None, tuple[str, ...]], tuple[SiteVerdict, str]] = {}
        self._site_digests: dict[str, str] = {}
        self._digests: dict[tuple[str | None, tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]], str] = {}

    @classmethod
    def open(
        cls,
        db: str | Path,
        *,
        contracts: str | Path | Contracts | None = None,
        graph: str | Path | Sequence[str | Path] | None = None,
        key: bytes | str | None = None,
        key_file: str | Path | None = None,
        **options: Any,
    ) -> DataPlane:
        """Open (or create) the plane's database; contracts from a file or folder of TOML, policy graphs from
        files or folders (for site tightening), the key from ``key``/``key_file`` or the environment."""
        if isinstance(contracts, Contracts):
            loaded = contracts
        else:
            loaded = Contracts.load(contracts) if contracts is not None else Contracts()
        engine = None
        if graph is not None:
            engine = _engine([graph] if isinstance(graph, str | Path) else list(graph), options.pop("thresholds", None))
        return cls(db, contracts=loaded, keys=load_keys(key, key_file), engine=engine, **options)

    def close(self) -> None:
        if self.group is not None:
            self.group.close()
        self.conn.close()

    def __enter__(self) -> DataPlane:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the three boundaries --

    def context(self, fields: object, *, purpose: str, principal: str, contract: str | None = None) -> Projection:
        """What the model may see for ``purpose``: the context contract for it if one exists, else the purpose
        rules alone (unrelated fields omitted, secrets denied, personal data tokenised)."""
        items = as_fields(fields)
        p = dpv_term(purpose, PURPOSE, "purpose")
        c = self.contracts[contract] if contract else self.contracts.for_context(p)
        if c is not None and c.boundary != "context":
            raise PlaneError(f"contract {c.name!r} is a {c.boundary} contract, not a context contract")
        proj = self.projector.project(items, boundary="context", purpose=p, contract=c)
        proj.seq = self._log("context", proj, principal, items, c, ())
        return proj

    def egress(self, contract: str, fields: object, *, site: str | None = None, principal: str = "agent") -> Projection:
        """The arguments a tool may receive: its contract's projection, tightened by the sites' policies."""
        items = as_fields(fields)
        c = self.contracts[contract]
        if c.boundary != "tool":
            raise PlaneError(f"contract {c.name!r} is a {c.boundary} contract, not a tool contract")
        sites = tuple(dict.fromkeys(_site_key(s) for s in (c.site, site) if s))
        proj = self.projector.project(items, boundary="tool", purpose=c.purpose, contract=c, sites=sites)
        proj.seq = self._log("egress", proj, principal, items, c, sites)
        return proj

    def remember(self, field: Field, *, subject: str, purpose: str, principal: str = "agent") -> WriteResult:
        """Write one field to the subject's memory (expiry from its retention class), or refuse it; logged."""
        if not isinstance(field, Field):
            raise PlaneError(f"remember() takes a Field, got {type(field).__name__}")
        p = dpv_term(purpose, PURPOSE, "purpose")
        result = self.memory.write(field, subject, p)
        entry: dict[str, Any] = {
            "name": field.name,
            "class": str(field.cls),
            "category": field.category,
            "action": "store" if result.stored else "refuse",
            "reasons": [result.reason],
            "retention": field.retention,
        }
        if result.expires is not None:
            entry["expires"] = utc_now(result.expires)
        record = {
            "event": "memory",
            "boundary": "memory",
            "name": "memory.write",
            "purpose": p,
            "principal": principal,
            "subject": [self.subject_token(subject)],
            "fields": [entry],
            "policy": self._digest(None, ()),
            "time": utc_now(self.clock()),
        }
        self._append(record)
        return result

    def scope(self, subject: str) -> Scope:
        """Reads of one subject's memory (expired rows are never returned)."""
        return self.memory.scope(subject)

    def recall(self, subject: str, purpose: str | None = None, name: str | None = None) -> list[MemoryRecord]:
        p = dpv_term(purpose, PURPOSE, "purpose") if purpose else None
        return self.memory.scope(subject).recall(p, name)

    def tool(self, contract: str, *, principal: str = "agent") -> Callable[[Callable[..., R]], Callable[..., R]]:
        """Wrap a tool function so it only ever receives its contract's projection of typed fields."""
        c = self.contracts[contract]
        if c.boundary != "tool":
            raise PlaneError(f"contract {c.name!r} is a {c.boundary} contract, not a tool contract")

        def wrap(fn: Callable[..., R]) -> Callable[..., R]:
            _check_signature(c, fn)

            @functools.wraps(fn)
            def guarded(fields: object, *, site: str | None = None, principal: str = principal) -> R:
                args = self.egress(c.name, fields, site=site, principal=principal)
                if args.missing:
                    raise EgressDenied(
                        f"{c.name}: required field(s) {', '.join(args.missing)} may not be sent "
                        f"(ledger entry {args.seq} says why)"
                    )
                return fn(**args.data)

            guarded.contract = c  # type: ignore[attr-defined]
            return guarded

        return wrap

    # -- helpers --

    def _append(self, record: dict[str, Any]) -> int:
        return self.group.append(record) if self.group is not None else self.ledger.append(record)

    def subject_token(self, subject: str) -> str:
        return self.projector.tokens.token("subject", subject)

    def _site_check(self, site: str, purpose: str, recipient: str | None, cats: tuple[str, ...]) -> SiteVerdict:
        key = (site, purpose, recipient, cats)
        hit = self._verdicts.get(key)
        if hit is None:
            from pp_graph.risk.engine import ActionContext

            d = self.engine.decide(
                ActionContext(
                    site=site,
                    data=cats,
                    purposes=(purpose,),
                    recipients=(recipient,) if recipient else (),
                    operation=None if recipient else "dpv:Share",
                )
            )
            digest = (d.policy or {}).get("graph_digest") or "no-policy"
            why = f"AMRSF R = {d.risk:.3f}, tier {d.tier} → {d.decision}"
            if d.policy is None:
                why += " (no policy for the site: L = 1)"
            hit = self._verdicts[key] = (SiteVerdict(d.decision, d.level, why), f"{digest}:{d.tables}")
        self._site_digests[site] = hit[1]
        return hit[0]

    def _digest(
        self, contract: Contract | None, sites: Sequence[str], detectors: tuple[tuple[str, str], ...] = ()
    ) -> str:
        """What the decision rested on: the contract, the retention table, each site's policy graph and tables,
        and the (NER mode, detector digest) pairs that judged free text (absent without free text, so the
        digests of other entries are unchanged)."""
        site_digests = tuple((s, self._site_digests.get(s, "no-graph")) for s in sites)
        key = (contract.digest if contract else None, site_digests, detectors)
        hit = self._digests.get(key)
        if hit is None:
            body: dict[str, Any] = {"contract": key[0], "retention": self.memory.retention.digest}
            body["sites"] = dict(site_digests)
            if detectors:
                body["text"] = [list(d) for d in detectors]
            hit = self._digests[key] = hashlib.sha256(canonical(body)).hexdigest()
        return hit

    def _log(
        self,
        event: str,
        proj: Projection,
        principal: str,
        items: Iterable[Field],
        contract: Contract | None,
        sites: Sequence[str],
    ) -> int:
        subjects = sorted({self.subject_token(f.subject) for f in items if f.subject})
        judged = {(d.ner_mode or "", d.detector or "") for d in proj.decisions if d.ner_mode or d.detector}
        record = {
            "event": event,
            "boundary": proj.boundary,
            "name": proj.name,
            "purpose": proj.purpose,
            "principal": principal,
            "sites": list(sites),
            "subject": subjects,
            "fields": [d.to_dict() for d in proj.decisions],
            "policy": self._digest(contract, sites, tuple(sorted(judged))),
            "time": utc_now(self.clock()),
        }
        return self._append(record)


def _check_signature(c: Contract, fn: Callable[..., Any]) -> None:
    """Every field the contract names must be a parameter of the tool (else the contract is wrong)."""
    params = inspect.signature(fn).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    for name in c.fields:
        if name not in params:
            raise ContractError(
                c.source, f"fields.{name}", f"names a field that {getattr(fn, '__name__', 'the tool')}() does not take"
            )


def _engine(paths: Sequence[str | Path], thresholds: str | None) -> Any:
    from pp_graph.graph.files import no_graph_files
    from pp_graph.risk.engine import RiskEngine
    from pp_graph.store.embedded import EmbeddedStore

    store = EmbeddedStore()
    ps = tuple(Path(p) for p in paths)
    missing = [str(p) for p in ps if not p.exists()]
    if missing:
        raise PlaneError(f"policy graph path(s) not found: {', '.join(missing)}")
    if not store.load(ps):
        raise PlaneError(no_graph_files(ps))
    return RiskEngine(store, thresholds=thresholds or "paper")


INVALID_SITE = "(invalid site)"  # what the ledger records for a site that names no valid host (denied)


@functools.lru_cache(maxsize=1024)  # parsed once per site string (a call names the same few sites)
def _site_key(site: str) -> str:
    """The parsed host the ledger records (never the raw string: a URL may carry user information), or
    INVALID_SITE, which the risk engine denies."""
    try:
        return parse_site(site)
    except SiteError:
        return INVALID_SITE
