"""A dead or unconfigured LLM server stops a batch at once, naming the file, instead of failing every policy."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm_server import FakeLLMServer

from pp_graph.batch import FileResult, convert_batch
from pp_graph.cli import main
from pp_graph.extract.llm.errors import LLMConnectionError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "policies"
TEXT = (FIXTURES / "tinyshop.example.md").read_text(encoding="utf-8")


def _folder(tmp_path: Path, n: int = 3) -> Path:
    src = tmp_path / "in"
    src.mkdir()
    for i in range(n):
        # Each text its own: the same text would be answered from the cache without a request.
        (src / f"site{i}.example.md").write_text(f"{TEXT}\nWe collect your postal address for order {i}.\n")
    return src


def _dead_port() -> int:
    with socket.socket() as s:  # bound then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _llm_options(base_url: str, tmp_path: Path) -> dict[str, str]:
    return {"base_url": base_url, "retries": "1", "backoff_base": "0", "cache_path": str(tmp_path / "c.sqlite")}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_nothing_listening_stops_the_batch_at_the_first_policy(tmp_path: Path, jobs: str) -> None:
    src, url = _folder(tmp_path), f"http://127.0.0.1:{_dead_port()}/v1"
    opts = [x for k, v in _llm_options(url, tmp_path).items() for x in ("--option", f"{k}={v}")]
    t0 = time.monotonic()
    res = CliRunner().invoke(
        main, ["convert", str(src), "--backend", "llm", *opts, "-j", jobs, "-o", str(tmp_path / "o")]
    )
    assert res.exit_code == 2, res.output
    assert f"cannot reach the LLM server at {url}" in res.output and "connection failed" in res.output
    assert res.output.count("cannot reach") == 1 and "Traceback" not in res.output
    assert res.output.split("Error: ", 1)[1].startswith("site")  # the file it happened in comes first
    assert time.monotonic() - t0 < 60  # not ~26 s per policy: one policy's retries, then the stop
    assert not list((tmp_path / "o").glob("*.trig"))


def test_a_server_that_dies_mid_batch_stops_it_and_keeps_what_was_done(tmp_path: Path) -> None:
    src = _folder(tmp_path)
    with FakeLLMServer() as server:
        done: list[FileResult] = []

        def on_done(r: FileResult) -> None:
            done.append(r)
            server.httpd.shutdown()
            server.httpd.server_close()

        with pytest.raises(LLMConnectionError) as e:
            convert_batch(
                [src], tmp_path / "o", backend="llm", options=_llm_options(server.base_url, tmp_path), on_done=on_done
            )
    assert [r.status for r in done] == ["converted"] and done[0].source == "site0.example.md"
    assert str(e.value).startswith("site1.example.md: cannot reach the LLM server")
    assert (tmp_path / "o" / "site0.example.trig").exists() and not (tmp_path / "o" / "site1.example.trig").exists()


def test_no_api_key_is_said_once(tmp_path: Path) -> None:
    src = _folder(tmp_path, 2)
    env = {"OPENAI_API_KEY": None, "OPENAI_BASE_URL": None}
    res = CliRunner(env=env).invoke(main, ["convert", str(src), "--backend", "llm", "-o", str(tmp_path / "o")])
    assert res.exit_code == 2
    assert res.output.count("no API key") == 1, res.output
