"""Topic-grouped, nested cross-validation of the ranker: every reported number comes from topics it never saw.

The outer folds split the topics; within each outer training part, inner folds choose the capacity
(`ranker.CAPACITIES`) by the mean of MAP′ and P′@10 over their held-out topics, and the chosen capacity is
fitted on the whole training part and ranks the outer fold's topics. The capacity of the model that ships
is chosen the same way over all topics. Dense-only rankings of the same candidates are scored beside it.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from corpora.ranking import Qrels, Run, rank_by_score
from ml.evaluation.bootstrap import paired_intervals
from ml.evaluation.metrics import evaluate, rounded
from ml.ranking.ranker import CAPACITIES, Capacity, TrainingTopic, fit

FOLDS = 5
INNER_FOLDS = 4
DELTA_METRICS = ("map_prime", "p10_prime", "ndcg_prime")
FOLD_SEEDS = (0, 1, 2)
"""The fold assignments a gain is reported under. With 29 topics, which topics share a fold moves the held-out
MAP′ by up to 0.01 (models/ranker/README.md), as much as the ranker's whole gain: one assignment alone overstates
or hides it."""


@dataclass(frozen=True)
class TopicCandidates:
    """A query's candidates: doc ids, their feature rows, and the dense fused score (the order without a ranker)."""

    docs: list[str]
    features: np.ndarray
    dense: np.ndarray


@dataclass(frozen=True)
class Fold:
    topics: list[str]
    capacity: Capacity
    ranker: dict
    dense: dict


@dataclass(frozen=True)
class CrossValidation:
    run: Run
    dense_run: Run
    folds: list[Fold]
    ranker: dict
    """`ml.evaluation.metrics.evaluate` of `run` over all topics."""
    dense: dict

    def report(self) -> dict:
        """The learned and dense means, the paired difference with its 95 % bootstrap interval over topics
        ([mean, lo, hi]), and the spread over folds: what a reader needs to judge the gain."""
        delta = paired_intervals(self.ranker["per_topic"], self.dense["per_topic"], DELTA_METRICS)
        return {"learned": rounded(self.ranker), "dense": rounded(self.dense),
                "delta_vs_dense": {m: [round(i.mean, 4), round(i.lo, 4), round(i.hi, 4)] for m, i in delta.items()},
                "folds": [{"topics": len(fold.topics), "capacity": str(fold.capacity), "learned": rounded(fold.ranker),
                           "dense": rounded(fold.dense)} for fold in self.folds]}


def training_topic(candidates: TopicCandidates, judgments: dict[str, int]) -> TrainingTopic:
    judged = [i for i, doc in enumerate(candidates.docs) if doc in judgments]
    return TrainingTopic(candidates.features[judged], np.array([int(judgments[candidates.docs[i]]) for i in judged]))


def ranking(candidates: TopicCandidates, scores: np.ndarray) -> list[tuple[str, float]]:
    return rank_by_score(zip(candidates.docs, (float(s) for s in scores)))


def topic_folds(topics: list[str], folds: int, seed: int = 0) -> list[list[str]]:
    """Topics shuffled by `seed` and dealt round-robin into `folds` groups."""
    shuffled = sorted(topics)
    random.Random(seed).shuffle(shuffled)
    return [sorted(shuffled[i::folds]) for i in range(min(folds, len(shuffled)))]


def held_out_run(data: dict[str, TopicCandidates], qrels: Qrels, folds: list[list[str]],
                 capacity_of, always: Sequence[TrainingTopic] = ()) -> tuple[Run, list[Capacity]]:
    """Each fold's topics ranked by a ranker fitted on the other folds (and the `always` topics);
    `capacity_of(train topics)` sizes it."""
    run, capacities = {}, []
    for fold in folds:
        train = [topic for topic in data if topic not in fold and topic in qrels]
        capacity = capacity_of(train)
        ranker = fit([training_topic(data[topic], qrels[topic]) for topic in train] + list(always), capacity)
        capacities.append(capacity)
        run.update({topic: ranking(data[topic], ranker.scores(data[topic].features)) for topic in fold if topic in data})
    return run, capacities


def criterion(scores: dict) -> float:
    """The one number rankers are compared by: the mean of MAP′ and P′@10, the two metrics the judged pools
    leave room to move (nDCG′ of a random order is already ~0.54)."""
    return (scores["map_prime"] + scores["p10_prime"]) / 2


def choose_capacity(data: dict[str, TopicCandidates], qrels: Qrels, topics: list[str], folds: int = INNER_FOLDS,
                    seed: int = 0, always: Sequence[TrainingTopic] = ()) -> Capacity:
    """The capacity whose cross-validated mean of MAP′ and P′@10 over `topics` is highest (the smaller on a tie);
    the `always` topics join every inner fold's training data, as they join the outer ones'."""
    groups = topic_folds(topics, folds, seed)
    inner = {topic: data[topic] for topic in topics}
    judged = {topic: qrels[topic] for topic in topics}
    best, best_score = CAPACITIES[0], -1.0
    for capacity in CAPACITIES:
        run, _ = held_out_run(inner, judged, groups, lambda _train, c=capacity: c, always)
        scores = evaluate(run, judged)
        if (score := criterion(scores)) > best_score:
            best, best_score = capacity, score
    return best


def cross_validate(data: dict[str, TopicCandidates], qrels: Qrels, folds: int = FOLDS, seed: int = 0,
                   capacity: Capacity | None = None, always: Sequence[TrainingTopic] = ()) -> CrossValidation:
    """Nested cross-validation over the judged topics of `data` (see the module docstring). A given `capacity`
    is used in every fold instead of an inner choice; `always` topics join every fold's training data."""
    topics = sorted(topic for topic in data if topic in qrels)
    groups = topic_folds(topics, folds, seed)
    run, capacities = held_out_run(data, qrels, groups, lambda train: capacity or choose_capacity(
        data, qrels, train, seed=seed, always=always), always)
    dense_run = {topic: ranking(data[topic], data[topic].dense) for topic in topics}
    judged = {topic: qrels[topic] for topic in topics}
    fold_reports = [Fold(group, capacity, _means(evaluate(run, _only(judged, group))),
                         _means(evaluate(dense_run, _only(judged, group))))
                    for group, capacity in zip(groups, capacities)]
    return CrossValidation(run, dense_run, fold_reports, evaluate(run, judged), evaluate(dense_run, judged))


def across_fold_seeds(data: dict[str, TopicCandidates], qrels: Qrels, seeds: Sequence[int] = FOLD_SEEDS,
                      **options) -> tuple[CrossValidation, dict]:
    """`cross_validate` under each fold seed: the first seed's cross-validation (its run is the one written out)
    and its report, to which "fold_seeds" adds each seed's learned means and paired Δ against dense, so a reader
    sees the gain beside its fold noise. The dense ranking does not depend on the folds: it is the same under
    every seed."""
    runs = [cross_validate(data, qrels, seed=seed, **options) for seed in seeds]
    per_seed = [{"seed": seed, "learned": rounded(cv.ranker),
                 "delta_vs_dense": {metric: round(cv.ranker[metric] - cv.dense[metric], 4) for metric in DELTA_METRICS}}
                for seed, cv in zip(seeds, runs)]
    return runs[0], {**runs[0].report(), "fold_seeds": per_seed}


def _only(qrels: Qrels, topics: list[str]) -> Qrels:
    return {topic: qrels[topic] for topic in topics}


def _means(scores: dict) -> dict:
    return {name: value for name, value in scores.items() if name != "per_topic"}
