"""Learning rate of each update: an optional linear warm-up, then constant or a cosine decay to zero.

The rate is a function of the update's index alone, not of a scheduler object's state, so a run resumed
at any step sets exactly the rate the uninterrupted run had there.
"""
from __future__ import annotations

import math

SCHEDULES = ("constant", "cosine")


def learning_rate(base: float, step: int, total: int, warmup: int, schedule: str) -> float:
    """Rate of update `step` (0-based) of `total`: base·(step+1)/warmup while warming up, then per `schedule`
    (one of SCHEDULES; TrainConfig checks it).

    cosine: base·½(1 + cos(π·t)), t = (step − warmup)/(total − warmup) going from 0 towards 1 (SGDR, Loshchilov &
    Hutter 2017, without restarts).
    """
    if step < warmup:
        return base * (step + 1) / warmup
    if schedule == "constant":
        return base
    progress = (step - warmup) / max(total - warmup, 1)
    return base * 0.5 * (1 + math.cos(math.pi * progress))
