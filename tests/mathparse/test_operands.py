"""Operand runs of a layout baseline: the sub-expressions a query variable may bind and a pattern may lie over."""
import pytest

from mathparse import parse, slt_to_latex
from mathparse.operands import Operands, run
from mathparse.tree import Tree


def operands_from(latex: str, first: int) -> list[str]:
    """The operands starting at the `first`-th symbol of the formula's main baseline, as LaTeX."""
    tree = parse(latex, "latex").slt
    baseline = [tree.root]
    while baseline[-1].child("n") is not None:
        baseline.append(baseline[-1].child("n"))
    ends = list(Operands(tree).ends(baseline[first]))
    return [slt_to_latex(Tree(run(baseline[first], end), "slt")) for end in ends]


@pytest.mark.parametrize("latex, first, expected", [
    pytest.param("2x + 1 = y", 0, ["2", "2 x", "2 x + 1", "2 x + 1 = y"], id="from-the-start-every-operand"),
    pytest.param("2x + 1 = y", 1, ["x"], id="a-factor-is-an-operand-its-sum-is-not"),
    pytest.param("2x + 1 = y", 3, ["1"], id="plus-takes-the-1-before-equals-does"),
    pytest.param("2x + 1 = y", 2, [], id="an-operator-starts-none"),
    pytest.param("a - b + c", 0, ["a", "a - b", "a - b + c"], id="left-to-right"),
    pytest.param("a - b + c", 2, ["b"], id="minus-takes-b-first"),
    pytest.param("x + y \\cdot z", 2, ["y", "y \\cdot z"], id="a-product-inside-a-sum"),
    pytest.param("-x \\cdot y + 1", 0, ["- x \\cdot y", "- x \\cdot y + 1"], id="a-sign-takes-the-product"),
    pytest.param("x + -y", 2, ["- y"], id="a-sign-after-an-operator"),
    pytest.param("\\sum_{n} a_n + 1", 1, ["a_{n}"], id="a-big-operator-takes-a-product"),
    pytest.param("a/b c", 0, ["a", "a / b", "a / b c"], id="slash-binds-tighter-than-juxtaposition"),
])
def test_the_operands_a_run_may_be(latex, first, expected):
    assert operands_from(latex, first) == expected


def test_a_whole_baseline_is_a_part_of_the_layout_whatever_it_ends_with():
    tree = parse("(a, b)", "latex").slt
    element = tree.root.child("w")
    last = element.child("n")
    assert last.label == "," and Operands(tree).is_operand(element, last)
    listed = parse("a, b", "latex").slt
    assert not Operands(listed).is_operand(listed.root, listed.root.child("n"))  # `a,` of `a, b`: no part, no operand


@pytest.mark.parametrize("latex, part", [(r"\hat{x}", "o"), (r"\underline{x}", "u"), ("f''", "a"), ("f'", "a")])
def test_an_accent_or_primes_is_no_operand_even_as_a_whole_part(latex, part):
    tree = parse(latex, "latex").slt
    assert list(Operands(tree).ends(tree.root.child(part))) == []
