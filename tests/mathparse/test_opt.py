"""SLT → OPT: the label scheme, notation variants meeting, canonical order, and failure modes."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathparse import parse_latex
from mathparse.opt import MAX_NESTING, OptError, build_opt
from mathparse.opt_nodes import serialize
from mathparse.slt_string import tree_from_slt_string
from mathparse.tree import Node, Tree


def opt_of_slt(slt_string: str) -> str:
    return serialize(build_opt(tree_from_slt_string(slt_string)).root)


def opt_of_latex(latex: str) -> str:
    graphs = parse_latex(latex)
    assert graphs.opt is not None, graphs.opt_error
    return serialize(graphs.opt.root)


@pytest.mark.parametrize("slt, expected", [
    pytest.param("[V!x[+[N!1]],a[N!2[V!y]]]", "U!plus(N!1,O!SUP(V!x,U!times(N!2,V!y)))", id="design-example"),
    pytest.param("[V!x,a[N!2],b[V!i]]", "O!SUP(O!SUB(V!x,V!i),N!2)", id="sub-inside-sup"),
    pytest.param("[V!sin[V!x]]", "F!sin(V!x)", id="sin-x"),
    pytest.param("[V!f[M!()1x1,w[V!x]]]", "F!f(V!x)", id="function-letter-applied"),
    pytest.param("[V!x[M!()1x1,w[N!1[-[V!x]]]]]", "U!times(O!minus(N!1,V!x),V!x)", id="other-letter-multiplies"),
    pytest.param("[V!f[M!()1x2,w[V!x[&comma;],e[V!y]]]]", "F!f(V!x,V!y)", id="two-arguments"),
    pytest.param("[V!log[V!n],b[N!2]]", "O!apply(O!SUB(F!log,N!2),V!n)", id="scripted-function-head"),
    pytest.param("[V!sin[N!2[V!x[V!cos[V!x]]]]]", "U!times(F!cos(V!x),F!sin(U!times(N!2,V!x)))",
                 id="unparenthesised-argument-stops-at-function"),
    pytest.param("[V!a[+[V!b[-[V!c]]]]]", "O!minus(U!plus(V!a,V!b),V!c)", id="minus-left-assoc"),
    pytest.param("[-[V!x[V!y]]]", "O!minus(U!times(V!x,V!y))", id="unary-minus-takes-product"),
    pytest.param("[V!a[+[V!b[+[V!c]]]]]", "U!plus(V!a,V!b,V!c)", id="plus-flattened"),
    pytest.param("[V!a[/[V!b[V!c]]]]", "U!times(O!divide(V!a,V!b),V!c)", id="slash-binds-tighter-than-juxtaposition"),
    pytest.param("[V!a[<[V!b[<[V!c]]]]]", "O!lt(V!a,V!b,V!c)", id="same-relation-chain"),
    pytest.param("[V!a[≤[V!b[=[V!c]]]]]", "U!and(O!leq(V!a,V!b),U!eq(V!b,V!c))", id="mixed-relation-chain"),
    pytest.param("[V!p[∧[V!q[⇒[V!r]]]]]", "O!implies(U!and(V!p,V!q),V!r)", id="logic-precedence"),
    pytest.param("[V!a[=[V!b[∧[V!c[=[V!d]]]]]]]", "U!and(U!eq(V!a,V!b),U!eq(V!c,V!d))", id="and-below-relations"),
    pytest.param("[V!k[![/[V!N,a[V!k]]]]]", "O!divide(O!factorial(V!k),O!SUP(V!N,V!k))", id="factorial"),
    pytest.param("[O!divide,o[V!a],u[V!b]]", "O!divide(V!a,V!b)", id="fraction"),
    pytest.param("[O!root,c[N!3],w[V!x]]", "O!root(V!x,N!3)", id="root-with-index"),
    pytest.param("[∑[V!a,b[V!i]],o[V!n],u[V!i[=[N!1]]]]", "O!sum(U!eq(N!1,V!i),V!n,O!SUB(V!a,V!i))",
                 id="sum-with-limits"),
    pytest.param("[∑[V!a[+[N!1]]]]", "U!plus(N!1,O!sum(V!a))", id="sum-body-is-a-product"),
    pytest.param("[∫[V!x[+[N!1[𝑑[V!x]]]]],o[N!1],u[N!0]]", "O!int(N!0,N!1,U!plus(N!1,V!x),V!x)",
                 id="integral-body-up-to-dx"),
    pytest.param("[∫[∫[V!f[𝑑[V!x[𝑑[V!y]]]]]]]", "O!int(O!int(V!f,V!x),V!y)", id="double-integral"),
    pytest.param("[lim[V!f[M!()1x1,w[V!x]]],u[V!x[→[N!0]]]]", "O!lim(O!to(V!x,N!0),F!f(V!x))", id="limit"),
    pytest.param("[M!||1x1[+[M!∥∥1x1,w[V!y]]],w[V!x]]", "U!plus(O!abs(V!x),O!norm(V!y))", id="abs-and-norm"),
    pytest.param("[|[V!x[|[+[|[V!y[|]]]]]]]", "U!plus(O!abs(V!x),O!abs(V!y))", id="bare-bars"),
    pytest.param("[M!||1x1[V!w[M!||1x1]]]", "O!norm(V!w)", id="norm-as-empty-bar-groups"),
    pytest.param("[M!{}1x2,w[N!1[&comma;],e[N!2]]]", "U!set(N!1,N!2)", id="set"),
    pytest.param("[M!&lsqb;)1x2,w[N!0[&comma;],e[N!1]]]", "O!interval-co(N!0,N!1)", id="half-open-interval"),
    pytest.param("[([V!a[&comma;[V!b[)]]]]]", "O!tuple(V!a,V!b)", id="bare-paren-tuple"),
    pytest.param("[M!()2x2,w[N!1,e[N!2,e[N!3,e[N!4]]]]]", "O!matrix(O!row(N!1,N!2),O!row(N!3,N!4))", id="matrix"),
    pytest.param("[V!a[&comma;[V!b[.]]]]", "O!list(V!a,V!b)", id="top-level-list-drops-full-stop"),
    pytest.param("[V!π[V!r,a[N!2]]]", "U!times(C!π,O!SUP(V!r,N!2))", id="pi-is-constant"),
    pytest.param("[N!1[N!000]]", "N!1000", id="spaced-digit-groups"),
    pytest.param("[V!Y[×[V!Y],b[V!Z]]]", "O!apply(O!SUB(U!times,V!Z),V!Y,V!Y)", id="scripted-operator"),
    pytest.param("[=[V!e]]", "U!eq(V!e)", id="relation-missing-left-side"),
])
def test_slt_to_opt(slt, expected):
    assert opt_of_slt(slt) == expected


@pytest.mark.parametrize("a, b", [
    pytest.param(r"\sin x", r"\sin(x)", id="sin-with-and-without-parens"),
    pytest.param(r"\sin x", r"\sin\left(x\right)", id="sin-left-right"),
    pytest.param("a+b", "b+a", id="plus-commutes"),
    pytest.param("(a+b)+c", "a+(b+c)", id="plus-associates"),
    pytest.param("2xy", "y x 2", id="juxtaposition-commutes"),
    pytest.param("a=b", "b=a", id="eq-commutes"),
    pytest.param("x_i^2", "x^2_i", id="script-order"),
    pytest.param(r"\frac{a}{b}", r"\dfrac{a}{b}", id="dfrac"),
    pytest.param(r"a\le b", r"a\leq b", id="le-leq"),
])
def test_notation_variants_meet(a, b):
    assert opt_of_latex(a) == opt_of_latex(b)


@pytest.mark.parametrize("a, b", [
    pytest.param("a-b", "b-a", id="minus-is-ordered"),
    pytest.param("a<b", "b<a", id="lt-is-ordered"),
    pytest.param(r"\frac{a}{b}", r"\frac{b}{a}", id="divide-is-ordered"),
])
def test_ordered_operators_keep_order(a, b):
    assert opt_of_latex(a) != opt_of_latex(b)


@pytest.mark.parametrize("latex, edge_labels", [
    pytest.param("a+b+c", ["0", "0", "0"], id="commutative-all-zero"),
    pytest.param("a-b", ["0", "1"], id="ordered-numbered"),
    pytest.param(r"\sum_{i=1}^{n} i", ["0", "0", "0", "1", "2"], id="big-operator-numbered"),
])
def test_edge_labels(latex, edge_labels):
    """Edges in pre-order of their child: for the sum, lower limit `0` (with its two `0`s), `1`, body `2`."""
    tree = parse_latex(latex).opt
    assert tree.kind == "opt"
    assert [label for _, _, label in tree.edges] == edge_labels


@pytest.mark.parametrize("tree", [
    pytest.param(Tree(Node("V!x"), "opt"), id="not-an-slt"),
    pytest.param(Tree(Node("."), "slt"), id="only-punctuation"),
    pytest.param(Tree(Node(")"), "slt"), id="only-a-closing-paren"),
])
def test_no_operator_tree(tree):
    with pytest.raises(OptError) as info:
        build_opt(tree)
    assert info.value.message


def _nested(depth: int, edge: str, label: str) -> Tree:
    node = Node("V!x")
    for _ in range(depth):
        node = Node(label, ((edge, node),))
    return Tree(node, "slt")


def _long_baseline(length: int, *labels: str) -> Tree:
    node = Node("V!x")
    for i in range(length):
        node = Node(labels[i % len(labels)], (("n", node),))
    return Tree(node, "slt")


@pytest.mark.parametrize("tree", [
    pytest.param(_nested(5_000, "w", "M!()1x1"), id="nested-groups"),
    pytest.param(_nested(5_000, "a", "V!x"), id="nested-superscripts"),
    pytest.param(_long_baseline(5_000, "-"), id="many-unary-minuses"),
])
def test_deep_input_raises_opt_error(tree):
    with pytest.raises(OptError, match="nested deeper"):
        build_opt(tree)


@pytest.mark.parametrize("tree", [
    pytest.param(_nested(MAX_NESTING // 4, "w", "M!()1x1"), id="moderately-nested-groups"),
    pytest.param(_long_baseline(5_000, "+", "V!y"), id="long-flat-sum"),
    pytest.param(_long_baseline(5_000, "=", "N!1"), id="long-relation-chain"),
])
def test_reasonable_input_builds(tree):
    assert len(build_opt(tree)) >= 1


_LABELS = st.sampled_from(["V!x", "N!2", "+", "-", "=", "<", "(", ")", "|", ",", "!", "∑", "∫", "𝑑", "V!sin",
                           "V!f", "O!divide", "O!root", "M!()1x1", "M!{}1x2", "M!()2x2", "M!||1x1", "T!if",
                           "E!", "⋅", "/", "→", "′", "F!g", "C!π", "?", "lim", ".", "&comma;"])
_EDGES = st.sampled_from(["n", "a", "b", "o", "u", "c", "d", "e", "w"])
_TREES = st.recursive(
    _LABELS.map(Node),
    lambda kids: st.builds(lambda label, children: Node(label, tuple(children)), _LABELS,
                           st.lists(st.tuples(_EDGES, kids), max_size=4)),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(_TREES)
def test_any_slt_gives_a_tree_or_opt_error(root):
    try:
        tree = build_opt(Tree(root, "slt"))
    except OptError:
        return
    assert tree.kind == "opt" and len(tree) >= 1
    assert all(label.isdigit() for _, _, label in tree.edges)


@pytest.mark.parametrize("latex, expected", [
    pytest.param(r"\{x | x>0\}", "O!condset(V!x,O!gt(V!x,N!0))", id="set-builder-bar"),
    pytest.param(r"\{x \in A : x>0\}", "O!condset(O!in(V!x,V!A),O!gt(V!x,N!0))", id="set-builder-colon"),
    pytest.param("P(A|B)", "U!times(O!divides(V!A,V!B),V!P)", id="given-bar-kept"),
    pytest.param(r"\sin^2 x", "O!apply(O!SUP(F!sin,N!2),V!x)", id="sin-squared"),
    pytest.param(r"f^{-1}(x)", "O!apply(O!SUP(F!f,O!minus(N!1)),V!x)", id="inverse-function"),
    pytest.param(r"\forall x \in A, x > 0", "O!list(O!in(O!forall(V!x),V!A),O!gt(V!x,N!0))", id="quantifier"),
])
def test_latex_to_opt(latex, expected):
    assert opt_of_latex(latex) == expected
