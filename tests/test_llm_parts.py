"""LLM backend parts without a server: config, prompts, prices, parsing, CLI (dry-run cost, cache)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pp_graph.cli import main
from pp_graph.errors import ConfigError, DataFileError
from pp_graph.extract.llm.cache import CachedResponse, ResponseCache, cache_key
from pp_graph.extract.llm.config import load_settings
from pp_graph.extract.llm.parse import Locator, parse_json, valid_duration
from pp_graph.extract.llm.prices import load_prices, price_for
from pp_graph.extract.llm.prompts import load_prompt, load_prompts
from pp_graph.extract.registry import get_backend
from pp_graph.resources import PROMPTS
from pp_graph.vocab.dpv import expand, vocabulary

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_locator_successive_occurrences_hints_and_case() -> None:
    loc = Locator("name, Name and name", 100)
    assert loc.locate("name") == (100, 104)
    assert loc.locate("name") == (115, 119)  # exact matches first ("Name" differs in case)
    assert loc.locate("name") is None  # a third mention: the text has no third exact "name"
    assert Locator("name, Name and name", 0).locate("name", occurrence=2) == (15, 19)
    assert Locator("name", 0).locate("name", occurrence=2) is None
    assert Locator("Your Email Address", 0).locate("email address") == (5, 18)
    assert Locator("abc", 0).locate("  ") is None


def test_parse_json_variants() -> None:
    assert parse_json('{"a": 1}') == {"a": 1}
    assert parse_json('Here:\n```json\n{"a": [1, 2,]}\n```') == {"a": [1, 2]}
    assert parse_json("I cannot do that.") is None
    assert parse_json("") is None
    assert valid_duration("P30D") == "P30D" and valid_duration("30 days") is None and valid_duration("P") is None


def test_settings_merge_and_errors(tmp_path: Path) -> None:
    cfg = tmp_path / "llm.toml"
    cfg.write_text(
        '[llm]\nmodel = "gpt-4o-mini"\nconcurrency = 4\nbudget = 2.5\n'
        '[llm.stages.entities]\nmodel = "gpt-4o"\nmax_tokens = 6000\n',
        encoding="utf-8",
    )
    s = load_settings(cfg, concurrency="16", prefilter=True)
    assert s.concurrency == 16 and s.prefilter and s.budget == 2.5
    assert s.stage_model("entities") == "gpt-4o" and s.stage_model("structure") == "gpt-4o-mini"
    assert s.stage_max_tokens("entities") == 6000 and s.stage_max_tokens("relations") == 4096
    with pytest.raises(ConfigError, match="concurency"):
        load_settings(None, concurency=3)
    with pytest.raises(ConfigError, match="unknown stage"):
        load_settings(None, stages={"entitys": {"model": "x"}})
    with pytest.raises(ConfigError, match="temperature"):
        load_settings(None, temperature="hot")
    bad = tmp_path / "bad.toml"
    bad.write_text("model = ", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(bad)
    with pytest.raises(ConfigError, match="scheme"):
        get_backend("llm", scheme="fast", no_cache=True)


def test_budget_without_a_price_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no-such-model"):
        get_backend("llm", model="no-such-model", budget=1.0, no_cache=True)


def test_prompts_load_and_every_named_concept_exists() -> None:
    prompts = load_prompts()
    vocab = vocabulary()
    for p in prompts.values():
        text = p.system.template + p.user.template
        for curie in re.findall(r"\b(?:pd|dpv|eu-gdpr):[A-Za-z][\w-]*", text):
            assert expand(curie) in vocab.labels, f"{p.path.name} names {curie}, which is not in DPV"


def test_prompt_validation_errors(tmp_path: Path) -> None:
    good = (PROMPTS / "entities.toml").read_text(encoding="utf-8")
    extra = tmp_path / "entities.toml"
    extra.write_text(good + '\nauthor = "me"\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="author"):
        load_prompt(extra)
    typo = tmp_path / "structure.toml"
    typo.write_text(
        (PROMPTS / "structure.toml").read_text(encoding="utf-8").replace("$segments", "$segs"), encoding="utf-8"
    )
    with pytest.raises(DataFileError, match="segments"):
        load_prompt(typo)
    prompt = load_prompts()["entities"]
    with pytest.raises(DataFileError, match=r"\$schema has no value"):
        prompt.render(segments="x", data_concepts="", purpose_concepts="")


def test_prompt_version_follows_the_prompt_files() -> None:
    a = get_backend("llm", no_cache=True)
    b = get_backend("llm", no_cache=True, scheme="paper")
    assert a.provenance.prompt_version.startswith("ours-") and b.provenance.prompt_version.startswith("paper-")
    assert a.provenance.prompt_version[5:] != b.provenance.prompt_version[6:]


def test_price_table(tmp_path: Path) -> None:
    assert price_for("gpt-4o-mini") is not None
    ft = price_for("ft:gpt-4o-mini-2024-07-18:org::abc")
    assert ft is not None and ft.model == "ft:gpt-4o-mini*"
    assert price_for("llama3.1:8b") is not None and price_for("unknown-model") is None
    bad = tmp_path / "p.tsv"
    bad.write_text("gpt-x\tcheap\t1\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="numbers"):
        load_prices(bad)
    bad.write_text("gpt-x\t1\t1\ngpt-x\t2\t2\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="twice"):
        load_prices(bad)


def test_cache_key_covers_everything_and_cli_cache(tmp_path: Path) -> None:
    base = ("entities", "h1", "m", {"temperature": 0}, [{"role": "user", "content": "x"}])
    variants = [
        ("structure", *base[1:]),
        (base[0], "h2", *base[2:]),
        (*base[:2], "m2", *base[3:]),
        (*base[:3], {"temperature": 1}, base[4]),
        (*base[:4], [{"role": "user", "content": "y"}]),
    ]
    assert len({cache_key(*base), *(cache_key(*v) for v in variants)}) == 6
    path = tmp_path / "c.sqlite"
    db = ResponseCache(path)
    db.put(cache_key(*base), "entities", "m", CachedResponse("{}", "stop", 10, 2))
    db.close()
    runner = CliRunner()
    out = runner.invoke(main, ["cache", "stats", "--path", str(path)])
    assert out.exit_code == 0 and "entities" in out.output
    out = runner.invoke(main, ["cache", "clear", "--path", str(path)])
    assert out.exit_code == 0 and "removed 1" in out.output
    assert ResponseCache(path).stats() == []


def test_cost_is_a_dry_run_with_the_paper_scheme_beside_ours() -> None:
    runner = CliRunner()
    out = runner.invoke(
        main,
        [
            "cost",
            str(EXAMPLES / "mozilla.org.md"),
            "--model",
            "gpt-4o-mini",
            "--format",
            "json",
            "--option",
            "base_url=http://127.0.0.1:9/v1",
        ],
    )
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    row = rows[0]
    assert row["policy"] == "mozilla.org.md" and row["segments"] > 10
    assert row["paper_requests"] >= 4 * row["segments"] > row["requests"] > 0
    assert row["paper_usd"] > row["usd"] > 0
