"""The last stage of a search: order the exactly scored candidates by the learned ranker, or by dense fusion.

A corpus whose relevance feedback trained its own ranker (`train_ranker --feedback --corpus NAME`) is
ranked by that one; every other search by the shipped ranker (`models/ranker`), and by the dense fusion
when neither exists. Rankers are re-read when their file changes, so a newly trained one takes effect
without a restart.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings

from ml.ranking.features import FEATURES, Candidates, feature_matrix
from ml.ranking.ranker import MODEL_FILE, Ranker, RankerError, load
from ml.retrieval.fusion import DEFAULT_FUSION, FUSIONS, fuse
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


def order_candidates(order: str, query: Query, candidates: Candidates, corpus: str | None) -> Ordering:
    ranker = ranker_for(corpus) if order == LEARNED else None
    if ranker is not None:
        features = candidate_features(query, candidates)
        return Ordering(ranker.scores(features), LEARNED, features, ranker)
    fusion = DEFAULT_FUSION if order == LEARNED else order
    return Ordering(fuse(candidates.slg, candidates.opg, fusion), fusion)


def candidate_features(query: Query, candidates: Candidates) -> np.ndarray:
    """The ranker's feature rows (`ml.ranking.features`) of a query's exactly scored candidates."""
    return feature_matrix(query.terms, len(query.vectors["slg"]), candidates)


def ranker_for(corpus: str | None) -> Ranker | None:
    """The corpus's own ranker if feedback trained one, else the shipped one, else None."""
    return ranker_source(corpus)[1]


def ranker_source(corpus: str | None) -> tuple[str, Ranker | None]:
    """Which ranker a search of `corpus` uses ("corpus", "shipped" or "none") and the ranker itself."""
    own = _cached(corpus_ranker_dir(corpus)) if corpus else None
    if own is not None:
        return "corpus", own
    shipped = _cached(settings.MATHSEARCH_RANKER_DIR)
    return ("shipped", shipped) if shipped is not None else ("none", None)


def corpus_ranker_dir(corpus: str) -> Path:
    return settings.MATHSEARCH_CORPUS_RANKERS_DIR / corpus


def _cached(directory: Path) -> Ranker | None:
    try:
        stamp = (directory / MODEL_FILE).stat().st_mtime
    except OSError:
        return None
    if directory not in _loaded or _loaded[directory][0] != stamp:
        try:
            ranker: Ranker | None = load(directory)
        except RankerError as error:  # searches keep working on dense fusion; the log says why
            logger.error("%s; ranking by dense fusion instead", error)
            ranker = None
        _loaded[directory] = (stamp, ranker)
    return _loaded[directory][1]
