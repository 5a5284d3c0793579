import pytest

from corpora.tolerant import Problem
from corpora.wiki_formulas import parse_wiki_formulas, read_wiki_formulas


def test_each_entry_is_a_formula_under_its_md5():
    read = parse_wiki_formulas('{"a1": "x^2", "b2": "\\\\frac{1}{2}", "c3": "e^{i\\\\pi}"}')
    assert read.value == {"a1": "x^2", "b2": "\\frac{1}{2}", "c3": "e^{i\\pi}"} and read.problems == []


def test_a_blank_entry_holds_no_formula_and_a_non_string_is_a_problem():
    read = parse_wiki_formulas('{"a1": "x", "b2": " \\n", "c3": 7}')
    assert read.value == {"a1": "x"} and read.problems == [Problem(3, "entry 'c3': expected a LaTeX string")]


@pytest.mark.parametrize("text, message", [
    pytest.param("{", "invalid JSON", id="broken"),
    pytest.param('["x"]', "expected one JSON object", id="list"),
])
def test_a_file_that_is_not_one_object_is_an_error_naming_it(write, text, message):
    path = write(text, "wiki.json")
    with pytest.raises(ValueError, match=f"{path}: {message}"):
        read_wiki_formulas(path)
