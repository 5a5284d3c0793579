"""What a corpus's ranker report records, as the staff Rankers page reads it: each training's entry ("history"), the
interleaving decisions on its candidates ("decisions") and the candidate under test. The learning loop
(`searchapp.learning.background`) writes them; reading them needs no training code."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from ml.ranking.interleaving import Outcome
from ml.ranking.ranker import RankerError, read_report
from searchapp.learning.online import interleaving_outcome
from searchapp.search.ranking import candidate_for, corpus_ranker_dir

HISTORY_KEPT = 50
"""Entries kept in "history" and in "decisions", the newest."""


def ranker_report(directory: Path) -> dict:
    """The ranker report in `directory`; empty when no ranker was trained there yet (or it is unreadable)."""
    try:
        return read_report(directory)
    except RankerError:  # no ranker trained yet: an empty record
        return {}


def corpus_history(corpus: str) -> list[dict]:
    """The trainings of the corpus's own ranker so far (empty if it has none)."""
    return ranker_report(corpus_ranker_dir(corpus)).get("history", [])


def corpus_decisions(corpus: str) -> list[dict]:
    """The interleaving decisions on the corpus's candidates so far, oldest first."""
    return ranker_report(corpus_ranker_dir(corpus)).get("decisions", [])


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
    candidate = candidate_for(corpus)
    if candidate is None:
        return None
    entry = next((row for row in corpus_history(corpus) if row.get("candidate") == candidate.id), {})
    return UnderTest(candidate.id, entry, interleaving_outcome(corpus, candidate.id),
                     settings.MATHSEARCH_INTERLEAVE_SHARE, settings.MATHSEARCH_INTERLEAVE_MIN_COMPARED,
                     settings.MATHSEARCH_INTERLEAVE_MAX_COMPARED)
