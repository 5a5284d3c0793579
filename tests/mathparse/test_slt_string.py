"""Tangent-S SLT strings ↔ trees: exact round trip, including on every string of the ARQMath files."""
import pytest

from mathparse import ParseError, parse_latex, to_slt_string, tree_from_slt_string
from mathparse.slt_string import looks_like_slt_string
from ml.evaluation.parser_coverage import judged_slt_strings, round_trip


@pytest.mark.parametrize("text, labels, edges", [
    pytest.param("[V!x,a[N!2]]", ["V!x", "N!2"], [(0, 1, "a")], id="superscript"),
    pytest.param("[V!x[+[N!1]]]", ["V!x", "+", "N!1"], [(0, 1, "n"), (1, 2, "n")], id="next-chain"),
    pytest.param("[V!f[M!()1x1,w[V!x]]]", ["V!f", "M!()1x1", "V!x"], [(0, 1, "n"), (1, 2, "w")], id="group"),
    pytest.param("[M!()1x2,w[V!a[&comma;],e[V!b]]]", ["M!()1x2", "V!a", ",", "V!b"],
                 [(0, 1, "w"), (1, 2, "n"), (1, 3, "e")], id="escaped-comma-and-elements"),
    pytest.param("[M!&lsqb;&rsqb;1x1,w[V!x]]", ["M![]1x1", "V!x"], [(0, 1, "w")], id="escaped-brackets"),
    pytest.param("[)]", [")"], [], id="lone-symbol"),
])
def test_reads_labels_and_edges(text, labels, edges):
    tree = tree_from_slt_string(text)
    assert (tree.labels, list(tree.edges)) == (labels, edges)
    assert to_slt_string(tree) == text


@pytest.mark.parametrize("text, pos", [
    pytest.param("V!x", 0, id="no-bracket"),
    pytest.param("[V!x", 4, id="unterminated"),
    pytest.param("[V!x]]", 5, id="trailing-bracket"),
    pytest.param("[V!x,q[N!2]]", 5, id="unknown-edge"),
    pytest.param("[V!x,a[N!2][N!3]]", 11, id="next-after-other-child"),
    pytest.param("[]", 1, id="empty-label"),
    pytest.param("[V!x,a]", 5, id="edge-without-child"),
])
def test_malformed_strings_raise_with_position(text, pos):
    with pytest.raises(ParseError) as caught:
        tree_from_slt_string(text)
    assert (caught.value.kind, caught.value.pos) == ("invalid_slt_string", pos)


def test_latex_output_reads_back_identically():
    text = to_slt_string(parse_latex(r"\sum_{k=1}^{n} \frac{(x_k+1)^2}{\sqrt[3]{k}} \in [0,1)").slt)
    assert to_slt_string(tree_from_slt_string(text)) == text


def test_writer_orders_children_canonically():
    shuffled = tree_from_slt_string("[V!x,b[N!1],a[N!2]]")
    assert to_slt_string(shuffled) == "[V!x,a[N!2],b[N!1]]"


def test_every_arqmath_string_round_trips(shared_data):
    report = round_trip(judged_slt_strings(shared_data))
    assert report == {"total": 1443 + 22446, "parsed": 1443 + 22446, "identical": 1443 + 22446, "mismatches": []}


@pytest.mark.parametrize("text, expected", [
    pytest.param("[V!x,a[N!2]]", True, id="superscript"),
    pytest.param("  [N!1[+[N!1]]]  ", True, id="surrounding-spaces"),
    pytest.param("[M!()1x1,w[V!x]]", True, id="group"),
    pytest.param("[a,b]", False, id="latex-interval"),
    pytest.param("[x]", False, id="latex-bracketed-letter"),
    pytest.param("[0,1]^2", False, id="latex-square"),
    pytest.param("[A, B]", False, id="latex-commutator"),
    pytest.param("[V!x", False, id="unterminated"),
    pytest.param("[+[N!1]]", False, id="untyped-first-symbol"),
])
def test_looks_like_slt_string(text, expected):
    assert looks_like_slt_string(text) is expected
