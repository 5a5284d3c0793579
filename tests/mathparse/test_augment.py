import random

import pytest

from mathparse.augment import (
    MASK_VALUE,
    WILDCARD,
    mask_attributes,
    sample_subexpression,
    substitute_substructures,
    substitute_variables,
)
from mathparse.tree import Node, Tree, node_type


def leaf(label: str) -> Node:
    return Node(label)


def node(label: str, *children: tuple[str, Node]) -> Node:
    return Node(label, tuple(children))


# x^{2y}+1 as an OPT: U!plus(O!SUP(V!x, U!times(N!2, V!y)), N!1)
OPT = Tree(
    node("U!plus",
         ("0", node("O!SUP", ("0", leaf("V!x")), ("1", node("U!times", ("0", leaf("N!2")), ("0", leaf("V!y")))))),
         ("0", leaf("N!1"))),
    "opt",
)
# x^{2y}+1 as an SLT: x -a-> 2 -n-> y ; x -n-> + -n-> 1
SLT = Tree(node("V!x", ("a", node("N!2", ("n", leaf("V!y")))), ("n", node("+", ("n", leaf("N!1"))))), "slt")
CHAIN = Tree(node("V!a", ("n", node("+", ("n", leaf("V!b"))))), "slt")
# x + x = 2: a repeated variable
REPEATED = Tree(node("V!x", ("n", node("+", ("n", node("V!x", ("n", node("=", ("n", leaf("N!2"))))))))), "slt")


def remove_at(tree: Tree, index: int) -> Tree:
    """sample_subexpression with an rng whose choice picks the `index`-th internal node."""

    class Pick(random.Random):
        def choice(self, seq):
            return seq[index]

    return sample_subexpression(tree, Pick())


@pytest.mark.parametrize(
    "tree, internal_index, expected_labels",
    [
        pytest.param(OPT, 0, ["O!SUP", "V!x", "U!times", "N!2", "V!y"], id="opt-root-removed-keeps-bigger-child"),
        pytest.param(OPT, 1, ["U!times", "N!2", "V!y"], id="opt-sup-removed-keeps-exponent"),
        pytest.param(OPT, 2, ["U!plus", "O!SUP", "V!x", "N!1"], id="opt-times-removed"),
        pytest.param(SLT, 0, ["N!2", "V!y"], id="slt-root-removed-first-child-wins-tie"),
        pytest.param(SLT, 1, ["V!x", "+", "N!1"], id="slt-superscript-base-removed"),
        pytest.param(SLT, 2, ["V!x", "N!2", "V!y"], id="slt-plus-removed"),
        pytest.param(CHAIN, 1, ["V!a"], id="root-part-wins-tie"),
    ],
)
def test_sample_subexpression_keeps_largest_component(tree, internal_index, expected_labels):
    assert remove_at(tree, internal_index).labels == expected_labels


def test_sample_subexpression_of_single_node_is_itself():
    tree = Tree(leaf("V!x"), "slt")
    assert sample_subexpression(tree, random.Random(0)) == tree


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"seed-{s}") for s in range(5)])
def test_sample_subexpression_is_smaller_and_a_real_tree(seed):
    sub = sample_subexpression(OPT, random.Random(seed))
    assert 1 <= len(sub) < len(OPT)
    assert sub.kind == "opt"
    assert all(0 <= p < len(sub) and 0 <= c < len(sub) for p, c, _ in sub.edges)


@pytest.mark.parametrize("tree", [pytest.param(OPT, id="opt"), pytest.param(SLT, id="slt"),
                                  pytest.param(REPEATED, id="repeated")])
def test_substitute_variables_keeps_topology_and_types(tree):
    new = substitute_variables(tree, random.Random(1))
    assert [(p, c, e) for p, c, e in new.edges] == list(tree.edges)
    assert [node_type(label) for label in new.labels] == [node_type(label) for label in tree.labels]
    changed = [(a, b) for a, b in zip(tree.labels, new.labels) if node_type(a) in "VN"]
    assert all(a != b for a, b in changed)


