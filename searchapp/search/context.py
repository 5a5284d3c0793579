"""The words around a formula in formula search: SSEmb's S = λ·S_formula + (1 − λ)·cos(text_q, text_c).

A formula's context similarity is the best over its occurrences (it may stand in many posts); a formula
stored without words (formats without text) counts as unrelated, 0. The formula part is the ordering's score,
on the dense F1 scale whether the learned ranker or a fusion ordered the candidates.
"""
from __future__ import annotations

import numpy as np

from ml.retrieval.post_scores import ssemb
from ml.text import text_encoder
from searchapp.search.database import search_connection
from searchapp.search.ranking import Ordering
from searchapp.vectors import vector_literal

CONTEXT_WEIGHT = 0.5
"""λ: SSEmb's published value. No development data judges formulas with their words (the ARQMath-1 development
formulas have no text here), so it is not tuned; `benchmark arqmath-answers --formula-*` prints the sweep."""


def context_vector(text: str) -> np.ndarray:
    return text_encoder().embed([text])[0]


def context_similarity(formula_ids: list[int], vector: np.ndarray) -> np.ndarray:
    """(len(formula_ids),) the best cosine between `vector` and the context of each formula's occurrences."""
    with search_connection().cursor() as cursor:
        cursor.execute("SELECT formula_id, max(1 - (context <=> %s::halfvec)) FROM searchapp_occurrence"
                       " WHERE formula_id = ANY(%s) AND context IS NOT NULL GROUP BY formula_id",
                       [vector_literal(vector), list(formula_ids)])
        best = dict(cursor.fetchall())
    return np.array([best.get(formula_id, 0.0) for formula_id in formula_ids], dtype=np.float32)


def with_context(ordering: Ordering, similarity: np.ndarray, weight: float = CONTEXT_WEIGHT) -> np.ndarray:
    return ssemb(ordering.scores, similarity, weight)
