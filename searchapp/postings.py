"""The codebook tables and posting lists behind the first retrieval stage (`ml.retrieval.codebook`).

Indexing assigns every node of a new formula to its nearest centroid and appends the formula's id
to that centroid's posting list; search asks pgvector's HNSW index for a query node's nearest
centroids and reads their posting lists.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
from django.db import connection, transaction

from ml.retrieval.codebook import REPRESENTATIONS
from searchapp.embedding import get_codebook
from searchapp.iterables import chunks
from searchapp.models import CodebookState, Formula, OpgCentroid, PostingList, SlgCentroid
from searchapp.vectors import decode_matrix, vector_literal

CENTROID_MODELS = {"slg": SlgCentroid, "opg": OpgCentroid}
ID_DTYPE = np.dtype("<u4")
CODEBOOK_LOCK = 7_400_001
"""pg_advisory_xact_lock key: one process at a time loads the codebook."""


class CodebookMismatch(RuntimeError):
    """The stored postings were made with another codebook (another model) than the one loaded now."""


def ensure_codebook_loaded() -> None:
    """Load this process's codebook into the centroid tables unless they already hold it.

    Replacing a codebook would orphan the stored postings, so that is refused while any exist.
    """
    codebook = get_codebook()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CODEBOOK_LOCK])
        state = CodebookState.objects.first()
        if state and state.fingerprint == codebook.fingerprint:
            return
        if PostingList.objects.exists():
            raise CodebookMismatch(
                f"the index was built with codebook {state.fingerprint if state else '?'} but the model's codebook is "
                f"{codebook.fingerprint}: delete the corpora and index them again with this model")
        for representation, model in CENTROID_MODELS.items():
            model.objects.all().delete()
            rows = codebook.centroids[representation]
            cursor.execute(
                f"INSERT INTO {model._meta.db_table} (number, embedding)"
                " SELECT n - 1, e::halfvec FROM unnest(%s::text[]) WITH ORDINALITY AS t(e, n)",
                [[vector_literal(row) for row in rows]])
        _post_stored_formulas(cursor)
        CodebookState.objects.all().delete()
        CodebookState.objects.create(fingerprint=codebook.fingerprint)


def _post_stored_formulas(cursor) -> None:
    """Post formulas stored before any codebook was loaded (an index upgraded from node patterns)."""
    for corpus_id in Formula.objects.values_list("corpus_id", flat=True).distinct():
        rows = Formula.objects.filter(corpus_id=corpus_id).values_list("id", "slg_matrix", "opg_matrix")
        for chunk in chunks(rows.iterator(chunk_size=2000), 2000):
            store_postings(cursor, corpus_id, [(formula_id, {"slg": decode_matrix(slg), "opg": decode_matrix(opg)})
                                               for formula_id, slg, opg in chunk])
        compact_postings(corpus_id)


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


def nearest_centroids(cursor, representation: str, vectors: np.ndarray, probes: int) -> list[tuple[int, int, float]]:
    """(query row, centroid, cosine) for the `probes` nearest centroids of each query vector, by HNSW."""
    cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, 2 * probes)])
    cursor.execute(
        "SELECT q.row - 1, c.number, 1 - (c.embedding <=> q.embedding) FROM unnest(%s::halfvec[])"
        " WITH ORDINALITY AS q(embedding, row) CROSS JOIN LATERAL ("
        f" SELECT number, embedding FROM {CENTROID_MODELS[representation]._meta.db_table}"
        " ORDER BY embedding <=> q.embedding LIMIT %s) c",
        [[vector_literal(v) for v in vectors], probes])
    return cursor.fetchall()


def posting_lists(cursor, representation: str, centroids: list[int], corpora: list[int] | None) -> dict[int, np.ndarray]:
    """Formula ids per centroid (across the given corpora, or all)."""
    corpus_filter = " AND corpus_id = ANY(%s)" if corpora is not None else ""
    cursor.execute(
        "SELECT centroid, formula_ids FROM searchapp_postinglist WHERE representation = %s AND centroid = ANY(%s)"
        + corpus_filter, [representation, centroids] + ([corpora] if corpora is not None else []))
    blobs = defaultdict(list)
    for centroid, data in cursor.fetchall():
        blobs[centroid].append(np.frombuffer(data, dtype=ID_DTYPE))
    return {centroid: np.concatenate(parts) for centroid, parts in blobs.items()}
