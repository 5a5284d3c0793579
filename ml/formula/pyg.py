"""Trees as torch_geometric graphs (SLG / OPG): forward and reverse edges, each with its relation type."""
from __future__ import annotations

from functools import cache, lru_cache

import torch
from torch_geometric.data import Data

from ml.formula.relations import NODE_TYPES, opt_relation, slt_relation
from ml.formula.tree import Tree, node_type


def tree_to_pyg(tree: Tree) -> Data:
    """Data with `edge_index` (2, 2E), `edge_type` (2E,), `node_type` (N,), `labels` (N strings).

    Reverse edges follow the forward ones; node ids are the tree's pre-order indices.
    """
    sources, targets, types = directed_edges(tree)
    return Data(
        edge_index=torch.tensor([sources, targets], dtype=torch.long).reshape(2, -1),
        edge_type=torch.tensor(types, dtype=torch.long),
        node_type=torch.tensor(node_type_ids(tree.labels), dtype=torch.long),
        labels=tree.labels,
        num_nodes=len(tree),
    )


def directed_edges(tree: Tree, offset: int = 0) -> tuple[list[int], list[int], list[int]]:
    """Sources, targets and relation types of every edge and its reverse, node ids shifted by `offset`
    (so the edges of many trees can share one batch)."""
    relation = _slt_relations if tree.kind == "slt" else _opt_relations
    sources, targets, types = [], [], []
    for parent, child, label in tree.edges:
        sources += (parent + offset, child + offset)
        targets += (child + offset, parent + offset)
        types += relation(label)
    return sources, targets, types


def node_type_ids(labels: list[str]) -> list[int]:
    return [_type_id(label) for label in labels]


@lru_cache(maxsize=65536)
def _type_id(label: str) -> int:
    kind = node_type(label)
    return NODE_TYPES.index(kind if kind in NODE_TYPES else "E")


@cache
def _slt_relations(label: str) -> tuple[int, int]:
    return slt_relation(label), slt_relation(label, reverse=True)


@cache
def _opt_relations(label: str) -> tuple[int, int]:
    return opt_relation(label), opt_relation(label, reverse=True)
