"""Query variables (`W!x`, `ml.formula.tree.QUERY_VARIABLE`): a query's placeholders for any sub-expression.

A search leaves their rows out of maxsim and counts them as matched (`searchapp.search.scoring`). Their
neighbours are still encoded with something in their place, STAND_IN, so that `f_{\\qvar{n}}` looks for an `f`
with a subscript, not for a bare `f`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ml.formula.api import FormulaGraphs
from ml.formula.augment import relabelled
from ml.formula.opt_symbols import INFIX, SEP
from ml.formula.opt_tokens import SEPARATORS
from ml.formula.tree import Node, Tree, is_query_variable, node_value

STAND_IN = "V!x"


def for_embedding(graphs: FormulaGraphs) -> FormulaGraphs:
    """The query's trees with STAND_IN for each query variable (the same graphs when it has none)."""
    if not any(is_query_variable(label) for label in graphs.slt.labels):
        return graphs
    return FormulaGraphs(graphs.source, _stood_in(graphs.slt), graphs.opt and _stood_in(graphs.opt), graphs.opt_error)


def _stood_in(tree: Tree) -> Tree:
    return relabelled(tree, [STAND_IN if is_query_variable(label) else label for label in tree.labels])


def match(query: Tree, candidate: Tree) -> dict[str, Node] | None:
    """What each query variable stands for where `query` occurs exactly in `candidate`, or None.

    The query may occur anywhere, and the candidate may go on after it; each symbol's scripts and arguments must
    be the query's. A variable stands for one symbol with its scripts, or for several along a baseline, and a name
    used twice stands for the same thing both times. Beside an infix operator of the query a variable is an operand,
    as in the operator tree (`ml.formula.opt_symbols` gives the binding powers): in `y = 2x + 1`, `\\qvar{a} + 1`
    binds a to `2x`, not to `x` nor to `y = 2x`; in `2x - y + 1`, to `2x - y` (read left to right); and
    `1 + \\qvar{b}` in `1 + x = 3` binds b to `x`. A variable with no operator beside it takes the symbols up to
    what follows it in the query, or to its baseline's end. Of several places, the one binding the fewest symbols.
    A binding is a baseline chain of `Node`s.
    """
    matcher = _Matcher({id(child): node for node in candidate.nodes for edge, child in node.children if edge == "n"})
    found = (matcher.matched(query.root, node, {}) for node in candidate.nodes)
    return min((bound for bound in found if bound is not None), key=_bound_size, default=None)


def _bound_size(bound: dict[str, Node]) -> int:
    return sum(len(Tree(node, "slt")) for node in bound.values())


def _binding_power(label: str) -> int | None:
    """How tightly a baseline symbol binds if it is an infix operator (higher is tighter); None for an operand."""
    if label in SEPARATORS:
        return SEP
    operator = INFIX.get(label)
    return operator.prec if operator is not None else None


@dataclass(frozen=True)
class _Matcher:
    before: dict[int, Node]
    """The candidate's symbols by the id of the one after them on their baseline."""

    def matched(self, q: Node, c: Node, bound: dict[str, Node], q_before: str | None = None) -> dict[str, Node] | None:
        if is_query_variable(q.label):
            return self._variable(q, c, bound, q_before)
        if q.label != c.label or _scripts(q) != _scripts(c):
            return None
        for edge, child in q.children:
            other = c.child(edge)
            if other is None:
                return None
            result = self.matched(child, other, bound, q.label if edge == "n" else None)
            if result is None:
                return None
            bound = result
        return bound

    def _variable(self, q: Node, c: Node, bound: dict[str, Node], q_before: str | None) -> dict[str, Node] | None:
        """Bind q's name to c and the symbols after it on c's baseline: the operand the query's operators beside it
        delimit, else as few symbols as let the rest of the query match."""
        name, following = node_value(q.label), q.child("n")
        left = _binding_power(following.label) if following is not None else None  # the variable is its left operand
        right = _binding_power(q_before) if q_before is not None else None  # its right operand
        if q_before is None and left is not None and not self._operand_starts_at(c, left):
            return None
        taken: list[Node] = []
        current: Node | None = c
        while current is not None:
            if taken and _ends_operand(current, left, right):  # a first operator is a sign: `-y` in `x + -y`
                break
            taken.append(current)
            after = current.child("n")
            if following is None:
                if after is None or _ends_operand(after, left, right):
                    return _bind(name, taken, bound)
            elif after is not None:
                result = _bind(name, taken, bound)
                result = result and self.matched(following, after, result, q.label)
                if result is not None:
                    return result
            current = after
        return None

    def _operand_starts_at(self, c: Node, left: int) -> bool:
        """Whether a left operand may start at c: at its baseline's start, or after an operator binding more loosely
        (`=` before `2x + 1`'s 2x; not the 2 before its x)."""
        previous = self.before.get(id(c))
        return previous is None or _ends_operand(previous, left, None)


def _ends_operand(node: Node, left: int | None, right: int | None) -> bool:
    """Whether node is an operator binding more loosely than the query's operators beside a variable, so that an
    operand of theirs cannot hold it: looser than the one after the variable (`left`), or at most as tight as the one
    before it (`right`: `1 + b` in `1 + x - y` is read `(1 + x) - y`)."""
    power = _binding_power(node.label)
    return power is not None and ((left is not None and power < left) or (right is not None and power <= right))


def _bind(name: str, taken: list[Node], bound: dict[str, Node]) -> dict[str, Node] | None:
    chain: Node | None = None
    for node in reversed(taken):  # the taken symbols with their scripts, linked along a new baseline
        children = tuple((edge, child) for edge, child in node.children if edge != "n")
        chain = Node(node.label, children + ((("n", chain),) if chain is not None else ()))
    assert chain is not None
    if name in bound and bound[name] != chain:
        return None
    return {**bound, name: chain}


def _scripts(node: Node) -> frozenset[str]:
    return frozenset(edge for edge, _ in node.children if edge != "n")
