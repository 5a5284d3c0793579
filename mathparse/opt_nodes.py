"""Building OPT nodes with the canonical form both OPT builders share.

Commutative operators (`U!…`) flatten nested copies of themselves and sort their children by a
serialisation of the subtree, so `a+b`, `b+a` and `(a+b)+c` / `a+(b+c)` meet; every child edge
of a commutative node is "0". Ordered operators number their edges "0", "1", ….
"""
from __future__ import annotations

from mathparse.tree import Node


def leaf(label: str) -> Node:
    return Node(label)


def make(label: str, args: list[Node] | tuple[Node, ...]) -> Node:
    """`label` applied to `args`, in canonical form."""
    if not label.startswith("U!"):
        return Node(label, tuple((str(i), arg) for i, arg in enumerate(args)))
    flat: list[Node] = []
    for arg in args:
        if arg.label == label:
            flat.extend(child for _, child in arg.children)
        else:
            flat.append(arg)
    flat.sort(key=serialize)
    return Node(label, tuple(("0", arg) for arg in flat))


def serialize(node: Node) -> str:
    """A compact bracketed string of the subtree, e.g. `U!plus(N!1,V!x)`; iterative (no recursion limit).

    Memoised on the (immutable) node: nested commutative operators sort their children at every
    level, and each level would otherwise re-serialise the whole subtree below it.
    """
    cached = node.__dict__.get("_serialized")
    if cached is not None:
        return cached
    parts: list[str] = []
    stack: list[Node | str] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        known = item.__dict__.get("_serialized")
        if known is not None:
            parts.append(known)
            continue
        parts.append(item.label)
        if item.children:
            stack.append(")")
            for i, (_, child) in enumerate(reversed(item.children)):
                stack.append(child)
                if i < len(item.children) - 1:
                    stack.append(",")
            stack.append("(")
    text = "".join(parts)
    object.__setattr__(node, "_serialized", text)
    return text
