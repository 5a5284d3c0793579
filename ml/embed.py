"""Node embeddings of parsed formulas with a trained model: the one entry point indexing and search use.

Row i of a formula's "slg" ("opg") matrix is the vector of `graphs.slt.nodes[i]` (`.opt.nodes[i]`),
so alignments found by maxsim map straight back to tree nodes.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np
import torch

from mathparse.tree import Tree
from ml.models.checkpoint import load_model
from ml.models.encoders import NodeEncoderModel

MODEL_DIR_ENV = "MATHSEARCH_MODEL_DIR"
DEFAULT_MODEL_DIR = Path(__file__).resolve().parents[1] / "models" / "default"


class FormulaGraphs(Protocol):
    """Anything with the two trees of a formula; read-only, so a parse result whose `slt` is never None fits."""

    @property
    def slt(self) -> Tree | None: ...

    @property
    def opt(self) -> Tree | None: ...


def load_default_model(path: str | Path | None = None) -> NodeEncoderModel:
    """The model at `path`, else at $MATHSEARCH_MODEL_DIR, else at <repo>/models/default; loaded once per path."""
    chosen = path or os.environ.get(MODEL_DIR_ENV) or DEFAULT_MODEL_DIR
    return _load_cached(Path(chosen).resolve())


@lru_cache(maxsize=4)
def _load_cached(path: Path) -> NodeEncoderModel:
    return load_model(path)


def embed(graphs: Sequence[FormulaGraphs], model: NodeEncoderModel | None = None,
          batch_size: int = 256) -> list[dict[str, np.ndarray]]:
    """Per formula {"slg": (n_slt, d), "opg": (n_opt, d)} float32 unit rows; a missing tree gives shape (0, d)."""
    model = model or load_default_model()
    out = []
    for start in range(0, len(graphs), batch_size):
        chunk = graphs[start:start + batch_size]
        slg = embed_trees([g.slt for g in chunk], model, "slt")
        opg = embed_trees([g.opt for g in chunk], model, "opt")
        out += [{"slg": s, "opg": o} for s, o in zip(slg, opg)]
    return out


def embed_trees(trees: Sequence[Tree | None], model: NodeEncoderModel, kind: str) -> list[np.ndarray]:
    """One (n_nodes, d) float32 matrix per tree of one kind, encoded as a single batch."""
    empty = np.zeros((0, model.config.dim), dtype=np.float32)
    present = [tree for tree in trees if tree is not None]
    if not present:
        return [empty for _ in trees]
    batch = model.featurizer.batch(present)
    with torch.inference_mode():
        vectors = model.encoder(kind).encode(batch).numpy()  # (Σ n_nodes, d)
    parts = iter(np.split(vectors, np.cumsum([len(tree) for tree in present])[:-1]))
    return [empty if tree is None else next(parts) for tree in trees]
