"""The last stage of a search: order the exactly scored candidates by the learned ranker, or by dense fusion.

A corpus whose relevance feedback trained its own ranker is ranked by that one (`searchapp.rankers` says which it
is); every other search by the shipped ranker (`models/ranker`), and by the dense fusion when neither exists.
Rankers are re-read when their file changes, so a newly trained one takes effect without a restart. A candidate
ranker trained in the background waits until interleaving (`Interleave`, `searchapp.live.serving`) has compared
it with the one in use.
"""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings

from ml.ranking.features import FEATURES, Candidates, feature_matrix
from ml.ranking.interleaving import team_draft
from ml.ranking.ranker import MODEL_FILE, Ranker, RankerError, load
from ml.retrieval.score_fusion import DEFAULT_FUSION, FUSIONS, fuse
from searchapp.search.query import Query

LEARNED = "learned"
ORDERS = (LEARNED, *FUSIONS)
"""How a search orders its candidates: the learned ranker, or one of the dense fusions."""
DEFAULT_ORDER = LEARNED
SIGNALS_SHOWN = 3

logger = logging.getLogger(__name__)
_loaded: dict[Path, tuple[float, Ranker | None]] = {}


@dataclass(frozen=True)
class Ordering:
    scores: np.ndarray
    order: str
    """What ordered them: LEARNED, or the dense fusion used (also when LEARNED was asked for and no ranker exists)."""
    features: np.ndarray | None = None
    ranker: Ranker | None = None

    def signals(self, candidate: int) -> list[tuple[str, float]]:
        """The features that raised this candidate's score most, with their contributions (empty without a ranker)."""
        if self.ranker is None or self.features is None:
            return []
        contributions = self.ranker.contributions(self.features[candidate:candidate + 1])[0]
        top = np.argsort(-contributions, kind="stable")[:SIGNALS_SHOWN]
        return [(FEATURES[i], round(float(contributions[i]), 5)) for i in top if contributions[i] > 0]


def order_candidates(order: str, query: Query, candidates: Candidates, ranker: Ranker | None) -> Ordering:
    """By `ranker` (the one the corpus uses: `CorpusRanker.objects.ranker_for`) when `order` is LEARNED and there is
    one, else by a dense fusion."""
    if order == LEARNED and ranker is not None:
        features = candidate_features(query, candidates)
        return Ordering(ranker.scores(features), LEARNED, features, ranker)
    fusion = DEFAULT_FUSION if order == LEARNED else order
    return Ordering(fuse(candidates.slg, candidates.opg, fusion), fusion)


def candidate_features(query: Query, candidates: Candidates) -> np.ndarray:
    """The ranker's feature rows (`ml.ranking.features`) of a query's exactly scored candidates."""
    return feature_matrix(query.terms, len(query.vectors["slg"]), candidates)


def shipped_ranker() -> Ranker | None:
    """The shipped ranker (`models/ranker`), if there is a readable one."""
    return read_cached(settings.MATHSEARCH_RANKER_DIR)


@dataclass(frozen=True)
class Candidate:
    """A corpus's candidate ranker under test, named by when it was trained (what impressions record)."""
    id: str
    ranker: Ranker


def read_cached(directory: Path) -> Ranker | None:
    """The ranker saved in `directory`, read again only when its model file changes; None without one (or, logged,
    when it cannot be read: searches keep working without it)."""
    try:
        stamp = (directory / MODEL_FILE).stat().st_mtime
    except OSError:
        return None
    if directory not in _loaded or _loaded[directory][0] != stamp:
        try:
            read = load(directory)
        except RankerError as error:
            logger.error("%s; searching without it", error)
            read = None
        _loaded[directory] = (stamp, read)
    return _loaded[directory][1]


def forget(directory: Path) -> None:
    """Drop a removed ranker's folder from the cache."""
    _loaded.pop(directory, None)


@dataclass(frozen=True)
class Interleave:
    """A search that shows the team-draft interleaving of the ranking in use (team a) and the candidate's (team b)
    of the same scored candidates. `seed` is the coin's, the same for a person's pages of one query, so paging
    through an interleaved list neither repeats nor skips a result."""
    candidate: Candidate
    seed: int

    def rival_scores(self, query: Query, ordering: Ordering, candidates: Candidates) -> np.ndarray:
        """The candidate ranker's scores of the candidates (their feature rows computed once for both)."""
        features = ordering.features if ordering.features is not None else candidate_features(query, candidates)
        return self.candidate.ranker.scores(features)

    def merge(self, distinct: list[int], rival: np.ndarray, exact: np.ndarray, length: int) -> tuple[list[int], str]:
        """The first `length` of the interleaving of `distinct` (the order in use) with the same candidates ordered
        by `rival`'s scores (exact matches of a pattern first in both), and each position's team."""
        kept = np.asarray(distinct, dtype=np.int64)
        theirs = kept[np.lexsort((-rival[kept], ~exact[kept]))] if len(kept) else kept
        return team_draft(distinct, [int(i) for i in theirs], random.Random(self.seed), length)
