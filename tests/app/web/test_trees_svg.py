"""Tree drawing for the pages, without a database."""
import re

import pytest

from mathparse import parse_latex, tree_from_slt_string
from searchapp.web.trees_svg import CHAR_WIDTH, MAX_CHARS, MAX_DRAWN_NODES, layout, short_label, tree_svg


@pytest.mark.parametrize("latex, kind, expected", [
    pytest.param("a+b", "slt", [(0, 0), (1, 0), (2, 0)], id="baseline-runs-right"),
    pytest.param("x^2+1", "slt", [(0, 0), (1, 0), (2, 0), (0, 1)], id="superscript-hangs-below"),
    pytest.param("x_i^2 y", "slt", [(0, 0), (2, 0), (0, 1), (1, 1)], id="scripts-share-the-row-below"),
    pytest.param("a+b", "opt", [(0.5, 0), (0, 1), (1, 1)], id="operator-centred-over-arguments"),
])
def test_layout(latex, kind, expected):
    tree = getattr(parse_latex(latex), kind)
    assert [(x, row) for x, row in layout(tree)] == expected


def test_no_two_nodes_share_a_place():
    graphs = parse_latex(r"\sum_{n=1}^{\infty} \frac{x_n^{2}}{\sqrt{n+1}} = \int_0^1 f(t)\,dt")
    for tree in (graphs.slt, graphs.opt):
        positions = layout(tree)
        assert len(set(positions)) == len(positions)


def test_svg_marks_nodes_and_colours_and_escapes_labels():
    tree = parse_latex(r"a < b").slt
    svg = tree_svg(tree, {2: 3}, title='"quoted" <title>')
    assert svg.count('class="node') == len(tree) and svg.count('<line class="edge"') == len(tree.edges)
    assert re.search(r'class="node [^"]*hl hl-3" data-node="2"', svg)
    assert "<title>V!a</title>" in svg and "&lt;" in svg and 'aria-label="&quot;quoted&quot; &lt;title&gt;"' in svg
    assert "< b" not in svg


@pytest.mark.parametrize("label, short", [
    pytest.param("V!x", "x", id="value"), pytest.param("+", "+", id="bare-symbol"),
    pytest.param("F!arctanh", "arctanh", id="a-function-name-whole"), pytest.param("O!divide", "divide", id="operator"),
    pytest.param("N!" + "1" * 20, "1" * (MAX_CHARS - 1) + "…", id="very-long-is-cut"),
    pytest.param("W!x0", "?x0", id="query-variable"),
])
def test_short_label(label, short):
    assert short_label(label) == short


def _matrix_column(rows: int):
    """The SLT of a one-column matrix: its elements chain one below the next, `rows` deep."""
    return tree_from_slt_string("[M!()1x1,w" + "[N!1,e" * (rows - 1) + "[N!1]" + "]" * rows)


def test_a_tree_deeper_than_the_recursion_limit_lays_out():
    tree = _matrix_column(5000)
    assert layout(tree) == [(0.0, row) for row in range(5001)]


def test_a_huge_tree_draws_its_first_nodes_and_says_so():
    tree = _matrix_column(2000)
    svg = tree_svg(tree, title="column")
    assert svg.count('class="node') == MAX_DRAWN_NODES and svg.count('<line class="edge"') == MAX_DRAWN_NODES - 1
    note = f"column (tree too large to draw: the first {MAX_DRAWN_NODES} of 2001 nodes)"
    assert f'aria-label="{note}"' in svg and f"<title>{note}</title>" in svg
    assert f'height="{MAX_DRAWN_NODES * 52 + 16}"' in svg  # the rows of the nodes drawn, not of the whole tree


def test_a_tree_within_the_limit_is_drawn_whole_without_a_note():
    tree = _matrix_column(MAX_DRAWN_NODES - 1)
    svg = tree_svg(tree, title="column")
    assert svg.count('class="node') == MAX_DRAWN_NODES and "too large" not in svg


_BOX = re.compile(r'<g class="node[^"]*" data-node="\d+"><title>([^<]*)</title><rect x="([\d.]+)" y="([\d.]+)" '
                  r'width="([\d.]+)" height="\d+" rx="5"/><text [^>]*>([^<]*)</text></g>')


@pytest.mark.parametrize("latex, kind", [
    pytest.param(r"\frac{\arctanh(x)}{\operatorname{divergence} y} + 123456789", "opt", id="opt-long-names"),
    pytest.param(r"\frac{\arctanh(x)}{\operatorname{divergence} y} + 123456789", "slt", id="slt-long-names"),
    pytest.param(r"\sum_{i=1}^{n} \frac{a_i}{b_i} = 12345678901234567890", "opt", id="opt-cut-number"),
])
def test_boxes_fit_their_labels_and_never_overlap(latex, kind):
    """Each box is as wide as its label's text (12 px monospace), with the whole label in its `<title>`; boxes of one
    row do not overlap."""
    svg = tree_svg(getattr(parse_latex(latex), kind))
    boxes = [(title, float(x), float(y), float(width), text) for title, x, y, width, text in _BOX.findall(svg)]
    assert len(boxes) == svg.count('class="node')
    for title, _, _, width, text in boxes:
        assert width >= len(text) * CHAR_WIDTH
        assert text.rstrip("…") in title.replace("&amp;", "&")  # the title holds what the box shows, and more
    for row in {y for _, _, y, _, _ in boxes}:
        spans = sorted((x, x + width) for _, x, y, width, _ in boxes if y == row)
        assert all(end <= start for (_, end), (start, _) in zip(spans, spans[1:]))


def test_an_operator_name_is_shown_whole():
    svg = tree_svg(parse_latex(r"\frac{a}{b}").opt)
    assert ">divide</text>" in svg and "…" not in svg
