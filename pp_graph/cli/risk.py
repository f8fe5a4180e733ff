"""pp-graph risk: allow / transform / deny an outgoing action against a site's policy graph."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import IO, Any

import click

from pp_graph.cli.common import CLIError, detection_warm_up, graph_option, handle_errors, ner_mode_option, printable
from pp_graph.vocab.dpv import compact


def _engine(
    graphs: tuple[Path, ...],
    thresholds: str,
    llm_model: str | None,
    llm_base_url: str | None,
    llm_key_env: str,
    as_of: str | None = None,
    ner_mode: str | None = None,
    odrl: bool = True,
) -> Any:
    from pp_graph.graph.files import no_graph_files
    from pp_graph.risk.engine import RiskEngine
    from pp_graph.store.embedded import EmbeddedStore

    store = EmbeddedStore()
    if not store.load(graphs):
        raise CLIError(
            f"{no_graph_files(graphs)}; convert policies first (pp-graph convert POLICIES -o DIR) and pass --graph DIR"
        )
    model = None
    if llm_model:
        from pp_graph.risk.llm import OpenAILikelihoodModel

        model = OpenAILikelihoodModel(llm_model, base_url=llm_base_url, api_key=os.environ.get(llm_key_env))
    from pp_graph.load.versions import parse_date

    when = parse_date(as_of, "--as-of") if as_of else None
    return RiskEngine(store, thresholds=thresholds, model=model, as_of=when, ner_mode=ner_mode, odrl=odrl)


def _batch(engine: Any, stream: IO[bytes], out: IO[str]) -> int:
    """One decision (or error record) per input line; returns how many lines failed.

    Lines are decoded one by one, so a line that is not UTF-8 is an error record of its own.
    """
    from pp_graph.errors import PPGraphError
    from pp_graph.risk.engine import ActionContext

    failed = 0
    warm = detection_warm_up(engine.ner_mode)
    for n, raw in enumerate(stream, 1):
        if not raw.strip():
            continue
        ident = None
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError as e:
            failed += 1
            record = {"line": n, "id": None, "decision": "deny", "error": f"not valid UTF-8 (byte {e.start})"}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            continue
        try:
            obj = json.loads(line)
            ident = obj.get("id") if isinstance(obj, dict) else None
            ctx = ActionContext.from_dict(obj)
            engine.check(ctx)  # a refused action loads no model
            if ctx.text:
                warm()
            record = engine.decide(ctx).to_dict()
            record["line"] = n
        except (ValueError, PPGraphError) as e:
            failed += 1
            msg = f"invalid JSON: {e}" if isinstance(e, ValueError) and not isinstance(e, PPGraphError) else str(e)
            record = {"line": n, "id": ident, "decision": "deny", "error": msg}
        except Exception as e:  # a bug must not stop the batch: record it, fail closed, go on
            failed += 1
            record = {"line": n, "id": ident, "decision": "deny", "error": f"internal error: {type(e).__name__}: {e}"}
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return failed


def _deny_unloaded(e: Exception, batch: IO[bytes] | None) -> None:
    """Fail closed when the policy graphs cannot be loaded: a deny record on stdout (one per --batch line) before
    the error exits 2, so a caller reading decisions never waits for one that is not written."""
    lines = [n for n, raw in enumerate(batch, 1) if raw.strip()] if batch is not None else [None]
    for n in lines:
        record = {"decision": "deny", "error": f"policy graphs not loaded: {e}"}
        click.echo(json.dumps(record if n is None else {"line": n, **record}, ensure_ascii=False))


@click.command()
@graph_option()
@click.option("--site", help="Destination site (domain or URL); a site without a policy is scored as L = 1.0.")
@click.option(
    "--data", multiple=True, metavar="CATEGORY", help="Personal-data category: pd:EmailAddress, … (repeatable)."
)
@click.option("--text", help="Outgoing text to scan for personal data (not stored in the decision).")
@click.option("--text-file", type=click.File("rb"), help="Read the outgoing text from a file ('-' for stdin).")
@click.option(
    "--purpose", "purposes", multiple=True, metavar="PURPOSE", help="DPV purpose: dpv:Marketing, … (repeatable)."
)
@click.option(
    "--recipient",
    "recipients",
    multiple=True,
    help="Recipient kind: first_party, service_provider, analytics, government, social_media, unknown, "
    "advertising, data_broker (repeatable).",
)
@click.option(
    "--basis", help="How the action started: paste, selection, input, copy, default, script, fetch, background."
)
@click.option("--operation", help="DPV processing when no recipient is given: dpv:Share, dpv:Collect, …")
@click.option("--likelihood", type=click.FloatRange(0, 1), help="Fix the violation likelihood L (stress tests).")
@click.option(
    "--thresholds",
    type=click.Choice(["paper", "code"]),
    default="paper",
    show_default=True,
    help="Tier thresholds: the paper's Table 10 or the authors' code.",
)
@click.option("--batch", type=click.File("rb"), help="JSON Lines of actions ('-' for stdin); one decision per line.")
@click.option(
    "--as-of",
    "as_of",
    metavar="DATE",
    help="Decide against the site's policy version in force on DATE (YYYY-MM-DD); default: the newest.",
)
@ner_mode_option(
    "the detection of personal data in --text, --text-file or every --batch line's text and, in `guard`, the "
    "rewrite of that text."
)
@click.option("--llm-model", help="Slow path: OpenAI-compatible model for uncertain matches (it may only raise L).")
@click.option("--llm-base-url", help="Slow path: base URL of the OpenAI-compatible server.")
@click.option(
    "--llm-api-key-env", default="OPENAI_API_KEY", show_default=True, help="Environment variable holding the API key."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "table"]),
    default="json",
    show_default=True,
    help="json: the decision record; table: a one-line summary, then the reasons (one action; --batch is JSONL).",
)
@click.option(
    "--odrl/--no-odrl",
    default=True,
    show_default=True,
    help="Also evaluate the action against the site's exported ODRL policy (an active prohibition denies).",
)
@handle_errors
def risk(
    graphs: tuple[Path, ...],
    site: str | None,
    data: tuple[str, ...],
    text: str | None,
    text_file: IO[bytes] | None,
    purposes: tuple[str, ...],
    recipients: tuple[str, ...],
    basis: str | None,
    operation: str | None,
    likelihood: float | None,
    thresholds: str,
    batch: IO[bytes] | None,
    llm_model: str | None,
    llm_base_url: str | None,
    llm_api_key_env: str,
    as_of: str | None,
    ner_mode: str | None,
    fmt: str,
    odrl: bool,
) -> None:
    """Decide allow / transform / deny for an outgoing action (AMRSF over the site's policy graph).

    Prints the decision record as JSON. With --batch, prints one record per input line; a bad line
    yields {"line": N, "decision": "deny", "error": …}, the batch goes on, and the exit code is 1.
    """
    from pp_graph.errors import PPGraphError
    from pp_graph.risk.engine import ActionContext

    try:
        engine = _engine(graphs, thresholds, llm_model, llm_base_url, llm_api_key_env, as_of, ner_mode, odrl)
    except PPGraphError as e:
        _deny_unloaded(e, batch)
        raise
    if batch is not None:
        if fmt != "json":
            raise CLIError("--batch writes one JSON record per line; --format table is for one action")
        if site or data or text or text_file or purposes or recipients or basis or operation:
            raise CLIError("--batch reads every action from the file; drop the per-action options")
        failed = _batch(engine, batch, sys.stdout)
        if failed:
            click.echo(f"{failed} line(s) failed; see their error records", err=True)
            sys.exit(1)
        return
    if text_file is not None:
        if text is not None:
            raise CLIError("give --text or --text-file, not both")
        from pp_graph.load.sources import decode_text

        # UTF-8, or UTF-16/32 with a byte-order mark; anything else is an error naming the file.
        text = decode_text(text_file.read(), f"--text-file {text_file.name}")
    if not (data or text):
        click.echo("note: no --data or --text: scored as an action without personal data", err=True)
    ctx = ActionContext(
        site=site,
        data=data,
        purposes=purposes,
        recipients=recipients,
        basis=basis,
        operation=operation,
        text=text,
        likelihood=likelihood,
    )
    engine.check(ctx)  # a refused action loads no model
    if ctx.text:
        detection_warm_up(engine.ner_mode)()
    record = engine.decide(ctx).to_dict()
    if fmt == "table":
        click.echo(summary(record))
        for reason in record.get("reasons", []):
            click.echo(f"  - {printable(str(reason), one_line=True)}")
        return
    click.echo(json.dumps(record, indent=1, ensure_ascii=False))


def summary(record: dict[str, Any]) -> str:
    """One line a person reads first: the decision, the risk against its tier's thresholds, what and where."""
    th = record.get("thresholds") or {}
    cats = ", ".join(compact(c["iri"]) for c in record.get("categories", [])) or "no personal data"
    purposes = ", ".join(compact(p["iri"]) for p in record.get("purposes", [])) or "no purpose"
    odrl = record.get("odrl") or {}
    line = (
        f"{str(record['decision']).upper()}  risk {record['risk']:.3f} (tier {record['tier']}: allow below "
        f"{th.get('allow', 0):.2f}, deny from {th.get('deny', 0):.2f})  site {record.get('site') or '-'}  "
        f"data {cats}  purpose {purposes}"
    )
    if odrl.get("verdict"):
        line += f"  ODRL {odrl['verdict']}"
    return printable(line, one_line=True)


commands = [risk]
