"""The codebook in the database: loaded once, refused over postings of another, counted for a refit."""
import pytest
from django.db import connection

from searchapp.embedding import get_codebook
from searchapp.indexing.codebook import CENTROID_MODELS, CodebookMismatch, ensure_codebook_loaded, index_postings
from searchapp.models import CodebookState, Formula, PostingList
from searchapp.vectors import vector_literal

pytestmark = pytest.mark.django_db


def test_postings_are_counted_per_representation(indexed):
    counts = index_postings()
    assert set(counts) == {"slg", "opg"} and all(count > 0 for count in counts.values())


def test_another_codebook_is_refused_over_stored_postings_unless_they_are_posted_again(indexed):
    before = index_postings()
    CodebookState.objects.update(fingerprint="0123456789abcdef")  # as if the index came from another model
    with pytest.raises(CodebookMismatch, match="was built with codebook 0123456789abcdef"):
        ensure_codebook_loaded()
    ensure_codebook_loaded(repost=True)  # every stored formula posted again from its stored matrices
    assert CodebookState.objects.get().fingerprint != "0123456789abcdef"
    assert index_postings() == before and PostingList.objects.exists()
    assert Formula.objects.search("a^2 + b^2 = c^2", k=1).hits[0].formula.latex == "a^2 + b^2 = c^2"


def _valid_indexes(model) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                       " WHERE i.indrelid = %s::regclass AND i.indisvalid AND i.indisready ORDER BY 1",
                       [model._meta.db_table])
        return [name for (name,) in cursor.fetchall()]


@pytest.mark.parametrize("repost", [False, True], ids=["fresh", "refit"])
def test_a_load_fills_each_centroid_table_and_keeps_its_hnsw_index(repost):
    """A fresh load builds the index after the rows; a refit inserts into it. Either way searches find it."""
    before = {representation: _valid_indexes(model) for representation, model in CENTROID_MODELS.items()}
    CodebookState.objects.all().delete()
    ensure_codebook_loaded(repost=repost)
    for representation, model in CENTROID_MODELS.items():
        assert f"{representation}centroid_embedding_hnsw" in before[representation]
        assert _valid_indexes(model) == before[representation]
        assert model.objects.count() == len(get_codebook().centroids[representation])
        centroid = vector_literal(get_codebook().centroids[representation][5])
        nearest = (f"SELECT number FROM {model._meta.db_table} ORDER BY embedding <=> %s::halfvec LIMIT 1", [centroid])
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("EXPLAIN " + nearest[0], nearest[1])
            assert f"{representation}centroid_embedding_hnsw" in " ".join(row for (row,) in cursor.fetchall())
            cursor.execute(*nearest)
            assert cursor.fetchone() == (5,)
