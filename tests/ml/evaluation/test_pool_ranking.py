import pytest

from ml.evaluation.pool_ranking import rank_pools

QRELS = {"T1": {"d1": 2, "d2": 0, "d3": 3, "d9": 1}, "T2": {"d1": 0}, "T3": {"d2": 1}}
QUERIES = {"T1": "ab", "T2": "zz", "T3": "b"}
DOCS = {"d1": "a", "d2": "xyz", "d3": "ab", "d4": "ab"}


def shared_letters(query: str, doc: str) -> float:
    return float(len(set(query) & set(doc)))


def test_judged_docs_are_ranked_by_score_with_trec_eval_ties():
    ranking = rank_pools(QRELS, QUERIES, DOCS, shared_letters)
    assert ranking.run == {
        "T1": [("d3", 2.0), ("d1", 1.0), ("d2", 0.0)],
        "T2": [("d1", 0.0)],
        "T3": [("d2", 0.0)],
    }


def test_unjudged_docs_are_never_scored():
    seen = []
    rank_pools(QRELS, QUERIES, DOCS, lambda query, doc: seen.append(doc) or 0.0)
    assert sorted(seen) == ["a", "a", "ab", "xyz", "xyz"]


def test_missing_docs_and_topics_are_reported():
    ranking = rank_pools(QRELS, {"T1": "ab", "T2": "zz"}, DOCS, shared_letters)
    assert ranking.missing_docs == {"T1": ["d9"]}
    assert ranking.missing_doc_count == 1
    assert ranking.missing_topics == ["T3"]
    assert "T3" not in ranking.run


@pytest.mark.parametrize("scores, order", [
    pytest.param({"a": 1.0, "xyz": 1.0, "ab": 1.0}, ["d3", "d2", "d1"], id="all-tied-doc-id-descending"),
    pytest.param({"a": 0.5, "xyz": -1.0, "ab": 0.25}, ["d1", "d3", "d2"], id="negative-scores"),
])
def test_ordering(scores, order):
    ranking = rank_pools({"T1": {"d1": 1, "d2": 1, "d3": 1}}, {"T1": None}, DOCS, lambda _, doc: scores[doc])
    assert [doc for doc, _ in ranking.run["T1"]] == order
