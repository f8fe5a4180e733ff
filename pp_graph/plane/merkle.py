"""RFC 6962 / RFC 9162 Merkle trees (SHA-256, leaf prefix 0x00, node prefix 0x01): proofs and their verification.

Proofs are built from a node source — ``node(level, index)`` gives the hash of the complete subtree of 2**level
leaves starting at leaf ``index << level`` — so a log on disk answers a proof with O(log n) look-ups. Verification
follows RFC 9162 §2.1.3.2 (inclusion) and §2.1.4.2 (consistency); the subtree variants follow the Merkle Tree
Certificates draft (appendix B), of which the plain ones are the case start = 0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from pp_graph.errors import ProofError

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()
Node = Callable[[int, int], bytes]


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two strictly below n (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def subtree_hash(node: Node, lo: int, hi: int) -> bytes:
    """MTH(D[lo:hi]) from complete nodes: an aligned power-of-two range is one look-up, else split."""
    n = hi - lo
    if n <= 0:
        return EMPTY_ROOT
    if n & (n - 1) == 0 and lo % n == 0:
        level = n.bit_length() - 1
        return node(level, lo >> level)
    k = _split(n)
    return node_hash(subtree_hash(node, lo, lo + k), subtree_hash(node, lo + k, hi))


def root(node: Node, size: int) -> bytes:
    return subtree_hash(node, 0, size)


def inclusion_proof(node: Node, index: int, size: int) -> list[bytes]:
    """PATH(index, D[0:size]) (RFC 9162 §2.1.3.1), leaf end first."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of size {size}")
    out: list[bytes] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            out.append(subtree_hash(node, lo + k, hi))
            hi = lo + k
        else:
            out.append(subtree_hash(node, lo, lo + k))
            lo = lo + k
    out.reverse()
    return out


def consistency_proof(node: Node, size1: int, size2: int) -> list[bytes]:
    """PROOF(size1, D[0:size2]) (RFC 9162 §2.1.4.1)."""
    if not 0 < size1 <= size2:
        raise ProofError(f"no consistency proof from size {size1} to size {size2}")
    out: list[bytes] = []
    m, lo, hi, whole = size1, 0, size2, True
    while m != hi - lo:
        k = _split(hi - lo)
        if m <= k:
            out.append(subtree_hash(node, lo + k, hi))
            hi = lo + k
        else:
            out.append(subtree_hash(node, lo, lo + k))
            m, lo, whole = m - k, lo + k, False
    if not whole:
        out.append(subtree_hash(node, lo, hi))
    out.reverse()
    return out


def _check(h: bytes, what: str) -> None:
    if len(h) != HASH_SIZE:
        raise ProofError(f"{what} is {len(h)} bytes, not {HASH_SIZE}")


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes) -> None:
    """Raises ProofError unless ``proof`` shows leaf hash ``leaf`` at ``index`` in the tree ``expected_root``."""
    if not 0 <= index < size:
        raise ProofError(f"leaf index {index} is outside a tree of size {size}")
    _check(leaf, "the leaf hash")
    got = _subtree_consistency_root(size, index, index + 1, proof, leaf)
    if got != expected_root:
        raise ProofError("inclusion proof does not lead to the expected root")


def verify_consistency(size1: int, size2: int, proof: Sequence[bytes], root1: bytes, root2: bytes) -> None:
    """Raises ProofError unless ``proof`` shows the tree (size1, root1) is a prefix of (size2, root2)."""
    if size1 > size2:
        raise ProofError(f"size1 {size1} is larger than size2 {size2}")
    if size1 == size2:
        if proof:
            raise ProofError("equal sizes need an empty proof")
        if root1 != root2:
            raise ProofError("equal sizes but different roots")
        if size1 == 0 and root1 != EMPTY_ROOT:
            raise ProofError("the empty tree has only one root, SHA-256 of nothing")
        return
    if size1 == 0:
        raise ProofError("a consistency proof from the empty tree proves nothing")
    verify_subtree_consistency(0, size1, size2, proof, root1, root2)


def valid_subtree(start: int, end: int) -> bool:
    """[start, end) is a subtree when it is non-empty and start is a multiple of BIT_CEIL(end - start)."""
    if not 0 <= start < end:
        return False
    n = end - start
    ceil = 1 << (n - 1).bit_length()
    return start % ceil == 0


