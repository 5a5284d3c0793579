"""Contrastive training of the SLG and OPG encoders (In+Out §3): seeded, resumable at any checkpointed step.

A step's batch, sub-expressions and augmentations depend only on (seed, epoch, step) (see `batches`), its
learning rate only on its index (`schedule`), and a checkpoint (`state`) holds the weights, the optimizer
and the position; so a run killed and started again with the same command ends with exactly the weights
of an uninterrupted run.
"""
from __future__ import annotations

import gc
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch

from mathparse.tree import Tree
from ml.embed import FormulaGraphs
from ml.models.config import EncoderConfig
from ml.models.encoders import NodeEncoderModel
from ml.models.features import NodeFeaturizer
from ml.training.batches import FORMS, BatchInputs, TrainingSteps
from ml.training.config import TrainConfig
from ml.training.context_pairs import nearest_partners, thread_graphs
from ml.training.corpus import CorpusFormula, parse_formula
from ml.training.loss import in_out_loss, node_losses, pair_loss
from ml.training.pairs import CONDITIONS, PairKind
from ml.training.parsing import Graphs, load_graphs
from ml.training.schedule import learning_rate
from ml.training.state import Position, load_checkpoint, save_checkpoint

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Progress:
    epoch: int
    step: int
    """Steps of `epoch` done, this one included."""
    steps: int
    """Steps per epoch."""
    loss: float
    formulas_per_second: float


@dataclass(frozen=True)
class EpochStats:
    epoch: int
    loss: float
    seconds: float
    formulas_per_second: float
    """Over the steps this call ran: a resumed epoch counts from where it resumed."""


@dataclass
class TrainResult:
    model: NodeEncoderModel
    formulas: int
    """Formulas trained on (parsed, not too large)."""
    skipped: Counter[str] = field(default_factory=Counter)
    """Formulas left out, by reason (a parse error kind, or "too_large")."""
    epochs: list[EpochStats] = field(default_factory=list)
    """Epochs run by this call (none if the checkpoint had already finished them)."""


def train(config: TrainConfig, formulas: Iterable[CorpusFormula], out_dir: str | Path,
          progress: Callable[[Progress], None] | None = None,
          parse: Callable[[CorpusFormula], FormulaGraphs] = parse_formula,
          graph_cache: str | Path | None = None, context: Iterable[CorpusFormula] = ()) -> TrainResult:
    """Train (or resume training) into `out_dir`, which holds a loadable model after every checkpoint.

    `graph_cache`: a folder that keeps the parsed graphs between runs (see `parsing`); None parses every time.
    `context`: thread-page formulas (sourced `<question>_<answer>.html:<id>`) for the context pairs that
    `config.context_weight` weighs; they are drawn with the initial weights, so a resumed run draws the same.
    """
    out_dir = Path(out_dir)
    torch.set_num_threads(config.threads)
    graphs, skipped = load_graphs(formulas, parse, config.max_nodes, graph_cache)
    if len(graphs) < 2:
        raise ValueError(f"need at least 2 usable formulas to train, got {len(graphs)} (skipped: {dict(skipped)})")
    threads = thread_graphs(context, parse, config.max_nodes) if config.context_weight else []
    if config.context_weight and not threads:
        raise ValueError("context_weight needs thread pages with at least two formulas in a thread (--context)")
    extra = [tree for thread in threads for pair in thread for tree in pair if tree is not None]
    model, optimizer, start = _start_or_resume(config, graphs, out_dir, extra)
    pairs = nearest_partners(threads, _initial_model(config, model.featurizer).eval()) if threads else []
    log.info("%d context pairs from %d threads", len(pairs), len(threads))
    steps = TrainingSteps(graphs, model.featurizer, config, pairs)
    result = TrainResult(model, len(graphs), skipped)
    # The graphs live as long as the run: frozen, they are left out of every garbage collection (which spent
    # 16 of 64 s walking 80,000 formulas' nodes) and a forked loader worker does not copy their pages.
    gc.freeze()
    try:
        for epoch in range(start.epoch, config.epochs):
            first_step = start.step if epoch == start.epoch else 0
            stats = run_epoch(model, optimizer, steps, config, Position(epoch, first_step), out_dir, progress)
            save_checkpoint(out_dir, model, optimizer, config, Position(epoch + 1, 0), len(graphs))
            log.info("epoch %d: loss %.4f, %.1f formulas/s", epoch, stats.loss, stats.formulas_per_second)
            result.epochs.append(stats)
    finally:
        gc.unfreeze()
    model.eval()
    return result


