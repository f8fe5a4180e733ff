"""The slow path against a local OpenAI-compatible server on 127.0.0.1: the model may only raise L."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from test_risk_engine import SITES

from pp_graph.errors import ConfigError
from pp_graph.risk import ActionContext, OpenAILikelihoodModel, RiskEngine
from pp_graph.risk.llm import LikelihoodError, parse_likelihood
from pp_graph.store.embedded import EmbeddedStore


class FakeServer:
    def __init__(self) -> None:
        self.answers: list[str] = []
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                outer.auth.append(self.headers.get("Authorization"))
                content = outer.answers.pop(0) if outer.answers else '{"likelihood": 0.5}'
                payload = json.dumps(
                    {
                        "id": "x",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    s = FakeServer()
    s.thread.start()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


@pytest.fixture
def engine(server: FakeServer, tmp_path: Path) -> RiskEngine:
    for site in ("ads.example", "empty.example"):
        (tmp_path / f"{site}.trig").write_text(SITES[site], encoding="utf-8")
    store = EmbeddedStore()
    store.load([tmp_path])
    model = OpenAILikelihoodModel("judge", base_url=server.url, api_key="test", timeout=5, max_retries=0)
    return RiskEngine(store, model=model)


UNCERTAIN = ActionContext(
    site="empty.example",
    data=("pd:EmailAddress",),
    purposes=("dpv:Marketing",),
    recipients=("advertising",),
    text="write to secret.person@example.org",
)


def test_model_raises_l_on_uncertain_match(engine: RiskEngine, server: FakeServer) -> None:
    server.answers.append('{"likelihood": 0.9, "reason": "not disclosed"}')
    d = engine.decide(UNCERTAIN)
    assert d.likelihood["match"] == "undecidable" and d.likelihood["path"] == "slow"
    assert d.components["L"] == 0.9 and d.likelihood["source"] == "model"
    sent = json.dumps(server.requests[0])
    assert "secret.person" not in sent and "pd#EmailAddress" in sent and server.requests[0]["temperature"] == 0


def test_model_cannot_lower_l(engine: RiskEngine, server: FakeServer) -> None:
    server.answers.append('{"likelihood": 0.05}')
    d = engine.decide(UNCERTAIN)
    assert d.components["L"] == 0.5 and d.likelihood["model_estimate"] == 0.05
    assert any("only raise" in r for r in d.reasons)


def test_fast_path_skips_the_model(engine: RiskEngine, server: FakeServer) -> None:
    d = engine.decide(
        ActionContext(
            site="ads.example", data=("pd:EmailAddress",), purposes=("dpv:Marketing",), recipients=("advertising",)
        )
    )
    assert d.likelihood["path"] == "fast" and server.requests == []


def test_unusable_answer_keeps_the_table_l(engine: RiskEngine, server: FakeServer) -> None:
    server.answers.append("I cannot say.")
    d = engine.decide(UNCERTAIN)
    assert d.components["L"] == 0.5 and "model_error" in d.likelihood


@pytest.mark.parametrize(
    ("content", "value"),
    [
        ('{"likelihood": 0.7}', 0.7),
        ('```json\n{"likelihood": 1}\n```', 1.0),
        ("L = 0.35", 0.35),
    ],
)
def test_parse_likelihood(content: str, value: float) -> None:
    assert parse_likelihood(content) == value


@pytest.mark.parametrize("content", ['{"likelihood": 3}', "no idea", '{"likelihood": "high"}'])
def test_parse_likelihood_rejects(content: str) -> None:
    with pytest.raises(LikelihoodError):
        parse_likelihood(content)


# ---- regressions (review findings) ----


def test_identical_uncertain_decisions_ask_the_model_once(engine: RiskEngine, server: FakeServer) -> None:
    server.answers.append('{"likelihood": 0.9}')
    ds = [engine.decide(UNCERTAIN) for _ in range(3)]
    assert len(server.requests) == 1
    assert all(d.components["L"] == 0.9 and d.likelihood["model_estimate"] == 0.9 for d in ds)
    assert ds[0].to_dict() == ds[2].to_dict()
    engine.decide(ActionContext(**{**UNCERTAIN.__dict__, "purposes": ("dpv:Advertising",)}))
    assert len(server.requests) == 2  # a different question is asked


def test_failed_estimates_are_not_remembered(engine: RiskEngine, server: FakeServer) -> None:
    server.answers += ["I cannot say.", '{"likelihood": 0.8}']
    assert "model_error" in engine.decide(UNCERTAIN).likelihood
    assert engine.decide(UNCERTAIN).components["L"] == 0.8 and len(server.requests) == 2


def test_model_reads_the_key_from_the_environment(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-env")
    model = OpenAILikelihoodModel("judge", base_url=server.url, timeout=5, max_retries=0)
    assert model.estimate({"data": []}, []) == 0.5
    assert server.auth == ["Bearer sk-from-env"]


def test_model_without_key_or_base_url_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="no API key"):
        OpenAILikelihoodModel("judge")


def test_model_against_a_local_server_needs_no_key(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    model = OpenAILikelihoodModel("judge", base_url=server.url, timeout=5, max_retries=0)
    assert model.estimate({"data": []}, []) == 0.5 and server.auth == ["Bearer not-needed"]
