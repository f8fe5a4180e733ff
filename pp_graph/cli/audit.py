"""pp-graph audit: data over-exposure in agent tool chains, judged against the recipient's policy graph.

    pp-graph audit traces FILE      one trace per line (JSON Lines)
    pp-graph audit FILE             the same (a file name where a subcommand would be)
    pp-graph audit privacylens FILE PrivacyLens cases (ReAct trajectories) as traces
    pp-graph audit chains FILE      source → sink chains from tool signatures (the cross-tool call graph)

Exit 0: no over-exposed flow; 1: some (or a trace could not be read; its error record says why); 2: error.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any

import click

from pp_graph.cli.common import CLIError, detection_warm_up, emit, format_option, handle_errors

FLOW_COLUMNS = ["trace", "source", "sink", "kind", "match", "verdict", "decision", "reason"]
SUBCOMMANDS = ("traces", "privacylens", "chains")


class _DefaultGroup(click.Group):
    """A group whose first argument may be a file: ``audit FILE`` runs ``audit traces FILE``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        first = next((a for a in args if a == "-" or not a.startswith("-")), None)
        if first is not None and first not in self.commands and not {"-h", "--help"} & set(args):
            args = ["traces", *args]
        return super().parse_args(ctx, args)


def _graph_option(fn: Any) -> Any:
    return click.option(
        "--graph",
        "graphs",
        multiple=True,
        type=click.Path(exists=True, path_type=Path),
        help="Policy graph files or folders (repeatable); without one every site is scored as having no policy.",
    )(fn)


def _sink_options(fn: Any) -> Any:
    fn = click.option(
        "--contracts",
        multiple=True,
        type=click.Path(exists=True, path_type=Path),
        help="Data-plane contract files (TOML) or folders of them: what each sink requires (repeatable).",
    )(fn)
    fn = click.option(
        "--tools", type=click.Path(exists=True, dir_okay=False, path_type=Path), help="Tool signatures (JSON)."
    )(fn)
    fn = click.option(
        "--committee",
        "committee_models",
        multiple=True,
        metavar="MODEL",
        help="LLM committee member (repeatable; majority vote; may only add over-exposed verdicts).",
    )(fn)
    fn = click.option("--llm-base-url", help="Committee: base URL of the OpenAI-compatible server.")(fn)
    fn = click.option(
        "--llm-api-key-env", default="OPENAI_API_KEY", show_default=True, help="Committee: API key variable."
    )(fn)
    return fn


@dataclass(frozen=True)
class _AuditorSettings:
    """What every auditing command takes: the policy graphs, the sinks' contracts and signatures, the committee."""

    graphs: tuple[Path, ...]
    contracts: tuple[Path, ...]
    tools: Path | None
    committee_models: tuple[str, ...]
    llm_base_url: str | None
    llm_api_key_env: str

    def auditor(self, extra_sinks: dict[str, Any] | None = None) -> Any:
        from pp_graph.audit.auditor import Auditor
        from pp_graph.audit.contracts import read_contracts, read_tools
        from pp_graph.risk.engine import RiskEngine

        store = None
        if self.graphs:
            from pp_graph.graph.files import no_graph_files
            from pp_graph.store.embedded import EmbeddedStore

            store = EmbeddedStore()
            if not store.load(self.graphs):
                raise CLIError(
                    f"{no_graph_files(self.graphs)}; convert policies first (pp-graph convert POLICIES -o DIR)"
                )
        sinks: dict[str, Any] = dict(extra_sinks or {})
        if self.tools is not None:
            sinks.update(read_tools(self.tools))
        sinks.update(read_contracts(list(self.contracts)))  # a contract says more than a schema: it wins
        committee = None
        if self.committee_models:
            from pp_graph.audit.committee import LLMCommittee

            committee = LLMCommittee(
                list(self.committee_models), base_url=self.llm_base_url, api_key_env=self.llm_api_key_env
            )
        return Auditor(RiskEngine(store), sinks, committee)


def _auditor_options(fn: Any) -> Any:
    """--graph and the sink options, handed to the command as one ``settings`` argument."""

    @functools.wraps(fn)
    def command(*args: Any, **kwargs: Any) -> Any:
        settings = _AuditorSettings(**{f.name: kwargs.pop(f.name) for f in fields(_AuditorSettings)})
        return fn(*args, settings=settings, **kwargs)

    return _graph_option(_sink_options(command))


def _jsonl(stream: IO[str]) -> Iterator[tuple[int, Any]]:
    """(line number, trace or error message) per non-blank line."""
    from pp_graph.audit.model import Trace
    from pp_graph.errors import PPGraphError

    for n, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            yield n, Trace.from_dict(json.loads(line), f"line {n}")
        except ValueError as e:
            yield n, f"line {n}: invalid JSON: {e}"
        except PPGraphError as e:
            yield n, str(e)


