"""Baselines → SLT nodes: next chains, child order, fence pairing, elements chained by `e`."""
import pytest

from mathparse.layout import Box, build, group_fences
from mathparse.slt_string import to_slt_string


def boxes(text: str) -> list[Box]:
    """One box per character; fence characters may open or close groups."""
    return [Box(char if char in "()[]|," else "V!" + char, fence=char if char in "()[]|" else "") for char in text]


@pytest.mark.parametrize("text, expected", [
    pytest.param("ab", "[V!a[V!b]]", id="next-chain"),
    pytest.param("(a)", "[M!()1x1,w[V!a]]", id="group"),
    pytest.param("(a,b,c)", "[M!()1x3,w[V!a[&comma;],e[V!b[&comma;],e[V!c]]]]", id="elements"),
    pytest.param("[a)", "[M!&lsqb;)1x1,w[V!a]]", id="half-open"),
    pytest.param("(a", "[([V!a]]", id="unpaired-opener"),
    pytest.param("a)", "[V!a[)]]", id="unpaired-closer"),
    pytest.param("(a|b)", "[M!()1x1,w[V!a[|[V!b]]]]", id="bar-inside-parens-gives-up"),
    pytest.param("|a|b|", "[M!||1x1[V!b[|]],w[V!a]]", id="bars-pair-left-to-right"),
    pytest.param("((a)", "[([M!()1x1,w[V!a]]]", id="inner-pair-wins"),
])
def test_group_fences(text, expected):
    assert to_slt_string(build(group_fences(boxes(text)))) == expected


def test_children_in_tangent_order():
    base = Box("V!x")
    for relation in "wuobae":
        base.attach(relation, [Box("N!1")])
    node = build([base, Box("V!y")])
    assert [edge for edge, _ in node.children] == list("nabouwe")


def test_long_baseline_needs_no_recursion():
    node = build([Box("V!x") for _ in range(50_000)])
    assert node.label == "V!x" and node.child("n").label == "V!x"


def test_primes_go_first_in_the_superscript():
    base = Box("V!f")
    base.primes = 2
    base.attach("a", [Box("N!2")])
    assert to_slt_string(build([base])) == "[V!f,a[V!′′[N!2]]]"
