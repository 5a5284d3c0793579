"""A codebook of node-vector centroids per representation: the first stage of retrieval at scale.

Indexing every distinct node vector in HNSW costs ~37 graph inserts per formula, which caps indexing
far below 300 formulas/s on two cores. Instead, as in PLAID (ColBERTv2), each stored node is assigned
to its nearest centroid of a fixed codebook learnt by spherical k-means; an inverted list per centroid
names the formulas having a node there. A query node probes its nearest centroids, and the formulas
that gather the highest centroid similarities are scored exactly from their node matrices.

The codebook is two-level so that assigning a node costs ~250 dot products instead of one per
centroid: `cells` coarse centroids, each owning `per_cell` fine ones (fine centroid id =
cell * per_cell + rank). A node goes to the nearest fine centroid within its three nearest cells.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file, save_file

REPRESENTATIONS = ("slg", "opg")
FILE_NAME = "codebook.safetensors"
CELLS_SEARCHED = 3
POSTINGS_PER_CENTROID = 1_000
"""The sizing rule of a codebook fitted to an index: a probed posting list holds about this many formulas."""
SMALLEST_SIDE = 64
"""The shipped codebook's cells and fine centroids per cell: an index smaller than ~4 M postings keeps it."""


def side_for(postings: int, per_centroid: int = POSTINGS_PER_CENTROID) -> int:
    """Cells (and fine centroids per cell) of a codebook for a representation with `postings` postings: the
    square root of postings / per_centroid to the nearest power of two, never below SMALLEST_SIDE.

    At 1 M formulas (14 M postings a representation) that is 128 × 128 = 16,384 centroids, whose lists average
    ~860 formulas instead of ~3,400 with the shipped 4,096.
    """
    wanted = max(postings / per_centroid, 1.0)
    return max(SMALLEST_SIDE, 2 ** round(math.log2(math.sqrt(wanted))))


class CodebookError(ValueError):
    """A missing or malformed codebook file, named with what is wrong."""


@dataclass(frozen=True)
class Codebook:
    centroids: dict[str, np.ndarray]
    """Per representation, (cells * per_cell, d) float32 unit rows, grouped by cell."""
    coarse: dict[str, np.ndarray]
    """Per representation, (cells, d) float32 unit rows."""
    fingerprint: str
    """sha256 of the centroids' bytes: an index built with another codebook is detected by it."""

    def assign(self, representation: str, vectors: np.ndarray) -> np.ndarray:
        """Index of the nearest fine centroid of each row of `vectors`, searched within its nearest cells."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if len(vectors) == 0:
            return np.zeros(0, dtype=np.int64)
        coarse = self.coarse[representation]
        fine = self.centroids[representation].reshape(len(coarse), -1, vectors.shape[1])
        searched = min(CELLS_SEARCHED, len(coarse))
        cells = np.argpartition(-(vectors @ coarse.T), searched - 1, axis=1)[:, :searched].ravel()
        rows = np.repeat(np.arange(len(vectors)), searched)
        similarity, centroid = np.empty(len(cells), dtype=np.float32), np.empty(len(cells), dtype=np.int64)
        by_cell = np.argsort(cells, kind="stable")
        for pairs in np.split(by_cell, np.flatnonzero(np.diff(cells[by_cell])) + 1):  # one matmul per cell
            cell = cells[pairs[0]]
            sims = vectors[rows[pairs]] @ fine[cell].T
            rank = sims.argmax(axis=1)
            similarity[pairs] = sims[np.arange(len(pairs)), rank]
            centroid[pairs] = cell * fine.shape[1] + rank
        better = similarity.reshape(-1, searched).argmax(axis=1)
        return centroid.reshape(-1, searched)[np.arange(len(vectors)), better]


def make_codebook(centroids: dict[str, np.ndarray], coarse: dict[str, np.ndarray]) -> Codebook:
    fine = {r: np.ascontiguousarray(centroids[r], dtype=np.float32) for r in REPRESENTATIONS}
    cells = {r: np.ascontiguousarray(coarse[r], dtype=np.float32) for r in REPRESENTATIONS}
    digest = hashlib.sha256()
    for representation in REPRESENTATIONS:
        if len(fine[representation]) % len(cells[representation]):
            raise CodebookError(f"{representation}: {len(fine[representation])} centroids do not split evenly "
                                f"into {len(cells[representation])} cells")
        digest.update(representation.encode() + fine[representation].tobytes() + cells[representation].tobytes())
    return Codebook(fine, cells, digest.hexdigest()[:16])


def save_codebook(codebook: Codebook, model_dir: Path) -> Path:
    path = Path(model_dir) / FILE_NAME
    save_file({**codebook.centroids, **{f"{r}_coarse": m for r, m in codebook.coarse.items()}}, str(path))
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
    for name in [*REPRESENTATIONS, *(f"{r}_coarse" for r in REPRESENTATIONS)]:
        matrix = tensors.get(name)
        if matrix is None or matrix.ndim != 2 or matrix.shape[1] != dim:
            shape = None if matrix is None else tuple(matrix.shape)
            raise CodebookError(f"{path}: {name!r} centroids have shape {shape}, the model needs (n, {dim})")
    try:
        return make_codebook({r: tensors[r] for r in REPRESENTATIONS},
                             {r: tensors[f"{r}_coarse"] for r in REPRESENTATIONS})
    except CodebookError as error:
        raise CodebookError(f"{path}: {error}") from None
