import numpy as np
import pytest

from ml.retrieval.shortlist import BITMAP_RANGE, approximate_scores, shortlist

POSTINGS = {  # centroid → formula ids with a node there
    0: np.array([10, 11]),
    1: np.array([11, 12]),
    2: np.array([12]),
}


def test_each_query_node_adds_its_best_probed_centroid_per_formula():
    probes = [(0, 0, 0.9), (0, 1, 0.5),  # query node 0 probes centroids 0 and 1
              (1, 2, 0.8), (1, 1, 0.3)]  # query node 1 probes centroids 2 and 1
    formulas, scores = approximate_scores(probes, POSTINGS)
    assert formulas.tolist() == [10, 11, 12]
    # 10: 0.9 (node 0); 11: 0.9 (node 0 via c0) + 0.3 (node 1 via c1); 12: 0.5 + 0.8
    assert np.allclose(scores, [0.9, 1.2, 1.3])


def test_centroids_without_postings_are_ignored():
    formulas, scores = approximate_scores([(0, 7, 0.99), (0, 2, 0.4)], {2: POSTINGS[2]})
    assert formulas.tolist() == [12] and np.allclose(scores, [0.4])
    assert approximate_scores([(0, 7, 0.99)], {})[0].tolist() == []


def test_shortlist_keeps_the_best_formulas():
    probes = [(0, 0, 0.9), (0, 1, 0.5), (1, 2, 0.8), (1, 1, 0.3)]
    assert sorted(shortlist(probes, POSTINGS, 2).tolist()) == [11, 12]
    assert sorted(shortlist(probes, POSTINGS, 5).tolist()) == [10, 11, 12]


@pytest.mark.parametrize("far_id", [5_000_000, BITMAP_RANGE + 10], ids=["bitmap", "sorted"])
def test_ids_far_apart_are_scored_like_close_ones(far_id):
    far = {0: np.array([10, far_id], dtype="<u4"), 1: np.array([far_id], dtype="<u4"), 2: np.array([], dtype="<u4")}
    formulas, scores = approximate_scores([(0, 0, 0.9), (1, 1, 0.5), (1, 2, 0.7)], far)
    assert formulas.tolist() == [10, far_id] and np.allclose(scores, [0.9, 1.4])
