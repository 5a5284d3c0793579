"""Bootstrap intervals on cases whose answer is known without resampling."""
import numpy as np
import pytest

from ml.evaluation.bootstrap import Interval, mean_interval, paired_intervals, topic_intervals

METRICS = ("map_prime", "p10_prime")


def per_topic(values: dict[str, float]) -> dict[str, dict[str, float]]:
    return {topic: {"map_prime": value, "p10_prime": value / 2} for topic, value in values.items()}


RUN = per_topic({"T1": 0.2, "T2": 0.9, "T3": 0.4, "T4": 0.0, "T5": 0.7})


def test_identical_runs_differ_by_zero_with_a_zero_interval():
    assert paired_intervals(RUN, RUN, METRICS) == {m: Interval(0.0, 0.0, 0.0) for m in METRICS}


def test_a_run_better_on_every_topic_has_an_interval_above_zero():
    better = per_topic({topic: scores["map_prime"] + 0.05 + 0.1 * index
                        for index, (topic, scores) in enumerate(RUN.items())})
    for interval in paired_intervals(better, RUN, METRICS).values():
        assert 0 < interval.lo <= interval.mean <= interval.hi


def test_pairing_is_by_topic_not_by_position():
    shifted = {topic: {m: value + 0.1 for m, value in scores.items()} for topic, scores in reversed(RUN.items())}
    interval = paired_intervals(shifted, RUN, METRICS)["map_prime"]
    assert (interval.mean, interval.lo, interval.hi) == pytest.approx((0.1, 0.1, 0.1))


def test_paired_runs_must_cover_the_same_topics():
    with pytest.raises(ValueError, match=r"same topics; only in one: \['T9'\]"):
        paired_intervals({**RUN, "T9": RUN["T1"]}, RUN, METRICS)


def test_two_topics_zero_and_one_span_the_whole_range():
    # Means of two draws from {0, 1} are 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4: both 2.5 % tails are hit.
    assert mean_interval([0.0, 1.0]) == Interval(0.5, 0.0, 1.0)


def test_many_topics_match_the_normal_approximation():
    values = np.random.default_rng(1).uniform(size=400)
    half_width = 1.96 * values.std() / np.sqrt(values.size)
    interval = mean_interval(values.tolist())
    assert (interval.lo, interval.hi) == pytest.approx((values.mean() - half_width, values.mean() + half_width),
                                                       abs=0.004)


def test_more_topics_give_a_narrower_interval():
    few, many = mean_interval([0.0, 1.0] * 5), mean_interval([0.0, 1.0] * 200)
    assert many.hi - many.lo < (few.hi - few.lo) / 4


def test_the_seed_makes_intervals_reproducible():
    values = [0.1, 0.5, 0.3, 0.9, 0.2, 0.6]
    assert mean_interval(values, seed=3) == mean_interval(values, seed=3)
    assert mean_interval(values, seed=3) != mean_interval(values, seed=4)


def test_topic_intervals_give_each_metric_its_mean():
    intervals = topic_intervals(RUN, METRICS)
    assert intervals["map_prime"].mean == pytest.approx(0.44) and intervals["p10_prime"].mean == pytest.approx(0.22)
    assert all(i.lo <= i.mean <= i.hi for i in intervals.values())


@pytest.mark.parametrize("values, options, message", [
    pytest.param([], {}, "non-empty", id="no-topics"),
    pytest.param([0.5], {"resamples": 0}, "resamples ≥ 1", id="no-resamples"),
    pytest.param([0.5], {"level": 1.0}, "0 < level < 1", id="level-out-of-range"),
])
def test_bad_input_is_named(values, options, message):
    with pytest.raises(ValueError, match=message):
        mean_interval(values, **options)
