"""Rank each topic's judged pool with a scoring function: the cheap, collection-free evaluation setting.

Ranking only the judged docs of each topic (instead of retrieving from the whole collection) lets any
pairwise scorer be measured with prime metrics; DESIGN.md §5 warns these numbers run higher than
full-collection ones and are not comparable with official ARQMath runs.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from corpora.ranking import Qrels, Run, rank_by_score


@dataclass
class PoolRanking:
    """The run, plus what could not be ranked.

    A judged doc missing from `pool_docs` is left out of its topic's list — it then counts as a miss in
    MAP′ and nDCG′, never as silently removed from the pool. A topic without a query gets no list (scores 0).
    """

    run: Run
    missing_docs: dict[str, list[str]] = field(default_factory=dict)
    missing_topics: list[str] = field(default_factory=list)

    @property
    def missing_doc_count(self) -> int:
        return sum(len(docs) for docs in self.missing_docs.values())


def rank_pools(qrels: Qrels, queries: Mapping[str, Any], pool_docs: Mapping[str, Any],
               score_fn: Callable[[Any, Any], float]) -> PoolRanking:
    """For each qrels topic, score every judged doc with `score_fn(query, doc)` and rank by score.

    `queries` maps topic id → query object, `pool_docs` doc id → doc object (parsed graphs, token lists,
    LaTeX — whatever `score_fn` takes). Ties are broken as trec_eval does (`rank_by_score`).
    """
    ranking = PoolRanking(run={})
    for topic, judgments in qrels.items():
        if topic not in queries:
            ranking.missing_topics.append(topic)
            continue
        missing = sorted(doc for doc in judgments if doc not in pool_docs)
        if missing:
            ranking.missing_docs[topic] = missing
        query = queries[topic]
        scored = [(doc, float(score_fn(query, pool_docs[doc]))) for doc in judgments if doc in pool_docs]
        ranking.run[topic] = rank_by_score(scored)
    return ranking
