"""A formula's exact structure as a set of hashed terms: what Tangent-S and Approach0 match on.

Six kinds of term, each a stable 32-bit hash (CRC-32, never Python's per-process `hash`):
- `pair`: SLT symbol-pair tuples (ancestor, descendant, layout path) for descendants up to PAIR_WINDOW edges
  down, as Tangent-S's symbol pairs;
- `path`: OPT paths from each leaf up to each of its ancestors, at most PATH_LENGTH edges (Approach0's
  leaf-root paths, cut so a query matches as a sub-expression of a larger formula too);
- `unified_path`: the same paths with a variable or number leaf written as any variable or any number, so
  `x^2+1` and `t^2+3` share them (Tangent-S's unification, which the judges' "same shape" relevance rewards);
- `subtree`: every OPT sub-expression with at least two nodes (its size is kept in the term);
- `operator`: the OPT's operator labels;
- `symbol`: the SLT's node labels (the tokens of a bag-of-symbols tf-idf).

A term is one int32: bits 0-2 its kind, bits 3-7 a size (a sub-expression's node count, capped at 31; 0 for
the other kinds), bits 8-30 the hash. The size lets a stored term set say how large a shared
sub-expression is without its tree; the 23 hash bits make a false match between a query's and a
candidate's ~100 terms about a 1-in-1,000 event, on one term.
"""
from __future__ import annotations

import zlib
from functools import lru_cache

import numpy as np

from mathparse.tree import Node, Tree, is_query_variable, node_type

KINDS = ("pair", "path", "subtree", "operator", "symbol", "unified_path")
PAIR_WINDOW = 2
PATH_LENGTH = 3
MAX_SIZE = 31
_KIND_BITS, _SIZE_BITS = 3, 5
_HASH_MASK = (1 << (31 - _KIND_BITS - _SIZE_BITS)) - 1


_KIND_INDEX = {kind: index for index, kind in enumerate(KINDS)}
_KIND_CRC = {kind: zlib.crc32(f"{kind}\x1f".encode()) for kind in KINDS}
"""CRC-32 of each kind's prefix: continuing it over the text hashes `kind␟text` without building that string."""


def term(kind: str, text: str, size: int = 0) -> int:
    digest = zlib.crc32(text.encode(), _KIND_CRC[kind]) & _HASH_MASK
    return (digest << (_KIND_BITS + _SIZE_BITS)) | ((size if size < MAX_SIZE else MAX_SIZE) << _KIND_BITS) | _KIND_INDEX[kind]


_common_term = lru_cache(maxsize=1 << 16)(term)
"""`term` for the kinds whose texts recur across formulas (symbols, pairs, paths, operators): indexing a million
formulas hashes ~200 terms each, most of them seen before."""


def kinds_of(terms: np.ndarray) -> np.ndarray:
    """The index into KINDS of each term."""
    return terms & ((1 << _KIND_BITS) - 1)


def sizes_of(terms: np.ndarray) -> np.ndarray:
    """The node count (capped at 31) a `subtree` term carries; 0 for other kinds."""
    return (terms >> _KIND_BITS) & ((1 << _SIZE_BITS) - 1)


TERM_DTYPE = np.dtype("<i4")
"""Terms as stored: packed little-endian int32, sorted."""


def pack_terms(terms: np.ndarray) -> bytes:
    return terms.astype(TERM_DTYPE).tobytes()


def unpack_terms(blob: bytes | memoryview) -> np.ndarray:
    return np.frombuffer(blob, dtype=TERM_DTYPE)


def subtree_terms(terms: np.ndarray) -> np.ndarray:
    """The `subtree` terms of a term set: the sub-expressions the structure channel looks formulas up by."""
    return terms[kinds_of(terms) == KINDS.index("subtree")]


def structure_terms(slt: Tree, opt: Tree | None) -> np.ndarray:
    """The formula's distinct terms, sorted, as int32 (the OPT kinds are absent without an OPT). A query variable
    stands for anything, so no term holds one: a sub-expression around it is matched by its other terms."""
    terms = set(_slt_pairs(slt))
    terms.update(_common_term("symbol", label) for label in slt.labels if not is_query_variable(label))
    if opt is not None:
        terms.update(_opt_paths(opt))
        terms.update(_opt_subtrees(opt))
    return np.array(sorted(terms), dtype=np.int32)


def _slt_pairs(slt: Tree) -> set[int]:
    children: dict[int, list[tuple[int, str]]] = {}
    for parent, child, edge in slt.edges:
        children.setdefault(parent, []).append((child, edge))
    labels = slt.labels
    pairs: set[int] = set()
    for ancestor in range(len(labels)):
        frontier = [(ancestor, "")]
        for _ in range(PAIR_WINDOW):
            frontier = [(child, path + edge) for node, path in frontier for child, edge in children.get(node, ())]
            pairs.update(_common_term("pair", f"{labels[ancestor]}\t{labels[node]}\t{path}") for node, path in frontier
                         if not (is_query_variable(labels[ancestor]) or is_query_variable(labels[node])))
    return pairs


def _opt_paths(opt: Tree) -> set[int]:
    """Leaf-to-ancestor label paths; argument positions are kept (all "0" under a commutative operator)."""
    parents: dict[int, tuple[int, str]] = {child: (parent, edge) for parent, child, edge in opt.edges}
    labels = opt.labels
    paths = set()
    for leaf in set(range(len(labels))) - {parent for parent, _ in parents.values()}:
        if is_query_variable(labels[leaf]):
            continue
        text, node = "", leaf
        for length in range(1, PATH_LENGTH + 1):
            if node not in parents:
                break
            node, edge = parents[node]
            text += f"/{edge}{labels[node]}"
            paths.add(_common_term("path", labels[leaf] + text, length))
            paths.add(_common_term("unified_path", _unified(labels[leaf]) + text, length))
    return paths


def _unified(label: str) -> str:
    kind = node_type(label)
    return f"{kind}!*" if kind in ("V", "N") else label


def _opt_subtrees(opt: Tree) -> set[int]:
    """A term per sub-expression of two or more nodes (identified by its children's hashes, so the text
    hashed stays short however deep the tree), and one per operator label."""
    terms: set[int] = set()
    seen: dict[int, tuple[int, int]] = {}  # id(node) → (hash, size); shared sub-trees are walked once
    open_ended: set[int] = set()  # id(node) of sub-trees holding a query variable
    stack: list[tuple[Node, bool]] = [(opt.root, False)]
    while stack:  # iterative post-order: deep formulas cannot hit the recursion limit
        node, expanded = stack.pop()
        if id(node) in seen:
            continue
        if not expanded:
            stack.append((node, True))
            stack.extend((child, False) for _, child in node.children)
            continue
        children = [(edge, *seen[id(child)]) for edge, child in node.children]
        text = node.label + "(" + ",".join(f"{edge}:{digest}" for edge, digest, _ in children) + ")"
        size = 1 + sum(size for _, _, size in children)
        seen[id(node)] = (zlib.crc32(text.encode()) if children else zlib.crc32(node.label.encode()), size)
        if is_query_variable(node.label) or any(id(child) in open_ended for _, child in node.children):
            open_ended.add(id(node))
        if children:
            terms.add(_common_term("operator", node.label))
            if id(node) not in open_ended:
                terms.add(term("subtree", text, size))
    return terms
