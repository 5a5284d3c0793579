"""ARQMath-1 Task 2 through the real query path, on a handful of judged formulas: runs named by visual id, latencies
summarised."""
import pytest

from searchapp.benchmarks.arqmath1 import percentiles, run_queries
from searchapp.learning.judged_corpus import CORPUS


def test_latencies_are_summarised_by_percentiles_and_mean_and_no_latency_reads_as_zero():
    summary = percentiles([float(ms) for ms in range(1, 101)])
    assert summary == {"p50": 50.5, "p95": 95.0, "p99": 99.0, "mean": 50.5}
    assert percentiles([]) == {"p50": 0.0, "p95": 0.0, "p99": 0.0, "mean": 0.0}


@pytest.mark.django_db
def test_each_judged_query_runs_as_a_search_answering_with_visual_ids_best_first(index_file):
    index_file(["11\tNone\tx^2 + y^2 = z^2", "4\tNone\tx^2 + y^2 = z^2", "7\tNone\t\\int_0^1 x^2 \\, dx",
                "9\tNone\te^{i\\pi} + 1 = 0"], corpus=CORPUS, format="visual_ids")
    index_file(["x^2 + y^2 = z^2"], corpus="elsewhere", name="elsewhere.txt")
    qrels = {"B.2": {"7": 2}, "B.1": {"11": 3}}
    run, latencies = run_queries(qrels, {"B.1": "a^2 + b^2 = c^2", "B.2": "\\frac{1}{", "B.3": "x"}, k=10)
    assert list(run) == ["B.1", "B.2"] and len(latencies) == 2  # the judged topics only
    assert run["B.2"] == []  # an unreadable query finds nothing, and is still timed
    docs = [doc for doc, _ in run["B.1"]]
    assert docs[:2] == ["4", "11"] and sorted(docs) == ["11", "4", "7", "9"]  # one formula, both its visual ids
    scores = [score for _, score in run["B.1"]]
    assert scores == sorted(scores, reverse=True) and scores[0] == scores[1]
