import math

import pytest
import torch
import torch.nn.functional as F

from ml.training.loss import in_out_loss, maxsim_logits, node_losses, pair_loss


def unit(rows):
    return F.normalize(torch.tensor(rows, dtype=torch.float32), dim=1)


def test_maxsim_logits_match_a_brute_force_loop():
    torch.manual_seed(0)
    reference, other = F.normalize(torch.randn(5, 4), dim=1), F.normalize(torch.randn(7, 4), dim=1)
    owner = torch.tensor([0, 0, 0, 2, 2, 2, 2])  # formula 1 has no other graph
    logits = maxsim_logits(reference, other, owner, num_formulas=3)
    for i in range(5):
        for g in range(3):
            sims = [float(reference[i] @ other[j]) for j in range(7) if owner[j] == g]
            assert logits[i, g].item() == (pytest.approx(max(sims)) if sims else float("-inf"))


def test_unsorted_owners_are_refused():
    with pytest.raises(ValueError, match="must be sorted"):
        maxsim_logits(unit([[1, 0]]), unit([[1, 0], [0, 1]]), torch.tensor([1, 0]), 2)


def test_node_loss_is_softmax_cross_entropy_over_formulas():
    reference = unit([[1, 0], [0, 1]])
    other = unit([[1, 0], [0, 1]])  # formula 0's other graph holds [1, 0]; formula 1's holds [0, 1]
    losses = node_losses(reference, torch.tensor([0, 1]), other, torch.tensor([0, 1]), 2, temperature=0.1)
    expected = -math.log(math.exp(10) / (math.exp(10) + math.exp(0)))
    assert losses.tolist() == pytest.approx([expected, expected], rel=1e-3)


def test_nodes_whose_formula_lacks_the_other_graph_are_dropped():
    reference, other = unit([[1, 0], [0, 1], [1, 1]]), unit([[1, 0], [0, 1]])
    losses = node_losses(reference, torch.tensor([0, 1, 2]), other, torch.tensor([0, 1]), 3, temperature=0.1)
    assert len(losses) == 2


def test_gradient_reaches_both_sides():
    reference = torch.nn.Parameter(torch.randn(3, 4))
    other = torch.nn.Parameter(torch.randn(5, 4))
    losses = node_losses(F.normalize(reference, dim=1), torch.tensor([0, 1, 1]), F.normalize(other, dim=1),
                         torch.tensor([0, 0, 1, 1, 1]), 2, temperature=0.1)
    losses.mean().backward()
    assert reference.grad.abs().sum() > 0 and other.grad.abs().sum() > 0


@pytest.mark.parametrize(
    "slg, opg, expected",
    [
        pytest.param([torch.tensor([1.0, 3.0])], [torch.tensor([10.0] * 10)], (2.0 + 10.0) / 2,
                     id="sides-weigh-equally"),
        pytest.param([torch.tensor([1.0]), torch.tensor([3.0, 5.0])], [], 3.0, id="slg-only-pools-its-pairs"),
        pytest.param([torch.tensor([])], [torch.tensor([4.0])], 4.0, id="empty-side-drops-out"),
    ],
)
def test_in_out_loss_averages_sides(slg, opg, expected):
    assert in_out_loss(slg, opg).item() == pytest.approx(expected)


def test_in_out_loss_of_nothing_is_none():
    assert in_out_loss([], [torch.tensor([])]) is None


def test_pair_loss_is_symmetric_cross_entropy_over_formula_scores():
    anchors = unit([[1, 0], [0, 1]])  # one node each
    partners = unit([[1, 0], [0, 1]])
    owner = torch.tensor([0, 1])
    # S(a_k, b_k) = 1, S(a_k, b_j) = 0: each direction is −log(e^{10} / (e^{10} + 1))
    expected = -math.log(math.exp(10) / (math.exp(10) + 1))
    assert pair_loss(anchors, owner, partners, owner, 2, 0.1).item() == pytest.approx(expected, rel=1e-3)


def test_pair_loss_averages_an_anchors_nodes_and_prefers_its_own_partner():
    anchors = unit([[1, 0], [1, 1], [0, 1]])  # anchor 0 has two nodes
    partners = unit([[1, 0], [0, 1]])
    right = pair_loss(anchors, torch.tensor([0, 0, 1]), partners, torch.tensor([0, 1]), 2, 0.1)
    swapped = pair_loss(anchors, torch.tensor([0, 0, 1]), unit([[0, 1], [1, 0]]), torch.tensor([0, 1]), 2, 0.1)
    assert right.item() < swapped.item()


def test_pairs_missing_a_side_drop_out_and_too_few_give_none():
    anchors, partners = unit([[1, 0], [0, 1], [1, 1]]), unit([[1, 0], [0, 1]])
    # pair 2 has no partner: the loss equals that of pairs 0 and 1 alone
    three = pair_loss(anchors, torch.tensor([0, 1, 2]), partners, torch.tensor([0, 1]), 3, 0.1)
    two = pair_loss(anchors[:2], torch.tensor([0, 1]), partners, torch.tensor([0, 1]), 2, 0.1)
    assert three.item() == pytest.approx(two.item())
    assert pair_loss(anchors[:1], torch.tensor([0]), partners[:1], torch.tensor([0]), 1, 0.1) is None
