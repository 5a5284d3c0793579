import random

import pytest

from ml.evaluation.known_item import rename_variable, variables


@pytest.mark.parametrize("latex, expected", [
    pytest.param(r"x^2 + y^2 = z^2", ["x", "y", "z"], id="letters"),
    pytest.param(r"\sin x + \alpha", ["x"], id="command-names-are-not-variables"),
    pytest.param(r"f(x) = 0 \text{ if } x > 0", ["f", "x"], id="words-are-not-variables"),
    pytest.param(r"\operatorname{Tr}(AB)", ["A", "B"], id="operator-names"),
    pytest.param(r"\frac{a}{b}", ["a", "b"], id="arguments-of-other-commands-are"),
    pytest.param(r"1 + 2 = 3", [], id="none"),
])
def test_variables(latex, expected):
    assert variables(latex) == expected


def test_a_variable_is_renamed_everywhere_to_an_unused_letter():
    renamed = rename_variable(r"x^2 + \text{max} x y", random.Random(0))
    assert renamed is not None and renamed != r"x^2 + \text{max} x y"
    assert "\\text{max}" in renamed
    old = ({"x", "y"} - set(variables(renamed))).pop()
    new = (set(variables(renamed)) - {"x", "y"}).pop()
    assert renamed == r"x^2 + \text{max} x y".replace(" " + old, " " + new).replace(old + "^", new + "^")


def test_a_formula_without_variables_cannot_be_renamed():
    assert rename_variable(r"1 + \pi", random.Random(0)) is None
