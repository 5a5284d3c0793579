"""Maxsim (late interaction) between a query's node vectors and a candidate's node vectors.

S(Q, C) = Σ_i max_j q_i · c_j  (DESIGN.md §4), on L2-normalised vectors, so each term is a cosine.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MaxsimScore:
    score: float
    alignment: np.ndarray
    """(n_query,) index of the candidate node each query node aligned to; -1 where C is empty."""
    similarities: np.ndarray
    """(n_query,) the cosine of each aligned pair."""


def maxsim(query: np.ndarray, candidate: np.ndarray) -> MaxsimScore:
    """Score one candidate; `query` is (n_q, d), `candidate` is (n_c, d)."""
    if len(query) == 0 or len(candidate) == 0:
        empty = np.full(len(query), -1)
        return MaxsimScore(0.0, empty, np.zeros(len(query), dtype=np.float32))
    sims = query @ candidate.T  # (n_q, n_c)
    alignment = sims.argmax(axis=1)
    best = sims[np.arange(len(query)), alignment]
    return MaxsimScore(float(best.sum()), alignment, best)


def maxsim_many(query: np.ndarray, candidates: list[np.ndarray]) -> np.ndarray:
    """Scores of many candidates at once; returns (n_candidates,) float32, 0 for an empty candidate or query."""
    sizes = np.array([len(c) for c in candidates], dtype=np.int64)
    stacked = np.concatenate(candidates) if sizes.sum() else np.zeros((0, query.shape[1]), dtype=np.float32)
    return maxsim_stacked(query, stacked, sizes)


def maxsim_stacked(query: np.ndarray, stacked: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Scores of candidates whose node rows are stacked in one (Σ n_c, d) matrix, `sizes[k]` rows each.

    One matrix product over all candidates' nodes, then a max per candidate segment.
    """
    scores = np.zeros(len(sizes), dtype=np.float32)
    if len(query) == 0 or sizes.sum() == 0:
        return scores
    sims = query @ stacked.T  # (n_q, Σ n_c)
    present = np.flatnonzero(sizes)
    starts = np.concatenate(([0], np.cumsum(sizes[present])[:-1]))
    scores[present] = np.maximum.reduceat(sims, starts, axis=1).sum(axis=0)
    return scores
