"""How likely a person is to look at a result at all, by its rank: what a click there says is divided by it.

A click on the first result says little (people open it whatever it is); a click on the twelfth says that someone
read down to it and chose it. Weighting clicks by the inverse of this examination propensity (Joachims, Swaminathan
& Schnabel 2017, "Unbiased learning-to-rank with biased feedback") counts each rank's clicks as if every rank were
looked at alike.

The propensities are those the learning round last estimated from the logs (`searchapp.learning.clicks`, EM of the
position-based model), kept in the cache; until it has, the prior 1/rank (`ml.ranking.click_model.prior`). A process
re-reads the cache at most every REREAD_SECONDS, so a search costs no round trip for them.
"""
from __future__ import annotations

import time

import numpy as np
from django.core.cache import cache

from ml.ranking.click_model import Propensities, prior

CACHE_KEY = "click-propensities"
REREAD_SECONDS = 60.0
_read: tuple[float, Propensities] | None = None


def current_propensities() -> Propensities:
    """The latest estimate (or the prior), as this process last read it."""
    global _read
    if _read is None or time.monotonic() - _read[0] > REREAD_SECONDS:
        theta = cache.get(CACHE_KEY)
        found = Propensities(np.asarray(theta), True, 0, 0) if theta else Propensities(prior(), False, 0, 0)
        _read = (time.monotonic(), found)
    return _read[1]


def remember_propensities(propensities: Propensities) -> None:
    """Share an estimate with every process's searches (no expiry: the next estimate replaces it)."""
    global _read
    if propensities.estimated:
        cache.set(CACHE_KEY, [float(theta) for theta in propensities.theta], None)
        _read = (time.monotonic(), propensities)
