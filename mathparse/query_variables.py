"""Query variables (`W!x`, `mathparse.tree.QUERY_VARIABLE`): a query's placeholders for any sub-expression.

A search leaves their rows out of maxsim and counts them as matched (`searchapp.search.scoring`). Their
neighbours are still encoded with something in their place, STAND_IN, so that `f_{\\qvar{n}}` looks for an `f`
with a subscript, not for a bare `f`.
"""
from __future__ import annotations

from collections.abc import Iterator

from mathparse.api import FormulaGraphs
from mathparse.augment import relabelled
from mathparse.operands import Operands, run
from mathparse.tree import Node, Tree, is_query_variable, node_value

STAND_IN = "V!x"
SCRIPTS = frozenset("abcd")
"""The layout edges of scripts (super-, sub-, pre-super-, pre-subscript): a variable's own are the base's."""
Bindings = dict[str, Node]
"""Variable name → what it stands for: a baseline chain of the candidate's symbols, with what hangs off them but
the next element of their fence or matrix (`e`, hung off an element's first symbol), which is the query's to match."""


def for_embedding(graphs: FormulaGraphs) -> FormulaGraphs:
    """The query's trees with STAND_IN for each query variable (the same graphs when it has none)."""
    if not any(is_query_variable(label) for label in graphs.slt.labels):
        return graphs
    return FormulaGraphs(graphs.source, _stood_in(graphs.slt), graphs.opt and _stood_in(graphs.opt), graphs.opt_error)


def _stood_in(tree: Tree) -> Tree:
    return relabelled(tree, [STAND_IN if is_query_variable(label) else label for label in tree.labels])


def match(query: Tree, candidate: Tree) -> Bindings | None:
    """What each query variable stands for where `query` lies over a sub-expression of `candidate`, or None.

    The query may lie anywhere, and the candidate may go on after it, but only over an operand
    (`mathparse.operands`): `\\qvar{a} + 1` does not lie over `x + 1` in `2x + 1`, nor over `y + 1` in
    `y + 1 \\cdot 2`. Each symbol's scripts and parts must be the query's, whole: `x^{2}` is not in `x^{2k}`.
    A variable stands for one operand of the candidate, never a piece of one: in `y = 2x + 1`, `\\qvar{a} + 1`
    binds a to `2x`, not to `x` nor to `y = 2x`; in `2x - y + 1`, to `2x - y` (read left to right). A variable
    with scripts of its own is their base, one symbol whose scripts must be the variable's as a symbol's would:
    `\\qvar{a}^2` binds a to x in `x^2` (never to `x^2` itself), to the fence in `(x + y)^2`, and lies over no `x`
    without a square, nor `x_i^2` (x has a subscript the variable has not).
    A name used twice stands for the same thing both times. Of several places, the one binding fewest symbols.
    """
    operands = Operands(candidate)
    matcher = _Matcher(operands)
    found = (next((bound for bound, last in matcher.baseline(query.root, node, {}, whole=False)
                   if operands.is_operand(node, last)), None) for node in candidate.nodes)
    return min((bound for bound in found if bound is not None), key=_bound_size, default=None)


def _bound_size(bound: Bindings) -> int:
    return sum(len(Tree(node, "slt")) for node in bound.values())


class _Matcher:
    """Lays a query's baselines over a candidate's, trying every binding its variables may take."""

    def __init__(self, operands: Operands) -> None:
        self.operands = operands

    def baseline(self, q: Node, c: Node, bound: Bindings, whole: bool) -> Iterator[tuple[Bindings, Node]]:
        """Each way the query's baseline from q lies along the candidate's from c: the bindings and the candidate's
        symbol under the query's last; with `whole`, only the ways that reach the end of the candidate's baseline."""
        placed = self._variable(q, c, bound) if is_query_variable(q.label) else self._symbol(q, c, bound)
        following = q.child("n")
        for result, last in placed:
            after = last.child("n")
            if following is None:
                if not whole or after is None:
                    yield result, last
            elif after is not None:
                yield from self.baseline(following, after, result, whole)

    def _symbol(self, q: Node, c: Node, bound: Bindings) -> Iterator[tuple[Bindings, Node]]:
        if q.label == c.label and _parts(q) == _parts(c):
            for result in self._parts(tuple(part for part in q.children if part[0] != "n"), c, bound):
                yield result, c

    def _parts(self, parts: tuple[tuple[str, Node], ...], c: Node, bound: Bindings) -> Iterator[Bindings]:
        """The bindings under which each of the query's parts (edge, baseline) is c's part by that edge, whole."""
        if not parts:
            yield bound
            return
        (edge, child), rest = parts[0], parts[1:]
        other = c.child(edge)
        assert other is not None  # the callers compared the edges
        for result, _ in self.baseline(child, other, bound, whole=True):
            yield from self._parts(rest, c, result)

    def _variable(self, q: Node, c: Node, bound: Bindings) -> Iterator[tuple[Bindings, Node]]:
        name = node_value(q.label)
        parts = tuple(part for part in q.children if part[0] != "n")  # scripts, and the next element (`e`)
        if (q.child("e") is None) != (c.child("e") is None):
            return
        if not any(edge in SCRIPTS for edge, _ in parts):
            for last in self.operands.ends(c):
                result = _bind(name, run(c, last), bound)
                if result is not None:
                    for placed in self._parts(parts, c, result):
                        yield placed, last
            return
        if {edge for edge, _ in parts} != {edge for edge, _ in c.children if edge in SCRIPTS or edge == "e"}:
            return
        base = Node(c.label, tuple(part for part in c.children if part[0] not in SCRIPTS and part[0] not in "ne"))
        result = _bind(name, base, bound) if self.operands.is_operand(c, c) else None
        if result is not None:
            for placed in self._parts(parts, c, result):
                yield placed, c


def _bind(name: str, value: Node, bound: Bindings) -> Bindings | None:
    if name in bound and bound[name] != value:
        return None
    return {**bound, name: value}


def _parts(node: Node) -> frozenset[str]:
    return frozenset(edge for edge, _ in node.children if edge != "n")
