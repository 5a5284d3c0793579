import numpy as np
import pytest

from ml.retrieval.maxsim import maxsim, maxsim_many


def unit(*rows):
    matrix = np.array(rows, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


def test_maxsim_sums_best_cosine_per_query_node_and_aligns():
    query = unit([1, 0], [0, 1])
    candidate = unit([0, 1], [1, 1], [1, 0.1])
    result = maxsim(query, candidate)
    assert result.alignment.tolist() == [2, 0]
    assert result.score == pytest.approx(float(query[0] @ candidate[2] + 1.0))


def test_maxsim_of_identical_sets_is_query_size():
    query = unit([1, 2], [3, -1], [0, 1])
    assert maxsim(query, query[::-1]).score == pytest.approx(3.0)


def test_empty_candidate_scores_zero_and_aligns_nowhere():
    result = maxsim(unit([1, 0]), np.zeros((0, 2), dtype=np.float32))
    assert result.score == 0.0
    assert result.alignment.tolist() == [-1]


def test_maxsim_many_matches_one_by_one():
    rng = np.random.default_rng(0)
    query = unit(*rng.normal(size=(4, 8)))
    candidates = [unit(*rng.normal(size=(n, 8))) if n else np.zeros((0, 8), np.float32) for n in (3, 0, 7, 1)]
    expected = [maxsim(query, c).score for c in candidates]
    assert maxsim_many(query, candidates) == pytest.approx(expected, abs=1e-5)
