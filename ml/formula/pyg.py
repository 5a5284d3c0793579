"""Trees as torch_geometric graphs (SLG / OPG): forward and reverse edges, each with its relation type."""
from __future__ import annotations

import torch
from torch_geometric.data import Data

from ml.formula.relations import NODE_TYPES, opt_relation, slt_relation
from ml.formula.tree import Tree, node_type


def tree_to_pyg(tree: Tree) -> Data:
    """Data with `edge_index` (2, 2E), `edge_type` (2E,), `node_type` (N,), `labels` (N strings).

    Reverse edges follow the forward ones; node ids are the tree's pre-order indices.
    """
    relation = slt_relation if tree.kind == "slt" else opt_relation
    sources, targets, types = [], [], []
    for parent, child, label in tree.edges:
        sources += [parent, child]
        targets += [child, parent]
        types += [relation(label), relation(label, reverse=True)]
    return Data(
        edge_index=torch.tensor([sources, targets], dtype=torch.long).reshape(2, -1),
        edge_type=torch.tensor(types, dtype=torch.long),
        node_type=torch.tensor([NODE_TYPES.index(node_type(l)) if node_type(l) in NODE_TYPES
                                else NODE_TYPES.index("E") for l in tree.labels], dtype=torch.long),
        labels=tree.labels,
        num_nodes=len(tree),
    )
