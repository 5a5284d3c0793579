import pytest
import torch
from torch_geometric.data import Batch
from torch_geometric.nn import RGCNConv

from mathparse.tree import Node, Tree
from ml.models.config import EncoderConfig
from ml.models.encoders import FormulaEncoder, NodeEncoderModel, relational_mean
from ml.models.features import NodeFeaturizer

FEATURIZER = NodeFeaturizer(("x", "y", "+", "plus"), buckets=4)


def encode(tree: Tree, layers: int = 2, dim: int = 8) -> torch.Tensor:
    torch.manual_seed(0)
    model = NodeEncoderModel(FEATURIZER, EncoderConfig(dim=dim, layers=layers))
    return model.encoder(tree.kind).encode(Batch.from_data_list([FEATURIZER.graph(tree)])).detach()


def chain(*labels: str, edge: str = "n") -> Tree:
    root = Node(labels[-1])
    for label in reversed(labels[:-1]):
        root = Node(label, ((edge, root),))
    return Tree(root, "slt")


def test_output_is_one_unit_row_per_node():
    vectors = encode(chain("V!x", "+", "V!y"), dim=12)
    assert vectors.shape == (3, 12)
    assert torch.allclose(vectors.norm(dim=1), torch.ones(3))


def test_mean_aggregation_per_relation_ignores_duplicate_neighbours():
    # x + x under a commutative plus: the mean over the two identical operands equals one operand.
    once = Tree(Node("U!plus", (("0", Node("V!x")),)), "opt")
    twice = Tree(Node("U!plus", (("0", Node("V!x")), ("0", Node("V!x")))), "opt")
    assert torch.allclose(encode(once)[0], encode(twice)[0], atol=1e-6)


@pytest.mark.parametrize(
    "layers, same_root",
    [pytest.param(1, True, id="one-layer-sees-one-hop"), pytest.param(2, False, id="two-layers-see-two-hops")],
)
def test_receptive_field_is_number_of_layers(layers, same_root):
    first, second = encode(chain("V!x", "+", "V!y"), layers), encode(chain("V!x", "+", "V!x"), layers)
    assert torch.allclose(first[0], second[0], atol=1e-6) == same_root


def test_edge_relation_matters():
    superscript, subscript = encode(chain("V!x", "V!y", edge="a")), encode(chain("V!x", "V!y", edge="b"))
    assert not torch.allclose(superscript[0], subscript[0], atol=1e-4)


def test_the_one_pass_layer_gives_rgcnconvs_own_output_and_gradients():
    torch.manual_seed(0)
    layer = RGCNConv(6, 5, num_relations=4, aggr="mean", root_weight=True)
    torch.nn.init.normal_(layer.bias)  # PyG starts it at zero, which would not show a bias left out
    x = torch.randn(7, 6, requires_grad=True)
    # node 6 has no edge; node 0 hears node 1 twice on relation 2 and node 2 once on relation 0
    edge_index = torch.tensor([[1, 1, 2, 3, 4, 0], [0, 0, 0, 2, 2, 5]])
    edge_type = torch.tensor([2, 2, 0, 1, 3, 1])
    theirs = layer(x, edge_index, edge_type)
    ours = relational_mean(layer, x, edge_index, edge_type)
    assert torch.allclose(ours, theirs, atol=1e-6)
    their_grads = torch.autograd.grad(theirs.square().sum(), [x, layer.weight, layer.root, layer.bias])
    our_grads = torch.autograd.grad(ours.square().sum(), [x, layer.weight, layer.root, layer.bias])
    assert all(torch.allclose(a, b, atol=1e-5) for a, b in zip(our_grads, their_grads))


def test_batched_equals_one_by_one():
    trees = [chain("V!x", "+", "V!y"), chain("V!y", "V!x", edge="a"), chain("V!x")]
    torch.manual_seed(0)
    model = NodeEncoderModel(FEATURIZER, EncoderConfig(dim=8, layers=2)).eval()
    batched = model.slg.encode(Batch.from_data_list([FEATURIZER.graph(t) for t in trees])).detach()
    single = torch.cat([model.slg.encode(Batch.from_data_list([FEATURIZER.graph(t)])).detach() for t in trees])
    assert torch.allclose(batched, single, atol=1e-6)


def test_relation_counts_per_graph_form():
    model = NodeEncoderModel(FEATURIZER, EncoderConfig(dim=8, layers=3))
    assert model.slg.layers[0].num_relations == 18 and model.opg.layers[0].num_relations == 16
    assert len(model.slg.layers) == 3
    assert isinstance(model.encoder("opt"), FormulaEncoder)


def test_unknown_kind_names_the_valid_ones():
    with pytest.raises(ValueError, match="'slt' or 'opt'"):
        NodeEncoderModel(FEATURIZER, EncoderConfig()).encoder("mathml")


def test_seeded_models_are_the_same_for_a_seed_and_differ_across_seeds():
    featurizer = NodeFeaturizer(("V!x", "N!1"), buckets=4)
    config = EncoderConfig(dim=8, layers=1)
    first, again, other = (NodeEncoderModel.seeded(featurizer, config, seed).state_dict() for seed in (3, 3, 4))
    assert all(torch.equal(first[name], again[name]) for name in first)
    assert not all(torch.equal(first[name], other[name]) for name in first)
