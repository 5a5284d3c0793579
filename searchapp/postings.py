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
from searchapp.models import CodebookState, OpgCentroid, PostingList, SlgCentroid
from searchapp.vectors import vector_literal

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
        CodebookState.objects.all().delete()
        CodebookState.objects.create(fingerprint=codebook.fingerprint)


def store_postings(cursor, corpus_id: int, matrices: list[tuple[int, dict]]) -> None:
    """Append each formula's id to the posting list of every centroid one of its nodes is nearest to."""
    codebook = get_codebook()
    with cursor.copy("COPY searchapp_postinglist (corpus_id, representation, centroid, formula_ids)"
                     " FROM STDIN") as copy:
        for representation in REPRESENTATIONS:
            for centroid, ids in _postings(codebook, representation, matrices).items():
                copy.write_row((corpus_id, representation, centroid, pack_ids(ids)))


def _postings(codebook, representation: str, matrices: list[tuple[int, dict]]) -> dict[int, list[int]]:
    rows = [matrix[representation] for _, matrix in matrices]
    if not any(len(r) for r in rows):
        return {}
    owners = np.repeat([formula_id for formula_id, _ in matrices], [len(r) for r in rows])
    codes = codebook.assign(representation, np.concatenate(rows))
    postings = defaultdict(set)
    for code, owner in zip(codes.tolist(), owners.tolist()):
        postings[code].add(owner)
    return {code: sorted(ids) for code, ids in postings.items()}


def pack_ids(ids: list[int]) -> bytes:
    if ids and max(ids) > np.iinfo(ID_DTYPE).max:
        raise OverflowError(f"formula id {max(ids)} does not fit the posting lists' 32-bit ids")
    return np.asarray(ids, dtype=ID_DTYPE).tobytes()


def compact_postings(corpus_id: int) -> None:
    """Merge each centroid's appended rows into one (idempotent; run after a job's last chunk)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "WITH split AS (SELECT representation, centroid FROM searchapp_postinglist WHERE corpus_id = %s"
            "  GROUP BY 1, 2 HAVING count(*) > 1),"
            " merged AS (DELETE FROM searchapp_postinglist p USING split s WHERE p.corpus_id = %s"
            "  AND p.representation = s.representation AND p.centroid = s.centroid"
            "  RETURNING p.representation, p.centroid, p.formula_ids, p.id)"
            " INSERT INTO searchapp_postinglist (corpus_id, representation, centroid, formula_ids)"
            " SELECT %s, representation, centroid, string_agg(formula_ids, ''::bytea ORDER BY id)"
            " FROM merged GROUP BY representation, centroid", [corpus_id] * 3)


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
