"""Query variables (`W!x`, `ml.formula.tree.QUERY_VARIABLE`): a query's placeholders for any sub-expression.

A search leaves their rows out of maxsim and counts them as matched (`searchapp.search.scoring`). Their
neighbours are still encoded with something in their place, STAND_IN, so that `f_{\\qvar{n}}` looks for an `f`
with a subscript, not for a bare `f`.
"""
from __future__ import annotations

from ml.formula.api import FormulaGraphs
from ml.formula.augment import relabelled
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
    be the query's. A variable stands for one symbol with its scripts, or for several along a baseline up to what
    follows it in the query (to the baseline's end if nothing does), and a name used twice stands for the same
    thing both times. Of several places, the one binding the fewest symbols: in `y = 2x + 1`, `\\qvar{a} + 1`
    binds a to `x`, not to `y = 2x`. A binding is a baseline chain of `Node`s.
    """
    found = (_matched(query.root, node, {}) for node in candidate.nodes)
    return min((bound for bound in found if bound is not None), key=_bound_size, default=None)


def _bound_size(bound: dict[str, Node]) -> int:
    return sum(len(Tree(node, "slt")) for node in bound.values())


def _matched(q: Node, c: Node, bound: dict[str, Node]) -> dict[str, Node] | None:
    if is_query_variable(q.label):
        return _variable(q, c, bound)
    if q.label != c.label or _scripts(q) != _scripts(c):
        return None
    for edge, child in q.children:
        other = c.child(edge)
        if other is None:
            return None
        result = _matched(child, other, bound)
        if result is None:
            return None
        bound = result
    return bound


def _variable(q: Node, c: Node, bound: dict[str, Node]) -> dict[str, Node] | None:
    """Bind q's name to c and the symbols after it on c's baseline, as few as let the rest of the query match."""
    name, following = node_value(q.label), q.child("n")
    taken: list[Node] = []
    current: Node | None = c
    while current is not None:
        taken.append(current)
        after = current.child("n")
        if following is None:
            if after is None:
                return _bind(name, taken, bound)
        elif after is not None:
            result = _bind(name, taken, bound)
            result = result and _matched(following, after, result)
            if result is not None:
                return result
        current = after
    return None


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
