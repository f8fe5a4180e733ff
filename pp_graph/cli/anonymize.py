"""pp-graph anonymize / guard: rewrite outgoing text at a level, or decide and release what may leave."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import click

from pp_graph.cli.common import CLIError, detection_warm_up, emit, handle_errors, ner_mode_option
from pp_graph.cli.risk import _engine, risk

TEXT_KEYS = frozenset({"id", "text", "level"})


def _lines(stream: IO[bytes]) -> Iterator[tuple[int, str | None, str | None]]:
    """(line number, decoded line, problem) per non-blank line; bad bytes are reported, not fatal."""
    for n, raw in enumerate(stream, 1):
        if not raw.strip():
            continue
        if b"\x00" in raw:
            yield n, None, "binary data (NUL bytes)"
            continue
        try:
            yield n, raw.decode("utf-8"), None
        except UnicodeDecodeError as e:
            yield n, None, f"not UTF-8 (byte {e.start}: {raw[e.start : e.start + 1]!r})"


def _obj(line: str, keys: frozenset[str] | None) -> dict[str, Any]:
    from pp_graph.errors import InputError

    try:
        obj = json.loads(line)
    except ValueError as e:
        raise InputError("line", f"malformed JSON: {e}") from None
    if not isinstance(obj, dict):
        raise InputError("line", f"expected a JSON object, got {type(obj).__name__}")
    if keys is not None:
        unknown = sorted(set(obj) - keys)
        if unknown:
            raise InputError("line", f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(keys))}")
    return obj


def run_lines(
    stream: IO[bytes], one: Callable[[dict[str, Any]], dict[str, Any]], keys: Any, name: str
) -> Iterator[dict[str, Any]]:
    """One output record per input line, in order; a bad line gives an error record naming ``name`` (the file)
    and the line number, and the batch goes on."""
    from pp_graph.errors import InputError, PPGraphError

    for n, line, problem in _lines(stream):
        ident = None
        try:
            if line is None:
                raise InputError("line", problem or "unreadable")
            obj = _obj(line, None)
            ident = obj.get("id")
            obj = _obj(line, keys)
            yield {"line": n, **one(obj)}
        except PPGraphError as e:
            said = e.problem if isinstance(e, InputError) and e.source == "line" else str(e)
            yield {"line": n, "id": ident, "error": f"{name}:{n}: {said}"}
        except Exception as e:  # a bug must not stop the batch: record it and go on
            yield {"line": n, "id": ident, "error": f"{name}:{n}: internal error: {type(e).__name__}"}


# Table/CSV: one row per replaced entity (type, offsets, kind, replacement), never the text or an original
# value: the entity dicts come from Replacement.to_dict, which drops a replacement derived from the value.
ANON_COLUMNS = ["line", "id", "start_level", "level", "type", "start", "end", "kind", "replacement", "error"]
GUARD_COLUMNS = ["line", "id", "decision", "tier", "start_level", "level", *ANON_COLUMNS[4:]]


def _entity_rows(base: dict[str, Any], entities: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keep = ("type", "start", "end", "kind", "replacement")
    return [{**base, **{k: e[k] for k in keep}} for e in entities] or [base]


def anonymize_rows(rec: dict[str, Any]) -> list[dict[str, Any]]:
    base = {"line": rec.get("line"), "id": rec.get("id")}
    if "error" in rec:
        return [{**base, "error": rec["error"]}]
    base.update(start_level=f"L{rec['start_level']}", level=f"L{rec['level']}")
    return _entity_rows(base, rec["entities"])


def guard_rows(rec: dict[str, Any]) -> list[dict[str, Any]]:
    base = {"line": rec.get("line"), "id": rec.get("id")}
    if "error" in rec:
        return [{**base, "decision": rec.get("decision"), "error": rec["error"]}]
    a = rec.get("anonymization")
    base.update(decision=rec["decision"], tier=rec["tier"], start_level=rec["level"])
    if a is None:  # allow / deny: no rewrite; ℓ0 is the counterfactual start level
        return [base]
    base.update(start_level=a["start_level"], level=a["final_level"])
    return _entity_rows(base, a["entities"])


class Output:
    """Where records go: JSONL streams each one as it is done; json, table and csv print once at the end."""

    def __init__(self, fmt: str, rows: Callable[[dict[str, Any]], list[dict[str, Any]]], columns: list[str]):
        self.fmt, self.rows, self.columns = fmt, rows, columns
        self.records: list[dict[str, Any]] = []
        self.failed = 0

    def add(self, rec: dict[str, Any]) -> None:
        self.failed += "error" in rec
        if self.fmt == "jsonl":
            click.echo(json.dumps(rec, ensure_ascii=False))
        else:
            self.records.append(rec)

    def close(self) -> None:
        if self.fmt == "json":
            click.echo(json.dumps(self.records, indent=1, ensure_ascii=False))
        elif self.fmt != "jsonl":
            emit([r for rec in self.records for r in self.rows(rec)], self.fmt, self.columns)
        if self.failed:
            click.echo(f"{self.failed} line(s) failed; see their error records", err=True)
            sys.exit(1)


_FORMAT: dict[str, Any] = {
    "type": click.Choice(["jsonl", "json", "table", "csv"]),
    "default": "jsonl",
    "show_default": True,
    "help": "jsonl: one record per line as it is done; json: one array at the end; table/csv: one row per "
    "replaced entity (id, levels, type, offsets, kind, replacement; never the text or an original value: "
    "a replacement built from the value, such as initials or a month and year, is given by its kind only).",
}


def _models(backend: str, llm_model: str | None, llm_base_url: str | None, llm_key_env: str) -> tuple[Any, Any]:
    if backend == "offline":
        return None, None
    if not llm_model:
        raise CLIError("--backend llm needs --llm-model")
    from pp_graph.anonymize.guesser import OpenAIGuesser
    from pp_graph.anonymize.llm import OpenAIRewriter

    key = os.environ.get(llm_key_env)
    return (
        OpenAIGuesser(llm_model, llm_base_url, key, llm_key_env),
        OpenAIRewriter(llm_model, llm_base_url, key, llm_key_env),
    )


_BACKEND = [
    click.Option(["--max-level"], type=click.IntRange(1, 5), default=5, show_default=True, help="Highest level."),
    click.Option(["--format", "fmt"], **_FORMAT),
    click.Option(
        ["--backend"],
        type=click.Choice(["offline", "llm"]),
        default="offline",
        show_default=True,
        help="Guesser and L4/L5 rewriter: offline rules or an OpenAI-compatible model.",
    ),
]


@click.command()
@click.argument("inputs", type=click.Path(path_type=Path, allow_dash=True), required=False)
@click.option("--text", help="One text to anonymize (instead of a JSONL file).")
@click.option("--level", type=click.IntRange(1, 5), default=3, show_default=True, help="Anonymization level L1–L5.")
@click.option("--adaptive", is_flag=True, help="Start at --level and escalate on supported guesses.")
@click.option("--max-level", type=click.IntRange(1, 5), default=5, show_default=True, help="Highest level.")
@click.option("--backend", type=click.Choice(["offline", "llm"]), default="offline", show_default=True)
@click.option("--llm-model", help="OpenAI-compatible model for --backend llm.")
@click.option("--llm-base-url", help="Base URL of the OpenAI-compatible server.")
@click.option("--llm-api-key-env", default="OPENAI_API_KEY", show_default=True)
@ner_mode_option("the detection of the entities that are rewritten, in --text and every line of INPUTS.")
@click.option("--format", "fmt", **_FORMAT)
@handle_errors
def anonymize(
    inputs: Path | None,
    text: str | None,
    level: int,
    adaptive: bool,
    max_level: int,
    backend: str,
    llm_model: str | None,
    llm_base_url: str | None,
    llm_api_key_env: str,
    ner_mode: str | None,
    fmt: str,
) -> None:
    """Anonymize texts: JSONL {"id", "text"[, "level"]} in, {"id", "text", "level", "entities"} out.

    Entities carry type, input offsets and the replacement, never the original value. A bad line gives
    {"line": N, "error": …} (an error row in table/csv), the others are processed, and the exit code is 1.
    """
    from pp_graph.anonymize import anonymize as run
    from pp_graph.anonymize import check_input

    guesser, rewriter = _models(backend, llm_model, llm_base_url, llm_api_key_env)
    warm = detection_warm_up(ner_mode)

    def one(obj: dict[str, Any]) -> dict[str, Any]:
        from pp_graph.errors import InputError

        if "text" not in obj:  # a JSONL line without its text (--text always gives one)
            raise InputError("line", 'the "text" field is missing; each line needs {"text": "…"}')
        lv = obj.get("level", level)
        if isinstance(lv, bool) or not isinstance(lv, int):
            raise InputError("level", "must be an integer 1–5")
        check_input(obj.get("text"), lv, escalate=adaptive, max_level=max_level if adaptive else 5)
        warm()  # after the checks: a refused text loads no model
        a = run(
            obj.get("text"),  # type: ignore[arg-type]
            lv,
            escalate=adaptive,
            max_level=max_level if adaptive else 5,
            guesser=guesser,
            rewriter=rewriter,
            mode=ner_mode,
        )
        d = a.to_dict()
        return {"id": obj.get("id"), **d}

    if text is not None and inputs is not None:
        raise CLIError("give INPUTS or --text, not both")
    if text is None and inputs is None:
        raise CLIError("give a JSONL file ('-' for stdin) or --text")
    out = Output(fmt, anonymize_rows, ANON_COLUMNS)
    if text is not None:
        out.add(one({"text": text}))  # a bad --text is an error (exit 2), not a record
    elif inputs is not None:

        def feed(stream: IO[bytes]) -> None:
            for rec in run_lines(stream, one, TEXT_KEYS, "<stdin>" if str(inputs) == "-" else str(inputs)):
                out.add(rec)

        _with_stream(inputs, feed)
    out.close()


def _with_stream(path: Path, fn: Callable[[IO[bytes]], None]) -> None:
    if str(path) == "-":
        fn(sys.stdin.buffer)
        return
    if not path.is_file():
        raise CLIError(f"{path}: not a file")
    with path.open("rb") as f:
        fn(f)


def _guard(**kw: Any) -> None:
    from pp_graph.risk.engine import ACTION_KEYS, ActionContext

    engine = _engine(
        kw["graphs"],
        kw["thresholds"],
        kw["llm_model"],
        kw["llm_base_url"],
        kw["llm_api_key_env"],
        kw["as_of"],
        kw["ner_mode"],
    )
    guesser, rewriter = _models(kw["backend"], kw["llm_model"], kw["llm_base_url"], kw["llm_api_key_env"])
    warm = detection_warm_up(engine.ner_mode)

    def one(obj: dict[str, Any]) -> dict[str, Any]:
        ctx = ActionContext.from_dict(obj)
        engine.check(ctx)  # a refused action loads no model
        if ctx.text:
            warm()
        g = engine.guard(ctx, max_level=kw["max_level"], guesser=guesser, rewriter=rewriter)
        return g.to_dict()

    out = Output(kw["fmt"], guard_rows, GUARD_COLUMNS)
    batch = kw["batch"]
    if batch is not None:
        per = ("site", "data", "text", "text_file", "purposes", "recipients", "basis", "operation")
        if any(kw[k] for k in per):
            raise CLIError("--batch reads every action from the file; drop the per-action options")
        stream = batch.buffer if hasattr(batch, "buffer") else batch
        for rec in run_lines(stream, one, ACTION_KEYS, getattr(batch, "name", "--batch")):
            out.add(rec)
        out.close()
        return
    text = kw["text"]
    if kw["text_file"] is not None:
        if text is not None:
            raise CLIError("give --text or --text-file, not both")
        raw = kw["text_file"].read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise CLIError(f"--text-file: not UTF-8 (byte {e.start})") from None
    obj = {
        "site": kw["site"],
        "data": list(kw["data"]),
        "purposes": list(kw["purposes"]),
        "recipients": list(kw["recipients"]),
        "basis": kw["basis"],
        "operation": kw["operation"],
        "text": text,
        "likelihood": kw["likelihood"],
    }
    out.add(one({k: v for k, v in obj.items() if v is not None}))
    out.close()


def _guard_params() -> list[click.Parameter]:
    out: list[click.Parameter] = []
    for p in risk.params:
        if "--format" in getattr(p, "opts", ()):  # guard has its own output formats
            continue
        if p.name in ("batch", "text_file"):
            out.append(click.Option(p.opts, type=click.File("rb"), help=getattr(p, "help", None)))
        else:
            out.append(p)
    return [*out, *_BACKEND]


guard = click.Command(
    "guard",
    callback=handle_errors(_guard),
    params=_guard_params(),
    help="Decide an outgoing action (every option of `risk`) and print the record plus the text that may "
    "leave: the original on allow, the rewrite from ℓ0 with verified escalation on transform, null on deny.",
)

commands = [anonymize, guard]
