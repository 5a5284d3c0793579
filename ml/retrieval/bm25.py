"""Okapi BM25 over terms someone else tokenised (here Postgres's English stems of a post's title and text)."""
from __future__ import annotations

import math
from collections.abc import Mapping

K1, B = 1.2, 0.75


def bm25(term_counts: Mapping[int, Mapping[str, int]], lengths: Mapping[int, int], document_frequency: Mapping[str, int],
         documents: int, mean_length: float, k1: float = K1, b: float = B) -> dict[int, float]:
    """Per document, Σ over the query terms it holds of idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/mean_len)).

    `term_counts[doc][term]` are the counts of the query's terms in doc; idf is the non-negative
    log(1 + (N − df + 0.5)/(df + 0.5)) of Lucene, so a term in every document adds a little, never less than 0.
    """
    idf = {term: math.log(1 + (documents - df + 0.5) / (df + 0.5)) for term, df in document_frequency.items()}
    scores = {}
    for doc, counts in term_counts.items():
        norm = k1 * (1 - b + b * lengths[doc] / max(mean_length, 1e-9))
        scores[doc] = sum(idf.get(term, 0.0) * tf * (k1 + 1) / (tf + norm) for term, tf in counts.items())
    return scores
