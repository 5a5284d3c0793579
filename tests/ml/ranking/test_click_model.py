import numpy as np
import pytest

from ml.ranking.click_model import MAX_RANK, estimate_propensities, ipw_relevance, prior


def simulated(theta: np.ndarray, sessions: int, seed: int = 0, per_query: int = 10, queries: int = 100):
    """Logs of the position-based model: each session shows one query's results in a random order (as interleaving
    and changing rankers move results between ranks) and clicks with probability θ_rank · γ."""
    rng = np.random.default_rng(seed)
    gamma = rng.random((queries, per_query))
    results, ranks, clicks = [], [], []
    for _ in range(sessions):
        query = int(rng.integers(queries))
        for rank, doc in enumerate(rng.permutation(per_query), start=1):
            results.append((query, int(doc)))
            ranks.append(rank)
            clicks.append(bool(rng.random() < theta[rank - 1] * gamma[query, doc]))
    return results, ranks, clicks


def test_em_recovers_the_examination_probabilities_of_simulated_clicks():
    theta = 0.9 / np.arange(1, 11) ** 0.7
    found = estimate_propensities(*simulated(theta, 4000))
    assert found.estimated and found.impressions == 40_000
    assert np.abs(found.theta[:10] - theta / theta[0]).max() < 0.05
    assert found.theta[0] == 1.0


def test_a_steeper_bias_is_told_from_a_flatter_one():
    steep = estimate_propensities(*simulated(1 / np.arange(1, 11) ** 1.5, 4000, seed=1))
    flat = estimate_propensities(*simulated(1 / np.arange(1, 11) ** 0.3, 4000, seed=1))
    assert steep.at(10) < 0.1 < 0.4 < flat.at(10)


def test_with_few_clicks_the_prior_is_returned():
    results, ranks, clicks = simulated(np.full(10, 0.05), 20)
    found = estimate_propensities(results, ranks, clicks)
    assert not found.estimated and np.allclose(found.theta, prior() / prior()[0])
    assert found.at(3) == pytest.approx(1 / 3) and found.at(10_000) == found.theta[MAX_RANK - 1]


def test_ranks_without_impressions_keep_their_prior():
    found = estimate_propensities(*simulated(1 / np.arange(1, 11), 3000, seed=2))
    assert found.at(30) == pytest.approx(1 / 30, rel=0.2)


def test_ipw_counts_a_deep_click_for_more_and_measures_how_often_a_result_was_looked_at():
    propensities = estimate_propensities([], [], [])  # the prior: θ_k = 1/k
    assert ipw_relevance([1, 1, 1, 1], [True, False, False, False], propensities) == (0.25, 4.0)
    relevance, mass = ipw_relevance([10, 10], [True, False], propensities)
    assert relevance == 1.0 and mass == pytest.approx(0.2)  # 1/0.1 ÷ 2, capped at 1
    assert ipw_relevance([], [], propensities) == (0.0, 0.0)


def test_logs_of_unequal_lengths_are_refused():
    with pytest.raises(ValueError, match="as long"):
        estimate_propensities([1], [1, 2], [True])
