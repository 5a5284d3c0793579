"""Node-level contrastive loss of In+Out (eqs. 2–3), vectorised over a whole batch.

Each reference node i of formula f scores every formula g of the batch by its best match there,
s(i, g) = max_{j ∈ other graph of g} z_i · z_j; the positive is g = f, the N−1 others are negatives.
We use the usual InfoNCE form, with the positive in the denominator (a softmax cross-entropy): the
paper's eq. 2 leaves it out, which only shifts the loss but lets it go negative and has no softmax reading.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F


def maxsim_logits(reference: torch.Tensor, other: torch.Tensor, other_owner: torch.Tensor,
                  num_formulas: int) -> torch.Tensor:
    """s(i, g) for every reference node i and formula g; -inf where g has no other graph.

    reference (M, d) and other (K, d) unit rows; other_owner (K,) the batch position of each other
    node, in ascending order (a PyG batch keeps each graph's nodes together). One (K, M) product and a
    segment max per formula: no padding, so a long formula costs only its own nodes (measured 3× faster
    than scatter_reduce and 1.5× faster than dense padding at 128 formulas × 27 nodes).
    """
    if len(other_owner) > 1 and bool((other_owner[1:] < other_owner[:-1]).any()):
        raise ValueError("other_owner must be sorted: each formula's other nodes must be contiguous")
    sims = other @ reference.T  # (K, M)
    lengths = torch.bincount(other_owner, minlength=num_formulas)  # (N,)
    return torch.segment_reduce(sims, "max", lengths=lengths, axis=0).T  # (M, N)


def node_losses(reference: torch.Tensor, reference_owner: torch.Tensor, other: torch.Tensor,
                other_owner: torch.Tensor, num_formulas: int, temperature: float) -> torch.Tensor:
    """ℓ_i = −log softmax_g(s(i, g)/τ)[f(i)] for reference nodes whose own formula has the other graph; (M',)."""
    logits = maxsim_logits(reference, other, other_owner, num_formulas)  # (M, N)
    own = logits.gather(1, reference_owner[:, None]).squeeze(1)  # (M,)
    keep = torch.isfinite(own)
    return F.cross_entropy(logits[keep] / temperature, reference_owner[keep], reduction="none")  # (M',)


def in_out_loss(slg_terms: list[torch.Tensor], opg_terms: list[torch.Tensor]) -> torch.Tensor | None:
    """Eq. 3: the mean ℓ over SLG reference nodes and over OPG reference nodes, then their average.

    A side with no nodes (condition SLG only, or no OPTs in the batch) drops out; None if both do.
    """
    means = [torch.cat(terms).mean() for terms in (slg_terms, opg_terms) if sum(len(t) for t in terms)]
    return torch.stack(means).mean() if means else None


def pair_loss(anchor: torch.Tensor, anchor_owner: torch.Tensor, partner: torch.Tensor, partner_owner: torch.Tensor,
              num_pairs: int, temperature: float) -> torch.Tensor | None:
    """InfoNCE over formula-level maxsim (the search score) of (anchor, partner) pairs, in both directions.

    S(a, b) = mean over a's nodes of their best cosine among b's nodes; pair k's partner is the positive of
    anchor k and the other partners its negatives, and the same from the partners' side. Pairs with a side
    missing (no OPT) drop out; None if fewer than two pairs are left.
    """
    present = (torch.bincount(anchor_owner, minlength=num_pairs) > 0) & (
        torch.bincount(partner_owner, minlength=num_pairs) > 0)
    if int(present.sum()) < 2:
        return None
    keep = present.nonzero().squeeze(1)
    terms = [F.cross_entropy(_formula_logits(a, a_owner, b, b_owner, num_pairs)[keep][:, keep] / temperature,
                             torch.arange(len(keep)))
             for a, a_owner, b, b_owner in ((anchor, anchor_owner, partner, partner_owner),
                                            (partner, partner_owner, anchor, anchor_owner))]
    return torch.stack(terms).mean()


def _formula_logits(reference: torch.Tensor, reference_owner: torch.Tensor, other: torch.Tensor,
                    other_owner: torch.Tensor, num_formulas: int) -> torch.Tensor:
    """(N, N): row f, column g = mean over f's reference nodes of s(i, g); rows of absent formulas are 0."""
    node_logits = maxsim_logits(reference, other, other_owner, num_formulas)  # (M, N)
    lengths = torch.bincount(reference_owner, minlength=num_formulas)
    return torch.segment_reduce(node_logits, "sum", lengths=lengths, axis=0) / lengths.clamp(min=1)[:, None]
