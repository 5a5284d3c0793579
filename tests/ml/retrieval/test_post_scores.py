import numpy as np

from ml.retrieval.post_scores import formula_scores, ssemb, with_thread


def test_a_posts_formula_score_is_the_mean_over_question_formulas_of_its_best_formula():
    post_of = np.array([0, 0, 1, 2])
    similarity = [np.array([0.2, 0.9, 0.5, 0.1]), np.array([0.4, 0.3, 0.8, -0.5])]
    assert np.allclose(formula_scores(post_of, similarity, 4), [(0.9 + 0.4) / 2, (0.5 + 0.8) / 2, 0.1 / 2, 0])


def test_a_question_without_formulas_has_no_formula_score_and_ssemb_weighs_the_two():
    assert np.array_equal(formula_scores(np.array([], dtype=np.int64), [], 3), np.zeros(3))
    assert np.allclose(ssemb(np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.3), [0.3, 0.7])


def test_a_post_with_a_thread_is_scored_with_it_and_one_without_keeps_its_own():
    scores = with_thread(np.array([0.2, 0.6]), np.array([1.0, 0.0]), np.array([True, False]), 0.3)
    assert scores.dtype == np.float32 and np.allclose(scores, [0.7 * 0.2 + 0.3 * 1.0, 0.6])
