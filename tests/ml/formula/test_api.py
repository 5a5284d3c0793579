"""The public API: FormulaGraphs from each input form, JSON rendering, graph conversion."""
import json
import pickle

import pytest

from ml.formula import FormulaGraphs, ParseError, graphs_to_json, parse_latex, parse_mathml, parse_slt_string
from ml.formula.api import MAX_OPT_NODES


def test_parse_latex_gives_both_trees():
    graphs = parse_latex(r"x^{2y}+1")
    assert isinstance(graphs, FormulaGraphs)
    assert graphs.source == r"x^{2y}+1"
    assert (graphs.slt.kind, graphs.opt.kind, graphs.opt_error) == ("slt", "opt", None)
    assert graphs.slt.to_slt_string() == "[V!x[+[N!1]],a[N!2[V!y]]]"


@pytest.mark.parametrize("parse, text", [
    pytest.param(parse_latex, r"\frac{a}{b}", id="latex"),
    pytest.param(parse_slt_string, "[O!divide,o[V!a],u[V!b]]", id="slt-string"),
    pytest.param(parse_mathml, "<math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>", id="mathml"),
])
def test_every_input_form_meets(parse, text):
    graphs = parse(text)
    assert graphs.slt.to_slt_string() == "[O!divide,o[V!a],u[V!b]]"
    assert graphs.opt == parse_latex(r"\frac{a}{b}").opt


def test_graphs_to_json():
    rendered = graphs_to_json(parse_latex("x^2"))
    assert json.loads(json.dumps(rendered)) == rendered
    assert rendered["slt"]["string"] == "[V!x,a[N!2]]"
    assert rendered["slt"]["nodes"] == [{"id": 0, "label": "V!x"}, {"id": 1, "label": "N!2"}]
    assert rendered["slt"]["edges"] == [{"parent": 0, "child": 1, "label": "a"}]
    assert rendered["opt"]["kind"] == "opt" and rendered["opt_error"] is None


def test_pyg_graphs_have_reverse_edges():
    graphs = parse_latex(r"\sqrt{x}+1")
    slg, opg = graphs.slt.to_pyg(), graphs.opt.to_pyg()
    assert (slg.num_nodes, slg.edge_index.shape[1]) == (len(graphs.slt), 2 * (len(graphs.slt) - 1))
    assert opg.num_nodes == len(graphs.opt)


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
    assert parse_latex(latex).slt.to_slt_string() == "[V!x]"


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
