"""A local OpenAI-compatible chat server for tests and benchmarks (127.0.0.1, random port, no network).

Scripted replies are served first (status, content, headers, delay, finish_reason); after that a
``responder(body) -> content`` answers. Every request is recorded and counted; usage numbers are
computed from the request and answer text (characters / 4), as a real server reports them.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


@dataclass
class Reply:
    content: str = '{"segments": []}'
    status: int = 200
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (a hung request when above the client's timeout)
    error: str = "error"  # message of an error body
    tool_calls: list[dict[str, Any]] | None = None  # OpenAI tool calls: [{"id", "type": "function", "function": …}]


def _message(reply: Reply) -> dict[str, Any]:
    if reply.tool_calls is None:
        return {"role": "assistant", "content": reply.content}
    return {"role": "assistant", "content": reply.content or None, "tool_calls": reply.tool_calls}


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # many clients connect at once; the default backlog (5) drops SYNs for 1 s


def empty_responder(body: dict[str, Any]) -> str:
    return '{"segments": []}'


class FakeLLMServer:
    def __init__(
        self, responder: Callable[[dict[str, Any]], str] = empty_responder, reject_response_format: bool = False
    ) -> None:
        self.responder = responder
        self.reject_response_format = reject_response_format
        self.script: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

            def setup(self) -> None:
                super().setup()
                # No Nagle delay between the header and body writes (40 ms per request otherwise).
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # /stats: counters, for a server running in another process
                with server._lock:
                    stats = {
                        "requests": len(server.requests),
                        "prompt_tokens": server.prompt_tokens,
                        "completion_tokens": server.completion_tokens,
                    }
                self._send(200, stats, {})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                    reply = server.script.pop(0) if server.script else None
                if reply is None:
                    if server.reject_response_format and "response_format" in body:
                        reply = Reply(status=400, error="response_format json_schema is not supported")
                    else:
                        reply = Reply(server.responder(body))
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(reply.status, {"error": {"message": reply.error, "type": "test"}}, reply.headers)
                    return
                prompt = sum(len(m.get("content") or "") for m in body.get("messages", [])) // 4
                completion = len(reply.content) // 4
                with server._lock:
                    server.prompt_tokens += prompt
                    server.completion_tokens += completion
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "fake"),
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": reply.finish_reason,
                                "message": _message(reply),
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt,
                            "completion_tokens": completion,
                            "total_tokens": prompt + completion,
                        },
                    },
                    reply.headers,
                )

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @property
    def count(self) -> int:
        return len(self.requests)

    def enqueue(self, *replies: Reply) -> None:
        with self._lock:
            self.script.extend(replies)

    def reset_counts(self) -> None:
        with self._lock:
            self.requests.clear()
            self.headers.clear()
            self.prompt_tokens = self.completion_tokens = 0

    def __enter__(self) -> FakeLLMServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def backend_settings(server: FakeLLMServer, cache: Path, **extra: Any) -> dict[str, Any]:
    """The LLM backend's settings against ``server`` (a fake model, a 5 s timeout, the cache at ``cache``)."""
    base = {"model": "fake-model", "base_url": server.base_url, "api_key": "test-key", "timeout": 5}
    return {**base, "cache_path": str(cache), **extra}


def serve_forever(ready: Any, responder: str = "keyword") -> None:
    """Run a server in this process (target of multiprocessing.Process); puts its base URL on ``ready``."""
    srv = FakeLLMServer(keyword_responder if responder == "keyword" else empty_responder)
    ready.put(srv.base_url)
    srv.httpd.serve_forever()


# ---- helpers to read a request the way a model would ----

SEGMENT = re.compile(r'<segment n="(\d+)"[^>]*>\n(.*?)\n</segment>', re.S)
SPANS = re.compile(r'^(\d+)\. "(.*)"$', re.M)


