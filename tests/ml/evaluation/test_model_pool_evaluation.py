import pytest

from ml.evaluation.model_pool_evaluation import best_seeds


def result(map_prime: float) -> dict:
    return {"map_prime": map_prime, "p10_prime": 1 - map_prime}


def test_best_seed_is_picked_per_configuration_by_map():
    by_seed = {0: {"max": result(0.5), "avg": result(0.6)},
               1: {"max": result(0.7), "avg": result(0.4)},
               2: {"max": result(0.6), "avg": result(0.6)}}
    assert best_seeds(by_seed) == {"max": 1, "avg": 0}


def test_best_seed_can_be_picked_by_another_metric():
    by_seed = {0: {"max": result(0.5)}, 1: {"max": result(0.7)}}
    assert best_seeds(by_seed, metric="p10_prime") == {"max": 0}


def test_ties_go_to_the_lowest_seed():
    assert best_seeds({2: {"max": result(0.5)}, 1: {"max": result(0.5)}}) == {"max": 1}


def test_no_seeds_is_an_error():
    with pytest.raises(ValueError, match="no seeds"):
        best_seeds({})
