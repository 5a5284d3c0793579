import math

import numpy as np
import pytest

from ml.evaluation.tfidf import TfidfScorer, with_bigrams

CORPUS = [["a", "b"], ["a", "c"]]
IDF_B = math.log(3 / 2) + 1  # N = 2, df(b) = 1; idf(a) = ln(3/3) + 1 = 1


@pytest.mark.parametrize("query, doc, expected", [
    pytest.param(["a"], ["a", "b"], 1 / math.sqrt(1 + IDF_B ** 2), id="shared-common-term"),
    pytest.param(["b"], ["a", "b"], IDF_B / math.sqrt(1 + IDF_B ** 2), id="shared-rare-term-weighs-more"),
    pytest.param(["a", "b"], ["b", "a"], 1.0, id="same-bag"),
    pytest.param(["b"], ["c"], 0.0, id="disjoint"),
    pytest.param([], ["a"], 0.0, id="empty-query"),
    pytest.param(["a"], [], 0.0, id="empty-doc"),
])
def test_score(query, doc, expected):
    assert TfidfScorer(CORPUS).score(query, doc) == pytest.approx(expected)


def test_term_frequency_counts():
    scorer = TfidfScorer(CORPUS)
    assert scorer.score(["b"], ["a", "b", "b"]) > scorer.score(["b"], ["a", "b"])


def test_score_many_matches_pairwise_scores():
    scorer = TfidfScorer([["x", "y", "y"], ["y", "z"], ["w"]])
    docs = [["x", "y"], ["z", "z", "y"], ["w"], []]
    expected = [scorer.score(["y", "z", "q"], doc) for doc in docs]
    assert scorer.score_many(["y", "z", "q"], docs) == pytest.approx(np.array(expected))
    assert scorer.score_many([], docs).tolist() == [0.0] * 4


def test_with_bigrams():
    assert with_bigrams(["\\frac", "x", "2"]) == ["\\frac", "x", "2", "\\frac x", "x 2"]
