"""What a search returns: ranked hits with their scores and node alignments."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from searchapp.search.feedback_boost import Evidence
from searchapp.search.query import Query


@dataclass(frozen=True)
class Alignment:
    """Query node i aligned to result node j with cosine `similarity`, per representation."""

    query_labels: list[str]
    result_labels: list[str]
    pairs: list[tuple[int, int, float]]


@dataclass
class SearchHit:
    formula: Any
    """The hit's `Formula` row (with its corpus), read once for the whole page."""
    score: float
    parts: dict[str, float]
    rank: int
    alignment: dict[str, Alignment] = field(default_factory=dict)
    signals: list[tuple[str, float]] = field(default_factory=list)
    """The learned ranker's features that raised this hit most, with their contributions (`ml.ranking.features`)."""
    also: list[Any] = field(default_factory=list)
    """The same formula in other corpora searched (`Formula` rows with their corpus), below it in the order."""
    bindings: list[tuple[str, str]] | None = None
    """For a query with query variables, when this formula holds it exactly: (variable, the LaTeX in its place)."""
    feedback: Evidence | None = None
    """What people said of it for this query, and how far that moved it (`searchapp.search.feedback_boost`)."""
    explored: bool = False
    """Shown higher than it ranks, for people to judge: few have seen it for this query (`searchapp.search.exploration`)."""

    @property
    def formula_id(self) -> int:
        return self.formula.pk


@dataclass
class SearchResults:
    query: Query
    fusion: str
    """What ordered the hits: "learned" or the dense fusion used (`searchapp.search.ranking.ORDERS`)."""
    hits: list[SearchHit]
    candidates: int
    elapsed_ms: float
    teams: str = ""
    """For an interleaved search, the team of each hit: a (the ranking in use) or b (the candidate's)."""
    stages_ms: dict[str, float] = field(default_factory=dict)
    """Milliseconds per stage (`searchapp.search.stages`): read, first_stage, exact, order, people, hits; none for
    a query searched by its parts or readings."""


@dataclass
class PostHit:
    post: Any
    """The hit's `Post` row, with its corpus and the question it answers."""
    score: float
    rank: int
    parts: dict[str, float]
    """Its text, full-text and formula scores, whatever the mode combined."""
    formula_id: int | None = None
    """Its formula most similar to the question's formulas, if any was scored."""
    also: list[Any] = field(default_factory=list)
    """The same post in other corpora searched (`Post` rows with their corpus), below it in the order."""
    feedback: Evidence | None = None
    """What people said of it for this question, and how far that moved it."""


@dataclass
class PostResults:
    question: Any
    """The `searchapp.search.questions.Question` searched."""
    mode: str
    hits: list[PostHit]
    candidates: int
    elapsed_ms: float


def best_hits(found: list[SearchResults]) -> dict[int, SearchHit]:
    """Each formula's best-scoring hit among several searches' (formula id → hit), in the order the searches found
    them: the first search's first among equals."""
    best: dict[int, SearchHit] = {}
    for results in found:
        for hit in results.hits:
            if hit.formula_id not in best or hit.score > best[hit.formula_id].score:
                best[hit.formula_id] = hit
    return best
