"""Fitting a codebook (`ml.retrieval.codebook`): two-level spherical k-means, in torch.

Apart from the codebook itself because only fitting needs torch: a process that reads a codebook to search or to
post (the site, its workers' start, `manage.py healthcheck`) never imports it.
"""
from __future__ import annotations

import numpy as np
import torch

from ml.retrieval.codebook import REPRESENTATIONS, Codebook, CodebookError, make_codebook


def fit_codebook(vectors: dict[str, np.ndarray], cells: int, per_cell: int, seed: int = 0) -> Codebook:
    """Two-level spherical k-means per representation: `cells` coarse centroids, then `per_cell` within each."""
    fine, coarse = {}, {}
    for representation in REPRESENTATIONS:
        points = np.asarray(vectors[representation], dtype=np.float32)
        coarse[representation] = spherical_kmeans(points, cells, seed=seed)
        nearest = (points @ coarse[representation].T).argmax(axis=1)
        fine[representation] = np.concatenate([
            _cell_centroids(points[nearest == cell], per_cell, coarse[representation][cell], seed)
            for cell in range(cells)])
    return make_codebook(fine, coarse)


def _cell_centroids(members: np.ndarray, per_cell: int, centre: np.ndarray, seed: int) -> np.ndarray:
    """`per_cell` centroids of a cell's members; a cell with too few members repeats them (or its centre)."""
    if len(members) == 0:
        members = centre[None, :]
    if len(members) < per_cell:
        return members[np.arange(per_cell) % len(members)]
    return spherical_kmeans(members, per_cell, seed=seed)


def spherical_kmeans(vectors: np.ndarray, size: int, iterations: int = 15, seed: int = 0) -> np.ndarray:
    """`size` unit centroids of unit `vectors` by Lloyd's algorithm on cosine; empty clusters are re-seeded."""
    if len(vectors) < size:
        raise CodebookError(f"{len(vectors)} vectors cannot make {size} centroids")
    generator = torch.Generator().manual_seed(seed)
    points = torch.from_numpy(np.ascontiguousarray(vectors, dtype=np.float32))
    centroids = points[torch.randperm(len(points), generator=generator)[:size]].clone()
    for _ in range(iterations):
        nearest = torch.cat([(block @ centroids.T).argmax(dim=1) for block in points.split(65536)])
        sums = torch.zeros_like(centroids).index_add_(0, nearest, points)
        counts = torch.bincount(nearest, minlength=size)
        reseed = points[torch.randint(len(points), (size,), generator=generator)]
        centroids = torch.where((counts == 0).unsqueeze(1), reseed, sums)
        centroids = torch.nn.functional.normalize(centroids, dim=1)
    return centroids.numpy()
