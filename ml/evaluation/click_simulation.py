"""Simulated users who click as people do: a position-based click model (Craswell et al. 2008; Chuklin, Markov
and de Rijke, "Click Models for Web Search", 2015, ch. 3).

A result at rank r is examined with probability examination(r) = (1/r)^η and, once examined, clicked with the
probability its relevance grade gives (its attractiveness). Examination and attractiveness are independent, so
clicks are biased towards the top exactly as the position-bias correction of the learning loop assumes, and a
relevant result clicked at rank 8 says more than one clicked at rank 1. Unjudged results are treated as grade 0.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ClickModel:
    attractiveness: tuple[float, ...] = (0.05, 0.3, 0.6, 0.9)
    """P(click | examined) by grade 0–3 (ARQMath's scale): grade 0 keeps a little noise, as people misclick."""
    eta: float = 1.0
    """How fast attention falls with rank; 1 halves it from rank 1 to 2, as eye-tracking and click logs of web
    search suggest (Joachims et al. 2005)."""

    def examination(self, ranks: np.ndarray) -> np.ndarray:
        return np.asarray(ranks, dtype=np.float64) ** -self.eta

    def attractive(self, grades: Sequence[int | None]) -> np.ndarray:
        """P(click | examined) of each result (grade None: unjudged)."""
        return np.array([self.attractiveness[min(grade or 0, len(self.attractiveness) - 1)] for grade in grades],
                        dtype=np.float64)

    def click_probabilities(self, grades: Sequence[int | None]) -> np.ndarray:
        """P(click) of each result of a list shown in this order."""
        return self.examination(np.arange(1, len(grades) + 1)) * self.attractive(grades)

    def examined(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """Which of the first `count` ranks one simulated person looks at (drawn before the list is known: a person
        who looks at rank 13 has opened the second page)."""
        return rng.random(count) < self.examination(np.arange(1, count + 1))

    def clicked(self, grades: Sequence[int | None], examined: np.ndarray, rng: np.random.Generator) -> list[int]:
        """The 1-based ranks clicked on a list with these grades by a person who examines `examined` of it."""
        chosen = examined[:len(grades)] & (rng.random(len(grades)) < self.attractive(grades))
        return [int(rank) for rank in np.flatnonzero(chosen) + 1]

    def clicks(self, grades: Sequence[int | None], rng: np.random.Generator) -> list[int]:
        """The 1-based ranks one simulated person clicks on a list with these grades."""
        return self.clicked(grades, self.examined(len(grades), rng), rng)

    def describe(self) -> dict:
        return {"model": "position-based", "examination": f"(1/rank)^{self.eta}",
                "click_if_examined_by_grade": list(self.attractiveness), "unjudged_grade": 0}
