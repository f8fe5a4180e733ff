"""The MCP server: ``PolicyService``'s tools with JSON-Schema'd arguments and each policy as a resource.

Built on the official SDK's ``MCPServer``. All work (the policy store, the risk engine, spaCy and the ledger's
SQLite connection) runs on one worker thread, one call at a time: none of them is shared across threads. A bad
argument is an MCP tool error (``isError``) naming the argument; the server stays up after every error.
"""

# No ``from __future__ import annotations``: the SDK reads the tools' annotations at registration, and some are
# built per server (the named queries' enum).
import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from pp_graph.errors import InputError, PPGraphError
from pp_graph.mcpserver.odrl_tool import MAX_TURTLE
from pp_graph.mcpserver.service import MAX_ROWS, MAX_TEXT, PolicyService
from pp_graph.version import __version__

T = TypeVar("T")
log = logging.getLogger("pp_graph.mcp")

INSTRUCTIONS = (
    "Privacy-policy knowledge graph. Before sending personal data to a site, call check_egress: allow means send "
    "as is, transform means send only the returned text, deny means do not send. policy_facts lists what a site's "
    "policy states, with the policy line for each practice; named_query runs one of the package's vetted queries; "
    "anonymize rewrites a text at a level; odrl_evaluate gives an ODRL compliance report (a site's exported policy "
    "against an agent's action, or a policy and a request in Turtle); compliance answers a law's transparency "
    "checklist for a site. Each policy is also a resource: policy://<site>."
)
Site = Annotated[
    str, Field(description="Destination site: a domain such as github.com (a URL or subdomain is accepted).")
]
Text = Annotated[
    str,
    Field(
        description=f"Text to scan and rewrite; at most {MAX_TEXT:,} characters.",
        json_schema_extra={"maxLength": MAX_TEXT},
    ),
]
TextOrNone = Annotated[
    str | None,
    Field(
        description=f"Outgoing text to scan for personal data (never stored); at most {MAX_TEXT:,} characters.",
        json_schema_extra={"maxLength": MAX_TEXT},
    ),
]

Turtle = Annotated[
    str | None,
    Field(
        description=f"ODRL as Turtle; at most {MAX_TURTLE:,} characters. Not with a site.",
        json_schema_extra={"maxLength": MAX_TURTLE},
    ),
]


class Worker:
    """One thread for all the service's work, and the service built on it."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pp-graph-mcp")
        self.service: PolicyService | None = None

    def start(self, build: Callable[[], PolicyService]) -> PolicyService:
        self.service = self.pool.submit(build).result()
        return self.service

    async def call(self, tool: str, fn: Callable[..., T], **kwargs: Any) -> T:
        """``fn(**kwargs)`` on the worker; a refused argument or a failure becomes a ToolError (logged without
        its message, which can quote what the caller sent)."""
        return await asyncio.wrap_future(self.pool.submit(self._guarded, tool, fn, kwargs))

    def _guarded(self, tool: str, fn: Callable[..., T], kwargs: dict[str, Any]) -> T:
        from mcp.server.mcpserver.exceptions import ToolError

        try:
            return fn(**kwargs)
        except InputError as e:
            self.note("refused", tool, e.source)
            raise ToolError(str(e)) from None
        except PPGraphError as e:
            self.note("refused", tool, type(e).__name__)
            raise ToolError(str(e)) from None
        except Exception as e:  # a bug must not take the server down: fail closed, say so, go on
            log.exception("tool %s failed", tool)
            self.note("failed", tool, "")
            raise ToolError(f"internal error ({type(e).__name__}); nothing was decided, treat it as deny") from None

    def note(self, kind: str, tool: str, argument: str) -> None:
        """Record a refused (``kind == "refused"``) or failed call; the caller's values never, only names."""
        ledger = self.service.ledger if self.service else None
        if ledger is None:
            return
        try:
            ledger.refused(tool, argument) if kind == "refused" else ledger.failed(tool)
        except PPGraphError:
            log.exception("the ledger refused the record of a failed %s call", tool)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def refused_argument(schema: dict[str, Any], error: BaseException) -> str:
    """The argument a schema check refused, by its declared name only: the rejected value, and any key the caller
    made up, is the caller's data."""
    from pydantic import ValidationError

    cause = error.__cause__
    declared = set(schema.get("properties", {}))
    if not isinstance(cause, ValidationError):
        return "arguments"
    names = sorted({str(err["loc"][0]) for err in cause.errors() if err["loc"] and str(err["loc"][0]) in declared})
    return ",".join(names) or "arguments"


