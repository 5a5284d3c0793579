"""How likely a person is to look at a result at all, by its rank: what a click there says is divided by it.

A click on the first result says little (people open it whatever it is); a click on the twelfth says that someone
read down to it and chose it. Weighting clicks by the inverse of this examination propensity (Joachims, Swaminathan
& Schnabel 2017, "Unbiased learning-to-rank with biased feedback") counts each rank's clicks as if every rank were
looked at alike.
"""
from __future__ import annotations

POWER = 1.0
"""The prior, before the logs say otherwise: propensity(rank) = 1 / rank^POWER, the power law Joachims et al. found
on a search engine's logs (η = 1). An estimate from the logs (e.g. by randomised swaps or a click model) replaces
this function's body; callers need nothing else."""


def examination_propensity(rank: int) -> float:
    """The probability that a person looks at the result shown at `rank` (1 = first), in (0, 1]."""
    return 1.0 / max(rank, 1) ** POWER
