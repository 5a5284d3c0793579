"""Agreement of our LaTeX → OPT with the organisers' Content MathML → OPT, and the F1 it rests on."""
from __future__ import annotations

import pytest

from ml.evaluation.parser_agreement import agreement, format_table, label_f1


@pytest.mark.parametrize("ours, theirs, expected", [
    pytest.param(["a", "b"], ["a", "b"], 1.0, id="identical"),
    pytest.param(["a", "b"], ["b", "a"], 1.0, id="order-ignored"),
    pytest.param(["a"], ["b"], 0.0, id="disjoint"),
    pytest.param(["a", "a", "b"], ["a", "b"], 0.8, id="multiset-counts-repeats"),
    pytest.param([], [], 1.0, id="both-empty"),
    pytest.param(["a"], [], 0.0, id="one-empty"),
])
def test_label_f1(ours, theirs, expected):
    assert label_f1(ours, theirs) == pytest.approx(expected)


@pytest.fixture(scope="module")
def result(shared_data):
    return agreement(shared_data)


def test_opt_agreement_bar(result):
    """The brief's bar: mean node-label F1 ≥ 0.85 over the 843 formulas of the 2021 topics."""
    assert result["count"] == 843
    assert result["means"]["opt_f1"] >= 0.85


def test_slt_agreement_bar(result):
    """LaTeX → SLT against the organisers' Presentation MathML → SLT: mean label F1 ≥ 0.95."""
    assert result["means"]["slt_f1"] >= 0.95


def test_opt_coverage_on_topic_formulas(result):
    assert result["means"]["opt_coverage"] >= 0.98


def test_format_table_lists_means_and_worst_rows(result):
    table = format_table(result, worst=3)
    assert f"{result['means']['opt_f1']:.3f}" in table
    assert len(table.splitlines()) == 7 + 3
