"""The model's codebook in the centroid tables, loaded once per database; stored postings refer to its rows."""
from __future__ import annotations

import numpy as np
from django.db import connection, transaction

from searchapp.embedding import get_codebook
from searchapp.indexing.iterables import chunks
from searchapp.indexing.postings import merge_postings, store_postings, vacuum_postings
from searchapp.models import CodebookState, Formula, OpgCentroid, PendingPosting, PostingList, SlgCentroid
from searchapp.vectors import ID_DTYPE, decode_matrix, vector_literal

CENTROID_MODELS = {"slg": SlgCentroid, "opg": OpgCentroid}
POSTING_CHUNK = 10_000
"""Stored formulas posted at a time: fewer, longer pending rows to merge (a 16,384-centroid codebook spreads a chunk
over up to 32,768 rows), for ~70 MB of decoded vectors."""
CODEBOOK_LOCK = 7_400_001
"""pg_advisory_xact_lock key: one process at a time loads the codebook."""


class CodebookMismatch(RuntimeError):
    """The stored postings were made with another codebook (another model) than the one loaded now."""


def ensure_codebook_loaded(repost: bool = False) -> None:
    """Load this process's codebook into the centroid tables unless they already hold it.

    Replacing a codebook would orphan the stored postings, so that is refused while any exist, unless `repost`:
    then the postings are dropped and every stored formula is posted again from its stored node matrices (what
    `build_codebook --from-index` does after fitting a codebook to the index; nothing is parsed or embedded).
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CODEBOOK_LOCK])
        state = CodebookState.objects.first()
        codebook = _current_codebook(state)
        if state and state.fingerprint == codebook.fingerprint:
            return
        if repost:
            PostingList.objects.all().delete()
            PendingPosting.objects.all().delete()
        elif PostingList.objects.exists() or PendingPosting.objects.exists():
            raise CodebookMismatch(
                f"the index was built with codebook {state.fingerprint if state else '?'} but the model's codebook is "
                f"{codebook.fingerprint}: index every corpus again with this model (`python manage.py reindex --sync`)")
        for representation, model in CENTROID_MODELS.items():
            _load_centroids(cursor, model, codebook.centroids[representation], build_index_after=not repost)
        _post_stored_formulas(cursor)
        CodebookState.objects.all().delete()
        CodebookState.objects.create(fingerprint=codebook.fingerprint)
    if repost:
        vacuum_postings()


def _load_centroids(cursor, model, rows: np.ndarray, build_index_after: bool) -> None:
    """Replace a centroid table's rows with `rows`.

    Built in one pass after the rows are in, the HNSW index takes a third of the time that inserting into it row by
    row does (0.8 against 2.2 s for 4,096 centroids here). Dropping it locks the table against searches until the
    transaction ends, so that is done only when no search can be using it (`build_index_after`): not while a refit
    posts every stored formula again in the same transaction.
    """
    model._default_manager.all().delete()
    indexes = model._meta.indexes if build_index_after else []
    with connection.schema_editor() as editor:
        for index in indexes:
            editor.remove_index(model, index)
    cursor.execute(
        f"INSERT INTO {model._meta.db_table} (number, embedding)"
        " SELECT n - 1, e::halfvec FROM unnest(%s::text[]) WITH ORDINALITY AS t(e, n)",
        [[vector_literal(row) for row in rows]])
    with connection.schema_editor() as editor:
        for index in indexes:
            editor.add_index(model, index)


def require_loaded_codebook(cursor) -> None:
    """Inside a chunk's transaction, before its nodes are assigned: wait out a codebook being loaded, then post only
    under the codebook the index holds.

    A job running while `build_codebook --from-index` refits the codebook would otherwise assign nodes with the
    codebook it started with, to centroid numbers that now mean other centroids. The shared lock orders each chunk
    before or after the refit's transaction (which holds the exclusive one); a chunk after it reads the refitted
    codebook from the model folder and goes on. One that cannot (the index holds another model's codebook) fails
    the job with nothing of the chunk stored.
    """
    cursor.execute("SELECT pg_advisory_xact_lock_shared(%s)", [CODEBOOK_LOCK])
    state = CodebookState.objects.first()
    fingerprint = _current_codebook(state).fingerprint
    if state is None or state.fingerprint != fingerprint:
        raise CodebookMismatch(f"the index's codebook changed to {state.fingerprint if state else '?'} while this job "
                               f"ran with {fingerprint}, and the model folder holds no codebook matching it")


def _current_codebook(state: CodebookState | None):
    """This process's codebook, read again from the model folder when the index holds another one: a refit
    (`build_codebook --from-index`) rewrote the file after this process had read it."""
    if state is not None and state.fingerprint != get_codebook().fingerprint:
        get_codebook.cache_clear()
    return get_codebook()


def _post_stored_formulas(cursor) -> None:
    """Post every stored formula under the codebook just loaded: an index upgraded from node patterns, or one whose
    codebook was refitted (`repost`)."""
    for corpus_id in Formula.objects.values_list("corpus_id", flat=True).distinct():
        rows = Formula.objects.filter(corpus_id=corpus_id).values_list("id", "slg_matrix", "opg_matrix")
        for chunk in chunks(rows.iterator(chunk_size=2000), POSTING_CHUNK):
            store_postings(cursor, corpus_id, [(formula_id, {"slg": decode_matrix(slg), "opg": decode_matrix(opg)})
                                               for formula_id, slg, opg in chunk])
        merge_postings(corpus_id)


def index_postings() -> dict[str, int]:
    """Postings stored per representation (merged and pending): what a codebook fitted to the index is sized by."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT representation, sum(octet_length(formula_ids)) / {ID_DTYPE.itemsize} FROM ("
            f" SELECT representation, formula_ids FROM {PostingList._meta.db_table} UNION ALL"
            f" SELECT representation, formula_ids FROM {PendingPosting._meta.db_table}) AS rows GROUP BY representation")
        return {representation: int(count) for representation, count in cursor.fetchall()}
