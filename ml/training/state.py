"""Checkpoints of a training run: the model files plus the state that continues the run at the step it reached.

`training_state.pt` holds the weights, the optimizer, the position (epoch, steps done in it), torch's RNG and
the options; the per-step RNGs of `batches` need no state. The weights are kept there too, not only in
the model files, so that the one file, replaced atomically, always describes one consistent moment: a
kill between writing the model files and the state costs the steps since the previous checkpoint, never
a mismatched resume.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import torch

from ml.models.checkpoint import load_model, save_model
from ml.models.encoders import NodeEncoderModel
from ml.training.config import TrainConfig

STATE_FILE = "training_state.pt"
STATE_VERSION = 2
"""2: mid-epoch positions and per-step RNGs; version 1 (per-epoch RNGs) cannot be continued exactly."""

RESUMABLE = ("epochs", "threads", "checkpoint_every", "loader_workers")
"""Options a resumed run may change: none of them changes what a step computes."""


@dataclass(frozen=True)
class Position:
    epoch: int
    step: int
    """Steps of `epoch` done."""


def save_checkpoint(out_dir: Path, model: NodeEncoderModel, optimizer: torch.optim.Optimizer,
                    config: TrainConfig, position: Position, formulas: int) -> None:
    save_model(model, out_dir)
    state = {"version": STATE_VERSION, "epoch": position.epoch, "step": position.step, "formulas": formulas,
             "model": model.state_dict(), "optimizer": optimizer.state_dict(), "torch_rng": torch.get_rng_state(),
             "config": config.to_dict()}
    staging = out_dir / f"{STATE_FILE}.tmp"
    with open(staging, "wb") as handle:
        torch.save(state, handle)
        handle.flush()
        os.fsync(handle.fileno())  # the rename must not reach the disk before the data does
    os.replace(staging, out_dir / STATE_FILE)


def load_checkpoint(out_dir: Path, config: TrainConfig,
                    formulas: int) -> tuple[NodeEncoderModel, torch.optim.Optimizer, Position] | None:
    """The model (in training mode), optimizer and position saved in `out_dir`, or None if it has no checkpoint.

    Raises ValueError when the checkpoint belongs to another run: other options, another number of formulas.
    """
    path = out_dir / STATE_FILE
    if not path.exists():
        return None
    state = torch.load(path, weights_only=True)
    _check_same_run(config, formulas, state, path)
    model = load_model(out_dir).train()
    model.load_state_dict(state["model"])
    optimizer = torch.optim.Adam(model.parameters(), lr=config.learning_rate)
    optimizer.load_state_dict(state["optimizer"])
    torch.set_rng_state(state["torch_rng"])
    return model, optimizer, Position(state["epoch"], state["step"])


def _check_same_run(config: TrainConfig, formulas: int, state: dict, path: Path) -> None:
    """Anything but RESUMABLE options changed would silently mix two different runs."""
    if state.get("version") != STATE_VERSION:
        raise ValueError(f"{path} was written by another version of the trainer (state version "
                         f"{state.get('version', 1)}, this one writes {STATE_VERSION}); use a new output directory")
    current = config.to_dict()
    changed = sorted(key for key in current if key not in RESUMABLE and state["config"].get(key) != current[key])
    if changed:
        raise ValueError(f"{path} was written with different options {changed}; use a new output directory")
    if state["formulas"] != formulas:
        raise ValueError(f"{path} was written training on {state['formulas']} formulas, not {formulas}: "
                         "give the same corpus and --limit, or a new output directory")
