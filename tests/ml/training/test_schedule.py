import math

import pytest

from ml.training.schedule import learning_rate


@pytest.mark.parametrize(
    "step, warmup, schedule, expected",
    [
        pytest.param(0, 0, "constant", 1.0, id="constant"),
        pytest.param(99, 0, "constant", 1.0, id="constant-at-the-end"),
        pytest.param(0, 4, "constant", 0.25, id="warmup-first-step"),
        pytest.param(3, 4, "constant", 1.0, id="warmup-last-step"),
        pytest.param(0, 0, "cosine", 1.0, id="cosine-starts-at-base"),
        pytest.param(50, 0, "cosine", 0.5, id="cosine-halfway"),
        pytest.param(4, 4, "cosine", 1.0, id="cosine-starts-after-warmup"),
        pytest.param(52, 4, "cosine", 0.5, id="cosine-halfway-after-warmup"),
    ],
)
def test_learning_rate(step, warmup, schedule, expected):
    assert learning_rate(1.0, step, 100, warmup, schedule) == pytest.approx(expected)


def test_cosine_decays_monotonically_to_almost_zero():
    rates = [learning_rate(1.0, step, 100, 10, "cosine") for step in range(10, 100)]
    assert all(a > b for a, b in zip(rates, rates[1:]))
    assert rates[-1] == pytest.approx(0.5 * (1 + math.cos(math.pi * 89 / 90)))
    assert rates[-1] < 1e-3
