"""Exact scoring of the candidates: maxsim / |Q| per representation over their stored node matrices.

Every candidate's matrix is decoded once, into one stacked array; the hits' alignments are read from
the same array afterwards, so a hit is never decoded twice.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathparse.tree import is_query_variable
from ml.ranking.features import Candidates
from ml.retrieval.maxsim import maxsim, maxsim_stacked
from searchapp.search.query import TREES, Query
from searchapp.search.results import Alignment
from searchapp.vectors import decode_stacked


@dataclass(frozen=True)
class Decoded:
    """One representation's candidate matrices stacked: candidate c owns rows starts[c] : starts[c] + sizes[c]."""

    stacked: np.ndarray  # (Σ n_c, d)
    sizes: np.ndarray  # (n_candidates,)
    starts: np.ndarray  # (n_candidates,)

    def matrix(self, candidate: int) -> np.ndarray:
        return self.stacked[self.starts[candidate]:self.starts[candidate] + self.sizes[candidate]]


@dataclass(frozen=True)
class Scored:
    """A query's exactly scored candidates: formula ids and keys, their decoded matrices, maxsim parts and ranking
    inputs."""

    ids: list[int]
    keys: list[str]
    """Their visual keys: a formula held by several corpora has one key."""
    decoded: dict[str, Decoded]
    parts: dict[str, np.ndarray]
    candidates: Candidates


def decode(blobs: list[bytes]) -> Decoded:
    stacked, sizes = decode_stacked(blobs)
    return Decoded(stacked, sizes, np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64))


def score(query: Query, decoded: dict[str, Decoded]) -> dict[str, np.ndarray]:
    """(n_candidates,) mean cosine per representation, in [-1, 1]; a query variable's row matches anything (1)."""
    parts = {}
    for representation, matrices in decoded.items():
        q, matched = query.free_vectors[representation], query.variables[representation]
        total = maxsim_stacked(q, matrices.stacked, matrices.sizes) + matched
        # float32 rounding can lift a perfect match's mean cosine a hair past 1; a cosine it stays
        parts[representation] = np.clip(total / max(len(q) + matched, 1), -1.0, 1.0)
    return parts


def alignment(query_vectors: dict[str, np.ndarray], query_labels: dict, result_labels: dict,
              decoded: dict[str, Decoded], candidate: int) -> dict[str, Alignment]:
    """Query node i ↔ its best result node j, per representation whose labels match the stored rows; a query
    variable matches anything, so it has no best node."""
    aligned = {}
    for representation, tree in TREES.items():
        matrix = decoded[representation].matrix(candidate)
        ours, theirs = query_labels.get(tree), (result_labels or {}).get(tree)
        if ours is None or theirs is None or len(theirs) != len(matrix):
            continue
        scored = maxsim(query_vectors[representation], matrix)
        aligned[representation] = Alignment(ours, theirs, [(i, int(j), round(float(s), 4)) for i, (j, s)
                                                           in enumerate(zip(scored.alignment, scored.similarities))
                                                           if not is_query_variable(ours[i])])
    return aligned
