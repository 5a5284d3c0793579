"""Tangent-S SLT strings ↔ Symbol Layout Trees.

The ARQMath files write an SLT as `[label` + `[next]`? + (`,edge[child]`)* + `]`, e.g.
`[V!f[M!()1x1,w[V!x]]]`; characters that would break that syntax are written as entities
(`&comma;`, `&lsqb;`, `&rsqb;`). Both directions use explicit stacks, because the `next` chain of
a long formula nests as deep as the formula is long.
"""
from __future__ import annotations

import hashlib
import re

from mathparse.errors import MAX_MARKUP_CHARS, ParseError, check_length
from mathparse.layout import CHILD_ORDER
from mathparse.tree import SLT_EDGE_LABELS, Node, Tree

_ESCAPES = ((",", "&comma;"), ("[", "&lsqb;"), ("]", "&rsqb;"))
_SYNTAX = frozenset("[],")
_TYPED_START = re.compile(r"\s*\[[NVCFTMUOEW]!")
"""`[` then a Tangent type prefix (`V!x`, `N!2`, `M!()1x2`, …): how an SLT string of a formula that begins with a
symbol starts, and LaTeX almost never does."""


def escape_label(label: str) -> str:
    for raw, entity in _ESCAPES:
        label = label.replace(raw, entity)
    return label


def unescape_label(label: str) -> str:
    for raw, entity in _ESCAPES:
        label = label.replace(entity, raw)
    return label


def _edge_rank(child: tuple[str, Node]) -> int:
    return CHILD_ORDER.get(child[0], len(CHILD_ORDER))


def to_slt_string(tree: Tree | Node) -> str:
    """The Tangent string of an SLT, children in Tangent's order (`n` first, then `a b c d o u w e`)."""
    parts: list[str] = []
    stack: list[Node | str] = [tree.root if isinstance(tree, Tree) else tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        pending: list[Node | str] = ["[" + escape_label(item.label)]
        for edge, child in sorted(item.children, key=_edge_rank):
            pending += [child] if edge == "n" else ["," + edge, child]
        pending.append("]")
        stack.extend(reversed(pending))
    return "".join(parts)


class _Frame:
    __slots__ = ("label", "edge", "children", "start")

    def __init__(self, label: str, edge: str, start: int) -> None:
        self.label, self.edge, self.start = label, edge, start
        self.children: list[tuple[str, Node]] = []


def looks_like_slt_string(text: str) -> bool:
    """True for a whole Tangent SLT string; LaTeX such as `[a,b]`, `[0,1]^2` or `[A, B]` is never one."""
    if not _TYPED_START.match(text):
        return False
    try:
        tree_from_slt_string(text)
    except ParseError:
        return False
    return True


def tree_from_slt_string(text: str) -> Tree:
    """The SLT of a Tangent SLT string, without an operator tree (cheap: for drawing a stored formula).

    Raises ParseError(kind="invalid_slt_string") with the offending offset.
    """
    check_length(text, MAX_MARKUP_CHARS)
    text = text.strip()
    stack: list[_Frame] = []
    pos, edge, root = 0, "n", None
    while pos < len(text):
        if root is not None:
            raise _invalid("text after the end of the tree", pos)
        if text[pos] != "[":
            raise _invalid("expected '['", pos)
        pos, frame = _read_label(text, pos + 1, edge)
        stack.append(frame)
        pos, edge, root = _close_frames(text, pos, stack)
    if root is None:
        raise _invalid("unterminated tree", len(text))
    return Tree(root, "slt")


def _read_label(text: str, pos: int, edge: str) -> tuple[int, _Frame]:
    end = pos
    while end < len(text) and text[end] not in _SYNTAX:
        end += 1
    if end == pos:
        raise _invalid("empty node label", pos)
    return end, _Frame(unescape_label(text[pos:end]), edge, pos)


def _close_frames(text: str, pos: int, stack: list[_Frame]) -> tuple[int, str, Node | None]:
    """Consume `]` and `,edge` after a label; returns where the next child starts, its edge, or the finished root."""
    just_labelled = True
    while pos < len(text):
        char = text[pos]
        if char == "[":
            if not just_labelled:
                raise _invalid("a next child must follow its parent's label", pos)
            return pos, "n", None
        if char == ",":
            end = text.find("[", pos + 1)
            edge = text[pos + 1:end]
            if end < 0 or edge not in SLT_EDGE_LABELS or edge == "n":
                raise _invalid(f"unknown edge label {edge!r}", pos + 1)
            return end, edge, None
        if char != "]":
            raise _invalid(f"unexpected {char!r}", pos)
        frame = stack.pop()
        node = Node(frame.label, tuple(frame.children))
        pos, just_labelled = pos + 1, False
        if not stack:
            return pos, "n", node
        stack[-1].children.append((frame.edge, node))
    raise _invalid("unterminated tree", pos)


def _invalid(message: str, pos: int) -> ParseError:
    return ParseError(message, pos, "invalid_slt_string")


def visual_key(slt_string: str) -> str:
    """sha256 of a canonical SLT string: formulas that render alike share it (indexing and training dedupe on it)."""
    return hashlib.sha256(slt_string.encode()).hexdigest()
