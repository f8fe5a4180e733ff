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
