import numpy as np

from ml.evaluation.click_simulation import ClickModel


def test_examination_falls_with_rank_as_eta_says():
    assert ClickModel(eta=1.0).examination(np.array([1, 2, 4])).tolist() == [1.0, 0.5, 0.25]
    assert ClickModel(eta=0.0).examination(np.array([1, 9])).tolist() == [1.0, 1.0]


def test_click_probability_is_examination_times_attractiveness_of_the_grade():
    model = ClickModel(attractiveness=(0.1, 0.5, 0.8, 1.0), eta=1.0)
    assert np.allclose(model.click_probabilities([3, None, 2, 0]), [1.0, 0.1 / 2, 0.8 / 3, 0.1 / 4])


def test_simulated_click_rates_match_the_model():
    model, rng = ClickModel(), np.random.default_rng(0)
    grades = [0, 3, 1, 3, 2]
    counts = np.zeros(len(grades))
    for _ in range(20000):
        for rank in model.clicks(grades, rng):
            counts[rank - 1] += 1
    assert np.allclose(counts / 20000, model.click_probabilities(grades), atol=0.01)


def test_nobody_clicks_an_empty_list():
    assert ClickModel().clicks([], np.random.default_rng(0)) == []


def test_a_person_clicks_only_what_they_examined():
    model, rng = ClickModel(attractiveness=(1.0,)), np.random.default_rng(0)
    examined = np.array([True, False, True, False])
    assert model.clicked([0, 0, 0, 0], examined, rng) == [1, 3]
    assert ClickModel().examined(0, rng).tolist() == []
