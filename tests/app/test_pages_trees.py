"""Pieces of the pages without a database: tree drawing, alignment colours, snippets."""
import re

import pytest

from ml.formula import parse_latex
from searchapp.models import Occurrence, Post
from searchapp.pages import HIGHLIGHT_COLOURS, colour_pairs, snippet
from searchapp.trees_svg import layout, short_label, tree_svg


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


@pytest.mark.parametrize("pairs, query, result", [
    pytest.param([(0, 0, 0.9), (1, 0, 0.95), (2, 1, 0.8)], {0: 0, 1: 0, 2: 1}, {0: 0, 1: 1},
                 id="strongest-pair-takes-the-first-colour"),
    pytest.param([(0, 0, 0.3), (1, 1, 0.7)], {1: 0}, {1: 0}, id="weak-pairs-stay-grey"),
    pytest.param([(i, i, 0.9 - i / 100) for i in range(10)], {i: i for i in range(HIGHLIGHT_COLOURS)},
                 {i: i for i in range(HIGHLIGHT_COLOURS)}, id="at-most-the-palette"),
    pytest.param([], {}, {}, id="nothing-aligned"),
])
def test_colour_pairs(pairs, query, result):
    assert colour_pairs(pairs) == (query, result)


HTML_POST = "<p>Take <b>this</b> <span>$y$</span> &amp; go</p>"
TAG_CUT_POST = "a" * 10 + '<span class="long-attribute">' + "<i></i>" * 50 + "bb$q$"


@pytest.mark.parametrize("body, start, end, before, after", [
    pytest.param("Let $x^2$ be.", 4, 9, "Let", "be.", id="plain-text"),
    pytest.param(HTML_POST, HTML_POST.index("<span>"), HTML_POST.index(" &amp;"), "Take this", "& go", id="html"),
    pytest.param(TAG_CUT_POST, len(TAG_CUT_POST) - 3, len(TAG_CUT_POST), "bb", "", id="window-starts-inside-a-tag"),
    pytest.param("short", 3, 99, "", "", id="offsets-outside-the-body"),
])
def test_snippet_shows_the_formula_in_plain_context(body, start, end, before, after):
    post = Post(pk=1, source_id="p", title="", body=body)
    cut = snippet(Occurrence(post=post, latex="x", start=start, end=end))
    assert (cut.before, cut.after, cut.title) == (before, after, "p")
