import pytest

from mathparse.tree import Node, Tree
from ml.models.config import EncoderConfig
from ml.models.encoders import NodeEncoderModel
from ml.models.features import NodeFeaturizer


def node(label: str, *children: tuple[str, Node]) -> Node:
    return Node(label, tuple(children))


class Graphs:
    """A parsed formula as the parsers return it: `.slt` and `.opt` trees."""

    def __init__(self, slt: Tree, opt: Tree | None) -> None:
        self.slt, self.opt = slt, opt


# x^{2y}+1
X2Y_SLT = Tree(node("V!x", ("a", node("N!2", ("n", node("V!y")))), ("n", node("+", ("n", node("N!1"))))), "slt")
X2Y_OPT = Tree(node("U!plus", ("0", node("O!SUP", ("0", node("V!x")),
                                         ("1", node("U!times", ("0", node("N!2")), ("0", node("V!y")))))),
                    ("0", node("N!1"))), "opt")
# \frac{a}{b}
FRAC_SLT = Tree(node("O!divide", ("o", node("V!a")), ("u", node("V!b"))), "slt")
FRAC_OPT = Tree(node("O!divide", ("0", node("V!a")), ("1", node("V!b"))), "opt")


@pytest.fixture
def formulas() -> list[Graphs]:
    return [Graphs(X2Y_SLT, X2Y_OPT), Graphs(FRAC_SLT, FRAC_OPT), Graphs(FRAC_SLT, None)]


@pytest.fixture
def featurizer() -> NodeFeaturizer:
    return NodeFeaturizer.build([X2Y_SLT, X2Y_OPT, FRAC_SLT], max_values=6, min_count=1, buckets=8)


@pytest.fixture
def model(featurizer) -> NodeEncoderModel:
    import torch

    torch.manual_seed(0)
    return NodeEncoderModel(featurizer, EncoderConfig(dim=16, layers=2)).eval()
