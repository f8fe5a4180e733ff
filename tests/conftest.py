from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sparql_servers import ServerPool

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus" / "policies"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus/policies is not available")
    return CORPUS


@pytest.fixture(scope="session")
def sparql_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerPool]:
    """Real SPARQL servers (tests/sparql_servers.py), each started once per session on first use."""
    pool = ServerPool(tmp_path_factory.mktemp("sparql-servers"))
    yield pool
    pool.close()


@pytest.fixture(scope="session")
def fixture_graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile and policy fixtures converted once (the report, UI and browser tests read them, never write)."""
    from click.testing import CliRunner

    from pp_graph.cli import main

    out = tmp_path_factory.mktemp("graphs")
    res = CliRunner().invoke(main, ["convert", str(FIXTURES / "hostile"), str(FIXTURES / "policies"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out
