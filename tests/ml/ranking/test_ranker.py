import numpy as np
import pytest

from ml.ranking.features import FEATURES
from ml.ranking.ranker import Capacity, RankerError, TrainingTopic, fit, load
from ml.retrieval.score_fusion import fuse


def topics(count: int = 12, seed: int = 0) -> list[TrainingTopic]:
    """Topics whose grade is decided by the third feature alone; the dense scores are alike, the rest noise."""
    rng = np.random.default_rng(seed)
    made = []
    for _ in range(count):
        features = rng.random((40, len(FEATURES))).astype(np.float32)
        features[:, :2] = 0.5
        made.append(TrainingTopic(features, np.digitize(features[:, 2], [0.5, 0.75, 0.9])))
    return made


def test_a_fitted_ranker_orders_by_the_signal_that_decides_the_grade():
    ranker = fit(topics(), Capacity(3, 50))
    test = topics(1, seed=1)[0]
    scores = ranker.scores(test.features)
    assert np.corrcoef(scores, test.features[:, 2])[0, 1] > 0.8
    contributions = ranker.contributions(test.features)
    assert contributions.shape == (40, len(FEATURES))
    assert np.abs(contributions).sum(axis=0).argmax() == 2


def test_a_saved_ranker_loads_and_scores_the_same(tmp_path):
    ranker = fit(topics(), Capacity(3, 20))
    ranker.save(tmp_path, {"trained_on": "test"})
    again = load(tmp_path)
    features = topics(1, seed=2)[0].features
    assert np.allclose(again.scores(features), ranker.scores(features)) and again.capacity == Capacity(3, 20)


def test_a_ranker_of_other_features_is_refused(tmp_path):
    fit(topics(), Capacity(3, 5)).save(tmp_path, {})
    report = (tmp_path / "ranker.json").read_text().replace('"slg"', '"something_else"')
    (tmp_path / "ranker.json").write_text(report)
    with pytest.raises(RankerError, match="other features"):
        load(tmp_path)


def test_a_missing_or_broken_ranker_is_a_ranker_error(tmp_path):
    with pytest.raises(RankerError, match="cannot read"):
        load(tmp_path)
    fit(topics(), Capacity(3, 5)).save(tmp_path, {})
    (tmp_path / "model.txt").write_text("not a model")
    with pytest.raises(RankerError, match="cannot read"):
        load(tmp_path)


def test_the_trees_correct_the_dense_order_rather_than_replace_it():
    ranker = fit(topics(), Capacity(3, 10))
    features = topics(1, seed=3)[0].features
    features[:, 0] = features[:, 1] = np.linspace(0.2, 0.9, 40)
    scores = ranker.scores(features)
    assert np.abs(scores - fuse(features[:, 0], features[:, 1], "f1")).max() < 0.05  # on the dense score's scale
    assert scores[:10].max() < scores[-10:].min()  # dense scores 0.5 apart keep their order whatever the trees say
    assert not np.all(np.diff(scores) > 0)  # close neighbours are reordered by the signal the trees learned


def test_topics_with_fewer_than_two_judged_candidates_teach_nothing():
    lonely = TrainingTopic(np.zeros((1, len(FEATURES)), dtype=np.float32), np.array([2]))
    with pytest.raises(ValueError, match="two judged"):
        fit([lonely], Capacity(3, 5))


def test_a_topics_weight_sets_how_much_it_teaches_against_the_others():
    contrary = [TrainingTopic(topic.features, np.digitize(topic.features[:, 3], [0.5, 0.75, 0.9]), weight)
                for topic, weight in zip(topics(12, seed=4), [5.0] * 12)]
    test = topics(1, seed=1)[0]
    heavy = fit(topics() + contrary, Capacity(3, 50)).scores(test.features)
    light = fit(topics() + [TrainingTopic(t.features, t.grades, 0.2) for t in contrary], Capacity(3, 50)).scores(
        test.features)
    assert np.corrcoef(light, test.features[:, 2])[0, 1] > np.corrcoef(heavy, test.features[:, 2])[0, 1] + 0.2
