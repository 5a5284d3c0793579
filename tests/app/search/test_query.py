"""Reading a query: LaTeX, SLT and MathML alike, a stored formula from its vectors, query variables, errors."""
import pytest

from mathparse import ParseError, to_slt_string
from searchapp.models import Formula
from searchapp.search.query import parse_query, stored_query

pytestmark = pytest.mark.django_db


def test_unparsable_query_raises_parse_error_with_position(indexed):
    with pytest.raises(ParseError) as raised:
        Formula.objects.search(r"\frac{1}{")
    assert raised.value.pos is not None


def test_a_query_in_each_notation_finds_the_same_formula(indexed):
    latex = parse_query("a^2 + b^2 = c^2", "latex")
    slt = parse_query(to_slt_string(latex.graphs.slt), "slt")
    mathml = parse_query("<math><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup>"
                         "<mo>=</mo><msup><mi>c</mi><mn>2</mn></msup></math>", "mathml")
    tops = [Formula.objects.search(query, k=1).hits[0].formula.latex for query in (latex, slt, mathml)]
    assert tops == ["a^2 + b^2 = c^2"] * 3


def test_a_stored_formula_is_searched_from_its_vectors_without_parsing(indexed, monkeypatch):
    formula = Formula.objects.get(latex="a^2 + b^2 = c^2")
    monkeypatch.setattr("searchapp.search.query.parse", None)  # any parse would fail loudly
    query = stored_query(formula)
    hits = Formula.objects.exclude(pk=formula.pk).search(query, k=2).hits
    assert formula.pk not in [hit.formula_id for hit in hits]
    assert hits[0].formula.latex == "x^2 + y^2 = z^2"
    assert hits[0].alignment["slg"].query_labels == formula.node_labels["slt"]


def test_a_question_mark_without_a_letter_is_searched_as_the_symbol(indexed):
    asked = Formula.objects.search("x^2 + y^2 = z^2?", k=3)
    assert "?" in asked.query.labels["slt"] and not asked.query.variables["slg"]
    assert asked.hits[0].formula.latex == "x^2 + y^2 = z^2"


def test_a_query_of_query_variables_alone_is_refused(indexed):
    with pytest.raises(ParseError, match="only query variables") as raised:
        Formula.objects.search(r"\qvar{x}")
    assert raised.value.kind == "only_variables"


@pytest.mark.parametrize("text, notation, read", [
    pytest.param("x² + y² = z²", "latex", "x^{2} + y^{2} = z^{2}", id="unicode"),
    pytest.param(r"\frac{1}{n²}", "latex", r"\frac{1}{n^{2}}", id="mixed"),
    pytest.param("x^2 + y^2 = z^2", "latex", "", id="latex"),
    pytest.param("<math><mi>x</mi><mo>≤</mo><mn>2</mn></math>", "mathml", "", id="mathml-is-no-latex"),
])
def test_a_query_says_what_latex_its_unicode_math_was_read_as(text, notation, read):
    query = parse_query(text, notation)
    assert (query.text, query.latex_from_unicode) == (text, read)


def test_a_formula_too_large_to_search_whole_is_refused_in_words():
    with pytest.raises(ParseError) as raised:
        parse_query("x" * 200)
    assert (raised.value.kind, raised.value.message) == ("too_large", "the formula has 200 symbols; a search compares at most 168")
