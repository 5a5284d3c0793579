"""The public API: FormulaGraphs from each notation through one entry point, JSON rendering, errors."""
import json
import pickle

import pytest

from mathparse import NOTATIONS, FormulaGraphs, ParseError, graphs_to_json, parse, parse_latex, to_slt_string
from mathparse.api import MAX_OPT_NODES


def test_parse_latex_gives_both_trees():
    graphs = parse_latex(r"x^{2y}+1")
    assert isinstance(graphs, FormulaGraphs)
    assert graphs.source == r"x^{2y}+1"
    assert (graphs.slt.kind, graphs.opt.kind, graphs.opt_error) == ("slt", "opt", None)
    assert to_slt_string(graphs.slt) == "[V!x[+[N!1]],a[N!2[V!y]]]"


@pytest.mark.parametrize("notation, text", [
    pytest.param("latex", r"\frac{a}{b}", id="latex"),
    pytest.param("slt", "[O!divide,o[V!a],u[V!b]]", id="slt-string"),
    pytest.param("mathml", "<math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>", id="mathml"),
])
def test_every_notation_meets(notation, text):
    graphs = parse(text, notation)
    assert to_slt_string(graphs.slt) == "[O!divide,o[V!a],u[V!b]]"
    assert graphs.opt == parse_latex(r"\frac{a}{b}").opt


def test_unknown_notation_names_the_choices():
    with pytest.raises(ValueError) as caught:
        parse("x", "tex")
    assert not isinstance(caught.value, ParseError)
    assert all(notation in str(caught.value) for notation in NOTATIONS)


@pytest.mark.parametrize("latex, pos", [
    pytest.param("[V!x,a[N!2]]", 0, id="superscript"),
    pytest.param("[M!()1x1,w[V!x]]", 0, id="group"),
    pytest.param("$[N!1[+[N!1]]]$", 1, id="inside-dollars"),
])
def test_latex_refuses_an_slt_string(latex, pos):
    with pytest.raises(ParseError) as caught:
        parse_latex(latex)
    assert (caught.value.kind, caught.value.pos) == ("slt_string", pos)
    assert "notation slt" in caught.value.message


@pytest.mark.parametrize("latex, labels", [
    pytest.param("[a,b]", ["M![]1x2", "V!a", ",", "V!b"], id="interval"),
    pytest.param("[x]", ["M![]1x1", "V!x"], id="bracketed-letter"),
    pytest.param("[0,1]^2", ["M![]1x2", "N!2", "N!0", ",", "N!1"], id="square"),
    pytest.param("[A, B]", ["M![]1x2", "V!A", ",", "V!B"], id="commutator"),
    pytest.param("[V!x", ["[", "V!V", "!", "V!x"], id="not-a-whole-slt-string"),
])
def test_bracketed_latex_stays_latex(latex, labels):
    assert parse(latex, "latex").slt.labels == labels


def test_graphs_to_json():
    rendered = graphs_to_json(parse_latex("x^2"))
    assert json.loads(json.dumps(rendered)) == rendered
    assert rendered["slt"]["string"] == "[V!x,a[N!2]]"
    assert rendered["slt"]["nodes"] == [{"id": 0, "label": "V!x"}, {"id": 1, "label": "N!2"}]
    assert rendered["slt"]["edges"] == [{"parent": 0, "child": 1, "label": "a"}]
    assert rendered["opt"]["kind"] == "opt" and rendered["opt_error"] is None


def test_huge_formula_keeps_its_slt_without_an_opt():
    graphs = parse_latex("x+" * MAX_OPT_NODES + "x")
    assert graphs.opt is None and "too large" in graphs.opt_error
    assert len(graphs.slt) == 2 * MAX_OPT_NODES + 1


def test_parse_error_is_a_value_error_with_data_and_pickles():
    with pytest.raises(ValueError) as caught:
        parse_latex(r"x+\left(y")
    error = caught.value
    assert isinstance(error, ParseError)
    assert (error.kind, error.pos, error.message) == ("unbalanced_delimiters", 2, r"\left without a matching \right")
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.kind, copy.pos, copy.message) == (error.kind, error.pos, error.message)


@pytest.mark.parametrize("latex", [r"$x$", r"$$x$$", r"\(x\)", r"\[x\]", "  x  "])
def test_math_delimiters_are_dropped(latex):
    assert to_slt_string(parse_latex(latex).slt) == "[V!x]"


@pytest.mark.parametrize("latex, pos", [
    pytest.param("x+{y", 2, id="bare"),
    pytest.param("$x+{y$", 3, id="inline-dollars"),
    pytest.param("  $$x+{y$$", 6, id="spaces-and-display-dollars"),
])
def test_error_positions_count_from_the_input_given(latex, pos):
    with pytest.raises(ParseError) as caught:
        parse_latex(latex)
    assert caught.value.pos == pos and latex[pos] == "{"


def test_long_trees_compare_and_hash_without_recursion():
    long_sum = "+".join(["x"] * 2000)
    first, second = parse_latex(long_sum).slt.root, parse_latex(long_sum).slt.root
    assert first == second and hash(first) == hash(second)
    assert parse_latex("x+1").slt.root != parse_latex("x+2").slt.root
