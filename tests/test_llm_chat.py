"""The one synchronous chat client (risk likelihood model, anonymizer rewriter and guesser) against a local
OpenAI-compatible server: deterministic request settings, SDK failures and empty answers as the caller's typed
error naming the model, and no request without a key or a base URL."""

from __future__ import annotations

from typing import Any

import pytest
from llm_server import FakeLLMServer, Reply

from pp_graph.anonymize.guesser import GuesserError, OpenAIGuesser
from pp_graph.anonymize.llm import OpenAIRewriter, RewriterError
from pp_graph.errors import ConfigError, PPGraphError
from pp_graph.extract.llm.chat import ChatModel
from pp_graph.risk.llm import LikelihoodError, OpenAILikelihoodModel


class Oops(PPGraphError):
    pass


def test_request_settings_and_answer() -> None:
    with FakeLLMServer(lambda body: "fine") as srv:
        chat = ChatModel("m1", srv.base_url, "k", what="test", error=Oops)
        assert chat.complete("sys", "user", 50) == "fine"
        [req] = srv.requests
    assert (req["model"], req["temperature"], req["seed"], req["max_tokens"]) == ("m1", 0, 0, 50)
    assert [m["role"] for m in req["messages"]] == ["system", "user"]


@pytest.mark.parametrize(
    ("make", "call", "error"),
    [
        (lambda url: OpenAIGuesser("g", url, "k"), lambda m: m.guesses("[PERSON_1] called"), GuesserError),
        (lambda url: OpenAIRewriter("r", url, "k"), lambda m: m.rewrite("[PERSON_1] called", 4), RewriterError),
        (
            lambda url: OpenAILikelihoodModel("l", url, "k", max_retries=0),
            lambda m: m.estimate({}, []),
            LikelihoodError,
        ),
    ],
)
def test_failures_are_the_callers_typed_errors(make: Any, call: Any, error: type[Exception]) -> None:
    with FakeLLMServer() as srv:
        srv.enqueue(Reply(status=400, error="bad request"), Reply(status=400, error="bad request"))
        model = make(srv.base_url)
        with pytest.raises(error, match=r"BadRequestError"):
            call(model)
    with FakeLLMServer() as srv:  # (a server of its own: a 400 left in the queue would answer first)
        srv.enqueue(Reply(content=" \n"), Reply(content=" \n"))
        with pytest.raises(error, match="empty answer"):  # an empty answer is never a result, whoever asked
            call(make(srv.base_url))


def test_no_key_and_no_base_url_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(ConfigError, match="anonymize guesser: no API key"):
        OpenAIGuesser("g")
