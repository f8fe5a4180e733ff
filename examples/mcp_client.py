"""An MCP client session against `pp-graph mcp` over stdio, printed as a transcript (docs/mcp.md shows its output).

    pp-graph convert examples/github.com.md -o /path/to/graphs
    python examples/mcp_client.py /path/to/graphs

Uses the official MCP SDK's client (pip install 'pp-graph[mcp]'); the server is started as a subprocess.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from mcp import Client, StdioServerParameters

CALLS: list[tuple[str, dict[str, Any]]] = [
    (
        "check_egress",
        {
            "site": "github.com",
            "data": ["pd:EmailAddress"],
            "purpose": ["dpv:ServiceProvision"],
            "recipient": ["first_party"],
        },
    ),
    (
        "check_egress",
        {
            "site": "github.com",
            "text": "Please contact Jane Doe at jane.doe@example.com or +1 415 555 0100 about the refund.",
            "purpose": ["dpv:Marketing"],
            "recipient": ["advertising"],
        },
    ),
    (
        "check_egress",
        {
            "site": "github.com",
            "data": ["pd:Password"],
            "purpose": ["dpv:ServiceProvision"],
            "recipient": ["service_provider"],
        },
    ),
    ("check_egress", {"site": "nosuch.example", "data": ["pd:EmailAddress"]}),
    ("check_egress", {"site": "github.com", "data": "pd:EmailAddress"}),
]
SHOWN = ("decision", "site", "risk", "tier", "level", "categories", "text")


def _show(result: Any) -> str:
    if result.is_error:
        return "ERROR " + " ".join(c.text for c in result.content if c.type == "text")
    s = result.structured_content
    brief = {k: s[k] for k in SHOWN if k in s}
    brief["categories"] = [c["category"] for c in s["categories"]]
    brief["reason"] = s["reasons"][-1]
    if s["rules"]:
        brief["rules"] = [r["rule"] for r in s["rules"]]
    brief["evidence"] = [f"{e['label']} [{e['start']}-{e['end']}] {str(e['text'])[:60]}…" for e in s["evidence"][:1]]
    return json.dumps(brief, indent=1, ensure_ascii=False)


async def main(graph: str) -> None:
    # This interpreter's pp-graph, with this environment (the SDK passes only a safe subset by default).
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "pp_graph.cli", "mcp", "--graph", graph], env=dict(os.environ)
    )
    async with Client(server) as client:
        tools = await client.list_tools()
        print("> tools/list")
        for t in tools.tools:
            print(f"  {t.name}({', '.join(t.input_schema['properties'])})")
        for name, args in CALLS:
            print(f"\n> tools/call {name} {json.dumps(args, ensure_ascii=False)}")
            print(_show(await client.call_tool(name, args)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "outputs"))
