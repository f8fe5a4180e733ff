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
        "from pp_graph.anonymize import anonymize, ner, recognizers, warm_up\n"
        "from pp_graph.risk.detect import detect\n"
        "warm_up('spacy')  # loads, freezes nothing\n"
        "assert ner.pipeline.cache_info().currsize == 1\n"
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
    """``python -m pp_graph.cli``: the process's entry point, as the pp-graph script is."""
    res = subprocess.run([sys.executable, "-c", _ENTRY, *args], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    lines = [x for x in res.stderr.splitlines() if x.startswith("FREEZE ")]
    assert lines and int(lines[-1].split()[1]) > 0, res.stderr[-2000:]


# The entry point, then the freeze count printed at exit (runpy runs pp_graph.cli's __main__ as -m would).
_ENTRY = (
    "import atexit, gc, runpy, sys\n"
    "atexit.register(lambda: print('FREEZE', gc.get_freeze_count(), file=sys.stderr))\n"
    "sys.argv[0] = 'pp-graph'\n"
    "runpy.run_module('pp_graph.cli', run_name='__main__', alter_sys=True)\n"
)


def test_a_cli_command_without_text_loads_no_model() -> None:
    code = (
        "from pp_graph.cli import main\n"
        "from pp_graph.anonymize import ner, recognizers\n"
        f"main(['risk', '--graph', {str(GRAPHS)!r}, '--data', 'pd:EmailAddress'], standalone_mode=False)\n"
        "assert ner.pipeline.cache_info().currsize == 0\n"
    )
    assert _freeze_count(code) == 0


_COUNT_FREEZES = (
    "import gc\n_freeze = gc.freeze\nFREEZES = []\n"
    "def _counted():\n    FREEZES.append(1)\n    _freeze()\n"
    "gc.freeze = _counted\n"
)


def test_the_cli_called_in_process_leaves_the_heap_alone() -> None:
    """CliRunner and an in-process ``main(...)`` are a host's calls, not the process's entry point: no freeze."""
    code = (
        _COUNT_FREEZES + "from click.testing import CliRunner\nfrom pp_graph.cli import main\n"
        f"for args in ({['anonymize', '--text', TEXT]!r}, {['risk', '--graph', str(GRAPHS), '--text', TEXT]!r}):\n"
        "    res = CliRunner().invoke(main, args)\n    assert res.exit_code == 0, res.output\n"
        f"main({['anonymize', '--text', TEXT]!r}, standalone_mode=False)\n"
        "assert FREEZES == [], FREEZES\n"
    )
    assert _freeze_count(code) == 0


def test_the_entry_point_freezes_once_per_process() -> None:
    code = (
        _COUNT_FREEZES + "import sys\nfrom pp_graph.cli import run\n"
        "for _ in range(3):\n"
        "    try:\n"
        f"        run({['anonymize', '--text', TEXT]!r})\n"
        "    except SystemExit as e:\n        assert not e.code, e.code\n"
        "assert FREEZES == [1], FREEZES\n"
    )
    assert _freeze_count(code) > 0


def _entry(args: list[str]) -> tuple[subprocess.CompletedProcess[str], int, int]:
    """The CLI as the process's entry point; its result, the freeze count and the spaCy pipelines loaded at exit."""
    script = _ENTRY.replace(
        "gc.get_freeze_count()",
        "gc.get_freeze_count(), sys.modules['pp_graph.anonymize.ner'].pipeline"
        ".cache_info().currsize if 'pp_graph.anonymize.ner' in sys.modules else 0",
    )
    res = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300)
    lines = [x for x in res.stderr.splitlines() if x.startswith("FREEZE ")]
    assert lines, res.stderr[-2000:]
    _, frozen, loaded = lines[-1].split()
    return res, int(frozen), int(loaded)


@pytest.mark.parametrize(
    "line",
    [
        {"id": "long", "text": "word " * 20_001},
        {"id": "nul", "text": "Jane Roe\x00 at 12 Main St"},
        {"id": "level", "text": TEXT, "level": 9},
    ],
    ids=["over-long", "nul", "level"],
)
def test_anonymize_refuses_before_it_loads(tmp_path: Path, line: dict[str, object]) -> None:
    import json

    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    res, frozen, loaded = _entry(["anonymize", str(path), "--format", "json"])
    assert res.returncode == 1, res.stderr[-2000:]
    assert '"error"' in res.stdout, res.stdout
    assert (frozen, loaded) == (0, 0)  # refused before any model was loaded or the heap frozen


@pytest.mark.parametrize("command", ["risk", "guard"])
def test_a_refused_action_loads_no_model(command: str) -> None:
    res, frozen, loaded = _entry([command, "--graph", str(GRAPHS), "--text", TEXT, "--purpose", "dpv:NoSuchPurpose"])
    assert res.returncode == 2 and "NoSuchPurpose" in res.stderr, res.stderr[-2000:]
    assert (frozen, loaded) == (0, 0)


def test_plane_demo_warms_up(tmp_path: Path) -> None:
    res, frozen, loaded = _entry(["plane", "demo", "--db", str(tmp_path / "demo.db")])
    assert res.returncode == 0, res.stderr[-2000:]
    assert frozen > 0 and loaded == 1  # loaded, then frozen, before the scenarios detect


def test_serve_warms_up_at_start(tmp_path: Path) -> None:
    """The server loads the detector and freezes the heap before it prints its address (a what-if detects)."""
    import signal
    import urllib.request

    from interactive import serving

    script = _ENTRY.replace(
        "gc.get_freeze_count()",
        "gc.get_freeze_count(), sys.modules['pp_graph.anonymize.ner'].pipeline.cache_info().currsize",
    )
    with serving([sys.executable, "-c", script, "serve", str(GRAPHS), "--port", "0"]) as (proc, url):
        with urllib.request.urlopen(url + "health", timeout=30) as r:  # serving (Ctrl-C now stops the loop)
            assert r.status == 200
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr[-2000:]
    lines = [x for x in stderr.splitlines() if x.startswith("FREEZE ")]
    assert lines, stderr[-2000:]
    _, frozen, loaded = lines[-1].split()
    assert int(frozen) > 0 and int(loaded) == 1


def test_the_risk_warm_up_builds_the_term_table_and_digest() -> None:
    """After ``risk.detect.warm_up`` the first decision is warm: the term table and the detector digest are built
    (in a fresh interpreter, so nothing was cached before)."""
    code = (
        "from pp_graph.anonymize import crf\nfrom pp_graph.risk import detect\n"
        "assert detect._terms.cache_info().currsize == 0 and crf.detector_digest.cache_info().currsize == 0\n"
        "detect.warm_up()\n"
        "assert detect._terms.cache_info().currsize == 1, detect._terms.cache_info()\n"
        "assert crf.detector_digest.cache_info().currsize == 1, crf.detector_digest.cache_info()\n"
    )
    assert _freeze_count(code) == 0  # and no freeze unless asked
