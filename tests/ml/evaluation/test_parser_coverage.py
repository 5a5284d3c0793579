"""Quality bars on real benchmark formulas: SLT ≥ 99.5 %, OPT ≥ 98 %.

Parsing speed is a benchmark (`manage.py formula_report --only speed`), not a timed test: on shared cores a
timer measures the neighbours as much as the parser.
"""
import pytest

from ml.evaluation.parser_coverage import benchmark_speed, judged_latex, summarize, task2_queries, topic_post_formulas


@pytest.fixture(scope="module")
def sample(shared_data) -> dict[str, list[str]]:
    """A fixed quarter of the judged and topic-post formulas, and every Task 2 query."""
    return {
        "judged": judged_latex(shared_data)[::4],
        "queries": task2_queries(shared_data),
        "posts": topic_post_formulas(shared_data)[::4],
    }


def test_sources_are_complete(shared_data):
    assert len(judged_latex(shared_data)) == 8483
    assert len(task2_queries(shared_data)) == 485
    assert len(topic_post_formulas(shared_data)) > 5000


@pytest.mark.parametrize("source", ["judged", "queries", "posts"])
def test_coverage_bars(sample, source):
    report = summarize(sample[source])
    assert report["total"] == len(sample[source])
    assert report["slt_rate"] >= 0.995, report["example_failures"]
    assert report["opt_rate"] >= 0.98, report["opt_errors"]


def test_speed_report_counts_what_it_timed(sample):
    report = benchmark_speed(sample["judged"][:50], min_seconds=0.1)
    assert report["formulas"] % 50 == 0 and report["formulas"] >= 50 and report["seconds"] >= 0.1
    assert report["per_second"] == pytest.approx(report["formulas"] / report["seconds"], rel=0.01)


def test_summary_counts_failures_by_kind():
    report = summarize(["x+1", r"\frac{a}", "{", r"\begin{tikz}x\end{pgf}"])
    assert (report["total"], report["slt_ok"]) == (4, 1)
    assert report["errors_by_kind"] == {"missing_argument": 1, "unbalanced_braces": 1, "unbalanced_environment": 1}
    assert len(report["slowest"]) == 4
