"""An agent loop in the OpenAI tool-calling message format, guarded by the privacy data plane.

The model sees only the context projection; when it calls a tool, the arguments it wrote become typed fields
(provenance ``model:tool_call``, internal free text, scanned), the agent's own typed state fills the rest, and the
tool wrapper sends the tool only its contract's projection. Any OpenAI-compatible server works; the tests drive it
with a local one on 127.0.0.1.

    python examples/plane_agent_loop.py --base-url http://127.0.0.1:8080/v1 --model local --db /tmp/agent.db
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pp_graph.errors import PlaneError
from pp_graph.plane import Contract, DataPlane, Field

SYSTEM = (
    "You are a customer-support agent. The case data below is already minimised: tokens (tok_…) stand for "
    "personal data and must be passed on unchanged. Open a ticket with a one-line summary, then answer the customer."
)


def tool_schema(c: Contract) -> dict[str, Any]:
    """An OpenAI function tool from a contract (function names may not contain dots)."""
    props = {n: {"type": "string"} for n in c.fields}
    return {
        "type": "function",
        "function": {
            "name": c.name.replace(".", "_"),
            "description": f"{c.name} (purpose {c.purpose})",
            "parameters": {"type": "object", "properties": props, "required": list(c.required)},
        },
    }


def call_fields(state: list[Field], args: dict[str, Any], subject: str) -> list[Field]:
    """The agent's typed state wins; what only the model supplied becomes scanned internal free text."""
    have = {f.name for f in state}
    extra = [
        Field(k, str(v), "internal", subject=subject, provenance="model:tool_call", free_text=True)
        for k, v in args.items()
        if k not in have
    ]
    return [*state, *extra]


def run(
    client: Any,
    model: str,
    plane: DataPlane,
    state: list[Field],
    tools: dict[str, Callable[..., Any]],
    *,
    purpose: str,
    subject: str,
    max_steps: int = 4,
) -> tuple[str, list[dict[str, Any]]]:
    """Drive the model until it answers without a tool call; returns the answer and the messages sent."""
    ctx = plane.context(state, purpose=purpose, principal="support-bot")
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM + "\n\nCase data: " + json.dumps(dict(ctx), ensure_ascii=False)},
        {"role": "user", "content": str(ctx.get("issue", ""))},
    ]
    by_name = {name.replace(".", "_"): (name, fn) for name, fn in tools.items()}
    schemas = [tool_schema(plane.contracts[name]) for name in tools]
    for _ in range(max_steps):
        reply = client.chat.completions.create(model=model, messages=messages, tools=schemas)
        msg = reply.choices[0].message
        messages.append(msg.model_dump(exclude_none=True))
        if not msg.tool_calls:
            return str(msg.content or ""), messages
        for call in msg.tool_calls:
            name, fn = by_name[call.function.name]
            try:
                args = json.loads(call.function.arguments or "{}")
                result = {"result": fn(call_fields(state, args, subject))}
            except PlaneError as e:  # denied or incomplete: the model is told why, the tool never runs
                result = {"error": str(e)}
            except ValueError:
                result = {"error": f"{name}: the arguments are not a JSON object"}
            messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
    return "(no answer within the step limit)", messages


def main() -> None:  # pragma: no cover - a manual entry point; the tests call run()
    from openai import OpenAI

    from pp_graph.plane.demo import Clock, demo_plane, working_state
    from pp_graph.plane.keys import load_keys

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--db", type=Path, required=True)
    ap.add_argument("--key-file", type=Path)
    a = ap.parse_args()

    with demo_plane(a.db, load_keys(key_file=a.key_file), Clock()) as plane:

        @plane.tool("ticket.create", principal="support-bot")
        def create_ticket(case_id: str, summary: str) -> str:
            return f"ticket for {case_id} opened"

        client = OpenAI(base_url=a.base_url, api_key="unused")
        answer, _ = run(
            client,
            a.model,
            plane,
            working_state(),
            {"ticket.create": create_ticket},
            purpose="dpv:CustomerCare",
            subject="user:42",
        )
        print(answer)


if __name__ == "__main__":
    main()
