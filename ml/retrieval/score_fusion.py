"""Fusion of the SLG and OPG maxsim scores into one ranking score (DESIGN.md §4)."""
from __future__ import annotations

import numpy as np

FUSIONS = ("max", "avg", "f1", "rrf", "weighted")
DEFAULT_FUSION = "f1"
"""The fusion searches use unless told otherwise: the best of the shipped model on the development pools
(models/default/README.md)."""
RRF_K = 60


def fuse(slg: np.ndarray, opg: np.ndarray, method: str = DEFAULT_FUSION, slg_weight: float = 0.5) -> np.ndarray:
    """Fused scores of candidates given their per-representation scores, each normalised by |Q|.

    `slg` and `opg` are (n,) arrays of maxsim / query-size, i.e. mean cosine in [-1, 1].
    F1 is the harmonic mean (of scores clipped at 0); RRF uses the candidates' ranks within
    each representation, 1/(60 + rank).
    """
    if method not in FUSIONS:
        raise ValueError(f"unknown fusion {method!r}; choose one of {', '.join(FUSIONS)}")
    if method == "max":
        return np.maximum(slg, opg)
    if method == "avg":
        return (slg + opg) / 2
    if method == "weighted":
        return slg_weight * slg + (1 - slg_weight) * opg
    if method == "f1":
        s, o = np.clip(slg, 0, None), np.clip(opg, 0, None)
        total = s + o
        return np.divide(2 * s * o, total, out=np.zeros_like(total), where=total > 0)
    return 1 / (RRF_K + _ranks(slg)) + 1 / (RRF_K + _ranks(opg))


def _ranks(scores: np.ndarray) -> np.ndarray:
    """1-based ranks, best score first; ties keep input order."""
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    return ranks
