"""The first stage's tables: centroids numbered once each and found by their HNSW index, the state naming the loaded
codebook, and a corpus's posting rows, gone with it. (The test database holds the model's codebook, loaded once.)"""
import numpy as np
import pytest
from django.db import IntegrityError, transaction
from pgvector.django import CosineDistance

from searchapp.models import CodebookState, Corpus, OpgCentroid, PendingPosting, PostingList, SlgCentroid

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("table", [SlgCentroid, OpgCentroid])
def test_a_loaded_codebook_numbers_its_centroids_once(table):
    numbers = list(table.objects.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(len(numbers))) and numbers
    with pytest.raises(IntegrityError), transaction.atomic():
        table.objects.create(number=0, embedding=table.objects.get(number=0).embedding)


@pytest.mark.parametrize("table", [SlgCentroid, OpgCentroid])
def test_a_centroid_is_its_own_nearest(table):
    wanted = table.objects.get(number=table.objects.count() // 2)
    nearest = table.objects.annotate(distance=CosineDistance("embedding", wanted.embedding)).order_by("distance")[0]
    assert nearest.distance == pytest.approx(0, abs=1e-3)


def test_one_state_row_names_the_loaded_codebook():
    [state] = CodebookState.objects.all()
    assert state.fingerprint and state.loaded_at is not None


@pytest.mark.parametrize("table", [PostingList, PendingPosting])
def test_posting_rows_keep_their_packed_ids_and_go_with_their_corpus(table):
    corpus = Corpus.objects.create(name="postings")
    ids = np.array([3, 70_000, 2**32 - 1], dtype="<u4")
    table.objects.create(corpus=corpus, representation="slg", centroid=5, formula_ids=ids.tobytes())
    stored = table.objects.get(corpus=corpus, representation=table.Representation.SLG, centroid=5)
    assert np.frombuffer(bytes(stored.formula_ids), dtype="<u4").tolist() == ids.tolist()
    corpus_id = corpus.pk
    corpus.delete()
    assert not table.objects.filter(corpus_id=corpus_id).exists()
