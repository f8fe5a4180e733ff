"""The Merkle proof code against the reference implementation's own vectors (every file, happy paths and every
mutation), and proofs built from a tree against the verifier."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED

from pp_graph.errors import ProofError
from pp_graph.plane import merkle

VECTORS = SHARED / "datasets" / "merkle-vectors" / "testdata"
FILES = sorted(VECTORS.rglob("*.json")) if VECTORS.is_dir() else []


def _b(s: str | None) -> bytes:
    return base64.b64decode(s) if s else b""


def _proof(v: Any) -> list[bytes]:
    return [_b(p) for p in (v or [])]


def check(kind: str, v: dict[str, Any]) -> None:
    if kind == "inclusion":
        merkle.verify_inclusion(v["leafIdx"], v["treeSize"], _b(v["leafHash"]), _proof(v["proof"]), _b(v["root"]))
    elif kind == "consistency":
        merkle.verify_consistency(v["size1"], v["size2"], _proof(v["proof"]), _b(v["root1"]), _b(v["root2"]))
    elif kind == "subtreeinclusion":
        merkle.verify_subtree_inclusion(
            v["leafIdx"], v["start"], v["end"], _b(v["leafHash"]), _proof(v["proof"]), _b(v["root"])
        )
    elif kind == "subtreeconsistency":
        merkle.verify_subtree_consistency(
            v["start"], v["end"], v["size"], _proof(v["proof"]), _b(v["root1"]), _b(v["root2"])
        )
    else:  # a new kind of vector must not pass silently
        raise AssertionError(f"unknown vector kind {kind}")


def test_vector_folder_is_complete() -> None:
    if not FILES:
        pytest.skip("../shared/datasets/merkle-vectors is not available")
    kinds = {f.relative_to(VECTORS).parts[0] for f in FILES}
    assert kinds == {"inclusion", "consistency", "subtreeinclusion", "subtreeconsistency"}
    assert len(FILES) > 500
    assert sum(json.loads(f.read_text())["wantErr"] for f in FILES) > 400  # mostly mutations


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(VECTORS)) for f in FILES])
def test_vector(path: Path) -> None:
    v = json.loads(path.read_text())
    kind = path.relative_to(VECTORS).parts[0]
    if v["wantErr"]:
        with pytest.raises(ProofError):
            check(kind, v)
    else:
        check(kind, v)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 8, 9, 16, 31, 64, 100])
def test_built_proofs_verify(size: int) -> None:
    leaves = [merkle.leaf_hash(str(i).encode()) for i in range(size)]
    tree = merkle.MemoryTree(leaves)
    for i in range(size):
        merkle.verify_inclusion(i, size, leaves[i], merkle.inclusion_proof(tree.node, i, size), tree.root())
        with pytest.raises(ProofError):
            other = leaves[(i + 1) % size] if size > 1 else merkle.leaf_hash(b"x")
            merkle.verify_inclusion(i, size, other, merkle.inclusion_proof(tree.node, i, size), tree.root())
    for m in range(1, size + 1):
        proof = merkle.consistency_proof(tree.node, m, size)
        merkle.verify_consistency(m, size, proof, tree.root(m), tree.root())
        if m < size:
            with pytest.raises(ProofError):
                merkle.verify_consistency(m, size, proof, merkle.leaf_hash(b"forged"), tree.root())


def test_frontier_matches_tree() -> None:
    frontier: list[bytes] = []
    tree = merkle.MemoryTree()
    for i in range(37):
        h = merkle.leaf_hash(bytes([i]))
        done = merkle.frontier_append(frontier, i, h)
        tree.append(h)
        assert all(tree.node(lv, ix) == nh for lv, ix, nh in done)
        assert merkle.frontier_root(frontier) == tree.root()


def test_known_root() -> None:
    # RFC 6962 test tree of the reference implementation: leaves "", 00, 10, 2021, 3031, 40414243, … (size 8)
    data = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"]
    tree = merkle.MemoryTree([merkle.leaf_hash(bytes.fromhex(d)) for d in data])
    assert tree.root().hex() == "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"
