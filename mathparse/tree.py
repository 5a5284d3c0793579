"""Immutable labelled trees shared by Symbol Layout Trees and Operator Trees.

A node carries a label (`type!value`, e.g. `V!x`, `N!2`, `U!plus`, or a bare
operator symbol such as `+` in an SLT) and an ordered tuple of labelled edges to
its children. SLT edge labels are the layout relations of Tangent-S
(SLT_EDGE_LABELS); OPT edge labels are argument positions (`"0"`, `"1"`, …),
all `"0"` under a commutative operator.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

NODE_TYPES = ("N", "V", "C", "F", "T", "M", "U", "O", "E", "*")
"""Node type letters; `E` marks an error/unknown node, `*` a bare operator symbol of an SLT."""
QUERY_VARIABLE = "W"
"""Type letter of a query variable (Tangent-S's wildcard `W!`, named `W!x0` after NTCIR's qvar `x0`): in a query it
stands for any sub-expression. Not a type the encoders know (it embeds as `E`); searches score around it
(`searchapp.search.query`)."""
SLT_EDGE_LABELS = ("n", "a", "b", "o", "u", "c", "d", "e", "w")
"""Layout relations: next, above, below, over, under, pre-above, pre-below, element, within."""


@dataclass(frozen=True, eq=False)
class Node:
    label: str
    children: tuple[tuple[str, Node], ...] = ()

    def __eq__(self, other: object) -> bool:
        # Compared by pre-order signature, not dataclass field recursion, so a long baseline
        # (a chain of hundreds of `next` edges) cannot hit the recursion limit.
        return isinstance(other, Node) and self._signature() == other._signature()

    def __hash__(self) -> int:
        return hash(self._signature())

    def _signature(self) -> tuple:
        return tuple((node.label, tuple(edge for edge, _ in node.children)) for node in _preorder(self))

    def child(self, edge: str) -> Node | None:
        """The first child reached by `edge`, or None."""
        for label, node in self.children:
            if label == edge:
                return node
        return None


@dataclass(frozen=True)
class Tree:
    """A rooted tree; `kind` is "slt" or "opt"."""

    root: Node
    kind: str
    _order: tuple[Node, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_order", tuple(_preorder(self.root)))

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Nodes in pre-order; a node's index here is its id in `edges` and in the models' graphs."""
        return self._order

    @property
    def labels(self) -> list[str]:
        return [node.label for node in self._order]

    @cached_property
    def edges(self) -> tuple[tuple[int, int, str], ...]:
        """(parent index, child index, edge label) for every parent→child edge; walked once per tree, since
        indexing reads them three times (structure terms, both graphs).

        Indices come from walking the tree, not from node identity: equal sub-trees may share one
        immutable `Node` object (the OPT builder reuses them), and each occurrence is its own node.
        """
        edges: list[tuple[int, int, str]] = []
        stack: list[tuple[Node, int, str]] = [(self.root, -1, "")]
        index = 0
        while stack:  # same visiting order as _preorder, so indices match `nodes`
            node, parent, label = stack.pop()
            if parent >= 0:
                edges.append((parent, index, label))
            stack.extend((child, index, edge) for edge, child in reversed(node.children))
            index += 1
        return tuple(edges)

    def __len__(self) -> int:
        return len(self._order)


def _preorder(root: Node) -> Iterator[Node]:
    # Iterative so that deeply nested formulas cannot hit the recursion limit.
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for _, child in reversed(node.children))


def chain(node: Node | None, edge: str) -> list[Node]:
    """`node` and the nodes after it along `edge`: a baseline (`n`), a table's cells (`e`)."""
    found = []
    while node is not None:
        found.append(node)
        node = node.child(edge)
    return found


def node_type(label: str) -> str:
    """The type letter of a label (`V` for `V!x`); `*` for a bare operator symbol such as `+`."""
    head, sep, _ = label.partition("!")
    return head if sep else "*"


def is_query_variable(label: str) -> bool:
    return label.startswith(QUERY_VARIABLE + "!")


def node_value(label: str) -> str:
    """The value part of a label (`x` for `V!x`); the whole label for a bare symbol."""
    head, sep, value = label.partition("!")
    return value if sep else head