def _run(auditor: Any, items: Iterable[tuple[int, Any]], fmt: str) -> None:
    """Audit each trace; print the records; exit 1 if any flow is over-exposed or any trace failed."""
    from pp_graph.audit.model import OVER_EXPOSED
    from pp_graph.errors import PPGraphError

    records: list[dict[str, Any]] = []
    warm = detection_warm_up(None)  # the auditor detects in the default NER mode
    for n, item in items:
        if isinstance(item, str):
            records.append({"id": None, "line": n, "error": item, "flows": [], "summary": None})
            continue
        try:
            warm()
            records.append(auditor.audit(item))
        except PPGraphError as e:
            records.append({"id": item.id, "line": n, "error": str(e), "flows": [], "summary": None})
    if fmt == "json":
        click.echo(json.dumps(records, indent=1, ensure_ascii=False))
    else:
        emit(_rows(records), fmt, FLOW_COLUMNS)
    over = sum((r["summary"] or {}).get(OVER_EXPOSED, 0) for r in records)
    failed = sum(1 for r in records if "error" in r)
    click.echo(f"{len(records)} trace(s), {over} over-exposed flow(s), {failed} unreadable", err=True)
    if over or failed:
        sys.exit(1)


def _rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def at(step: int, path: str, offsets: list[int]) -> str:
        return f"{step}:{path}[{offsets[0]}:{offsets[1]}]"

    rows = []
    for r in records:
        if "error" in r:
            rows.append({"trace": r["id"] or f"line {r['line']}", "verdict": "error", "reason": r["error"]})
        for f in r["flows"]:
            rows.append(
                {
                    "trace": r["id"],
                    "source": at(f["source_step"], f["source_path"], f["source_offsets"]),
                    "sink": at(f["sink_step"], f"{f['sink_tool']}:{f['sink_path']}", f["sink_offsets"]),
                    "kind": f["kind"] or "",
                    "match": f["match"],
                    "verdict": f["verdict"],
                    "decision": (f["risk"] or {}).get("decision", ""),
                    "reason": "; ".join(f["reasons"]),
                }
            )
    return rows


@click.group(cls=_DefaultGroup)
def audit() -> None:
    """Audit agent tool chains for data over-exposure: traces FILE | privacylens FILE | chains FILE.

    `pp-graph audit FILE` is `pp-graph audit traces FILE`.

    Flows carry JSON paths and offsets, never the values. Exit 0: nothing over-exposed; 1: some; 2: error.
    """


@audit.command("traces")
@click.argument("file", type=click.File("r"))
@_auditor_options
@format_option()
@handle_errors
def traces_cmd(file: IO[str], settings: _AuditorSettings, fmt: str) -> None:
    """Audit traces: JSON Lines, one {"id", "instruction", "steps": [{"tool", "args", "result", "site"?}]} a line."""
    _run(settings.auditor(), _jsonl(file), fmt)


@audit.command("privacylens")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--actions",
    type=click.File("r"),
    help='JSON Lines {"name": case, "args": {...}}: the sink call an agent made per case (appended as the last step).',
)
@_auditor_options
@format_option()
@handle_errors
def privacylens_cmd(file: Path, actions: IO[str] | None, settings: _AuditorSettings, fmt: str) -> None:
    """Audit PrivacyLens cases (main_data.json): each ReAct trajectory becomes a trace."""
    from pp_graph.audit import privacylens

    acts = _actions(actions) if actions is not None else None
    auditor = settings.auditor(privacylens.sinks())
    items = ((i, str(t) if isinstance(t, Exception) else t) for i, t in enumerate(privacylens.traces(file, acts), 1))
    _run(auditor, items, fmt)


def _actions(stream: IO[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for n, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise CLIError(f"--actions line {n}: invalid JSON: {e}") from e
        if not isinstance(obj, dict) or not isinstance(obj.get("name"), str) or "args" not in obj:
            raise CLIError(f'--actions line {n}: expected {{"name": "mainN", "args": {{...}}}}')
        out[obj["name"]] = obj["args"]
    return out


@audit.command("chains")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--limit", type=click.IntRange(min=1), help="Print only the N highest-ranked chains.")
@format_option()
@handle_errors
def chains_cmd(file: Path, limit: int | None, fmt: str) -> None:
    """Source → sink chains from tool signatures (JSON schemas), ranked by the sensitivity of what can flow."""
    from pp_graph.audit.chains import call_graph
    from pp_graph.audit.contracts import read_tools

    rows = call_graph(read_tools(file))
    emit(rows[:limit] if limit else rows, fmt)


commands = [audit]
