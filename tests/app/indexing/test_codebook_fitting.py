"""Fitting the codebook to the index: what the index asks of it, and the stored node vectors it is fitted on."""
import numpy as np
import pytest

from ml.retrieval.codebook import CodebookError
from searchapp.indexing.codebook import index_postings
from searchapp.indexing.codebook_fitting import index_sizing, stored_node_sample
from searchapp.models import Formula, SlgCentroid
from searchapp.vectors import decode_matrix

pytestmark = pytest.mark.django_db


def test_an_empty_index_asks_for_no_codebook():
    with pytest.raises(CodebookError, match="the index holds no postings: index a corpus first"):
        index_sizing(per_centroid=1000)


def test_a_small_index_is_sized_at_the_smallest_side_by_its_larger_representation(indexed):
    sizing = index_sizing(per_centroid=1000)
    assert sizing.per_representation == index_postings()
    assert sizing.postings == max(index_postings().values()) and sizing.side == 64
    assert sizing.centroids == SlgCentroid.objects.count() > 0


def test_the_sample_is_of_stored_node_vectors_and_at_most_as_many_as_asked(indexed):
    stored = [row for slg in Formula.objects.values_list("slg_matrix", flat=True) for row in decode_matrix(slg)]
    everything = stored_node_sample(10**6, index_postings(), seed=1)  # more than stored: every page is read
    assert len(everything["slg"]) == len(stored) and len(everything["opg"]) > 0
    assert {tuple(row) for row in everything["slg"]} == {tuple(row) for row in stored}
    few = stored_node_sample(5, index_postings(), seed=1)
    assert all(len(matrix) <= 5 for matrix in few.values())
    assert np.array_equal(stored_node_sample(5, index_postings(), seed=1)["slg"], few["slg"])  # repeatable
