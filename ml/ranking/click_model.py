"""Position bias of clicks, and clicks as relevance grades by inverse propensity weighting.

The position-based click model: a result at rank k is clicked when it is examined and found relevant,

    P(C = 1 | q, d, k) = θ_k · γ_{q,d}

θ_k the probability that rank k is examined, γ_{q,d} that d is relevant to q. θ is estimated from the logs by EM
(Wang et al., WSDM 2018, "Position bias estimation for unbiased learning to rank in personal search", §4.1): for an
unclicked result the posteriors of its hidden variables are

    P(E = 1, R = 0 | C = 0) = θ_k (1 − γ) / (1 − θ_k γ)      P(E = 0, R = 1 | C = 0) = (1 − θ_k) γ / (1 − θ_k γ)

and the M-step averages P(E = 1 | ·) over each rank's impressions and P(R = 1 | ·) over each result's. It can only
tell examination from relevance where one result was shown at several ranks (interleaving, reordering rankers,
pages); elsewhere it leans on its prior. With IPW, a click at rank k counts 1/θ_k, so E[C/θ_k] = γ: the mean over a
result's impressions is an unbiased estimate of its relevance however low it was shown (Joachims et al., WSDM 2017).
"""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

MAX_RANK = 50
"""Ranks past this share its propensity: few people page that far, and each rank needs impressions of its own."""
PRIOR_ETA = 1.0
"""The prior θ_k = 1/k^η: η = 1 is what eye-tracking and swap experiments found for web search (Joachims et al.
2017 fitted η ≈ 1 on arXiv full-text search)."""
PRIOR_IMPRESSIONS = 20.0
"""The prior counts as this many impressions at each rank: a rank seen a few times stays near 1/k."""
MIN_CLICKS = 30
"""Fewer clicks than this in the logs: the prior is returned as it is (EM on a handful of clicks fits noise)."""
ITERATIONS = 100
EPSILON = 1e-6


@dataclass(frozen=True)
class Propensities:
    """θ per rank from 1 (index 0) to MAX_RANK, normalised so θ_1 = 1, and whether the logs or the prior set it."""

    theta: np.ndarray  # (MAX_RANK,)
    estimated: bool
    clicks: int
    impressions: int

    def at(self, rank: int) -> float:
        """θ of a 1-based rank (ranks past MAX_RANK share the last)."""
        return float(self.theta[min(max(rank, 1), len(self.theta)) - 1])


def prior(max_rank: int = MAX_RANK, eta: float = PRIOR_ETA) -> np.ndarray:
    return 1.0 / np.arange(1, max_rank + 1, dtype=np.float64) ** eta


def estimate_propensities(results: Sequence[Hashable], ranks: Sequence[int], clicks: Sequence[bool],
                          max_rank: int = MAX_RANK, iterations: int = ITERATIONS,
                          prior_impressions: float = PRIOR_IMPRESSIONS, min_clicks: int = MIN_CLICKS) -> Propensities:
    """θ by EM of the position-based model over logged impressions: one row per result shown, `results[i]` the
    (query, result) it was, `ranks[i]` its 1-based rank, `clicks[i]` whether it was clicked. Each rank's θ is a
    posterior mean under the prior 1/k with `prior_impressions` pseudo-impressions; with fewer than `min_clicks`
    clicks the prior is returned."""
    if not len(results) == len(ranks) == len(clicks):
        raise ValueError(f"results, ranks and clicks must be as long; got {len(results)}, {len(ranks)}, {len(clicks)}")
    base = prior(max_rank)
    clicked = np.asarray(clicks, dtype=np.float64)  # (n,)
    if clicked.sum() < min_clicks:
        return Propensities(base / base[0], False, int(clicked.sum()), len(clicked))
    rank = np.minimum(np.maximum(np.asarray(ranks, dtype=np.int64), 1), max_rank) - 1  # (n,)
    keys: dict[Hashable, int] = {}
    result = np.array([keys.setdefault(key, len(keys)) for key in results], dtype=np.int64)  # (n,)
    shown_at = np.bincount(rank, minlength=max_rank).astype(np.float64)  # (max_rank,)
    shown = np.bincount(result, minlength=len(keys)).astype(np.float64)  # (results,)
    theta, gamma = base.copy(), np.full(len(keys), 0.5)
    for _ in range(iterations):
        t, g = theta[rank], gamma[result]  # (n,)
        unclicked = np.maximum(1.0 - t * g, EPSILON)
        examined = clicked + (1 - clicked) * t * (1 - g) / unclicked
        relevant = clicked + (1 - clicked) * (1 - t) * g / unclicked
        theta = (np.bincount(rank, examined, max_rank) + prior_impressions * base) / (shown_at + prior_impressions)
        gamma = np.bincount(result, relevant, len(keys)) / shown
        theta, gamma = np.clip(theta, EPSILON, 1.0), np.clip(gamma, EPSILON, 1 - EPSILON)
    return Propensities(theta / theta[0], True, int(clicked.sum()), len(clicked))


def ipw_relevance(ranks: Sequence[int], clicks: Sequence[bool], propensities: Propensities) -> tuple[float, float]:
    """A result's impressions for one query, as (rank, clicked) pairs: its IPW relevance Σ C_i/θ_{k_i} ÷ n (an
    estimate of γ, capped at 1) and its examination mass Σ θ_{k_i}, the number of times it was likely looked at.
    A result shown only deep down has a small mass: its missing clicks say little."""
    theta = np.array([propensities.at(rank) for rank in ranks])
    if not len(theta):
        return 0.0, 0.0
    weighted = float(np.sum(np.asarray(clicks, dtype=np.float64) / theta))
    return min(weighted / len(theta), 1.0), float(theta.sum())
