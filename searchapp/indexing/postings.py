"""Posting lists, the write side: every node of a new formula is assigned to its nearest codebook centroid,
and the formula's id appended to that centroid's list (`searchapp.search.candidates` reads them).
"""
from __future__ import annotations

import numpy as np
from django.db import connection, transaction

from ml.retrieval.codebook import REPRESENTATIONS
from searchapp.embedding import get_codebook
from searchapp.vectors import ID_DTYPE


def store_postings(cursor, corpus_id: int, matrices: list[tuple[int, dict]]) -> None:
    """Append each formula's id to the posting list of every centroid one of its nodes is nearest to."""
    codebook = get_codebook()
    with cursor.copy("COPY searchapp_postinglist (corpus_id, representation, centroid, formula_ids)"
                     " FROM STDIN") as copy:
        for representation in REPRESENTATIONS:
            for centroid, ids in _postings(codebook, representation, matrices):
                copy.write_row((corpus_id, representation, centroid, ids.tobytes()))


def _postings(codebook, representation: str, matrices: list[tuple[int, dict]]) -> list[tuple[int, np.ndarray]]:
    """(centroid, sorted distinct formula ids) for every centroid the formulas' nodes were assigned to."""
    rows = [matrix[representation] for _, matrix in matrices]
    sizes = [len(r) for r in rows]
    if not sum(sizes):
        return []
    owners = np.repeat(np.asarray([formula_id for formula_id, _ in matrices], dtype=np.int64), sizes)
    if owners.max() > np.iinfo(ID_DTYPE).max:
        raise OverflowError(f"formula id {owners.max()} does not fit the posting lists' 32-bit ids")
    keys = np.unique(codebook.assign(representation, np.concatenate(rows)) << 32 | owners)
    centroids, ids = keys >> 32, (keys & 0xFFFFFFFF).astype(ID_DTYPE)
    starts = np.flatnonzero(np.diff(centroids, prepend=-1))
    return [(int(centroids[start]), part) for start, part in zip(starts, np.split(ids, starts[1:]))]


def compact_postings(corpus_id: int) -> None:
    """Merge each centroid's appended rows into one (idempotent; run after a job's last chunk).

    Rewrites all of the corpus's rows in one statement: a join to pick only the split centroids was
    planned as a nested loop on a fresh table and took minutes.
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "WITH merged AS (DELETE FROM searchapp_postinglist WHERE corpus_id = %s"
            "  RETURNING representation, centroid, formula_ids, id)"
            " INSERT INTO searchapp_postinglist (corpus_id, representation, centroid, formula_ids)"
            " SELECT %s, representation, centroid, string_agg(formula_ids, ''::bytea ORDER BY id)"
            " FROM merged GROUP BY representation, centroid", [corpus_id] * 2)
