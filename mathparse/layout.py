"""Baseline boxes → Symbol Layout Tree nodes, shared by the LaTeX and the Presentation MathML parsers.

A parser collects each baseline as a list of `Box`es (a symbol with the baselines hanging off it: scripts,
limits, numerator, radicand, ...). `build` turns a baseline into the right-leaning `next` chain of Tangent-S,
right to left so that a long baseline costs no recursion. `group_fences` pairs `(`…`)`, `[`…`)`, `|`…`|`
into `M!()1xK` groups the way LaTeXML does: separators stay at the end of their element, elements are
chained by `e` from the first symbol of one to the first symbol of the next.
"""
from __future__ import annotations

from collections import Counter

from mathparse.tree import Node

CHILD_ORDER = {edge: rank for rank, edge in enumerate("nabcdouwe")}
"""The order in which Tangent-S strings list a node's children."""

OPENERS = {"(": "()[", "[": ")]", "{": "}", "|": "|", "∥": "∥"}
"""Opening fence → the closing fences that may end its group (LaTeXML also pairs `[0,1)`)."""
CLOSERS = frozenset(")]}")
_ROUND_OPENERS = frozenset("([{")
BARS = frozenset("|∥")
ACCEPTED_BY = {closer: [opener for opener, closers in OPENERS.items() if closer in closers] for closer in "()[]{}|∥"}
INTEGRALS = frozenset("∫∬∭∮")
PRIME_LABELS = {1: "′", 2: "V!′′", 3: "V!′′′"}


class Box:
    __slots__ = ("label", "rels", "cells", "limits", "fence", "primes")

    def __init__(self, label: str, limits: bool = False, fence: str = "") -> None:
        self.label = label
        self.rels: dict[str, list[Box]] = {}
        self.cells: list[list[Box]] | None = None  # group / matrix elements, chained under `w` by `e`
        self.limits = limits  # scripts go over / under instead of a / b
        self.fence = fence  # the delimiter character while the box may still open or close a group
        self.primes = 0

    def attach(self, relation: str, boxes: list[Box]) -> None:
        if boxes:
            self.rels.setdefault(relation, []).extend(boxes)

    def script_relation(self, superscript: bool) -> str:
        if self.limits:
            return "o" if superscript else "u"
        return "a" if superscript else "b"


def build(boxes: list[Box], first_extra: tuple[tuple[str, Node], ...] = ()) -> Node | None:
    """The `next` chain of a baseline; `first_extra` adds edges to its first node (the `e` link of a cell)."""
    node = None
    for index in range(len(boxes) - 1, -1, -1):
        children = _children(boxes[index])
        if node is not None:
            children.append(("n", node))
        if index == 0:
            children.extend(first_extra)
        children.sort(key=lambda child: CHILD_ORDER[child[0]])
        node = Node(boxes[index].label, tuple(children))
    return node


def _children(box: Box) -> list[tuple[str, Node]]:
    children = []
    rels = box.rels
    if box.primes:
        rels = {**rels, "a": [Box(PRIME_LABELS.get(box.primes, "V!" + "′" * box.primes))] + rels.get("a", [])}
    for relation, boxes in rels.items():
        node = build(boxes)
        if node is not None:
            children.append((relation, node))
    if box.cells:
        node = build_cells(box.cells)
        if node is not None:
            children.append(("w", node))
    return children


def build_cells(cells: list[list[Box]]) -> Node | None:
    """Elements linked by `e`, each from the first symbol of the element before it."""
    node = None
    for cell in reversed(cells):
        if cell:
            node = build(cell, (("e", node),) if node is not None else ())
    return node


def group_fences(boxes: list[Box]) -> list[Box]:
    """Pair fence boxes of one baseline into group boxes; unpaired fences stay as plain symbols.

    Linear in the baseline: open fences are counted by kind, so a closer that nothing accepts costs no scan.
    """
    if not any(box.fence for box in boxes):
        return boxes
    stack: list[tuple[Box, list[Box]]] = []
    open_count: Counter = Counter()
    current: list[Box] = []
    for box in boxes:
        fence = box.fence
        if fence in CLOSERS or (fence in BARS and open_count[fence]):
            current = _close(stack, current, box, open_count)
        elif fence in OPENERS:
            stack.append((box, current))
            open_count[fence] += 1
            current = []
        else:
            current.append(box)
    return _unwind(stack, 0, current, open_count)


