"""Trees as the graphs the R-GCN encoders read (SLG / OPG): forward and reverse edges, each with its relation type.

Every tree edge parent→child becomes a forward relation; SLG/OPG add the reverse child→parent edge with its own
relation type, so every node receives messages.
"""
from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

import torch

from mathparse.tree import NODE_TYPES, SLT_EDGE_LABELS, Tree, node_type

if TYPE_CHECKING:
    from torch_geometric.data import Data

MAX_OPT_POSITION = 8
"""OPT argument positions 0..7 get their own relation; later positions share position 7."""
NUM_SLT_RELATIONS = 2 * len(SLT_EDGE_LABELS)
NUM_OPT_RELATIONS = 2 * MAX_OPT_POSITION


def slt_relation(edge_label: str, reverse: bool = False) -> int:
    forward = SLT_EDGE_LABELS.index(edge_label)
    return forward + len(SLT_EDGE_LABELS) if reverse else forward


def opt_relation(edge_label: str, reverse: bool = False) -> int:
    forward = min(int(edge_label), MAX_OPT_POSITION - 1)
    return forward + MAX_OPT_POSITION if reverse else forward


def tree_to_pyg(tree: Tree) -> Data:
    """Data with `edge_index` (2, 2E), `edge_type` (2E,), `node_type` (N,), `labels` (N strings).

    Reverse edges follow the forward ones; node ids are the tree's pre-order indices.
    """
    from torch_geometric.data import Data  # see ml.models.encoders: PyG loads where a graph is built

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
    sources: list[int] = []
    targets: list[int] = []
    types: list[int] = []
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
