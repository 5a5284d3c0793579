"""A pattern match checked by its result; and, over generated formulas, every match of `query_variables.match` is."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathparse import parse, slt_to_latex
from mathparse.query_variables import match
from mathparse.substitution import reproduces, substituted

PYTHAGORAS = r"\qvar{a}^2+\qvar{b}^2=\qvar{c}^2"


def bindings(**latex: str) -> dict:
    return {name: parse(value, "latex").slt.root for name, value in latex.items()}


@pytest.mark.parametrize("query, bound, expected", [
    (PYTHAGORAS, {"a": "3", "b": "4", "c": "5"}, "3^{2} + 4^{2} = 5^{2}"),
    (PYTHAGORAS, {"a": r"\left(x+1\right)", "b": "y", "c": "z"}, r"\left( x + 1 \right)^{2} + y^{2} = z^{2}"),
    (r"\frac{1}{\qvar{x}} + \qvar{x}", {"x": "n^2+1"}, r"\frac{1}{n^{2} + 1} + n^{2} + 1"),  # layout, not meaning
    (r"\qvar{a} + 1", {"a": "2x"}, "2 x + 1"),
    (PYTHAGORAS, {"a": "x+y", "b": "y", "c": "z"}, None),  # several symbols cannot be the base of a square
    (PYTHAGORAS, {"a": "x^3", "b": "y", "c": "z"}, None),  # nor one with a superscript of its own
    (PYTHAGORAS, {"a": "x", "b": "y"}, None),  # c stands for nothing
])
def test_substituted_puts_each_binding_in_its_variables_places(query, bound, expected):
    whole = substituted(parse(query, "latex").slt, bindings(**bound))
    assert (whole and slt_to_latex(whole)) == expected


@pytest.mark.parametrize("bound, candidate, expected", [
    ({"a": "3", "b": "4", "c": "5"}, r"3^2+4^2=5^2", True),
    ({"a": "x", "b": "y", "c": "z"}, r"x^2+y^2=z^2, n > 2", True),
    ({"a": "x", "b": "y", "c": "z"}, r"\sqrt{x^2+y^2=z^2}", True),  # a whole part
    ({"a": "b", "b": "c", "c": "d"}, r"a^2+b^2+c^2=d^2+e^2+f^2", False),  # a piece of it, but no sub-expression
    ({"a": "x", "b": "y", "c": "z"}, r"2x^2+y^2=z^2", False),
    ({"a": "x", "b": "y", "c": "z"}, r"x^2+y^2=z^2+1", False),
    ({"a": "a^2+ab", "b": "b", "c": "d"}, r"a^2+ab+b^2=d^2", False),  # what the old matcher bound
    ({"a": "x", "b": "y", "c": "w"}, r"x^2+y^2=z^2", False),
])
def test_a_match_is_checked_by_what_its_bindings_give_back(bound, candidate, expected):
    assert reproduces(parse(PYTHAGORAS, "latex").slt, bindings(**bound), parse(candidate, "latex").slt) is expected


OPERATORS = {"+": 1, "-": 1, r"\cdot": 2, "=": 0, "<": 0}
"""Infix operators of the generated formulas with their binding power, loosest 0."""


def formulas():
    """Formula trees: ("leaf", symbol) | ("op", operator, left, right) | ("sup", base, exponent) | ("frac", a, b)."""
    return st.recursive(st.sampled_from(["x", "y", "z", "2", "3"]).map(lambda symbol: ("leaf", symbol)), lambda inner: st.one_of(
        st.tuples(st.just("op"), st.sampled_from(list(OPERATORS)), inner, inner),
        st.tuples(st.just("sup"), inner, inner),
        st.tuples(st.just("frac"), inner, inner),
    ), max_leaves=8)


def latex(tree) -> str:
    """The formula with the parentheses its reading left to right needs, and no others."""
    kind = tree[0]
    if kind in ("leaf", "var"):
        return tree[1] if kind == "leaf" else rf"\qvar{{{tree[1]}}}"
    if kind == "frac":
        return rf"\frac{{{latex(tree[1])}}}{{{latex(tree[2])}}}"
    if kind == "sup":
        base = latex(tree[1])
        return (base if tree[1][0] in ("leaf", "var", "frac") else rf"\left({base}\right)") + f"^{{{latex(tree[2])}}}"
    _, operator, left, right = tree
    power = OPERATORS[operator]
    left_text = latex(left) if left[0] != "op" or OPERATORS[left[1]] >= power else rf"\left({latex(left)}\right)"
    right_text = latex(right) if right[0] != "op" or OPERATORS[right[1]] > power else rf"\left({latex(right)}\right)"
    return f"{left_text} {operator} {right_text}"


def cut(tree, data, names):
    """The tree with some sub-trees (drawn) cut into variables: a new name each, or an earlier one for an equal
    sub-tree, as a user writes `\\qvar{a} + \\qvar{a}`."""
    if data.draw(st.integers(0, 3)) == 0:
        name = names.setdefault(tree, "abcdefgh"[len(names)])
        return ("var", name)
    if tree[0] == "leaf":
        return tree
    return (tree[0], *(part if isinstance(part, str) else cut(part, data, names) for part in tree[1:]))


def sub_trees(tree):
    """The sub-trees a query may be cut from: all but the base of a power, one symbol with its scripts unless
    fenced (`x` is not in `x^{2}`, `x + 1` is in `(x + 1)^{2}`)."""
    yield tree
    for index, part in enumerate(tree[1:], start=1):
        if isinstance(part, tuple):
            inner = sub_trees(part)
            if tree[0] == "sup" and index == 1 and part[0] in ("leaf", "frac"):
                next(inner)  # the bare base itself; what is inside a fraction is still a sub-expression
            yield from inner


@settings(max_examples=300, deadline=None)
@given(candidate=formulas(), other=formulas(), data=st.data())
def test_every_match_puts_back_a_sub_expression_of_its_candidate_and_every_cut_one_matches(candidate, other, data):
    """A query cut from a sub-tree of the candidate matches it, and any match, of that query or of one cut from
    another formula, gives back a sub-expression of the candidate when its bindings are put in."""
    inside = data.draw(st.sampled_from(list(sub_trees(candidate))))
    candidate_slt = parse(latex(candidate), "latex").slt
    for source, must_match in ((inside, True), (other, False)):
        query = parse(latex(cut(source, data, {})), "latex").slt
        bound = match(query, candidate_slt)
        assert bound is not None or not must_match
        assert bound is None or reproduces(query, bound, candidate_slt)
