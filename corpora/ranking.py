"""The shapes evaluation passes around, and the one ordering rule every ranked list follows."""
from __future__ import annotations

from collections.abc import Iterable

Qrels = dict[str, dict[str, int]]
"""topic id → {doc id → graded relevance}."""

Run = dict[str, list[tuple[str, float]]]
"""topic id → [(doc id, score), ...] in rank order, best first."""


def rank_by_score(scored: Iterable[tuple[str, float]]) -> list[tuple[str, float]]:
    """Order by score descending, ties by doc id descending.

    The tie-break is trec_eval's (it ignores the rank column and sorts on score, then doc id in reverse string
    order), so a run scored here and the same run written to a file and scored by trec_eval agree exactly.
    """
    by_doc = sorted(scored, key=lambda pair: pair[0], reverse=True)
    return sorted(by_doc, key=lambda pair: pair[1], reverse=True)