def test_substitute_variables_is_consistent_and_injective():
    new = substitute_variables(REPEATED, random.Random(3))
    x1, x2 = new.labels[0], new.labels[2]
    assert x1 == x2 and x1 != "V!x"
    assert new.labels[1] == "+" and new.labels[3] == "="

    two_vars = substitute_variables(OPT, random.Random(3))
    assert two_vars.labels[2] != two_vars.labels[5]  # x and y stay distinct


@pytest.mark.parametrize(
    "p, expected_labels",
    [
        pytest.param((0.0, 0.0, 0.0), OPT.labels, id="never"),
        pytest.param((1.0, 0.0, 0.0), ["U!plus", "O!SUP", WILDCARD, "U!times", WILDCARD, WILDCARD, WILDCARD],
                     id="all-leaves"),
        pytest.param((0.0, 1.0, 0.0), ["U!plus", "O!SUP", "V!x", WILDCARD, "N!1"], id="parents-of-leaves"),
        pytest.param((0.0, 0.0, 1.0), ["U!plus", WILDCARD, "N!1"], id="grandparents"),
        pytest.param((1.0, 1.0, 1.0), ["U!plus", WILDCARD, WILDCARD], id="everything-below-root"),
    ],
)
def test_substitute_substructures_by_level(p, expected_labels):
    assert substitute_substructures(OPT, random.Random(0), p=p).labels == expected_labels


@pytest.mark.parametrize(
    "p, expected_labels",
    [
        pytest.param(0.0, SLT.labels, id="never"),
        pytest.param(1.0, [f"V!{MASK_VALUE}", f"N!{MASK_VALUE}", f"V!{MASK_VALUE}", f"*!{MASK_VALUE}",
                           f"N!{MASK_VALUE}"], id="always-keeps-type"),
    ],
)
def test_mask_attributes(p, expected_labels):
    masked = mask_attributes(SLT, random.Random(0), p=p)
    assert masked.labels == expected_labels
    assert masked.edges == SLT.edges


def test_augmentations_are_reproducible_per_seed():
    first = [substitute_variables(OPT, random.Random(7)), sample_subexpression(OPT, random.Random(7))]
    again = [substitute_variables(OPT, random.Random(7)), sample_subexpression(OPT, random.Random(7))]
    assert first == again


def test_shared_subtrees_are_separate_nodes():
    # The OPT builder may reuse one Node object for equal sub-trees: x^2 + x^2.
    square = node("O!SUP", ("0", leaf("V!x")), ("1", leaf("N!2")))
    tree = Tree(node("U!plus", ("0", square), ("0", square)), "opt")
    assert list(tree.edges) == [(0, 1, "0"), (1, 2, "0"), (1, 3, "1"), (0, 4, "0"), (4, 5, "0"), (4, 6, "1")]
    assert remove_at(tree, 0).labels == ["O!SUP", "V!x", "N!2"]
    assert substitute_variables(tree, random.Random(0)).edges == tree.edges


def random_tree(rng: random.Random, size: int) -> Tree:
    """A random OPT-labelled tree of `size` nodes (each new node hangs under an earlier one)."""
    parents = [None] + [rng.randrange(i) for i in range(1, size)]
    built = {}
    for i in reversed(range(size)):
        kids = tuple((str(k), built[c]) for k, c in enumerate(c for c in range(size) if parents[c] == i))
        built[i] = Node(f"V!{rng.choice('xyz')}" if not kids else "U!plus", kids)
    return Tree(built[0], "opt")


def largest_component_after_removing(tree: Tree, removed: int) -> int:
    """Brute force over the undirected edges, independent of the implementation's size bookkeeping."""
    neighbours = {i: set() for i in range(len(tree))}
    for parent, child, _ in tree.edges:
        neighbours[parent].add(child)
        neighbours[child].add(parent)
    seen, best = {removed}, 0
    for start in range(len(tree)):
        if start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            size += 1
            for other in neighbours[stack.pop()] - seen:
                seen.add(other)
                stack.append(other)
        best = max(best, size)
    return best


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"random-tree-{s}") for s in range(30)])
def test_sub_expression_is_the_largest_component(seed):
    rng = random.Random(seed)
    tree = random_tree(rng, rng.randrange(2, 25))
    internal = [i for i, n in enumerate(tree.nodes) if n.children]
    k = rng.randrange(len(internal))
    assert len(remove_at(tree, k)) == largest_component_after_removing(tree, internal[k])