def _start_or_resume(config: TrainConfig, graphs: list[Graphs], out_dir: Path,
                     extra_trees: Sequence[Tree]) -> tuple[NodeEncoderModel, torch.optim.Optimizer, Position]:
    """The checkpointed run, or a fresh model whose vocabulary also counts `extra_trees` (the context pairs')."""
    resumed = load_checkpoint(out_dir, config, len(graphs))
    if resumed is not None:
        return resumed
    trees = [tree for pair in graphs for tree in pair if tree is not None] + list(extra_trees)
    featurizer = NodeFeaturizer.build(trees, config.max_values, config.min_count, config.hash_buckets)
    model = _initial_model(config, featurizer).train()
    return model, torch.optim.Adam(model.parameters(), lr=config.learning_rate), Position(0, 0)


def _initial_model(config: TrainConfig, featurizer: NodeFeaturizer) -> NodeEncoderModel:
    """The weights training starts from (the untrained twin `evaluate_pool` compares with), the same every call."""
    return NodeEncoderModel.seeded(featurizer, EncoderConfig(dim=config.dim, layers=config.layers), config.seed)


def run_epoch(model: NodeEncoderModel, optimizer: torch.optim.Optimizer, steps: TrainingSteps,
              config: TrainConfig, start: Position, out_dir: Path,
              progress: Callable[[Progress], None] | None) -> EpochStats:
    """The steps of `start.epoch` from `start.step` on, with a checkpoint every `config.checkpoint_every` steps."""
    kinds, augmented = CONDITIONS[config.condition], steps.augment is not None
    total = config.epochs * steps.per_epoch
    began, seen, losses = time.perf_counter(), 0, []
    for step, inputs in enumerate(steps.epoch(start.epoch, start.step, config.loader_workers), start.step):
        index = start.epoch * steps.per_epoch + step
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(config.learning_rate, index, total, config.warmup_steps, config.schedule)
        loss = batch_loss(model, inputs, kinds, augmented, config.temperature, config.context_weight)
        seen += inputs.formulas
        if loss is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        done = step + 1
        if done % config.checkpoint_every == 0 and done < steps.per_epoch:
            save_checkpoint(out_dir, model, optimizer, config, Position(start.epoch, done), len(steps.graphs))
        if progress and loss is not None:
            progress(Progress(start.epoch, done, steps.per_epoch, losses[-1], seen / (time.perf_counter() - began)))
    seconds = time.perf_counter() - began
    return EpochStats(start.epoch, sum(losses) / max(len(losses), 1), seconds, seen / seconds)


def batch_loss(model: NodeEncoderModel, inputs: BatchInputs, kinds: Sequence[PairKind], augmented: bool,
               temperature: float, context_weight: float = 0.0) -> torch.Tensor | None:
    """Eq. 3 over one batch plus the weighted context-pair loss; None when no pair has both sides."""
    encoded = encode_views(model, inputs)
    terms: dict[str, list[torch.Tensor]] = {"slg": [], "opg": []}
    for kind in kinds:
        reference, reference_owner = encoded[kind.reference]
        other, other_owner = encoded[kind.other_view(augmented)]
        if len(reference) and len(other):
            terms[kind.reference].append(
                node_losses(reference, reference_owner, other, other_owner, inputs.formulas, temperature))
    loss = in_out_loss(terms["slg"], terms["opg"])
    context = context_loss(model, inputs.context, temperature) if inputs.context and context_weight else None
    if context is None:
        return loss
    return context_weight * context if loss is None else loss + context_weight * context


def context_loss(model: NodeEncoderModel, inputs: BatchInputs, temperature: float) -> torch.Tensor | None:
    """`pair_loss` per graph form, averaged over the forms that have pairs."""
    encoded = encode_views(model, inputs)
    terms = [term for form in FORMS
             if (term := pair_loss(*encoded[f"{form}-anchor"], *encoded[f"{form}-partner"], inputs.formulas,
                                   temperature)) is not None]
    return torch.stack(terms).mean() if terms else None


def encode_views(model: NodeEncoderModel, inputs: BatchInputs) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Node vectors (n, d) and owning batch position (n,) per view; one encoder pass per graph form."""
    encoded: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    for form, encoder in (("slg", model.slg), ("opg", model.opg)):
        part = inputs.forms[form]
        if len(part.owners):
            vectors = encoder.encode(part.graphs)  # (Σ nodes, d)
        else:
            vectors = torch.zeros((0, model.config.dim))
        encoded.update(zip(part.views, zip(vectors.split(part.sizes), part.owners.split(part.sizes))))
    return encoded
