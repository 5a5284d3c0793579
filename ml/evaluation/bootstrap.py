"""Percentile bootstrap over topics: how far a mean metric could move with another sample of topics.

Topics are the unit that varies between test collections, so they are what gets resampled (Sakai 2006,
"Evaluating evaluation metrics based on the bootstrap"). With T topics and B resamples:

    means_b = (1/T) Σ_t x[idx_b,t],   idx_b ~ Uniform{0..T-1}^T,  b = 1..B
    95 % interval = the 2.5th and 97.5th percentiles of means_1..B

A paired difference resamples the same topic indices for both systems, which is the bootstrap of the
per-topic differences d_t = a_t − b_t: identical runs give [0, 0], a run better on every topic an interval
above 0. The resample indices depend only on T and the seed, so every row of one report shares them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 2000
SEED = 0
LEVEL = 0.95

PerTopic = Mapping[str, Mapping[str, float]]
"""topic → metric → value, as `ml.evaluation.metrics.evaluate` returns under "per_topic"."""


@dataclass(frozen=True)
class Interval:
    """A mean over topics and its bootstrap interval."""

    mean: float
    lo: float
    hi: float


def mean_interval(values: Sequence[float], resamples: int = RESAMPLES, seed: int = SEED,
                  level: float = LEVEL) -> Interval:
    """The mean of per-topic `values` and its percentile bootstrap interval at `level`."""
    sample = np.asarray(values, dtype=np.float64)  # (topics,)
    if sample.ndim != 1 or sample.size == 0:
        raise ValueError(f"need a non-empty list of per-topic values, got shape {sample.shape}")
    if resamples < 1 or not 0 < level < 1:
        raise ValueError(f"need resamples ≥ 1 and 0 < level < 1, got {resamples} and {level}")
    indices = np.random.default_rng(seed).integers(0, sample.size, size=(resamples, sample.size))
    means = sample[indices].mean(axis=1)  # (resamples,)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return Interval(float(sample.mean()), float(lo), float(hi))


def topic_intervals(per_topic: PerTopic, metrics: Sequence[str], **options) -> dict[str, Interval]:
    """Per metric, the mean over topics of one run and its bootstrap interval."""
    topics = sorted(per_topic)
    return {m: mean_interval([per_topic[t][m] for t in topics], **options) for m in metrics}


def paired_intervals(per_topic: PerTopic, reference: PerTopic, metrics: Sequence[str],
                     **options) -> dict[str, Interval]:
    """Per metric, the mean of per-topic differences `per_topic − reference` and its paired interval."""
    if set(per_topic) != set(reference):
        raise ValueError(f"paired runs must cover the same topics; only in one: "
                         f"{sorted(set(per_topic) ^ set(reference))}")
    topics = sorted(per_topic)
    return {m: mean_interval([per_topic[t][m] - reference[t][m] for t in topics], **options) for m in metrics}
