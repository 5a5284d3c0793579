"""Draw an SLT or OPT as a small SVG, server-side, with optional colour-matched nodes.

Nodes carry `data-node` (their pre-order index, the id used by search alignments) so the page
script can recolour them; every piece of text is escaped here, so the result is safe markup.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from html import escape

from django.utils.safestring import SafeString, mark_safe

from mathparse.tree import Tree, is_query_variable, node_type, node_value

X_STEP = 44
"""The narrowest column; a tree with longer labels gets wider columns, all of one width (an OPT centres a parent
between its children's columns, so columns of different widths could make neighbours overlap)."""
Y_STEP = 52
NODE_HEIGHT = 24
MARGIN = 16
MAX_CHARS = 14
"""Longer values (`\\operatorname{…}` names, long numbers) are cut with "…"; the node's `<title>` has the whole label."""
CHAR_WIDTH = 7.3
"""Of the 12 px monospace the page draws node text in (site.css)."""
BOX_PADDING = 10
MAX_DRAWN_NODES = 600
"""Every real formula seen is drawn whole (the largest has 587 SLT nodes); a bigger tree (a stored 1,000-row matrix)
shows its first nodes in pre-order, since thousands of boxes would make a page heavy and nobody could read them."""
HIDDEN_EDGE_LABELS = {"n"}
"""SLT "next" edges are the common case; labelling only the others keeps small trees readable."""


def layout(tree: Tree, size: int | None = None) -> list[tuple[float, int]]:
    """(column, row) per node in pre-order, for the first `size` nodes (all by default): an SLT reads like its
    formula, an OPT hangs top-down. A pre-order prefix is a connected top of the tree, so it lays out alone."""
    size = len(tree) if size is None else size
    children: dict[int, list[tuple[int, str]]] = {}
    for parent, child, label in tree.edges:
        if child < size:  # pre-order: a kept node's parent comes before it, so it is kept too
            children.setdefault(parent, []).append((child, label))
    return _baseline_layout(children, size) if tree.kind == "slt" else _top_down_layout(children, size)


def _top_down_layout(children: dict, size: int) -> list[tuple[float, int]]:
    """Leaves take consecutive columns in pre-order; a parent is centred over its children."""
    depth = [0] * size
    for parent in range(size):  # pre-order: a parent's depth is known before its children's
        for child, _ in children.get(parent, []):
            depth[child] = depth[parent] + 1
    x = [0.0] * size
    leaves = [index for index in range(size) if index not in children]
    for column, index in enumerate(leaves):
        x[index] = float(column)
    for index in range(size - 1, -1, -1):  # reverse pre-order: children before parents
        kids = children.get(index)
        if kids:
            x[index] = (x[kids[0][0]] + x[kids[-1][0]]) / 2
    return list(zip(x, depth))


def _baseline_layout(children: dict, size: int) -> list[tuple[float, int]]:
    """SLT "next" edges run to the right on the same row; other relations (sub, sup, …) hang one row below."""
    positions: list[tuple[float, int]] = [(0.0, 0)] * size

    def place(node: int | None, column: int, row: int) -> Generator[tuple, int, int]:
        """Lay out `node`'s baseline from `column`; return the first free column after it. A hanging baseline is
        placed by yielding its arguments to `_unrecursed`: a matrix's elements chain one below the next, and a
        thousand rows would pass Python's recursion limit."""
        while node is not None:  # walk the baseline iteratively: long formulas make long chains
            positions[node] = (float(column), row)
            end, below, following = column + 1, column, None
            for child, label in children.get(node, []):
                if label == "n":
                    following = child
                else:
                    below = yield (child, below, row + 1)
                    end = max(end, below)
            node, column = following, end
        return column

    if size:
        _unrecursed(place, (0, 0, 0))
    return positions


def _unrecursed(function: Callable[..., Generator[tuple, int, int]], arguments: tuple) -> None:
    """Run a recursive generator `function` on an explicit stack: each `yield` is a call whose result is sent back."""
    stack = [function(*arguments)]
    result: int | None = None
    while stack:
        try:
            call = next(stack[-1]) if result is None else stack[-1].send(result)  # a started call gets none
        except StopIteration as finished:
            stack.pop()
            result = finished.value
        else:
            stack.append(function(*call))
            result = None


def short_label(label: str) -> str:
    """The node's value, cut to MAX_CHARS; a query variable's with a `?` before it, as a hole to fill."""
    value = ("?" if is_query_variable(label) else "") + node_value(label)
    return value if len(value) <= MAX_CHARS else value[:MAX_CHARS - 1] + "…"


def tree_svg(tree: Tree, highlights: dict[int, int] | None = None, title: str = "") -> SafeString:
    """The tree as an `<svg>`; `highlights` maps node index → colour number (CSS class `hl-N`)."""
    highlights = highlights or {}
    drawn = min(len(tree), MAX_DRAWN_NODES)
    positions = layout(tree, drawn)
    label = title or tree.kind.upper()
    if drawn < len(tree):
        label += f" (tree too large to draw: the first {drawn} of {len(tree)} nodes)"
    step = column_width(tree.labels[:drawn])
    width = (max(x for x, _ in positions) + 1) * step + 2 * MARGIN
    height = (max(d for _, d in positions) + 1) * Y_STEP + MARGIN
    parts = [f'<svg class="tree tree-{escape(tree.kind)}" viewBox="0 0 {width:.0f} {height:.0f}" '
             f'width="{width:.0f}" height="{height:.0f}" role="img" aria-label="{escape(label)}">']
    if drawn < len(tree):  # the note shows on hover too
        parts.append(f"<title>{escape(label)}</title>")
    parts += [_edge(positions[p], positions[c], edge, step) for p, c, edge in tree.edges if c < drawn]
    parts += [_node(i, node, positions[i], highlights.get(i), step) for i, node in enumerate(tree.labels[:drawn])]
    parts.append("</svg>")
    return mark_safe("".join(parts))


def box_width(label: str) -> float:
    """A node's box, wide enough for its (short) label."""
    return max(X_STEP - 6, len(short_label(label)) * CHAR_WIDTH + BOX_PADDING)


def column_width(labels: list[str]) -> float:
    """One column width for the whole tree: its widest box and a gap."""
    return max([X_STEP, *(box_width(label) + 6 for label in labels)])


def _centre(position: tuple[float, int], step: float) -> tuple[float, float]:
    x, depth = position
    return MARGIN + x * step + step / 2, MARGIN + depth * Y_STEP + NODE_HEIGHT / 2


def _edge(parent: tuple[float, int], child: tuple[float, int], label: str, step: float) -> str:
    (x1, y1), (x2, y2) = _centre(parent, step), _centre(child, step)
    line = f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
    if label in HIDDEN_EDGE_LABELS:
        return line
    return line + (f'<text class="edge-label" x="{(x1 + x2) / 2 + 3:.1f}" y="{(y1 + y2) / 2:.1f}">'
                   f'{escape(label)}</text>')


def _node(index: int, label: str, position: tuple[float, int], colour: int | None, step: float) -> str:
    x, y = _centre(position, step)
    classes = f"node type-{'op' if node_type(label) == '*' else escape(node_type(label))}"
    if colour is not None:
        classes += f" hl hl-{colour}"
    box = box_width(label)
    return (f'<g class="{classes}" data-node="{index}"><title>{escape(label)}</title>'
            f'<rect x="{x - box / 2:.1f}" y="{y - NODE_HEIGHT / 2:.1f}" width="{box:.1f}" height="{NODE_HEIGHT}" rx="5"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}">{escape(short_label(label))}</text></g>')
