"""Each training step's encoder inputs, built from the seed, the epoch and the step alone.

Step s of epoch e trains on the formulas order_e[s·B : (s+1)·B], where order_e is the corpus shuffled by
`random.Random(f"{seed}:{e}")`, and draws the batch's sub-expressions and augmentations from
`random.Random(f"{seed}:{e}:{s}")`. No step depends on another, so background processes can build the
coming steps while the model trains on this one, and a run resumed at step s builds exactly what an
uninterrupted run built there.
"""
from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import torch
from torch.utils.data import DataLoader, Dataset

from mathparse.tree import Tree
from ml.models.features import GraphBatch, NodeFeaturizer
from ml.training.config import TrainConfig
from ml.training.context_pairs import Pair
from ml.training.pairs import CONDITIONS, augmenter, make_views, view_names
from ml.training.parsing import Graphs

FORMS = ("slg", "opg")
"""Graph forms, each with its own encoder; a view's name starts with its form."""


@dataclass(frozen=True)
class FormInputs:
    """Every view of one graph form in a batch as one disjoint union, so each encoder runs once per step."""

    views: tuple[str, ...]
    """The form's view names, in the order their nodes follow each other in `graphs`."""
    sizes: tuple[int, ...]
    """Nodes of each view."""
    graphs: GraphBatch
    owners: torch.Tensor
    """(Σ nodes,) batch position of the formula each node belongs to; ascending within each view."""


@dataclass(frozen=True)
class BatchInputs:
    formulas: int
    """Formulas in the batch (the last batch of an epoch may be short)."""
    forms: dict[str, FormInputs]
    """FormInputs by graph form (FORMS)."""
    context: BatchInputs | None = None
    """The step's context pairs (views CONTEXT_VIEWS, one position per pair), when the run has them."""


CONTEXT_VIEWS = ("slg-anchor", "slg-partner", "opg-anchor", "opg-partner")


def featurize_views(featurizer: NodeFeaturizer, views: list[dict[str, Tree | None]],
                    names: Sequence[str]) -> BatchInputs:
    """The batch's views (one dict per formula, as `make_views` returns) as encoder inputs; missing trees are left out."""
    forms: dict[str, FormInputs] = {}
    for form in FORMS:
        mine = tuple(name for name in names if name.startswith(form))
        present = [(name, position, tree) for name in mine for position, view in enumerate(views)
                   if (tree := view[name]) is not None]
        trees = [tree for _, _, tree in present]
        nodes = torch.tensor([len(tree) for tree in trees], dtype=torch.long)
        owners = torch.tensor([position for _, position, _ in present], dtype=torch.long).repeat_interleave(nodes)
        sizes = tuple(sum(len(tree) for view, _, tree in present if view == name) for name in mine)
        forms[form] = FormInputs(mine, sizes, featurizer.batch(trees), owners)
    return BatchInputs(len(views), forms)


class TrainingSteps(Dataset[BatchInputs]):
    """The inputs of step `(epoch, step)` of a run, as a map-style dataset a DataLoader's workers can read."""

    def __init__(self, graphs: Sequence[Graphs], featurizer: NodeFeaturizer, config: TrainConfig,
                 pairs: Sequence[Pair] = ()) -> None:
        self.graphs, self.featurizer, self.pairs = graphs, featurizer, pairs
        self.seed, self.batch_size = config.seed, config.batch_size
        self.augment = augmenter(config.augmentations, config.substructure_p, config.mask_p)
        self.names = view_names(CONDITIONS[config.condition], self.augment is not None)
        self.per_epoch = math.ceil(len(graphs) / config.batch_size)
        self._order: tuple[int, list[int]] = (-1, [])  # the latest epoch's shuffle, not redone for every step

    def __getitem__(self, index: tuple[int, int]) -> BatchInputs:
        epoch, step = index
        start = step * self.batch_size
        batch = [self.graphs[i] for i in self.order(epoch)[start:start + self.batch_size]]
        rng = random.Random(f"{self.seed}:{epoch}:{step}")
        views = [make_views(slt, opt, self.names, rng, self.augment) for slt, opt in batch]
        inputs = featurize_views(self.featurizer, views, self.names)
        if not self.pairs:
            return inputs
        drawn = rng.sample(self.pairs, min(self.batch_size, len(self.pairs)))
        context = [{"slg-anchor": anchor[0], "slg-partner": partner[0], "opg-anchor": anchor[1],
                    "opg-partner": partner[1]} for anchor, partner in drawn]
        return BatchInputs(inputs.formulas, inputs.forms, featurize_views(self.featurizer, context, CONTEXT_VIEWS))

    def order(self, epoch: int) -> list[int]:
        if self._order[0] != epoch:
            order = list(range(len(self.graphs)))
            random.Random(f"{self.seed}:{epoch}").shuffle(order)
            self._order = (epoch, order)
        return self._order[1]

    def epoch(self, epoch: int, first_step: int, workers: int) -> Iterator[BatchInputs]:
        """Steps `first_step`… of `epoch` in order, built here (workers=0) or ahead in `workers` processes."""
        indices = [(epoch, step) for step in range(first_step, self.per_epoch)]
        if workers == 0:
            return map(self.__getitem__, indices)
        # fork, not spawn: a worker shares the parsed graphs copy-on-write instead of unpickling them all.
        # Its own generator keeps the loader's seed draw out of the training process's torch RNG.
        # DataLoader workers run with torch.set_num_threads(1).
        return iter(DataLoader(self, batch_size=None, sampler=indices, num_workers=workers,
                               multiprocessing_context="fork", generator=torch.Generator()))
