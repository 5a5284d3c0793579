"""Posting lists, the write side: every node of a new formula is assigned to its nearest codebook centroid,
and the formula's id appended to that centroid's list (`searchapp.search.candidates` reads them).

Chunks append to `PendingPosting`; when its job ends, `merge_postings` folds them into one `PostingList` row per
centroid and shrinks the pending table back to nothing. Appending to the posting lists themselves left a
million-formula index with more dead rows than live postings (at 100k: 149 MB on disk for 17 MB of ids).
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
    with cursor.copy("COPY searchapp_pendingposting (corpus_id, representation, centroid, formula_ids)"
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


def merge_postings(corpus_id: int) -> None:
    """Fold the corpus's pending postings into one posting list per centroid (idempotent; run when a job ends).

    The corpus's existing lists are rewritten with them in one statement: a join to pick only the touched
    centroids was planned as a nested loop on a fresh table and took minutes. A corpus indexed by one job
    therefore leaves no dead rows in the posting lists at all.
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "WITH pending AS (DELETE FROM searchapp_pendingposting WHERE corpus_id = %s"
            "  RETURNING representation, centroid, formula_ids, id),"
            " merged AS (DELETE FROM searchapp_postinglist WHERE corpus_id = %s AND EXISTS (SELECT FROM pending)"
            "  RETURNING representation, centroid, formula_ids, 0::bigint AS id)"
            " INSERT INTO searchapp_postinglist (corpus_id, representation, centroid, formula_ids)"
            " SELECT %s, representation, centroid, string_agg(formula_ids, ''::bytea ORDER BY id)"
            " FROM (SELECT * FROM merged UNION ALL SELECT * FROM pending) AS postings"
            " GROUP BY representation, centroid", [corpus_id] * 3)
    _shrink_pending()


def vacuum_postings() -> None:
    """Give back the space of posting lists rewritten wholesale (a codebook refitted to the index rewrites them all)
    and of the emptied pending table; outside a transaction only, as `_shrink_pending`.

    FULL, because the new lists were written after the old ones in the same transaction: a plain VACUUM freed the
    old rows' pages but could not truncate them (259 MB on disk for 128 MB of lists at 1M). It locks the lists for
    the seconds the rewrite takes; the repost itself kept them readable throughout.
    """
    if connection.in_atomic_block:
        return
    with connection.cursor() as cursor:
        cursor.execute("VACUUM FULL searchapp_postinglist")
    _shrink_pending()


def _shrink_pending() -> None:
    """Give the emptied pending table's space back: VACUUM truncates its empty pages, and its index is rebuilt
    small without blocking other jobs' appends. Neither runs inside a transaction; inside a caller's, autovacuum
    frees the rows later."""
    if connection.in_atomic_block:
        return
    with connection.cursor() as cursor:
        cursor.execute("VACUUM searchapp_pendingposting")
        cursor.execute("REINDEX INDEX CONCURRENTLY pendingposting_lookup")
