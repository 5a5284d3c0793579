import pytest

from ml.evaluation.lexical_tokens import content_tokens, lexical_tokens


@pytest.mark.parametrize("latex, tokens", [
    pytest.param("\\frac{x^2}{10}", ["\\frac", "{", "x", "^", "2", "}", "{", "10", "}"], id="frac-digit-run"),
    pytest.param("\\sinx", ["\\sin", "x"], id="glued-function"),
    pytest.param("\\sin x", ["\\sin", "x"], id="spaced-function-same-tokens"),
    pytest.param("\\displaystylef(x)", ["\\displaystyle", "f", "(", "x", ")"], id="glued-style"),
    pytest.param("\\infty", ["\\infty"], id="longest-known-prefix-wins"),
    pytest.param("\\leqx", ["\\leq", "x"], id="leq-not-le"),
    pytest.param("\\mathbbR", ["\\mathbb", "R"], id="font-command"),
    pytest.param("\\foo", ["\\foo"], id="unknown-command-kept"),
    pytest.param("a\\,b\\{", ["a", "\\,", "b", "\\{"], id="control-symbols"),
    pytest.param("x≤π", ["x", "≤", "π"], id="unicode-symbols"),
])
def test_lexical_tokens(latex, tokens):
    assert lexical_tokens(latex) == tokens


@pytest.mark.parametrize("first, second", [
    pytest.param("x^2", "x^{2}", id="braces"),
    pytest.param("\\left(a\\right)", "(a)", id="sized-delimiters"),
    pytest.param("\\displaystyle\\sum_{i}", "\\sum_i", id="display-style"),
])
def test_content_tokens_ignore_markup(first, second):
    assert content_tokens(first) == content_tokens(second)
