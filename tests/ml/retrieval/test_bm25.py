import math

import pytest

from ml.retrieval.bm25 import bm25


def test_a_rare_term_outweighs_a_common_one_and_more_occurrences_saturate():
    scores = bm25({1: {"eigenvalu": 1}, 2: {"matrix": 1}, 3: {"matrix": 9}}, {1: 10, 2: 10, 3: 10},
                  {"eigenvalu": 2, "matrix": 90}, documents=100, mean_length=10)
    assert scores[1] > scores[3] > scores[2]
    assert scores[3] < 9 * scores[2]  # tf saturates (k1)


def test_longer_posts_score_lower_for_the_same_counts_and_the_formula_is_lucenes():
    scores = bm25({1: {"t": 2}, 2: {"t": 2}}, {1: 5, 2: 20}, {"t": 10}, documents=100, mean_length=10)
    idf = math.log(1 + (100 - 10 + 0.5) / (10 + 0.5))
    assert scores[1] == pytest.approx(idf * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 0.5)))
    assert scores[1] > scores[2]


def test_a_term_in_every_document_adds_a_little_never_less_than_nothing():
    assert 0 < bm25({1: {"the": 3}}, {1: 10}, {"the": 100}, documents=100, mean_length=10)[1] < 0.1
