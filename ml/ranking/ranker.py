"""A LambdaMART ranker (LightGBM) over `ml.ranking.features`, saved as LightGBM's text model plus its feature list.

The trees correct the dense ranking rather than replace it: every candidate starts from BASE_WEIGHT × its dense
F1 score (LightGBM's `init_score`), and boosting adds what the structural signals say on top. Trees that had to
rebuild the dense order from scratch, out of a few dozen steps, lost 0.02–0.05 MAP′ to it under cross-validation
(models/ranker/README.md). It is trained on judged candidates only: unjudged ones carry no label, and the prime
metrics it is judged by ignore them too. Capacity (leaves, rounds) is small and chosen by topic-grouped
cross-validation (`ml.ranking.cross_validation`): with a few dozen topics, a larger model learns the topics.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ml.ranking.features import FEATURES
from ml.retrieval.score_fusion import fuse

if TYPE_CHECKING:
    import lightgbm  # imported where a ranker is trained or loaded: with scikit-learn, 1.1 s of every process's start

MODEL_FILE = "model.txt"
REPORT_FILE = "ranker.json"
LEARNING_RATE = 0.05
MIN_ROWS_PER_LEAF = 20
BASE_WEIGHT = 20.0
"""The dense score's scale as the trees' starting point: F1 scores differ by hundredths between neighbours, and
lambdarank's steps are of order 0.1, so ×20 lets a few trees reorder close neighbours but not distant ones
(1, 5 and 20 were compared on the development topics' cross-validation; 20 was best)."""


@dataclass(frozen=True)
class Capacity:
    leaves: int
    rounds: int

    def __str__(self) -> str:
        return f"{self.leaves} leaves × {self.rounds} rounds"


CAPACITIES = tuple(Capacity(leaves, rounds) for leaves in (3, 7) for rounds in (10, 25, 100))
"""The capacities cross-validation chooses among."""


@dataclass(frozen=True)
class TrainingTopic:
    """One query's judged candidates: feature rows and integer grades (ARQMath: 0–3), and how much the topic
    counts against the others (LightGBM's per-row weight, the same for all its rows)."""

    features: np.ndarray
    grades: np.ndarray
    weight: float = 1.0


class RankerError(Exception):
    """A saved ranker that cannot be used: unreadable, or made for other features."""


@dataclass(frozen=True)
class Ranker:
    booster: lightgbm.Booster
    capacity: Capacity

    def scores(self, features: np.ndarray) -> np.ndarray:
        """On the dense F1 score's scale (the trees' scale ÷ BASE_WEIGHT): a candidate's formula similarity plus the
        trees' correction, so a learned score reads like a fused one and mixes with other cosines (SSEmb)."""
        if not len(features):
            return np.zeros(0)
        return (base_scores(features) + np.asarray(self.booster.predict(features, num_threads=1))) / BASE_WEIGHT

    def contributions(self, features: np.ndarray) -> np.ndarray:
        """(n, len(FEATURES)) each feature's additive share of the trees' correction to the dense score (SHAP
        values; the bias column dropped), on the scale of `scores`."""
        if not len(features):
            return np.zeros((0, len(FEATURES)))
        shares = self.booster.predict(features, pred_contrib=True, num_threads=1)
        return np.asarray(shares)[:, :len(FEATURES)] / BASE_WEIGHT

    def save(self, directory: Path, report: dict) -> None:
        """The model and `report` (what it was trained on and how it cross-validated) into `directory`."""
        directory.mkdir(parents=True, exist_ok=True)
        self.booster.save_model(str(directory / MODEL_FILE))
        self._write_report(directory, report)

    def _write_report(self, directory: Path, report: dict) -> None:
        (directory / REPORT_FILE).write_text(json.dumps(
            {"features": list(FEATURES), "capacity": [self.capacity.leaves, self.capacity.rounds], **report},
            indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def fit(topics: list[TrainingTopic], capacity: Capacity, seed: int = 0) -> Ranker:
    """LambdaMART on the topics' judged candidates (topics with fewer than two candidates teach no order)."""
    import lightgbm

    usable = [topic for topic in topics if len(topic.grades) >= 2]
    if not usable:
        raise ValueError("no topic has two judged candidates to order")
    features = np.concatenate([topic.features for topic in usable])
    data = lightgbm.Dataset(features, np.concatenate([topic.grades for topic in usable]).astype(np.int32),
                            group=[len(topic.grades) for topic in usable], init_score=base_scores(features),
                            weight=np.concatenate([np.full(len(topic.grades), topic.weight) for topic in usable]),
                            feature_name=list(FEATURES), free_raw_data=True)
    params = {"objective": "lambdarank", "num_leaves": capacity.leaves, "learning_rate": LEARNING_RATE,
              "min_data_in_leaf": MIN_ROWS_PER_LEAF, "seed": seed, "deterministic": True, "num_threads": 1,
              "verbosity": -1}
    return Ranker(lightgbm.train(params, data, num_boost_round=capacity.rounds), capacity)


def base_scores(features: np.ndarray) -> np.ndarray:
    """BASE_WEIGHT × the dense F1 fusion of the SLG and OPG columns: the score before any tree."""
    return BASE_WEIGHT * fuse(features[:, FEATURES.index("slg")], features[:, FEATURES.index("opg")], "f1")


def load(directory: Path) -> Ranker:
    """The ranker saved in `directory`; RankerError if it is unreadable or its features are not today's."""
    import lightgbm

    report = read_report(directory)
    try:
        booster = lightgbm.Booster(model_file=str(directory / MODEL_FILE))
        capacity = Capacity(*report["capacity"])
    except (OSError, ValueError, KeyError, TypeError, lightgbm.basic.LightGBMError) as error:
        raise RankerError(f"cannot read the ranker in {directory}: {error}") from None
    if tuple(report.get("features", ())) != FEATURES or booster.feature_name() != list(FEATURES):
        raise RankerError(f"the ranker in {directory} was trained on other features "
                          f"({', '.join(report.get('features', ()))}); retrain it with train_ranker")
    return Ranker(booster, capacity)


def read_report(directory: Path) -> dict:
    """The saved report of the ranker in `directory` (RankerError if unreadable)."""
    try:
        return json.loads((directory / REPORT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RankerError(f"cannot read {directory / REPORT_FILE}: {error}") from None
