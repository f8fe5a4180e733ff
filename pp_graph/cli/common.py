"""Shared CLI helpers: error mapping, output formats, tables."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from pp_graph.errors import PPGraphError
from pp_graph.report.formats import aligned, csv_text, escape_controls
from pp_graph.urls import without_userinfo

F = TypeVar("F", bound=Callable[..., Any])

EXIT_ERROR = 2  # pySHACL's convention: 0 ok, 1 findings (violations, failed files), 2 error


class CLIError(click.ClickException):
    exit_code = EXIT_ERROR


def handle_errors(fn: F) -> F:
    """Turn the library's typed errors into a one-line message and exit code 2 (any URL in it shown without its
    user information)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PPGraphError as e:
            raise CLIError(without_userinfo(str(e))) from e

    return wrapper  # type: ignore[return-value]


class RegistryOption(click.Option):
    """An option whose help lists a registry's names when the help is shown (``{names}`` in the help text): a
    name registered after import is listed, and no hard-coded list goes stale."""

    def __init__(self, *args: Any, names: Callable[[], Sequence[str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        shown = copy.copy(self)
        shown.help = (self.help or "").replace("{names}", ", ".join(self.names()))
        return click.Option.get_help_record(shown, ctx)


def _backend_names() -> list[str]:
    from pp_graph.extract.registry import BACKENDS

    return sorted(BACKENDS)


def backend_option(what: str = "Extraction backend") -> Callable[[F], F]:
    """--backend: any registered extraction backend, checked when the command runs, listed in the help."""
    return click.option(
        "--backend",
        cls=RegistryOption,
        names=_backend_names,
        default="offline",
        show_default=True,
        callback=registered_backend,
        metavar="BACKEND",
        help=what + ": a registered backend ({names}).",
    )


def _ner_mode_names() -> tuple[str, ...]:
    from pp_graph.anonymize.recognizers import ner_modes

    return ner_modes()


def registered_ner_mode(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A --ner-mode callback, checked against the anonymizer's mode registry when the command runs (not at
    import), so a mode registered later is accepted; "" is an unknown mode, not the default."""
    if value is None:
        return None
    from pp_graph.anonymize.recognizers import mode_name

    try:
        return mode_name(value)
    except PPGraphError as e:
        raise click.BadParameter(str(e), ctx, param) from None


def ner_mode_option(drives: str) -> Callable[[F], F]:
    """--ner-mode: a registered NER mode (listed in the help when it is shown); ``drives``: what it decides."""
    return click.option(
        "--ner-mode",
        cls=RegistryOption,
        names=_ner_mode_names,
        callback=registered_ner_mode,
        metavar="MODE",
        help="NER mode, one of {names} (default: hybrid; none: the pattern recognisers only). It drives " + drives,
    )


# The heap freeze acts on the whole process: only the console entry point (``pp_graph.cli.run``), which owns its
# process, opts in, and once. A host calling the CLI in-process (CliRunner, ``main([...])``) keeps its collector.
_PROCESS = {"owned": False, "frozen": False}


def own_process() -> None:
    """Called by the console entry point: this process is the CLI's, so a detecting command may freeze the heap."""
    _PROCESS["owned"] = True


def detection_warm_up(mode: str | None) -> Callable[[], None]:
    """A function that, on its first call, loads the detection models of NER ``mode`` and the risk detector's
    tables and, when the CLI owns the process (``own_process``) and has not yet, freezes the heap
    (``pp_graph.risk.detect.warm_up(..., freeze_heap=True)``) for the lower tail latency. Call it just before a
    detection: a run that detects nothing loads nothing, and a load that failed raises again at the next call
    (each batch line gets the error, as the detection itself would give)."""
    done = False

    def warm() -> None:
        nonlocal done
        if not done:
            from pp_graph.risk.detect import warm_up

            freeze = _PROCESS["owned"] and not _PROCESS["frozen"]
            warm_up(mode, freeze_heap=freeze)
            _PROCESS["frozen"] = _PROCESS["frozen"] or freeze
            done = True

    return warm


def registered_backend(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """A --backend callback: the name is checked against the backend registry when the command runs (not at
    import, as a click.Choice would), so a backend registered later is accepted by every command alike."""
    from pp_graph.extract.registry import backend_target

    try:
        backend_target(value)
    except PPGraphError as e:
        raise click.BadParameter(str(e), ctx, param) from None
    return value


def format_option(default: str = "table", choices: Sequence[str] = ("table", "csv", "json")) -> Callable[[F], F]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=default,
        show_default=True,
        help="Output format.",
    )


def policy_paths(fn: F) -> F:
    """PATHS as the commands that take policy texts or converted graphs (files or folders) read them; a path
    that does not exist is the library's InputError (pp_graph.load.inputs), not click's."""
    return click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))(fn)


def text_site_option(fn: F) -> F:
    """--site of a command that converts the policy texts it is given: the site of a single text whose file is not
    named after it (``policy.txt``)."""
    return click.option(
        "--site", help="The site (domain) of a single policy text not named <domain>.<ext>; default: the file name."
    )(fn)


def converting_backend_option(fn: F) -> F:
    """--backend of a command that reads converted graphs as they are and converts the texts it is given."""
    return click.option(
        "--backend", default="offline", show_default=True, help="Backend that converts texts on the fly."
    )(fn)


def table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    if not rows:
        return "(no rows)"
    cols = list(columns or rows[0].keys())
    head = [printable(c, one_line=True) for c in cols]
    return "\n".join(aligned([head, *([printable(_cell(r.get(c)), one_line=True) for c in cols] for r in rows)]))


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items())
    return str(v)


def printable(text: str, *, one_line: bool = False) -> str:
    """``text`` safe for a terminal: control characters shown escaped (``\\x1b``), never sent; ``one_line``:
    line breaks and tabs become spaces too (a table cell)."""
    if one_line:
        text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")
    return escape_controls(text)


def emit(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None) -> None:
    if fmt == "json":
        click.echo(json.dumps(list(rows), indent=1, ensure_ascii=False, default=str))
    elif fmt == "csv":
        cols = list(columns or (rows[0].keys() if rows else []))
        click.echo(csv_text(cols, ([_cell(r.get(c)) for c in cols] for r in rows)), nl=False)
    else:
        click.echo(table(rows, columns))


def err(msg: str) -> None:
    click.echo(msg, err=True)


def graph_option(help: str = "Policy graph files or folders (repeatable).") -> Callable[[F], F]:
    """``--graph`` as the commands that read converted policies take it: repeatable, existing paths, ``outputs``
    by default."""
    return click.option(
        "--graph",
        "graphs",
        multiple=True,
        type=click.Path(exists=True, path_type=Path),
        default=[Path("outputs")],
        show_default=True,
        help=help,
    )
