"""Scores of posts for a question from their formulas and their words (SSEmb-style fusion, DESIGN.md §4)."""
from __future__ import annotations

import numpy as np

DEFAULT_FORMULA_WEIGHT = 0.4
"""λ of the SSEmb fusion λ·S_formula + (1 − λ)·S_text; chosen on the ARQMath 2020/2021 Task 1 development topics
(`benchmark arqmath-answers` prints the sweep). With every formula of the posts best by words scored, nDCG′ / MAP′
were 0.659 / 0.432 at 0.3, 0.665 / 0.442 at 0.4 and 0.667 / 0.444 at 0.5; λ chosen inside 5 topic-grouped folds
gave the same held-out gain over the words alone as 0.4 (+0.018 to +0.021 nDCG′ over five fold seeds)."""


def formula_scores(post_of: np.ndarray, similarity: list[np.ndarray], posts: int) -> np.ndarray:
    """(posts,) the mean over query formulas of the best similarity among each post's formulas.

    `post_of[j]` is the post (0..posts-1) of candidate formula occurrence j; `similarity[i][j]` the similarity of
    query formula i to it. A post without a scored formula gets 0 for that query formula.
    """
    if not similarity:
        return np.zeros(posts, dtype=np.float32)
    best = np.zeros((len(similarity), posts), dtype=np.float32)
    for row, scores in zip(best, similarity):
        np.maximum.at(row, post_of, np.clip(scores, 0, None))
    return best.mean(axis=0)


def ssemb(formula: np.ndarray, text: np.ndarray, weight: float = DEFAULT_FORMULA_WEIGHT) -> np.ndarray:
    """λ·S_formula + (1 − λ)·S_text; a question without formulas is ranked by its words alone."""
    return weight * formula + (1 - weight) * text


def with_thread(own: np.ndarray, thread: np.ndarray, has_thread: np.ndarray, weight: float) -> np.ndarray:
    """(1 − w)·own + w·thread where a post has a thread (an answer, its question), its own score elsewhere: what
    an answer is about is often said only in its question."""
    return np.where(has_thread, (1 - weight) * own + weight * thread, own).astype(np.float32)
