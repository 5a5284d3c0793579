"""Contrastive training of the SLG and OPG encoders (In+Out §3): seeded, resumable, one checkpoint per epoch.

A step's batch, sub-expressions and augmentations depend only on (seed, epoch, step) (see `batches`), so a
run resumed after epoch e continues exactly as an uninterrupted run would.
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

from ml.embed import FormulaGraphs
from ml.models.checkpoint import load_model, save_model
from ml.models.encoders import EncoderConfig, NodeEncoderModel
from ml.models.features import NodeFeaturizer
from ml.training.batches import BatchInputs, TrainingSteps
from ml.training.config import TrainConfig
from ml.training.corpus import CorpusFormula, parse_formula
from ml.training.loss import in_out_loss, node_losses
from ml.training.pairs import CONDITIONS, PairKind
from ml.training.parsing import Graphs, load_graphs

log = logging.getLogger(__name__)

STATE_FILE = "training_state.pt"
"""Optimizer state and finished epochs, beside the model files in the output directory."""

RESUMABLE = ("epochs", "threads", "loader_workers")
"""Options a resumed run may change."""


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
          graph_cache: str | Path | None = None) -> TrainResult:
    """Train (or resume training) into `out_dir`, which holds a loadable model after every epoch.

    `graph_cache`: a folder that keeps the parsed graphs between runs (see `parsing`); None parses every time.
    """
    out_dir = Path(out_dir)
    torch.set_num_threads(config.threads)
    graphs, skipped = load_graphs(formulas, parse, config.max_nodes, graph_cache)
    if len(graphs) < 2:
        raise ValueError(f"need at least 2 usable formulas to train, got {len(graphs)} (skipped: {dict(skipped)})")
    model, optimizer, done = _start_or_resume(config, graphs, out_dir)
    steps = TrainingSteps(graphs, model.featurizer, config)
    result = TrainResult(model, len(graphs), skipped)
    # The graphs live as long as the run: frozen, they are left out of every garbage collection (which spent
    # 16 of 64 s walking 80,000 formulas' nodes) and a forked loader worker does not copy their pages.
    gc.freeze()
    try:
        for epoch in range(done, config.epochs):
            stats = run_epoch(model, optimizer, steps, config, epoch, progress)
            save_model(model, out_dir)
            torch.save({"epochs_done": epoch + 1, "optimizer": optimizer.state_dict(), "config": config.to_dict()},
                       out_dir / STATE_FILE)
            log.info("epoch %d: loss %.4f, %.1f formulas/s", epoch, stats.loss, stats.formulas_per_second)
            result.epochs.append(stats)
    finally:
        gc.unfreeze()
    model.eval()
    return result


def _start_or_resume(config: TrainConfig, graphs: list[Graphs],
                     out_dir: Path) -> tuple[NodeEncoderModel, torch.optim.Optimizer, int]:
    state_path = out_dir / STATE_FILE
    if state_path.exists():
        state = torch.load(state_path, weights_only=True)
        _check_same_run(config, state["config"], state_path)
        model = load_model(out_dir).train()
        optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
        optimizer.load_state_dict(state["optimizer"])
        return model, optimizer, state["epochs_done"]
    torch.manual_seed(config.seed)
    trees = [tree for pair in graphs for tree in pair if tree is not None]
    featurizer = NodeFeaturizer.build(trees, config.max_values, config.min_count, config.hash_buckets)
    model = NodeEncoderModel(featurizer, EncoderConfig(dim=config.dim, layers=config.layers)).train()
    return model, torch.optim.Adam(model.parameters(), lr=config.learning_rate), 0


def _check_same_run(config: TrainConfig, saved: dict, path: Path) -> None:
    """Only RESUMABLE options may change on resume; anything else would silently mix two different runs."""
    current = config.to_dict()
    changed = sorted(key for key in current if key not in RESUMABLE and saved.get(key) != current[key])
    if changed:
        raise ValueError(f"{path} was written with different options {changed}; use a new output directory")


def run_epoch(model: NodeEncoderModel, optimizer: torch.optim.Optimizer, steps: TrainingSteps,
              config: TrainConfig, epoch: int, progress: Callable[[Progress], None] | None) -> EpochStats:
    kinds, augmented = CONDITIONS[config.condition], steps.augment is not None
    began, seen, losses = time.perf_counter(), 0, []
    for step, inputs in enumerate(steps.epoch(epoch, 0, config.loader_workers)):
        loss = batch_loss(model, inputs, kinds, augmented, config.temperature)
        seen += inputs.formulas
        if loss is None:
            continue
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if progress:
            progress(Progress(epoch, step + 1, steps.per_epoch, losses[-1], seen / (time.perf_counter() - began)))
    seconds = time.perf_counter() - began
    return EpochStats(epoch, sum(losses) / max(len(losses), 1), seconds, seen / seconds)


def batch_loss(model: NodeEncoderModel, inputs: BatchInputs, kinds: Sequence[PairKind], augmented: bool,
               temperature: float) -> torch.Tensor | None:
    """Eq. 3 over one batch; None when no pair has both sides (e.g. an OPG condition on SLT-only formulas)."""
    encoded = encode_views(model, inputs)
    terms: dict[str, list[torch.Tensor]] = {"slg": [], "opg": []}
    for kind in kinds:
        reference, reference_owner = encoded[kind.reference]
        other, other_owner = encoded[kind.other_view(augmented)]
        if len(reference) and len(other):
            terms[kind.reference].append(
                node_losses(reference, reference_owner, other, other_owner, inputs.formulas, temperature))
    return in_out_loss(terms["slg"], terms["opg"])


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