def ledgered_server(worker: Worker) -> Any:
    """An ``MCPServer`` whose calls refused by the SDK itself (an unknown tool, arguments failing the JSON Schema)
    reach the ledger too: those never run a tool, so the tools' own records miss them."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    class LedgeredServer(MCPServer):
        async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
            known = {t.name: t for t in await self.list_tools()}
            if name not in known:
                await asyncio.wrap_future(worker.pool.submit(worker.note, "refused", "unknown-tool", "name"))
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as e:
                # a tool's own refusals are recorded by the tool; the SDK's schema check says so by its cause
                if name in known and isinstance(e.__cause__, ValidationError):
                    arg = refused_argument(known[name].input_schema or {}, e)
                    await asyncio.wrap_future(worker.pool.submit(worker.note, "refused", name, arg))
                raise

    return LedgeredServer("pp-graph", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")


def build_server(worker: Worker, service: PolicyService) -> Any:
    """The ``MCPServer`` with the tools and one resource per site of ``service``."""
    server = ledgered_server(worker)
    _egress_tools(server, worker, service)
    _graph_tools(server, worker, service)
    _compliance_tools(server, worker, service)
    _resources(server, worker, service)
    return server


def _egress_tools(server: Any, worker: Worker, service: PolicyService) -> None:
    @server.tool(
        description="Decide whether data may go to a site: allow, transform (send only the returned text) or deny, "
        "with the reasons and the policy lines the decision rests on. Give DPV data categories (pd:EmailAddress), "
        "a free text to scan, or both."
    )
    async def check_egress(
        site: Site,
        data: Annotated[list[str], Field(description="DPV personal-data categories: pd:EmailAddress, …")] = [],  # noqa: B006
        text: TextOrNone = None,
        purpose: Annotated[list[str], Field(description="DPV purposes: dpv:Marketing, dpv:ServiceProvision, …")] = [],  # noqa: B006
        action: Annotated[
            str | None, Field(description="DPV processing when no recipient is given: dpv:Share, dpv:Collect, …")
        ] = None,
        recipient: Annotated[
            list[str],
            Field(
                description="Recipient kinds: first_party, service_provider, analytics, advertising, social_media, "
                "data_broker, government, unknown."
            ),
        ] = [],  # noqa: B006
    ) -> dict[str, Any]:
        return await worker.call(
            "check_egress",
            service.check_egress,
            site=site,
            data=data,
            text=text,
            purposes=purpose,
            action=action,
            recipients=recipient,
        )

    @server.tool(description="Rewrite a text at anonymization level 1–5 (3: personal data replaced by placeholders).")
    async def anonymize(
        text: Text,
        level: Annotated[int, Field(ge=1, le=5, description="Anonymization level L1–L5.")] = 3,
        adaptive: Annotated[bool, Field(description="Escalate while a re-identifying guess is supported.")] = False,
    ) -> dict[str, Any]:
        return await worker.call("anonymize", service.anonymize, text=text, level=level, adaptive=adaptive)


def _graph_tools(server: Any, worker: Worker, service: PolicyService) -> None:
    queries = service.queries()
    listing = "; ".join(
        q["name"] + (f"({', '.join(p['name'] for p in q['params'])})" if q["params"] else "") for q in queries
    )

    @server.tool(
        description="What a site's privacy policy states: each practice (type, negated, data, purposes, "
        "recipients) with the policy line it was extracted from, plus legal bases, rights and retention."
    )
    async def policy_facts(
        site: Site,
        practice_type: Annotated[
            str | None,
            Field(description="Only this type: first-party-collection-use, third-party-sharing-disclosure, …"),
        ] = None,
        limit: Annotated[int, Field(ge=0, le=MAX_ROWS, description="Practices returned at most.")] = MAX_ROWS,
    ) -> dict[str, Any]:
        return await worker.call(
            "policy_facts", service.policy_facts, site=site, practice_type=practice_type, limit=limit
        )

    @server.tool(description=f"Run one of the package's named SPARQL queries (never free SPARQL): {listing}.")
    async def named_query(
        name: Annotated[
            str, Field(description="The query's name.", json_schema_extra={"enum": [q["name"] for q in queries]})
        ],
        params: Annotated[
            dict[str, str],
            Field(default_factory=dict, description='Parameters by name (strings), e.g. {"site": "github.com"}.'),
        ],
        limit: Annotated[int, Field(ge=0, le=MAX_ROWS, description="Rows returned at most.")] = MAX_ROWS,
    ) -> dict[str, Any]:
        return await worker.call("named_query", service.named_query, name=name, params=params, limit=limit)


def _compliance_tools(server: Any, worker: Worker, service: PolicyService) -> None:
    from pp_graph.comply.laws import known_laws

    @server.tool(
        description="Evaluate an ODRL request into a FORCE compliance report: the verdict (permitted, prohibited, "
        "not-permitted, undetermined, not-applicable) and each rule's activation with its premises' satisfaction. "
        "Give either a site and an agent's action (action, data, purpose, recipient), evaluated against the "
        "site's exported ODRL policy with the policy lines the verdict rests on, or a policy and a request as "
        "Turtle (and optionally a state of the world)."
    )
    async def odrl_evaluate(
        site: Annotated[str | None, Field(description="A site whose exported ODRL policy is evaluated.")] = None,
        action: Annotated[
            Literal["share", "transfer", "collect", "use"] | None,
            Field(description="The agent's action (default: share to a third party, use otherwise)."),
        ] = None,
        data: Annotated[list[str], Field(description="DPV personal-data categories: pd:EmailAddress, …")] = [],  # noqa: B006
        purpose: Annotated[list[str], Field(description="DPV purposes: dpv:Marketing, …")] = [],  # noqa: B006
        recipient: Annotated[
            list[str], Field(description="Recipient kinds: first_party, service_provider, advertising, …")
        ] = [],  # noqa: B006
        policy: Turtle = None,
        request: Turtle = None,
        state: Turtle = None,
    ) -> dict[str, Any]:
        return await worker.call(
            "odrl_evaluate",
            service.odrl_evaluate,
            policy=policy,
            request=request,
            state=state,
            site=site,
            action=action,
            data=data,
            purposes=purpose,
            recipients=recipient,
        )

    laws = known_laws()

    @server.tool(
        description="A law's transparency checklist for a site's policy (GDPR Art. 13/14 by default): each "
        "requirement's id, label, article, status (addressed, denied, missing, not applicable) and the policy "
        "lines that address it, with their offsets."
    )
    async def compliance(
        site: Site,
        law: Annotated[str, Field(description="The law's checklist.", json_schema_extra={"enum": laws})] = "gdpr",
    ) -> dict[str, Any]:
        return await worker.call("compliance", service.compliance, site=site, law=law)


def _resources(server: Any, worker: Worker, service: PolicyService) -> None:
    from mcp.server.mcpserver.exceptions import ResourceError, ToolError

    async def read(site: str) -> str:
        try:
            return await worker.call("resource:policy", service.summary, site=site)
        except ToolError as e:
            raise ResourceError(str(e)) from None

    for site in service.sites:

        def reader(site: str = site) -> Callable[[], Any]:
            async def policy() -> str:
                return await read(site)

            return policy

        server.resource(f"policy://{site}", name=site, title=f"Privacy policy of {site}", mime_type="text/markdown")(
            reader()
        )

    @server.resource("policy://{site}", name="policy", mime_type="text/markdown")
    async def policy_of(site: str) -> str:
        """The privacy policy of any site (or subdomain) the graph holds, as a Markdown summary."""
        return await read(site)


def serve(
    graphs: tuple[Path, ...],
    *,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    ledger: Path | None = None,
    principal: str = "mcp-client",
    ner_mode: str | None = None,
) -> None:
    """Load the graphs, open the ledger, and serve until the client hangs up (stdio) or the process is stopped."""
    from pp_graph.mcpserver.record import CallLedger

    worker = Worker()

    def build() -> PolicyService:
        calls = CallLedger(ledger, principal=principal) if ledger is not None else None
        return PolicyService(graphs, ledger=calls, ner_mode=ner_mode)

    try:
        service = worker.start(build)
        worker.pool.submit(_warm_up, ner_mode)  # the detection models load while the client connects
        server = build_server(worker, service)
        if transport == "stdio":
            server.run("stdio")
        else:
            server.run("streamable-http", host=host, port=port)
    finally:
        worker.close()


def _warm_up(mode: str | None) -> None:
    from pp_graph.risk.detect import warm_up

    try:
        warm_up(mode)
    except PPGraphError:
        log.exception("the detection models did not load; calls with a text will say why")
