"""Approximate maxsim from centroids: which formulas deserve exact scoring (PLAID-style first stage).

Each query node i probes its nearest centroids c with cosines s_ic. A formula f is scored by
Σ_i max { s_ic : c probed by i, f has a node at c }, i.e. maxsim with every node replaced by its
centroid and unprobed centroids counted as 0. The best-scoring formulas form the shortlist.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np


def approximate_scores(probes: list[tuple[int, int, float]],
                       postings: dict[int, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(formula ids, approximate maxsim) over every formula in a probed posting list."""
    lists = [ids for ids in postings.values() if len(ids)]
    if not lists:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    formulas = np.unique(np.concatenate(lists))
    slots = {centroid: np.searchsorted(formulas, ids) for centroid, ids in postings.items()}
    by_row = defaultdict(list)
    for row, centroid, similarity in probes:
        if centroid in slots:
            by_row[row].append((similarity, centroid))
    total = np.zeros(len(formulas), dtype=np.float32)
    best = np.empty(len(formulas), dtype=np.float32)
    for hits in by_row.values():
        best.fill(0)
        for similarity, centroid in sorted(hits):  # ascending: the highest cosine is written last and kept
            best[slots[centroid]] = similarity
        total += best
    return formulas, total


def shortlist(probes: list[tuple[int, int, float]], postings: dict[int, np.ndarray], size: int) -> np.ndarray:
    """Ids of the `size` formulas with the highest approximate maxsim (all of them if fewer)."""
    formulas, scores = approximate_scores(probes, postings)
    if len(formulas) <= size:
        return formulas
    return formulas[np.argpartition(-scores, size)[:size]]
