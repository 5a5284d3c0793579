"""Judged queries as ranker training data, read through the real search path.

Each query is parsed and embedded, its candidates found and scored exactly as a search does
(`searchapp.search.formula_search.scored_candidates`), and every candidate gets its feature row. Doc ids are what the
judgments name: a formula may stand for several (the visual ids merged into one visually distinct formula).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mathparse import ParseError
from ml.ranking.cross_validation import TopicCandidates
from ml.retrieval.score_fusion import DEFAULT_FUSION, fuse
from searchapp.models import MAX_K, Formula
from searchapp.search.formula_search import scored_candidates
from searchapp.search.query import parse_query
from searchapp.search.ranking import candidate_features

DocsOf = Callable[[list[int]], dict[int, list[str]]]
"""Formula ids → the doc ids each stands for in the judgments."""


def formula_docs(formula_ids: list[int]) -> dict[int, list[str]]:
    """Feedback names formulas by id."""
    return {formula_id: [str(formula_id)] for formula_id in formula_ids}


def topic_candidates(text: str, corpus: str | None, docs_of: DocsOf = formula_docs,
                     size: int = MAX_K) -> TopicCandidates:
    """A query's candidates with features, as a search with `k = size` scores them. ParseError if unreadable."""
    query = parse_query(text)
    scored = scored_candidates(Formula.objects.all(), query, size, corpus)
    features = candidate_features(query, scored.candidates)
    dense = fuse(scored.parts["slg"], scored.parts["opg"], DEFAULT_FUSION)
    docs = docs_of(scored.ids)
    rows = [(doc, i) for i, formula_id in enumerate(scored.ids) for doc in docs[formula_id]]
    index = np.array([i for _, i in rows], dtype=np.int64)
    return TopicCandidates([doc for doc, _ in rows], features[index], dense[index])


def judged_topics(queries: dict[str, str], corpus: str | None, docs_of: DocsOf = formula_docs,
                  progress=None) -> tuple[dict[str, TopicCandidates], list[str]]:
    """Candidates of each topic's query text; and the topics whose query could not be parsed."""
    data, unreadable = {}, []
    for topic in sorted(queries):
        try:
            data[topic] = topic_candidates(queries[topic], corpus, docs_of)
        except ParseError:
            unreadable.append(topic)
        if progress:
            progress(topic)
    return data, unreadable
