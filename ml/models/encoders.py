"""R-GCN node encoders for Symbol Layout Graphs and Operator Graphs (In+Out, DESIGN.md §3).

PyG is imported where an encoder is built, not with this module: its import takes ~2.5 s (it loads torch._dynamo
and transformers), which every `manage.py` command and process paid through the admin's imports, models or not.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn.functional as F
from torch import nn

from mathparse.tree import NODE_TYPES
from ml.models.config import EncoderConfig
from ml.models.features import GraphBatch, NodeFeaturizer
from ml.models.graphs import NUM_OPT_RELATIONS, NUM_SLT_RELATIONS

if TYPE_CHECKING:
    from torch_geometric.data import Batch
    from torch_geometric.nn import RGCNConv


class FormulaEncoder(nn.Module):
    r"""Node vectors of one graph form (SLG or OPG) by relational graph convolution.

    Input  h_i^{(0)} = E_type[t_i] + E_value[v_i].
    Layer  h_i^{(l+1)} = σ( Σ_r Σ_{j ∈ N_i^r} (1/|N_i^r|) W_r^{(l)} h_j^{(l)} + W_0^{(l)} h_i^{(l)} )   (In+Out eq. 1)
    with σ = ReLU between layers; the last layer has no ReLU, so the output can use the whole sphere.
    Output z_i = h_i^{(L)} / ||h_i^{(L)}||.

    Args:
        num_relations: relation types including reverse edges (18 for SLGs, 16 for OPGs).
        num_values: size of the value vocabulary plus hash buckets.
        config: dimension and depth.

    Shapes: node_type, value (N,); edge_index (2, E); edge_type (E,) → (N, dim), unit rows.
    """

    def __init__(self, num_relations: int, num_values: int, config: EncoderConfig) -> None:
        from torch_geometric.nn import RGCNConv

        super().__init__()
        self.type_embedding = nn.Embedding(len(NODE_TYPES), config.dim)
        self.value_embedding = nn.Embedding(num_values, config.dim)
        self.layers = nn.ModuleList(
            RGCNConv(config.dim, config.dim, num_relations, aggr="mean", root_weight=True)
            for _ in range(config.layers)
        )

    def forward(self, node_type: torch.Tensor, value: torch.Tensor, edge_index: torch.Tensor,
                edge_type: torch.Tensor) -> torch.Tensor:
        h = self.type_embedding(node_type) + self.value_embedding(value)  # (N, dim)
        for i, layer in enumerate(self.layers):
            h = relational_mean(layer, h, edge_index, edge_type)  # (N, dim)
            if i < len(self.layers) - 1:
                h = F.relu(h)
        return F.normalize(h, dim=-1)  # (N, dim)

    def encode(self, batch: Batch | GraphBatch) -> torch.Tensor:
        """Node vectors of a PyG batch of `NodeFeaturizer.graph`s or a `NodeFeaturizer.batch`, in its node order."""
        return self(batch.node_type, batch.value, batch.edge_index, batch.edge_type)


def relational_mean(layer: RGCNConv, x: torch.Tensor, edge_index: torch.Tensor, edge_type: torch.Tensor) -> torch.Tensor:
    """What `layer` (an RGCNConv without bases, mean per relation, with root weight and bias) gives for `x`, in one
    pass: every node through every relation's weight at once, each edge reading its own relation's row.

    PyG's RGCNConv runs one message-passing round per relation type (18 for SLGs) and, without pyg-lib's segment
    matmul (no wheel for this torch), pays each one's overhead: ~6.5 ms a query's formulas against 0.8 here, and
    46 against 22 ms for an indexing batch of 256 formulas, the same vectors to 3e-7. Training reads the same
    weights, so gradients are the layer's own."""
    nodes, relations = x.shape[0], layer.num_relations
    per_relation = torch.einsum("nd,rde->nre", x, layer.weight)  # (N, R, out)
    source, target = edge_index
    slot = target * relations + edge_type
    neighbours = torch.bincount(slot, minlength=nodes * relations)[slot].unsqueeze(1).to(x.dtype)  # each edge counts itself
    return (x @ layer.root + layer.bias).index_add(0, target, per_relation[source, edge_type] / neighbours)


class NodeEncoderModel(nn.Module):
    """The pair of encoders trained jointly (one for SLGs, one for OPGs) with their featurizer."""

    def __init__(self, featurizer: NodeFeaturizer, config: EncoderConfig) -> None:
        super().__init__()
        self.featurizer = featurizer
        self.config = config
        self.slg = FormulaEncoder(NUM_SLT_RELATIONS, featurizer.num_values, config)
        self.opg = FormulaEncoder(NUM_OPT_RELATIONS, featurizer.num_values, config)

    @classmethod
    def seeded(cls, featurizer: NodeFeaturizer, config: EncoderConfig, seed: int) -> NodeEncoderModel:
        """Fresh weights drawn from `seed`: where training starts, and so the untrained twin a trained model is
        judged against (the same featurizer, config and seed give the same weights)."""
        torch.manual_seed(seed)
        return cls(featurizer, config)

    def encoder(self, kind: str) -> FormulaEncoder:
        """The encoder for a tree kind: "slt" → SLG encoder, "opt" → OPG encoder."""
        if kind not in ("slt", "opt"):
            raise ValueError(f"unknown tree kind {kind!r}; expected 'slt' or 'opt'")
        return self.slg if kind == "slt" else self.opg
