"""pp-graph cost / cache: dry-run cost estimates and the LLM response cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from pp_graph.cli.common import emit, format_option, handle_errors, text_site_option
from pp_graph.errors import ConfigError

PAPER_REPORTED_USD = 2.2  # Pr2Graph's reported cost per policy (fine-tuned gpt-4o / gpt-4o-mini)


@click.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--backend", default="llm", show_default=True, help="Only llm has a cost.")
@click.option("--model", help="Model to price (default: the config's, else gpt-4o-mini).")
@click.option(
    "--config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="TOML file with llm backend settings.",
)
@click.option("--prefilter/--no-prefilter", default=None, help="Estimate with the offline prefilter.")
@click.option("--option", "extra", multiple=True, metavar="KEY=VALUE", help="Further backend option.")
@text_site_option
@format_option()
@handle_errors
def cost(
    inputs: tuple[Path, ...],
    backend: str,
    model: str | None,
    config: Path | None,
    prefilter: bool | None,
    extra: tuple[str, ...],
    site: str | None,
    fmt: str,
) -> None:
    """Dry-run estimate: requests, tokens and $ per policy, ours beside the paper's scheme. No network."""
    from pp_graph.cli.convert import _backend_options
    from pp_graph.extract.llm.estimate import estimate_policy
    from pp_graph.load.sources import load_policy, policy_files

    if backend != "llm":
        raise ConfigError(f"backend {backend!r} makes no paid requests; cost estimates are for --backend llm")
    options = _backend_options(model, config, extra, prefilter=prefilter)
    ours_scheme = str(options.pop("scheme", "ours"))
    rows: list[dict[str, Any]] = []
    tot: dict[str, float] = {}
    files = policy_files(inputs)[0]
    if site is not None and len(files) != 1:
        raise ConfigError(f"--site names the site of one policy text, got {len(files)} under the inputs")
    for f in files:
        policy = load_policy(f, site=site)
        paper = estimate_policy(policy, **options, scheme="paper")
        ours = estimate_policy(policy, **options, scheme=ours_scheme)
        row = {
            "policy": f.name,
            "segments": int(ours["segments"]),
            "sent": int(ours["segments_sent"]),
            "paper_requests": int(paper["requests"]),
            "paper_tokens": int(paper["prompt_tokens"] + paper["completion_tokens"]),
            "paper_usd": paper.get("cost_usd"),
            "requests": int(ours["requests"]),
            "tokens": int(ours["prompt_tokens"] + ours["completion_tokens"]),
            "usd": ours.get("cost_usd"),
        }
        rows.append(row)
        for k, v in row.items():
            if isinstance(v, int | float) and not isinstance(v, bool):
                tot[k] = tot.get(k, 0) + v
    if not rows:
        raise ConfigError("no policy files (named <domain>.md/.txt/.html) under the inputs")
    n = len(rows)
    mean_row = {
        "policy": f"mean of {n}",
        **{k: (round(v / n, 4) if "usd" in k else round(v / n)) for k, v in tot.items()},
    }
    emit([*rows, mean_row], fmt)
    if fmt == "table":
        priced = rows[0]["usd"] is not None
        click.echo(
            f"\nEstimated without network: tokens ≈ characters/4, answers stood in by the offline extractor. "
            f"Paper scheme = one request per stage per segment (7 stages); the paper reports about "
            f"${PAPER_REPORTED_USD}/policy with fine-tuned gpt-4o/gpt-4o-mini."
            + ("" if priced else " No price for this model in data/llm-prices.tsv: $ left empty.")
        )


@click.group()
def cache() -> None:
    """The LLM response cache (default .pp-graph-cache/llm.sqlite in the current folder)."""


_path_option = click.option(
    "--path",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Cache file (default: $PP_GRAPH_LLM_CACHE or .pp-graph-cache/llm.sqlite).",
)


def _open(path: Path | None, must_exist: bool = True) -> Any:
    from pp_graph.extract.llm.cache import ResponseCache, default_cache_path

    p = path or default_cache_path()
    if must_exist and not p.exists():
        return None
    return ResponseCache(p)


@cache.command("stats")
@_path_option
@format_option()
@handle_errors
def cache_stats(path: Path | None, fmt: str) -> None:
    """Responses cached per stage and model, with the tokens they saved."""
    from pp_graph.extract.llm.cache import default_cache_path

    db = _open(path)
    if db is None:
        click.echo(f"no cache at {path or default_cache_path()}")
        return
    try:
        emit(db.stats(), fmt, ["stage", "model", "responses", "prompt_tokens", "completion_tokens"])
    finally:
        db.close()


@cache.command("clear")
@_path_option
@handle_errors
def cache_clear(path: Path | None) -> None:
    """Delete every cached response."""
    from pp_graph.extract.llm.cache import default_cache_path

    db = _open(path)
    if db is None:
        click.echo(f"no cache at {path or default_cache_path()}")
        return
    try:
        click.echo(f"removed {db.clear()} cached responses from {db.path}")
    finally:
        db.close()


commands = [cost, cache]