def _close(stack: list[tuple[Box, list[Box]]], current: list[Box], closer: Box, open_count: Counter) -> list[Box]:
    if not any(open_count[opener] for opener in ACCEPTED_BY[closer.fence]):
        current.append(_plain(closer))
        return current
    level = len(stack) - 1
    while closer.fence not in OPENERS[stack[level][0].fence]:
        level -= 1
    current = _unwind(stack, level + 1, current, open_count)
    opener, outer = stack.pop()
    open_count[opener.fence] -= 1
    outer.append(fenced_group(opener.fence, closer.fence, current, closer))
    return outer


def _unwind(stack: list[tuple[Box, list[Box]]], level: int, current: list[Box], open_count: Counter) -> list[Box]:
    """Give up the openers above `level`: each becomes a plain symbol followed by what it enclosed."""
    pieces = [current]
    while len(stack) > level:
        opener, outer = stack.pop()
        open_count[opener.fence] -= 1
        pieces += [[_plain(opener)], outer]
    return current if len(pieces) == 1 else [box for piece in reversed(pieces) for box in piece]


def _plain(box: Box) -> Box:
    box.fence = ""
    return box


def fenced_group(open_char: str, close_char: str, content: list[Box], closer: Box | None = None) -> Box:
    """`M!()1xK` for a fenced list of K comma-separated elements; the closer's scripts move to the group.

    A fenced bare matrix (`\\left(\\matrix{…}\\right)`) becomes one fenced matrix, as `pmatrix` would.
    """
    if is_bare_table(content) and not content[0].rels:
        group = content[0]
        group.label = f"M!{open_char}{close_char}{group.label[2:]}"
    else:
        cells = split_elements(content)
        group = Box(f"M!{open_char}{close_char}1x{len(cells)}")
        group.cells = cells
    if closer is not None:
        group.rels, group.primes = closer.rels, closer.primes
    return group


def is_bare_table(content: list[Box]) -> bool:
    """A lone matrix without fences of its own (`M!2x2`, not `M!()2x2`)."""
    return len(content) == 1 and content[0].cells is not None and content[0].label[2:3].isdigit()


def split_elements(content: list[Box]) -> list[list[Box]]:
    cells: list[list[Box]] = [[]]
    for box in content:
        cells[-1].append(box)
        if box.label == "," and not box.rels:
            cells.append([])
    if not cells[-1] and len(cells) > 1:
        cells.pop()
    return cells


def mark_differentials(boxes: list[Box]) -> None:
    """After an integral sign, `d` before a variable or a fraction is the differential `𝑑`, as LaTeXML marks it,
    unless it sits inside parentheses the integral is not in (`\\int f\\,\\mu(dx)`). `boxes` is a baseline whose
    fences are not paired yet."""
    integral_depths: set[int] = set()  # nesting depths at which an integral is open
    depth = 0
    for index, box in enumerate(boxes):
        if box.fence in CLOSERS:
            depth -= 1
            integral_depths = {open_at for open_at in integral_depths if open_at <= depth}
        depth += box.fence in _ROUND_OPENERS
        if box.label in INTEGRALS:
            integral_depths.add(depth)
        elif (depth in integral_depths and box.label in ("V!d", "d") and not box.rels and index + 1 < len(boxes)
              and (boxes[index + 1].label.startswith("V!") or boxes[index + 1].label == "O!divide")):
            box.label = "𝑑"


def matrix_box(fences: str, rows: list[list[list[Box]]]) -> Box:
    """`M!()RxC` with the cells in reading order; a column left empty in every row does not count (LaTeXML
    pads `cases` and `array{ll}` rows with empty cells that the LaTeX source never wrote)."""
    columns = max([_used_width(row) for row in rows] + [1 if rows else 0])
    box = Box(f"M!{fences}{len(rows)}x{columns}")
    box.cells = [cell for row in rows for cell in row]
    return box


def _used_width(row: list[list[Box]]) -> int:
    return max((index + 1 for index, cell in enumerate(row) if cell), default=0)
