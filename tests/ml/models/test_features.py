import pytest
import torch

from mathparse.augment import MASK_VALUE
from mathparse.tree import Node, Tree
from ml.models.features import SPECIAL_VALUES, NodeFeaturizer

TREES = [
    Tree(Node("V!x", (("n", Node("+", (("n", Node("V!x")),))),)), "slt"),  # x + x
    Tree(Node("V!x", (("n", Node("=", (("n", Node("N!1")),))),)), "slt"),  # x = 1
]


def test_build_keeps_specials_then_most_frequent_first():
    featurizer = NodeFeaturizer.build(TREES, max_values=4, min_count=1, buckets=3)
    assert featurizer.values == SPECIAL_VALUES + ("x", "+")  # x ×3, then ties (+, =, 1) by value
    assert featurizer.num_values == 7


@pytest.mark.parametrize(
    "min_count, expected",
    [pytest.param(1, ("x", "+", "1", "="), id="all"), pytest.param(2, ("x",), id="frequent-only")],
)
def test_build_min_count(min_count, expected):
    featurizer = NodeFeaturizer.build(TREES, max_values=100, min_count=min_count, buckets=3)
    assert featurizer.values[len(SPECIAL_VALUES):] == expected


@pytest.mark.parametrize(
    "value, in_vocabulary",
    [pytest.param("x", True, id="frequent"), pytest.param(MASK_VALUE, True, id="mask-token"),
     pytest.param("ζ", False, id="unseen-greek"), pytest.param("12345", False, id="unseen-number")],
)
def test_value_ids_are_vocabulary_or_bucket(value, in_vocabulary):
    featurizer = NodeFeaturizer.build(TREES, max_values=4, min_count=1, buckets=5)
    value_id = featurizer.value_id(value)
    assert (value_id < len(featurizer.values)) == in_vocabulary
    assert 0 <= value_id < featurizer.num_values


def test_bucket_ids_are_stable_across_instances():
    # crc32, not Python's per-process salted hash: ids must survive a restart.
    first, second = NodeFeaturizer(("a",), 1000), NodeFeaturizer(("a",), 1000)
    assert [first.value_id(v) for v in ("ζ", "12345", "foo")] == [second.value_id(v) for v in ("ζ", "12345", "foo")]
    assert first.value_id("ζ") == 1 + 916_651_654 % 1000  # crc32("ζ" as UTF-8): a pinned id


def test_graph_carries_type_and_value_ids():
    featurizer = NodeFeaturizer.build(TREES, max_values=4, min_count=1, buckets=3)
    data = featurizer.graph(TREES[0])
    assert data.value.tolist() == [featurizer.value_id(v) for v in ("x", "+", "x")]
    assert data.node_type.shape == data.value.shape == torch.Size([3])
    assert not hasattr(data, "labels")


def test_save_and_load_round_trip(tmp_path):
    featurizer = NodeFeaturizer.build(TREES, max_values=10, min_count=1, buckets=7)
    featurizer.save(tmp_path / "vocab.json")
    assert NodeFeaturizer.load(tmp_path / "vocab.json") == featurizer


def test_zero_buckets_is_refused():
    with pytest.raises(ValueError, match="buckets"):
        NodeFeaturizer(("x",), 0)
