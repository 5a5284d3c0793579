"""Graph augmentations for contrastive training: pure functions from a `Tree` to a new `Tree`.

Each takes a seeded `random.Random`, so an epoch's views are reproducible. Rebuilding is iterative
(bottom-up over the pre-order), because an SLT's `next` chain nests as deep as the formula is long.
"""
from __future__ import annotations

import random
from collections.abc import Collection

from mathparse.tree import Node, Tree, node_type, node_value

MASK_VALUE = "[MASK]"
"""Value of a masked node: the type stays, the value is hidden (SSEmb attribute masking)."""
WILDCARD = "E!?"
"""Label of a substituted sub-structure (SSEmb): it stands for any sub-expression, so it has no type."""

_GREEK = "αβγδεζηθικλμνξπρστυφχψω"
VARIABLE_POOL = tuple("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" + _GREEK)
NUMBER_POOL = tuple(str(n) for n in range(100))


def sample_subexpression(tree: Tree, rng: random.Random) -> Tree:
    """Remove one random internal node and keep the largest remaining connected component (In+Out §3).

    Leaves are never removed (in an OPT they are the operands that carry the rare symbols). The part
    still holding the root stays rooted there; a child's subtree is rooted at that child. Ties go to
    the root's part, then to the earlier child. A single-node tree has nothing to remove and is returned.
    """
    internal = [i for i, node in enumerate(tree.nodes) if node.children]
    if not internal:
        return tree
    removed = rng.choice(internal)
    sizes = _subtree_sizes(tree)
    candidates: list[tuple[int, Node]] = []
    if removed != 0:
        candidates.append((len(tree) - sizes[removed], _rebuild(tree, drop={removed})))
    first_child = removed + 1
    for _, child in tree.nodes[removed].children:
        candidates.append((sizes[first_child], child))
        first_child += sizes[first_child]
    best = max(candidates, key=lambda pair: pair[0])  # max keeps the first of equal sizes
    return Tree(best[1], tree.kind)


def substitute_variables(tree: Tree, rng: random.Random) -> Tree:
    """Rename variables to other variables and numbers to other numbers, consistently (Ku & Chen).

    Every occurrence of one value gets the same new value and distinct values stay distinct, so
    the topology and the pattern of repeated symbols are kept.
    """
    labels = tree.labels
    mapping = {
        **_renaming(labels, "V", VARIABLE_POOL, rng),
        **_renaming(labels, "N", NUMBER_POOL, rng),
    }
    return relabelled(tree, [mapping.get(label, label) for label in labels])


def substitute_substructures(tree: Tree, rng: random.Random, p: tuple[float, ...] = (0.3, 0.005, 0.002)) -> Tree:
    """Replace sub-structures by a wildcard leaf, from the leaves upward (SSEmb §2.2).

    A node of height h (a leaf has height 0) is substituted with probability p[h]; its children are
    cut off, so a substitution high up hides everything below it. The root is never substituted.
    """
    heights = _heights(tree)
    chosen = {i for i in range(1, len(tree)) if heights[i] < len(p) and rng.random() < p[heights[i]]}
    labels = [WILDCARD if i in chosen else label for i, label in enumerate(tree.labels)]
    return Tree(_rebuild(tree, labels=labels, cut=chosen), tree.kind)


def relabelled(tree: Tree, labels: list[str]) -> Tree:
    """The same tree with new labels, in pre-order."""
    return Tree(_rebuild(tree, labels=labels), tree.kind)


def mask_attributes(tree: Tree, rng: random.Random, p: float = 0.01) -> Tree:
    """Hide each node's value with probability p, keeping its type (SSEmb attribute masking)."""
    return relabelled(tree, [f"{node_type(label)}!{MASK_VALUE}" if rng.random() < p else label for label in tree.labels])


def _renaming(labels: list[str], kind: str, pool: tuple[str, ...], rng: random.Random) -> dict[str, str]:
    """An injective map of the distinct `kind` labels to new labels, avoiding the old values if the pool allows."""
    old = list(dict.fromkeys(label for label in labels if node_type(label) == kind))
    values = {node_value(label) for label in old}
    fresh = [value for value in pool if value not in values]
    if len(fresh) < len(old):
        fresh = list(pool) + [f"{kind}{i}" for i in range(len(old))]  # more distinct symbols than the pool
    return {label: f"{kind}!{new}" for label, new in zip(old, rng.sample(fresh, len(old)))}


def _subtree_sizes(tree: Tree) -> list[int]:
    sizes = [1] * len(tree)
    for parent, child, _ in reversed(tree.edges):
        sizes[parent] += sizes[child]
    return sizes


def _heights(tree: Tree) -> list[int]:
    heights = [0] * len(tree)
    for parent, child, _ in reversed(tree.edges):
        heights[parent] = max(heights[parent], heights[child] + 1)
    return heights


def _rebuild(
    tree: Tree,
    labels: list[str] | None = None,
    cut: Collection[int] = (),
    drop: Collection[int] = (),
) -> Node:
    """The root of a copy of `tree` with new labels; `cut` nodes lose their children, `drop` nodes vanish."""
    labels = labels or tree.labels
    children: list[list[tuple[str, int]]] = [[] for _ in range(len(tree))]
    for parent, child, edge in tree.edges:
        if parent not in cut and child not in drop:
            children[parent].append((edge, child))
    built: dict[int, Node] = {}
    for i in reversed(range(len(tree))):  # children come after their parent in pre-order
        built[i] = Node(labels[i], tuple((edge, built[c]) for edge, c in children[i]))
    return built[0]

