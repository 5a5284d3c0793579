"""Formulas too long to search whole: cut into their largest parts that fit, each searched, the hits fused."""
import numpy as np
import pytest

from mathparse import ParseError, parse_latex, slt_to_latex
from mathparse.tree import Tree
from searchapp.models import Formula
from searchapp.search.long_queries import MAX_PARTS, largest_parts, long_formula, parse_formula, search_parts
from searchapp.search.query import MAX_QUERY_NODES
from tests.app.factories import FORMULAS

TAYLOR = "e^{x} = " + " + ".join(rf"\frac{{x^{{{k}}}}}{{{k}!}}" for k in range(2, 97))
"""A Taylor series of 1,984 characters and 572 symbols: too long to search whole."""


def latex_of(parts) -> list[str]:
    return [slt_to_latex(Tree(part, "slt")) for part in parts]


@pytest.mark.parametrize("latex, limit, parts", [
    pytest.param("a + b + c + d", 3, ["a + b", "c + d"], id="runs-of-terms-as-large-as-fit"),
    pytest.param("a + b = c + d + e", 5, ["c + d + e", "a + b"], id="relations-before-sums"),
    pytest.param("a_1, b + c, d", 3, ["b + c", "a_{1}", "d"], id="commas-first"),
    pytest.param("-a - b = -c", 3, ["- c", "- a", "b"], id="signs-stay-with-their-terms"),
    pytest.param(r"\frac{a+b+c}{d_1}", 4, ["a + b", "d_{1}", "c"], id="a-fraction-opened"),
    pytest.param(r"\begin{pmatrix} a+b & c \\ d & e+f \end{pmatrix}", 4, ["a + b", "e + f", "c"], id="matrix-cells"),
    pytest.param(r"\begin{aligned} y &= a + b \\ &= c \end{aligned}", 4, ["= a + b", "= c", "y"],
                 id="aligned-lines"),
    pytest.param("xyzxyz", 3, ["x y z"], id="halves-found-twice-searched-once"),
    pytest.param(r"\left( a + b + c \right)^{2} + d", 5, ["a + b + c"], id="small-parts-left-out"),
])
def test_a_long_formula_is_cut_into_its_largest_parts_that_fit(latex, limit, parts):
    assert latex_of(largest_parts(parse_latex(latex).slt, limit)) == parts


@pytest.mark.parametrize("latex", [
    pytest.param(TAYLOR, id="series"),
    pytest.param("x+" * 2499 + "x", id="5000-characters"),
    pytest.param("x" * 5000, id="no-operator"),
    pytest.param(r"\begin{pmatrix}" + r"\\".join(rf"\frac{{a_{{{i}}}}}{{b}}" for i in range(200)) + r"\end{pmatrix}",
                 id="200-row-matrix"),
])
def test_each_part_fits_and_the_largest_come_first(latex):
    sizes = [len(Tree(part, "slt")) for part in largest_parts(parse_latex(latex).slt)]
    assert 0 < len(sizes) <= MAX_PARTS and sizes == sorted(sizes, reverse=True)
    assert sizes[0] <= MAX_QUERY_NODES and sizes[-1] * 4 >= sizes[0]


def test_a_long_formula_reads_as_its_parts_and_says_so():
    query = parse_formula(TAYLOR)
    assert len(query.graphs.slt) == 572 and not query.vectors
    assert len(query.parts) == MAX_PARTS and all(len(part.graphs.slt) <= MAX_QUERY_NODES for part in query.parts)
    assert long_formula(query) == {"note": "Your formula is long (572 symbols); its 3 largest parts were searched",
                                   "symbols": 572, "parts": [part.text for part in query.parts]}
    assert long_formula(parse_formula("x^2")) is None and parse_formula("x^2").vectors


def test_a_long_formula_without_a_part_that_can_be_searched_is_still_refused():
    with pytest.raises(ParseError) as raised:
        parse_formula(r"\qvar{a}" * MAX_QUERY_NODES + " + x")  # its largest parts are query variables alone
    assert raised.value.kind == "too_large"


@pytest.mark.django_db
def test_the_parts_hits_are_fused_by_their_mean_score_and_the_whole_formula_leads(index_file):
    index_file([*FORMULAS, TAYLOR])
    query = parse_formula(TAYLOR)
    fused = search_parts(Formula.objects, query, k=5)
    assert fused.hits[0].formula.latex == TAYLOR and [hit.rank for hit in fused.hits] == [1, 2, 3, 4, 5]
    by_part = [{hit.formula_id: hit.score for hit in Formula.objects.search(part, k=50).hits} for part in query.parts]
    for hit in fused.hits:
        assert hit.score == pytest.approx(np.mean([max(scores.get(hit.formula_id, 0.0), 0.0) for scores in by_part]))
    assert search_parts(Formula.objects, query, k=2, offset=1).hits[0].formula_id == fused.hits[1].formula_id


@pytest.mark.django_db
def test_the_search_verb_reads_a_long_formula_by_its_parts(index_file):
    index_file([*FORMULAS, TAYLOR])
    results = Formula.objects.search(TAYLOR, k=5)
    assert results.query.parts and long_formula(results.query)["symbols"] == 572
    assert [hit.formula_id for hit in results.hits] == [
        hit.formula_id for hit in search_parts(Formula.objects, parse_formula(TAYLOR), k=5).hits]
