"""A codebook of node-vector centroids per representation: the first stage of retrieval at scale.

Indexing every distinct node vector in HNSW costs ~37 graph inserts per formula, which caps indexing
far below 300 formulas/s on two cores. Instead, as in PLAID (ColBERTv2), each stored node is assigned
to its nearest centroid of a fixed codebook learnt by spherical k-means; an inverted list per centroid
names the formulas having a node there. A query node probes its nearest centroids, and the formulas
that gather the highest centroid similarities are scored exactly from their node matrices.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from safetensors.numpy import load_file, save_file

REPRESENTATIONS = ("slg", "opg")
FILE_NAME = "codebook.safetensors"


class CodebookError(ValueError):
    """A missing or malformed codebook file, named with what is wrong."""


@dataclass(frozen=True)
class Codebook:
    centroids: dict[str, np.ndarray]
    """Per representation, (n_centroids, d) float32 unit rows."""
    fingerprint: str
    """sha256 of the centroids' bytes: an index built with another codebook is detected by it."""

    def assign(self, representation: str, vectors: np.ndarray) -> np.ndarray:
        """Index of the nearest (highest-cosine) centroid of each row of `vectors`."""
        if len(vectors) == 0:
            return np.zeros(0, dtype=np.int64)
        return (np.asarray(vectors, dtype=np.float32) @ self.centroids[representation].T).argmax(axis=1)


def make_codebook(centroids: dict[str, np.ndarray]) -> Codebook:
    unit = {r: np.ascontiguousarray(centroids[r], dtype=np.float32) for r in REPRESENTATIONS}
    digest = hashlib.sha256()
    for representation in REPRESENTATIONS:
        digest.update(representation.encode() + unit[representation].tobytes())
    return Codebook(unit, digest.hexdigest()[:16])


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


def save_codebook(codebook: Codebook, model_dir: Path) -> Path:
    path = Path(model_dir) / FILE_NAME
    save_file(codebook.centroids, str(path))
    return path


def load_codebook(model_dir: Path, dim: int) -> Codebook:
    """The codebook stored beside a model; raises CodebookError naming the file and the problem."""
    path = Path(model_dir) / FILE_NAME
    if not path.is_file():
        raise CodebookError(f"{path}: no codebook; build it with `python manage.py build_codebook --model {model_dir}`")
    try:
        tensors = load_file(str(path))
    except Exception as error:  # safetensors raises several types for a damaged file
        raise CodebookError(f"{path}: unreadable codebook ({error})") from None
    for representation in REPRESENTATIONS:
        matrix = tensors.get(representation)
        if matrix is None or matrix.ndim != 2 or matrix.shape[1] != dim:
            shape = None if matrix is None else tuple(matrix.shape)
            raise CodebookError(f"{path}: {representation!r} centroids have shape {shape}, the model needs (n, {dim})")
    return make_codebook(tensors)
