"""A corpus's rankers as the staff Rankers page reads them: each training's entry, the interleaving decisions on its
candidates and the candidate under test (`searchapp.rankers` keeps them; the learning loop,
`searchapp.live.loop`, writes them). Reading them needs no training code."""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from ml.ranking.interleaving import Outcome
from searchapp.live.serving import interleaving_outcome
from searchapp.models import CorpusRanker
from searchapp.rankers import entry

HISTORY_KEPT = 50
"""Trainings the staff page charts and lists, the newest."""


def without_it(entry: dict) -> tuple[str, dict]:
    """What a training's judged queries get without the corpus's own ranker, named, and its scores: the shipped
    ranker's when one was measured, else dense fusion's."""
    before = entry["before"]
    return ("the shipped ranker", before["shipped"]) if "shipped" in before else ("dense fusion", before["dense"])


@dataclass(frozen=True)
class UnderTest:
    """A corpus's candidate as the staff page shows it: its training's entry (offline numbers) and its interleaving."""
    candidate: str
    training: dict
    outcome: Outcome
    share: float
    min_compared: int
    max_compared: int


def under_test(corpus: str) -> UnderTest | None:
    row = CorpusRanker.objects.under_test(corpus)
    if row is None:
        return None
    return UnderTest(row.candidate, entry(row), interleaving_outcome(corpus, row.candidate),
                     settings.MATHSEARCH_INTERLEAVE_SHARE, settings.MATHSEARCH_INTERLEAVE_MIN_COMPARED,
                     settings.MATHSEARCH_INTERLEAVE_MAX_COMPARED)
