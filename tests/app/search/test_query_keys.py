"""Queries that mean the same share one key, and queries that do not, do not."""
import pytest

from mathparse import parse
from searchapp.search.query_keys import QUESTION_PREFIX, feedback_key, formula_key, formula_text_key, question_key

MATHML_X_SQUARED_PLUS_Y_SQUARED = ("<math><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo>"
                                   "<msup><mi>y</mi><mn>2</mn></msup></mrow></math>")


@pytest.mark.parametrize("other", [
    pytest.param("x^{2} + y^{2}", id="braces-and-spaces"),
    pytest.param("x^2 + y^2", id="spaces"),
    pytest.param("$x^2+y^2$", id="dollars"),
    pytest.param(MATHML_X_SQUARED_PLUS_Y_SQUARED, id="mathml"),
    pytest.param("[V!x[+[V!y,a[N!2]]],a[N!2]]", id="slt-string"),
])
def test_one_formula_written_otherwise_has_its_key(other):
    assert formula_text_key(other) == formula_text_key("x^2+y^2")


def test_a_search_keys_its_parsed_query_as_feedback_keys_its_text():
    assert formula_key(parse("x^2+y^2", "latex", query=True).slt) == feedback_key("x^{2} + y^{2}", on_formula=True)


@pytest.mark.parametrize("other", ["x^2+y^3", "y^2+x^2", r"\frac{1}{?a}"])
def test_other_formulas_have_other_keys(other):
    assert formula_text_key(other) != formula_text_key("x^2+y^2")


def test_query_variables_written_either_way_share_a_key():
    assert formula_text_key(r"\frac{1}{\qvar{a}}") == formula_text_key(r"\frac{1}{?a}")


def test_a_question_is_its_words_folded_and_its_formulas_read():
    key = question_key("Why is $x^2+y^2$ positive?")
    assert key.startswith(QUESTION_PREFIX)
    assert question_key("why   is $x^{2} + y^{2}$ POSITIVE") == key
    assert question_key("Why is $x^2+y^3$ positive?") != key
    assert question_key("Why is $x^2+y^2$ negative?") != key
    assert question_key("Why is positive $x^2+y^2$?") != key  # where a formula stands is part of the question


def test_text_that_no_notation_reads_is_keyed_by_its_words():
    assert formula_text_key(r"\frac{1}{") == question_key(r"\frac{1}{")
    assert question_key(r"is $\frac{1}{$ ok") == question_key(r"IS $\frac{1} {$ ok")
