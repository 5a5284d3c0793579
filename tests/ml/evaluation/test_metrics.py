"""Prime metrics against hand-computed values.

Topic T1 judges a:3 b:2 c:0 d:1 e:2; the run returns x b a y c e (x, y unjudged; d missed), so the filtered run
is b(2) a(3) c(0) e(2). By hand:
  nDCG′ = (2 + 3/log2 3 + 0/log2 4 + 2/log2 5) / (3 + 2/log2 3 + 2/log2 4 + 1/log2 5) = 4.75414 / 5.69254 = 0.83515
  AP′ (grade ≥ 2, R = 3: a b e) = (1/1 + 2/2 + 3/4) / 3 = 0.91667
  P′@10 = 3/10, judged@10 = 4 judged of the top 10 / 10 = 0.4
"""
import pytest

from corpora.ranking import rank_by_score
from ml.evaluation.metrics import average_precision, evaluate, ndcg

QRELS = {"T1": {"a": 3, "b": 2, "c": 0, "d": 1, "e": 2}}
RUN = {"T1": [("x", 9.0), ("b", 8.0), ("a", 7.0), ("y", 6.0), ("c", 5.0), ("e", 4.0)]}


@pytest.mark.parametrize("options, expected", [
    pytest.param({}, {"ndcg_prime": 0.83515, "map_prime": 0.91667, "p10_prime": 0.3, "judged_at_10": 0.4},
                 id="arqmath-defaults"),
    pytest.param({"threshold": 1}, {"map_prime": (1 + 1 + 3 / 4) / 4, "p10_prime": 0.3}, id="grade-1-counts"),
    pytest.param({"threshold": 3}, {"map_prime": (1 / 2) / 1, "p10_prime": 0.1}, id="only-grade-3"),
    pytest.param({"cutoff": 2}, {"ndcg_prime": 0.91340}, id="ndcg-at-2"),
    pytest.param({"depth": 3}, {"map_prime": (1 + 1) / 3, "judged_at_10": 0.2, "p10_prime": 0.2}, id="run-cut-at-3"),
])
def test_hand_computed_topic(options, expected):
    result = evaluate(RUN, QRELS, **options)
    assert {name: result[name] for name in expected} == pytest.approx(expected, abs=1e-5)


def test_perfect_order_scores_one():
    run = {"T1": [("a", 5.0), ("b", 4.0), ("e", 3.0), ("d", 2.0), ("c", 1.0)]}
    result = evaluate(run, QRELS)
    assert (result["ndcg_prime"], result["map_prime"]) == pytest.approx((1.0, 1.0))


def test_topic_without_results_scores_zero_and_counts_in_the_mean():
    qrels = {**QRELS, "T2": {"p": 3, "q": 0}}
    result = evaluate(RUN, qrels)
    assert result["topics"] == 2
    assert result["per_topic"]["T2"] == {"ndcg_prime": 0.0, "map_prime": 0.0, "p10_prime": 0.0, "judged_at_10": 0.0}
    assert result["map_prime"] == pytest.approx(0.91667 / 2, abs=1e-5)


def test_topics_only_in_the_run_are_ignored():
    result = evaluate({**RUN, "T9": [("a", 1.0)]}, QRELS)
    assert result["topics"] == 1 and set(result["per_topic"]) == {"T1"}


def test_unjudged_results_do_not_change_prime_metrics_but_lower_judged_at_10():
    padded = {"T1": [(f"u{i}", 1.0) for i in range(5)] + RUN["T1"]}
    plain, with_padding = evaluate(RUN, QRELS), evaluate(padded, QRELS)
    for name in ("ndcg_prime", "map_prime", "p10_prime"):
        assert with_padding[name] == pytest.approx(plain[name])
    assert with_padding["judged_at_10"] == pytest.approx(0.3)  # top 10: u0-u4 x b a y c


@pytest.mark.parametrize("grades, judged, expected", [
    pytest.param([0, 3], [3, 0], (3 / 1.5849625) / 3, id="best-doc-second"),
    pytest.param([], [2, 1], 0.0, id="nothing-retrieved"),
    pytest.param([0, 0], [0, 0], 0.0, id="nothing-relevant"),
])
def test_ndcg(grades, judged, expected):
    assert ndcg(grades, judged) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("hits, relevant_total, expected", [
    pytest.param([False, True, False, True], 2, (1 / 2 + 2 / 4) / 2, id="two-of-two"),
    pytest.param([True], 4, 1 / 4, id="misses-count"),
    pytest.param([True], 0, 0.0, id="no-relevant"),
])
def test_average_precision(hits, relevant_total, expected):
    assert average_precision(hits, relevant_total) == pytest.approx(expected)


def test_rank_by_score_breaks_ties_like_trec_eval():
    assert rank_by_score([("a", 1.0), ("c", 2.0), ("b", 1.0)]) == [("c", 2.0), ("b", 1.0), ("a", 1.0)]
