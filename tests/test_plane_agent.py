"""The example agent loop (OpenAI tool-calling format) through the real openai client against a local server:
the model sees only the context projection and the tool only its contract's projection."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from llm_server import FakeLLMServer, Reply
from openai import OpenAI

from pp_graph.plane import demo as demo_mod
from pp_graph.plane.keys import PlaneKeys

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("plane_agent_loop", ROOT / "examples" / "plane_agent_loop.py")
assert _spec is not None and _spec.loader is not None
agent = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(agent)

RAW = ("jane.roe@example.org", "sk-live-4f9a7c2e1b", "retry storm on node 7")


def call(name: str, args: dict[str, Any], n: int = 1) -> dict[str, Any]:
    return {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def run_loop(tmp_path: Path, *replies: Reply) -> tuple[str, list[dict[str, Any]], dict[str, Any], Any, Any]:
    sent: dict[str, Any] = {}
    plane = demo_mod.demo_plane(tmp_path / "agent.db", PlaneKeys(bytes(range(32))), demo_mod.Clock())

    @plane.tool("ticket.create", principal="support-bot")
    def create_ticket(case_id: str, summary: str) -> str:
        sent.update(case_id=case_id, summary=summary)
        return "TICKET-7"

    with FakeLLMServer() as srv:
        srv.enqueue(*replies)
        client = OpenAI(base_url=srv.base_url, api_key="test", max_retries=0)
        answer, messages = agent.run(
            client,
            "local",
            plane,
            demo_mod.working_state(),
            {"ticket.create": create_ticket},
            purpose="dpv:CustomerCare",
            subject="user:42",
        )
        requests = list(srv.requests)
    return answer, requests, sent, messages, plane


def test_agent_loop_sees_and_sends_only_projections(tmp_path: Path) -> None:
    forged = {"case_id": "CASE-9999", "summary": "Customer jane.roe@example.org cannot log in"}
    answer, requests, sent, _, plane = run_loop(
        tmp_path,
        Reply(content="", tool_calls=[call("ticket_create", forged)], finish_reason="tool_calls"),
        Reply(content="Your ticket TICKET-7 is open."),
    )
    assert answer == "Your ticket TICKET-7 is open."
    first = json.dumps(requests[0]["messages"])
    assert not any(r in first for r in RAW)  # the model never saw a raw email, the key or the debug note
    assert "tok_" in first and "pro" in first
    assert requests[0]["tools"][0]["function"]["name"] == "ticket_create"
    assert sent["case_id"] == "CASE-1042"  # the agent's typed state wins over what the model wrote
    assert "jane.roe" not in sent["summary"] and "tok_" in sent["summary"]
    tool_msg = requests[1]["messages"][-1]
    assert tool_msg["role"] == "tool" and json.loads(tool_msg["content"]) == {"result": "TICKET-7"}
    events = [e["event"] for _, e in plane.ledger.entries()]
    assert events == ["context", "egress"] and plane.ledger.verify().ok
    plane.close()


def test_incomplete_tool_call_is_refused_and_the_model_told(tmp_path: Path) -> None:
    answer, requests, sent, _, plane = run_loop(
        tmp_path,
        Reply(content="", tool_calls=[call("ticket_create", {})], finish_reason="tool_calls"),
        Reply(content="Sorry, I could not open a ticket."),
    )
    assert sent == {}  # the tool never ran
    err = json.loads(requests[1]["messages"][-1]["content"])["error"]
    assert "requires field(s) summary" in err
    assert answer.startswith("Sorry")
    plane.close()
