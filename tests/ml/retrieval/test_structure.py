import numpy as np
import pytest

from mathparse import parse, to_slt_string
from ml.retrieval.structure import KINDS, MAX_SIZE, kinds_of, sizes_of, structure_terms, term


def terms(latex: str) -> np.ndarray:
    graphs = parse(latex, "latex")
    return structure_terms(graphs.slt, graphs.opt)


def of_kind(found: np.ndarray, kind: str) -> set[int]:
    return set(found[kinds_of(found) == KINDS.index(kind)].tolist())


def test_terms_are_sorted_distinct_int32_with_every_kind():
    found = terms(r"\frac{x^2+1}{\sin(x)} = f(x)")
    assert found.dtype == np.int32 and np.all(np.diff(found) > 0) and np.all(found >= 0)
    assert set(kinds_of(found).tolist()) == set(range(len(KINDS)))


def test_a_sub_expression_keeps_its_size():
    found = terms(r"\frac{x^2+1}{\sin(x)} = f(x)")
    subtrees = found[kinds_of(found) == KINDS.index("subtree")]
    assert sorted(sizes_of(subtrees).tolist()) == [2, 2, 3, 5, 8, 11]  # f(x), sin x, x², x²+1, the fraction, all


def test_a_query_shares_all_its_sub_expressions_and_paths_with_a_formula_containing_it():
    query, larger = terms("x^2+1"), terms(r"\frac{x^2+1}{y} = 3")
    assert of_kind(query, "subtree") <= of_kind(larger, "subtree")
    assert of_kind(query, "path") <= of_kind(larger, "path")
    assert not of_kind(query, "subtree") <= of_kind(terms("x^3+1"), "subtree")


@pytest.mark.parametrize("pattern, formula", [
    (r"\frac{x^{\qvar{n}}+1}{y}", r"\frac{x^{2k}+1}{y} = 3"),
    (r"f_{\qvar{a}}(z) = z^2 + c", r"f_{n+1}(z) = z^2 + c"),
])
def test_no_term_spans_a_query_variable_so_a_pattern_shares_all_its_terms_with_a_formula_holding_it(pattern, formula):
    held, holding = terms(pattern), terms(formula)
    assert set(held.tolist()) <= set(holding.tolist()) and len(held) >= 20


def test_only_the_sub_expressions_around_a_query_variable_lose_their_terms():
    assert len(of_kind(terms(r"f_{\qvar{a}}(z) = z^2 + c"), "subtree")) == 2  # z², z² + c
    assert len(of_kind(terms(r"f_{n}(z) = z^2 + c"), "subtree")) == 5


def test_renamed_variables_share_operators_but_not_symbol_pairs():
    a, b = terms("x^2+1"), terms("y^2+1")
    assert of_kind(a, "operator") == of_kind(b, "operator")
    assert of_kind(a, "pair") != of_kind(b, "pair")


def test_terms_are_the_same_from_the_stored_slt_string():
    graphs = parse(r"\sum_{k=1}^{n} \binom{n}{k} x^k", "latex")
    again = parse(to_slt_string(graphs.slt), "slt")
    assert np.array_equal(structure_terms(graphs.slt, graphs.opt), structure_terms(again.slt, again.opt))


def test_a_formula_without_an_operator_tree_has_only_layout_terms():
    graphs = parse("x^2+1", "latex")
    found = structure_terms(graphs.slt, None)
    assert set(kinds_of(found).tolist()) == {KINDS.index("pair"), KINDS.index("symbol")}


@pytest.mark.parametrize("size", [2, 31, 500])
def test_a_size_is_capped_and_never_touches_the_kind(size):
    value = term("subtree", "anything", size)
    assert KINDS[value & 7] == "subtree" and sizes_of(np.array([value]))[0] == min(size, MAX_SIZE)


def test_a_deep_formula_does_not_hit_the_recursion_limit():
    found = terms(r"\sqrt{" * 60 + "x" + "}" * 60 + "+" + "+".join(f"x^{{{i}}}" for i in range(300)))
    assert len(found) > 300
