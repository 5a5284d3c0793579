"""Tree drawing for the pages, without a database."""
import re

import pytest

from ml.formula import parse_latex
from searchapp.web.trees_svg import layout, short_label, tree_svg


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
    pytest.param("F!arctanh", "arct…", id="long-is-cut"),
])
def test_short_label(label, short):
    assert short_label(label) == short
