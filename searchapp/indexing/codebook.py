"""The model's codebook in the centroid tables, loaded once per database; stored postings refer to its rows."""
from __future__ import annotations

from django.db import connection, transaction

from searchapp.embedding import get_codebook
from searchapp.indexing.iterables import chunks
from searchapp.indexing.postings import merge_postings, store_postings
from searchapp.models import CodebookState, Formula, OpgCentroid, PendingPosting, PostingList, SlgCentroid
from searchapp.vectors import decode_matrix, vector_literal

CENTROID_MODELS = {"slg": SlgCentroid, "opg": OpgCentroid}
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
        if PostingList.objects.exists() or PendingPosting.objects.exists():
            raise CodebookMismatch(
                f"the index was built with codebook {state.fingerprint if state else '?'} but the model's codebook is "
                f"{codebook.fingerprint}: index every corpus again with this model (`python manage.py reindex --sync`)")
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
        merge_postings(corpus_id)
