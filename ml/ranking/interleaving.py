"""Team-draft interleaving (Radlinski, Kurup & Joachims, CIKM 2008, "How does clickthrough data reflect retrieval
quality?", Algorithm 2): two rankings compared online by the clicks on one list drawn from both.

Like captains picking teams, the team with fewer picks so far (a coin toss when even) adds its highest-ranked
result not yet in the list. Each click credits the team that placed the clicked result; an impression whose clicks
credit one team more is a win for it, equal credit a tie, and impressions without clicks are not compared. People
see one list of the usual length, so a worse ranking costs them at most half a list.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ml.evaluation.bootstrap import mean_interval

T = TypeVar("T")
A, B = "a", "b"
"""The teams: the ranking in use (A) and the one under test (B)."""


def team_draft(a: Sequence[T], b: Sequence[T], rng: random.Random, length: int | None = None) -> tuple[list[T], str]:
    """The interleaved list of rankings `a` and `b` (of the same items, or not), up to `length` items (all by
    default), and the team of each position as a string of A and B."""
    wanted = len(set(a) | set(b)) if length is None else length
    merged: list[T] = []
    teams: list[str] = []
    placed: set[T] = set()
    picks = {A: 0, B: 0}
    heads = {A: 0, B: 0}
    rankings = {A: a, B: b}
    while len(merged) < wanted:
        first = A if picks[A] < picks[B] or (picks[A] == picks[B] and rng.random() < 0.5) else B
        for team in (first, B if first == A else A):  # a team whose ranking is used up lets the other pick
            ranking = rankings[team]
            while heads[team] < len(ranking) and ranking[heads[team]] in placed:
                heads[team] += 1
            if heads[team] < len(ranking):
                item = ranking[heads[team]]
                merged.append(item)
                teams.append(team)
                placed.add(item)
                picks[team] += 1
                break
        else:
            break
    return merged, "".join(teams)


def credit(teams: str, clicked: Iterable[int]) -> int:
    """+1 if the clicks (0-based positions of the list `teams` describes) credit B more, −1 if A, 0 if even."""
    positions = set(clicked)
    b = sum(teams[i] == B for i in positions if 0 <= i < len(teams))
    a = sum(teams[i] == A for i in positions if 0 <= i < len(teams))
    return (b > a) - (a > b)


@dataclass(frozen=True)
class Outcome:
    """Compared impressions from B's side: wins, losses and ties, and the 95 % bootstrap interval of
    (wins − losses) / compared (the mean of the per-impression credits)."""

    wins: int
    losses: int
    ties: int
    lo: float
    hi: float

    @property
    def compared(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def delta(self) -> float:
        return (self.wins - self.losses) / self.compared if self.compared else 0.0


def outcome(credits: Sequence[int]) -> Outcome:
    """The outcome of the compared impressions' credits (`credit` of each)."""
    wins, losses = sum(c > 0 for c in credits), sum(c < 0 for c in credits)
    if not credits:
        return Outcome(0, 0, 0, -1.0, 1.0)
    interval = mean_interval([float(c) for c in credits])
    return Outcome(wins, losses, len(credits) - wins - losses, interval.lo, interval.hi)


BETTER, WORSE, UNDECIDED = "better", "worse", "undecided"


def verdict(result: Outcome, min_compared: int) -> str:
    """B is BETTER once at least `min_compared` impressions were compared and the interval lies above 0, WORSE when
    it lies below 0, else UNDECIDED: a candidate is not judged on a handful of clicks either way."""
    if result.compared < min_compared:
        return UNDECIDED
    return BETTER if result.lo > 0 else WORSE if result.hi < 0 else UNDECIDED