def verify_subtree_inclusion(
    index: int, start: int, end: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes
) -> None:
    if not valid_subtree(start, end):
        raise ProofError(f"[{start}, {end}) is not a valid subtree")
    if not start <= index < end:
        raise ProofError(f"leaf index {index} is outside [{start}, {end})")
    _check(leaf, "the leaf hash")
    got = _subtree_consistency_root(end - start, index - start, index - start + 1, proof, leaf)
    if got != expected_root:
        raise ProofError("subtree inclusion proof does not lead to the expected root")


def verify_subtree_consistency(
    start: int, end: int, size: int, proof: Sequence[bytes], subtree_root: bytes, tree_root: bytes
) -> None:
    if start == end and 0 <= end <= size:  # the empty subtree is in every tree: nothing to prove
        if proof or subtree_root != EMPTY_ROOT:
            raise ProofError("an empty subtree has the empty root and an empty proof")
        return
    if _subtree_consistency_root(size, start, end, proof, subtree_root) != tree_root:
        raise ProofError("consistency proof does not lead to the expected root")


def _subtree_consistency_root(n: int, start: int, end: int, proof: Sequence[bytes], node: bytes) -> bytes:
    """The tree root that ``proof`` implies for subtree [start, end) with hash ``node`` inside a tree of n leaves;
    ProofError when the proof's shape is wrong or it does not also reproduce ``node``."""
    if not valid_subtree(start, end) or n < end:
        raise ProofError(f"[{start}, {end}) is not a valid subtree of a tree of size {n}")
    for i, p in enumerate(proof):
        _check(p, f"proof hash {i}")
    fn, sn, tn = start, end - 1, n - 1
    # Skip to the level where the proof starts: the subtree's root when it sits on the tree's right edge, else the
    # highest complete node on the subtree's right edge.
    if sn == tn:
        while fn != sn:
            fn, sn, tn = fn >> 1, sn >> 1, tn >> 1
    else:
        while fn != sn and sn & 1:
            fn, sn, tn = fn >> 1, sn >> 1, tn >> 1
    rest = list(proof)
    if fn == sn:
        fr = sr = node
    else:
        if not rest:
            raise ProofError("the proof is empty")
        fr = sr = rest.pop(0)
    for p in rest:
        if tn == 0:
            raise ProofError("the proof is longer than the tree is high")
        if sn & 1 or sn == tn:
            if fn < sn:
                fr = node_hash(p, fr)
            sr = node_hash(p, sr)
            while not sn & 1:
                fn, sn, tn = fn >> 1, sn >> 1, tn >> 1
        else:
            sr = node_hash(sr, p)
        fn, sn, tn = fn >> 1, sn >> 1, tn >> 1
    if tn != 0:
        raise ProofError("the proof is shorter than the tree is high")
    if fr != node:
        raise ProofError("the proof does not reproduce the subtree hash")
    return sr


class MemoryTree:
    """All complete nodes of a tree in lists (tests, and rebuilding a log's tree while verifying it)."""

    def __init__(self, leaves: Sequence[bytes] = ()) -> None:
        self.levels: list[list[bytes]] = [[]]
        for h in leaves:
            self.append(h)

    @property
    def size(self) -> int:
        return len(self.levels[0])

    def append(self, leaf: bytes) -> None:
        self.levels[0].append(leaf)
        level, idx, h = 0, len(self.levels[0]) - 1, leaf
        while idx & 1:
            h = node_hash(self.levels[level][idx - 1], h)
            level, idx = level + 1, idx >> 1
            if level == len(self.levels):
                self.levels.append([])
            self.levels[level].append(h)

    def node(self, level: int, index: int) -> bytes:
        return self.levels[level][index]

    def root(self, size: int | None = None) -> bytes:
        return root(self.node, self.size if size is None else size)


def frontier_append(frontier: list[bytes], size: int, leaf: bytes) -> list[tuple[int, int, bytes]]:
    """Append ``leaf`` to a compact range (the hashes of the perfect subtrees covering [0, size), largest first),
    in place; returns the complete nodes (level, index, hash) it finished, the leaf first."""
    done = [(0, size, leaf)]
    level, idx, h = 0, size, leaf
    while idx & 1:
        h = node_hash(frontier.pop(), h)
        level, idx = level + 1, idx >> 1
        done.append((level, idx, h))
    frontier.append(h)
    return done


def frontier_root(frontier: Sequence[bytes]) -> bytes:
    if not frontier:
        return EMPTY_ROOT
    r = frontier[-1]
    for h in reversed(frontier[:-1]):
        r = node_hash(h, r)
    return r