def request_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The answer schema: from response_format, else from the system prompt (plain-JSON mode)."""
    rf = body.get("response_format") or {}
    if rf.get("type") == "json_schema":
        schema: dict[str, Any] = rf["json_schema"]["schema"]
        return schema
    system = body["messages"][0]["content"]
    start = system.rindex("JSON schema:\n") + len("JSON schema:\n")
    schema = json.loads(system[start:].strip())
    return schema


def user_text(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


def segments_of(body: dict[str, Any]) -> dict[int, str]:
    return {int(n): text for n, text in SEGMENT.findall(user_text(body))}


# A tiny "model" for benchmarks: keyword spotting, so answers look like real ones in size and shape.
_DATA = {
    "email address": "pd:EmailAddress",
    "IP address": "pd:IPAddress",
    "name": "pd:Name",
    "phone number": "pd:TelephoneNumber",
    "location": "pd:Location",
    "cookies": "pd:Cookies",
    "payment information": "pd:PaymentCardNumber",
    "device": "pd:DeviceBased",
    "personal information": "dpv:PersonalData",
    "personal data": "dpv:PersonalData",
}
_PURPOSES = {
    "advertising": "dpv:Advertising",
    "analytics": "dpv:ServiceOptimisation",
    "security": "dpv:EnforceSecurity",
    "marketing": "dpv:Marketing",
    "fraud": "dpv:FraudPreventionAndDetection",
    "improve": "dpv:ServiceOptimisation",
    "personalize": "dpv:ServicePersonalisation",
}
_PARTIES = {
    "We": ("first_party", "first_party"),
    "we": ("first_party", "first_party"),
    "you": ("user", "first_party"),
    "third parties": ("third_party", "unknown"),
    "advertisers": ("third_party", "advertising"),
    "service providers": ("third_party", "service_provider"),
}
_PRACTICES = {
    "collect": "first-party-collection-use",
    "share": "third-party-sharing-disclosure",
    "disclose": "third-party-sharing-disclosure",
    "sell": "third-party-sharing-disclosure",
    "retain": "data-storage-retention-deletion",
    "store": "data-storage-retention-deletion",
    "protect": "data-security-protection",
    "encrypt": "data-security-protection",
}


def _words(text: str, table: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(w, v) for w, v in table.items() if re.search(rf"\b{re.escape(w)}\b", text)]


def keyword_responder(body: dict[str, Any]) -> str:
    schema = request_schema(body)
    props = schema["properties"]
    if "labels" in props:
        top = "pd" if "pd:Name" in json.dumps(props) else "dpv"
        spans = SPANS.findall(user_text(body))
        table = _DATA if top == "pd" else _PURPOSES
        return json.dumps(
            {
                "labels": [
                    {
                        "n": int(n),
                        "class": next(
                            (c for w, c in table.items() if w in t),
                            "dpv:PersonalData" if top == "pd" else "dpv:Purpose",
                        ),
                    }
                    for n, t in spans
                ]
            }
        )
    seg_props = props["segments"]["items"]["properties"]
    out = []
    for n, text in segments_of(body).items():
        e: dict[str, Any] = {"n": n}
        if "relations" in seg_props:
            ids = re.findall(rf'<entities n="{n}">\n(.*?)</entities>', user_text(body), re.S)
            has_data = bool(ids) and "data:0" in ids[0]
            e["relations"] = [{"practice": 0, "role": "Data-Collected", "entity": "data:0"}] if has_data else []
        classed = "data" in seg_props and "class" in seg_props["data"]["items"]["properties"]
        if "data" in seg_props:
            e["data"] = [
                {"text": w, "occurrence": None, **({"class": c} if classed else {})} for w, c in _words(text, _DATA)
            ]
        if "purposes" in seg_props:
            e["purposes"] = [
                {"text": w, "occurrence": None, **({"class": c} if classed else {})} for w, c in _words(text, _PURPOSES)
            ]
        if "parties" in seg_props:
            e["parties"] = [
                {"text": w, "occurrence": None, "kind": k, "recipient": r} for w, (k, r) in _words(text, _PARTIES)
            ]
        if "practices" in seg_props:
            e["practices"] = [
                {"text": w, "occurrence": None, "type": t, "negated": False, "from_heading": False}
                for w, t in _words(text, _PRACTICES)
            ]
        if "attributes" in seg_props:
            e["attributes"] = []
        out.append(e)
    return json.dumps({"segments": out})
