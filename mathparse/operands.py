"""Which runs of a Symbol Layout Tree baseline are operands: the sub-expressions of a formula, read on its layout.

A run of symbols along one baseline (each with everything hanging off it: scripts, parts, fence contents) is a
sub-expression when the operator tree of the baseline would hold it as one sub-tree. Read with the binding powers of
`mathparse.opt_symbols`, left to right as `mathparse.opt` reads `a - b + c` = `(a - b) + c`, with two symbols side by
side multiplied (juxtaposition binds as `\\cdot`), and a sign (`-x`, an operator where an operand belongs) taking
the product that follows, as `mathparse.opt` does: in `2x + 1 = y`, `2x`, `x`, `2x + 1` and the whole are
operands; `x + 1` (the 2 multiplies x first) and `1 = y` (`+` takes the 1 first) are not.

Query variables (`mathparse.query_variables`) bind operands, and a pattern matches where it lies over one.
"""
from __future__ import annotations

from collections.abc import Iterator

from mathparse.latex_symbols import ACCENTS
from mathparse.opt_symbols import ADD, INFIX, MUL, SEP, SIGNS
from mathparse.opt_tokens import SEPARATORS
from mathparse.tree import Node, Tree

MARKS = frozenset(mark for _, mark in ACCENTS.values())
"""Accents' marks (`\\hat{x}` is x with `^` over it): a mark is no operand, nor are primes (`f''`: f with `′′` as
its superscript); the page could not write what one stood for, and it would mean no sub-expression."""
_NO_OPERATOR = 1_000
"""The loosest operator of a run without one: above every binding power, so any neighbour may hold the run."""


def binding_power(label: str) -> int | None:
    """How tightly a baseline symbol binds if it is an infix operator (higher is tighter); None for an operand."""
    if label in SEPARATORS:
        return SEP
    operator = INFIX.get(label)
    return operator.prec if operator is not None else None


class Operands:
    """The operand runs of one tree's baselines."""

    def __init__(self, tree: Tree) -> None:
        self.before = {id(child): node for node in tree.nodes for edge, child in node.children if edge == "n"}
        """Each symbol by the id of the one after it on its baseline (a tree's nodes are its own objects)."""

    def ends(self, first: Node) -> Iterator[Node]:
        """Each symbol of first's baseline, first included, at which a run from `first` is an operand, nearest first.
        A whole baseline is one too: a script, a radicand, a fence's element (which LaTeXML ends with its comma)."""
        previous = self.before.get(id(first))
        if is_infix(first, previous):
            return
        holding = None if previous is None else self._binds_after(previous)
        loosest = closing = _NO_OPERATOR  # the run's loosest infix operator; and what may end it, signs included
        node: Node | None = first
        before = previous
        while node is not None:
            if node.label in MARKS or set(node.label.removeprefix("V!")) == {"′"}:
                return
            power = binding_power(node.label)
            if power is not None and node is not first and is_infix(node, before):
                loosest = closing = min(loosest, power)
                if holding is not None and holding >= loosest:  # the symbol before takes the run's start first
                    return
            elif power is not None:  # a sign: its product must end before the run may (`-x` is no operand of `-xy`)
                closing = min(closing, _prefix_power(node.label, power))
            after = node.child("n")
            if (power is None and (after is None or _binds_before(after) <= closing)) or (after is previous is None):
                yield node  # an operand; or a whole baseline, a part of the layout whatever it ends with (`(a,b)`)
            before, node = node, after

    def is_operand(self, first: Node, last: Node) -> bool:
        """Whether the symbols from `first` to `last` along a baseline make one operand."""
        return any(end is last for end in self.ends(first))

    def _binds_after(self, node: Node) -> int:
        """How tightly `node` takes what follows it on its baseline."""
        power = binding_power(node.label)
        if power is None:
            return MUL
        return power if is_infix(node, self.before.get(id(node))) else _prefix_power(node.label, power)


def run(first: Node, last: Node) -> Node:
    """The symbols from `first` to `last` of a baseline with what hangs off them, as a baseline of their own; without
    the next element of a fence or matrix (`e`), which follows the run rather than being part of it."""
    taken = [first]
    while taken[-1] is not last:
        after = taken[-1].child("n")
        assert after is not None  # last is on first's baseline
        taken.append(after)
    chain: Node | None = None
    for node in reversed(taken):
        children = tuple(part for part in node.children if part[0] not in "ne")
        chain = Node(node.label, ((("n", chain),) if chain is not None else ()) + children)
    assert chain is not None
    return chain


def _prefix_power(label: str, power: int) -> int:
    """How tightly an operator where an operand belongs takes what follows: a sign the product after it (so, just
    looser than a product), another operator (`= 0` missing its left side) what binds tighter than itself."""
    return ADD if label in SIGNS else power


def _binds_before(node: Node) -> int:
    """How tightly `node` takes the operand before it: as an infix operator, or as a factor beside it."""
    power = binding_power(node.label)
    return MUL if power is None else power


def is_infix(node: Node, before: Node | None) -> bool:
    """Whether `node` is an operator between two operands (not a sign: first, or after another operator)."""
    return binding_power(node.label) is not None and before is not None and binding_power(before.label) is None
