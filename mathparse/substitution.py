"""A pattern match checked by its result: the query with its bindings put in must be a sub-expression of the hit.

`mathparse.query_variables.match` searches for bindings; this only rebuilds and compares, so that a hit is labelled
as matching a pattern only when what the page says ("a = 3, b = 4, c = 5") gives back, put into the query, the hit
or one of its sub-expressions (`mathparse.operands`).
"""
from __future__ import annotations

from collections.abc import Mapping

from mathparse.layout import CHILD_ORDER
from mathparse.operands import Operands
from mathparse.query_variables import SCRIPTS
from mathparse.tree import Node, Tree, is_query_variable, node_value


def reproduces(query: Tree, bound: Mapping[str, Node], candidate: Tree) -> bool:
    """Whether `query` with `bound` in its variables' places is `candidate` or one of its sub-expressions."""
    whole = substituted(query, bound)
    if whole is None:
        return False
    symbols = _baseline(whole.root)
    operands = Operands(candidate)
    for start in candidate.nodes:
        run = _baseline(start)[:len(symbols)]
        if len(run) == len(symbols) and all(map(_same_symbol, symbols, run)) and operands.is_operand(start, run[-1]):
            return True
    return False


def substituted(query: Tree, bound: Mapping[str, Node]) -> Tree | None:
    """The query with each variable replaced by what `bound` gives it, or None when one has nothing, or when a
    variable with scripts has for its base more than one symbol or one with scripts of its own: `\\qvar{a}^2` with
    a = `x + y` is no `x + y^2`."""
    root = _put(query.root, bound)
    return None if root is None else Tree(root, "slt")


def _put(q: Node, bound: Mapping[str, Node]) -> Node | None:
    following = q.child("n")
    rest = None if following is None else _put(following, bound)
    parts = [(edge, _put(child, bound)) for edge, child in q.children if edge != "n"]
    if (following is not None and rest is None) or any(part is None for _, part in parts):
        return None
    if not is_query_variable(q.label):
        return _node(q.label, parts, rest)
    value = bound.get(node_value(q.label))
    if value is None:
        return None
    if any(edge in SCRIPTS for edge, _ in parts):
        if value.child("n") is not None or any(edge in SCRIPTS for edge, _ in value.children):
            return None
        return _node(value.label, [*value.children, *parts], rest)
    chain = _baseline(value)  # relinked, so that the query goes on after its last symbol, and its next element
    for index in range(len(chain) - 1, -1, -1):  # (`e`, the only part left) hangs off its first
        own = [part for part in chain[index].children if part[0] != "n"]
        rest = _node(chain[index].label, own + (parts if index == 0 else []), rest)
    return rest


def _node(label: str, parts: list, following: Node | None) -> Node:
    """A symbol with its parts and the rest of its baseline, its children in the order the parsers give them."""
    children = parts + ([("n", following)] if following is not None else [])
    return Node(label, tuple(sorted(children, key=lambda child: CHILD_ORDER[child[0]])))


def _baseline(node: Node) -> list[Node]:
    symbols = [node]
    while (after := symbols[-1].child("n")) is not None:
        symbols.append(after)
    return symbols


def _same_symbol(ours: Node, theirs: Node) -> bool:
    """The same symbol with the same parts, whole: what follows on the baseline is compared by the caller."""
    return ours.label == theirs.label and ([part for part in ours.children if part[0] != "n"]
                                           == [part for part in theirs.children if part[0] != "n"])
