"""Fitting the site's codebook (`build_codebook`): to the formulas a model ships with, or to the index the site serves.

Apart from loading it (`searchapp.indexing.codebook`) because fitting embeds and clusters in torch, which the site's
processes that only load and read a codebook never import.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connection

from ml.embed import embed
from ml.models.encoders import NodeEncoderModel
from ml.retrieval.codebook import REPRESENTATIONS, Codebook, CodebookError, save_codebook, side_for
from ml.retrieval.kmeans import fit_codebook
from searchapp.embedding import get_codebook
from searchapp.indexing.codebook import ensure_codebook_loaded, index_postings
from searchapp.models import Formula, SlgCentroid
from searchapp.vectors import decode_matrix


def stored_node_sample(nodes: int, postings: dict[str, int], seed: int = 0) -> dict[str, np.ndarray]:
    """Up to `nodes` node vectors per representation, from stored formulas drawn at random (as stored: int4);
    `postings` (`index_postings()`) says how many formulas that takes."""
    total = Formula.objects.count()
    if not total:
        return {representation: np.zeros((0, 0), dtype=np.float32) for representation in REPRESENTATIONS}
    per_formula = max(1.0, sum(postings.values()) / len(REPRESENTATIONS) / total)
    # 1.5 × the formulas needed: a formula has more nodes than postings (nodes sharing a centroid post it once)
    percent = min(100.0, 100.0 * 1.5 * nodes / per_formula / total)
    matrices: dict[str, list[np.ndarray]] = {representation: [] for representation in REPRESENTATIONS}
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT slg_matrix, opg_matrix FROM {Formula._meta.db_table}"
                       " TABLESAMPLE SYSTEM (%s) REPEATABLE (%s)", [percent, seed])
        for slg, opg in cursor.fetchall():
            matrices["slg"].append(decode_matrix(slg))
            matrices["opg"].append(decode_matrix(opg))
    generator = np.random.default_rng(seed)
    sample = {}
    for representation, parts in matrices.items():
        stacked = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
        sample[representation] = stacked[generator.permutation(len(stacked))[:nodes]]
    return sample


@dataclass(frozen=True)
class IndexSizing:
    """What the index asks of its codebook: the postings of its larger representation, the centroids loaded now, and
    the side the rule of `ml.retrieval.codebook.side_for` gives (side × side centroids)."""
    per_representation: dict[str, int]
    centroids: int
    side: int

    @property
    def postings(self) -> int:
        return max(self.per_representation.values())


@dataclass(frozen=True)
class FittedToIndex:
    path: Path
    sizing: IndexSizing
    nodes: dict[str, int]
    """Stored node vectors fitted on, per representation."""
    fit_seconds: float
    post_seconds: float
    fingerprint: str


def index_sizing(per_centroid: int) -> IndexSizing:
    """The codebook the index is due, for a mean posting list of `per_centroid` (CodebookError if it holds none)."""
    postings = index_postings()
    if not postings:
        raise CodebookError("the index holds no postings: index a corpus first")
    return IndexSizing(postings, SlgCentroid.objects.count(), side_for(max(postings.values()), per_centroid))


def fit_to_formulas(graphs: list, encoder: NodeEncoderModel, cells: int, per_cell: int, sample: int,
                    seed: int = 0) -> Codebook:
    """A codebook of `cells` × `per_cell` centroids per representation, fitted to up to `sample` of the node vectors
    `encoder` gives the parsed formulas `graphs` (what a model ships beside its weights)."""
    vectors = embed(graphs, model=encoder)
    rng = np.random.default_rng(seed)
    nodes = {r: np.concatenate([v[r] for v in vectors]) for r in REPRESENTATIONS}
    return fit_codebook({r: m[rng.permutation(len(m))[:sample]] for r, m in nodes.items()}, cells, per_cell, seed=seed)


def fit_to_index(sample: int, seed: int, per_centroid: int) -> FittedToIndex:
    """Fit the site's codebook to the index it serves (sized by `index_sizing`, fitted on up to `sample` stored node
    vectors per representation), save it into MATHSEARCH_MODEL_DIR and post every stored formula again under it.
    Running workers read the new file before their next chunk; searches read the centroids from the database."""
    sizing = index_sizing(per_centroid)
    started = time.perf_counter()
    vectors = stored_node_sample(sample, sizing.per_representation, seed)
    try:
        codebook = fit_codebook(vectors, sizing.side, sizing.side, seed=seed)
    except CodebookError as error:
        raise CodebookError(f"the index is too small for a codebook of {sizing.side} × {sizing.side}: {error}") from None
    path = save_codebook(codebook, Path(settings.MATHSEARCH_MODEL_DIR))
    fitted = time.perf_counter()
    get_codebook.cache_clear()
    ensure_codebook_loaded(repost=True)
    return FittedToIndex(path, sizing, {representation: len(matrix) for representation, matrix in vectors.items()},
                         fitted - started, time.perf_counter() - fitted, codebook.fingerprint)
