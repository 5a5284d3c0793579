"""Trees → the SLG / OPG graphs the encoders read: reverse edges with their own relation types."""
import pytest

from mathparse import parse_latex
from mathparse.tree import NODE_TYPES
from ml.models.graphs import NUM_OPT_RELATIONS, NUM_SLT_RELATIONS, directed_edges, tree_to_pyg


def test_graphs_have_reverse_edges():
    graphs = parse_latex(r"\sqrt{x}+1")
    slg, opg = tree_to_pyg(graphs.slt), tree_to_pyg(graphs.opt)
    assert (slg.num_nodes, slg.edge_index.shape[1]) == (len(graphs.slt), 2 * (len(graphs.slt) - 1))
    assert opg.num_nodes == len(graphs.opt)
    assert slg.labels == graphs.slt.labels


@pytest.mark.parametrize("latex, kind", [
    pytest.param("x^2", "slt", id="slg"),
    pytest.param("f(a, b, c, d, e, f, g, h, i)", "opt", id="opg-many-arguments"),
])
def test_relation_types_stay_in_range(latex, kind):
    tree = getattr(parse_latex(latex), kind)
    sources, targets, types = directed_edges(tree, offset=5)
    assert min(sources + targets) == 5 and max(sources + targets) == len(tree) + 4
    assert 0 <= min(types) and max(types) < (NUM_SLT_RELATIONS if kind == "slt" else NUM_OPT_RELATIONS)


def test_node_types_index_the_type_vocabulary():
    graph = tree_to_pyg(parse_latex(r"\frac{x}{2}+\text{if}").slt)
    assert [NODE_TYPES[index] for index in graph.node_type.tolist()] == ["O", "*", "T", "V", "N"]  # pre-order: the `next` chain before o / u
