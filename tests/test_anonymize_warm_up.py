"""Library detection leaves the caller's process alone: the heap is frozen only when asked (``warm_up(...,
freeze_heap=True)``), which the CLI's detecting commands do. Each case runs in a fresh interpreter, so the
freeze count it reads is that run's alone (this test process's heap is never touched)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GRAPHS = Path(__file__).parent / "fixtures" / "graphs"
TEXT = "Mail Jane Roe at jane@roe.org or 12 Main St, born 1 May 1990."


def _freeze_count(code: str) -> int:
    """Runs ``code`` in a new interpreter (same environment) and returns ``gc.get_freeze_count()`` after it."""
    script = f"import gc, sys\n{code}\nprint('FREEZE', gc.get_freeze_count(), file=sys.stderr)\n"
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    lines = [x for x in res.stderr.splitlines() if x.startswith("FREEZE ")]
    assert lines, res.stderr[-2000:]
    return int(lines[-1].split()[1])


def test_library_detection_does_not_freeze_the_heap() -> None:
    code = (
        "from pp_graph.anonymize import anonymize, recognizers, warm_up\n"
        "from pp_graph.risk.detect import detect\n"
        "warm_up('spacy')  # loads, freezes nothing\n"
        "assert recognizers._nlp.cache_info().currsize == 1\n"
        f"anonymize({TEXT!r}, 3, escalate=True)\n"
        f"assert detect({TEXT!r})\n"
    )
    assert _freeze_count(code) == 0


def test_warm_up_freezes_the_heap_when_asked() -> None:
    code = "from pp_graph.anonymize import warm_up\nwarm_up(freeze_heap=True)\n"
    assert _freeze_count(code) > 0


def test_warm_up_refuses_an_unknown_mode() -> None:
    from pp_graph.anonymize import warm_up
    from pp_graph.errors import ConfigError

    with pytest.raises(ConfigError, match="unknown NER mode 'nope'"):
        warm_up("nope")


@pytest.mark.parametrize(
    "args",
    [
        ["anonymize", "--text", TEXT],
        ["risk", "--graph", str(GRAPHS), "--text", TEXT],
        ["guard", "--graph", str(GRAPHS), "--text", TEXT, "--recipient", "advertising"],
    ],
    ids=["anonymize", "risk", "guard"],
)
def test_the_detecting_cli_commands_opt_in(args: list[str]) -> None:
    code = (
        "from pp_graph.cli import main\n"
        f"try:\n    main({args!r}, standalone_mode=False)\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
    )
    assert _freeze_count(code) > 0


def test_a_cli_command_without_text_loads_no_model() -> None:
    code = (
        "from pp_graph.cli import main\n"
        "from pp_graph.anonymize import recognizers\n"
        f"main(['risk', '--graph', {str(GRAPHS)!r}, '--data', 'pd:EmailAddress'], standalone_mode=False)\n"
        "assert recognizers._nlp.cache_info().currsize == 0\n"
    )
    assert _freeze_count(code) == 0
