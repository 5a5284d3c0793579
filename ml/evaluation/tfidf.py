"""tf-idf cosine over arbitrary token lists (LaTeX tokens, SLT/OPT node labels, …), numpy only.

Weights: w(t, d) = tf(t, d) · idf(t), idf(t) = ln((1 + N) / (1 + df(t))) + 1 (the smoothed form, so a term in
every document still counts a little and a query term unseen in the corpus gets the largest weight instead of
a division by zero). Vectors are L2-normalised and compared by dot product.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np


def with_bigrams(tokens: Sequence[str]) -> list[str]:
    """Unigrams plus adjacent pairs (joined by a space, which no whitespace-free token contains)."""
    return [*tokens, *(f"{a} {b}" for a, b in zip(tokens, tokens[1:]))]


class TfidfScorer:
    """Document frequencies fitted on a corpus of token lists; scores query/doc pairs by tf-idf cosine."""

    def __init__(self, corpus: Iterable[Sequence[str]]) -> None:
        self.document_frequency: Counter[str] = Counter()
        self.documents = 0
        for tokens in corpus:
            self.document_frequency.update(set(tokens))
            self.documents += 1

    def idf(self, term: str) -> float:
        return math.log((1 + self.documents) / (1 + self.document_frequency[term])) + 1

    def vector(self, tokens: Sequence[str]) -> dict[str, float]:
        """The L2-normalised sparse tf-idf vector (empty for an empty token list)."""
        weights = {term: count * self.idf(term) for term, count in Counter(tokens).items()}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        return {term: w / norm for term, w in weights.items()} if norm > 0 else {}

    def score(self, query_tokens: Sequence[str], doc_tokens: Sequence[str]) -> float:
        """Cosine of the two tf-idf vectors, in [0, 1]."""
        query, doc = self.vector(query_tokens), self.vector(doc_tokens)
        return sum(weight * doc.get(term, 0.0) for term, weight in query.items())

    def score_many(self, query_tokens: Sequence[str], docs_tokens: Sequence[Sequence[str]]) -> np.ndarray:
        """Cosines of one query against many docs, (docs,) float64.

        Only the query's terms can contribute to a dot product, so each doc is projected onto them:
        a (docs, query terms) matrix instead of one over the whole vocabulary.
        """
        query = self.vector(query_tokens)
        terms = list(query)
        column = {term: j for j, term in enumerate(terms)}
        projected = np.zeros((len(docs_tokens), len(terms)))  # (docs, query terms)
        for i, tokens in enumerate(docs_tokens):
            for term, weight in self.vector(tokens).items():
                if term in column:
                    projected[i, column[term]] = weight
        return projected @ np.array([query[t] for t in terms]) if terms else projected.sum(axis=1)
