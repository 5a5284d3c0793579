from ml.ranking.cross_validation import (
    across_fold_seeds,
    choose_capacity,
    cross_validate,
    topic_folds,
    training_topic,
)
from ml.ranking.ranker import CAPACITIES
from tests.ml.factories import judged


def test_folds_partition_the_topics_and_depend_only_on_the_seed():
    topics = [f"T{i}" for i in range(29)]
    folds = topic_folds(topics, 5)
    assert sorted(t for fold in folds for t in fold) == sorted(topics)
    assert [len(fold) for fold in folds] == [6, 6, 6, 6, 5]
    assert folds == topic_folds(list(reversed(topics)), 5) != topic_folds(topics, 5, seed=1)


def test_a_learnable_signal_beats_the_dense_order_on_held_out_topics():
    data, qrels = judged()
    cv = cross_validate(data, qrels)
    assert cv.ranker["map_prime"] > cv.dense["map_prime"] + 0.2
    assert len(cv.folds) == 5 and all(fold.capacity in CAPACITIES for fold in cv.folds)
    assert set(cv.run) == set(qrels) and all(len(cv.run[t]) == 60 for t in cv.run)


def test_no_topic_is_ranked_by_a_model_that_saw_it(monkeypatch):
    data, qrels = judged(10)
    seen = []
    import ml.ranking.cross_validation as module
    real_fit = module.fit
    monkeypatch.setattr(module, "fit", lambda topics, capacity: seen.append(len(topics)) or real_fit(topics, capacity))
    monkeypatch.setattr(module, "choose_capacity", lambda *args, **kwargs: CAPACITIES[0])
    cv = cross_validate(data, qrels)
    assert seen == [8] * 5  # each outer fold fits on the other 8 of 10 topics
    assert all(len(fold.topics) == 2 for fold in cv.folds)


def test_capacity_is_chosen_among_the_grid():
    data, qrels = judged(8)
    assert choose_capacity(data, qrels, sorted(data)) in CAPACITIES


def test_the_gain_is_reported_under_each_fold_seed_beside_the_first_seeds_full_report():
    data, qrels = judged(10)
    first, report = across_fold_seeds(data, qrels, seeds=(0, 3))
    alone = cross_validate(data, qrels, seed=3)
    assert first.run == cross_validate(data, qrels, seed=0).run and report["learned"] == first.report()["learned"]
    assert [entry["seed"] for entry in report["fold_seeds"]] == [0, 3]
    other = report["fold_seeds"][1]
    assert other["learned"]["map_prime"] == round(alone.ranker["map_prime"], 4)
    assert other["delta_vs_dense"]["map_prime"] == round(alone.ranker["map_prime"] - alone.dense["map_prime"], 4) > 0.1


def test_topics_always_trained_on_join_the_inner_folds_that_choose_the_capacity_too(monkeypatch):
    data, qrels = judged(13)
    always = [training_topic(data[topic], qrels[topic]) for topic in ("T10", "T11", "T12")]
    dev = {topic: data[topic] for topic in sorted(data)[:10]}
    seen = []
    import ml.ranking.cross_validation as module
    real_fit = module.fit
    monkeypatch.setattr(module, "fit", lambda topics, capacity: seen.append(len(topics)) or real_fit(topics, capacity))
    cv = cross_validate(dev, qrels, always=always)
    assert set(seen) == {6 + 3, 8 + 3}  # inner folds train on 6 of an outer part's 8 topics, outer folds on 8
    assert set(cv.run) == set(dev)
