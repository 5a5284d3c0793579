"""Training options, read from JSON and checked up front so a bad option fails before any work is spent."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from ml.training.pairs import AUGMENTATIONS, CONDITIONS
from ml.training.schedule import SCHEDULES


@dataclass(frozen=True)
class TrainConfig:
    condition: str = "inner+outer"
    """Which graph pairings train the encoders (In+Out §3): one of CONDITIONS."""
    dim: int = 64
    layers: int = 2
    epochs: int = 3
    batch_size: int = 64
    """Formulas per batch (N−1 negatives each); the maxsim cost per formula grows with it (≈2× per doubling)."""
    learning_rate: float = 1e-3
    warmup_steps: int = 0
    """Updates over which the learning rate climbs linearly from learning_rate/warmup_steps to learning_rate."""
    schedule: str = "constant"
    """After warm-up: "constant", or "cosine" decaying to 0 at the last step of the last epoch (one of SCHEDULES)."""
    temperature: float = 0.1
    seed: int = 0
    max_values: int = 20_000
    """Vocabulary size (frequent values with their own embedding); the rest share `hash_buckets`."""
    min_count: int = 2
    hash_buckets: int = 2_048
    max_nodes: int = 150
    """Formulas with a larger SLT or OPT are left out of training: they dominate the batch's padding cost."""
    augmentations: tuple[str, ...] = ()
    """Extra augmentations of the non-reference graphs, from AUGMENTATIONS (sub-expressions are always on)."""
    substructure_p: tuple[float, ...] = (0.3, 0.005, 0.002)
    mask_p: float = 0.01
    threads: int = 1
    """torch intra-op threads for the run. One is fastest when cores are shared: one epoch over 3,938
    LaTeX formulas ran at 107 formulas/s with 1 thread and 23 formulas/s with 2, on 2 busy cores."""
    loader_workers: int = 0
    """Background processes that build the coming batches' views and features (0: the training process does).
    The batches are the same either way; that work was a quarter of a step (5.3 of 21 s per 3,200 formulas),
    which a worker moves to the other core when it is free."""
    checkpoint_every: int = 500
    """Steps between mid-epoch checkpoints (one is always written at the end of an epoch)."""
    context_weight: float = 0.0
    """Weight of the context-pair loss (`context_pairs`): each step also draws `batch_size` pairs of a formula and
    its most alike thread-mate and contrasts them by formula-level maxsim. 0 turns it off; it needs thread pages."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "condition", self.condition.lower())
        object.__setattr__(self, "augmentations", tuple(self.augmentations))
        object.__setattr__(self, "substructure_p", tuple(self.substructure_p))
        if self.condition not in CONDITIONS:
            raise ValueError(f"condition {self.condition!r} is not one of {sorted(CONDITIONS)}")
        unknown = [name for name in self.augmentations if name not in AUGMENTATIONS]
        if unknown:
            raise ValueError(f"augmentations {unknown} are not among {list(AUGMENTATIONS)}")
        positive = ("dim", "layers", "epochs", "max_values", "hash_buckets", "max_nodes", "threads", "checkpoint_every")
        bad = [name for name in positive if getattr(self, name) < 1]
        if bad:
            raise ValueError(f"{bad} must be positive")
        negative = [name for name in ("warmup_steps", "loader_workers") if getattr(self, name) < 0]
        if negative:
            raise ValueError(f"{negative} must not be negative")
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule {self.schedule!r} is not one of {list(SCHEDULES)}")
        if self.batch_size < 2:
            raise ValueError(f"batch_size must be at least 2 (in-batch negatives), got {self.batch_size}")
        if self.context_weight < 0:
            raise ValueError(f"context_weight must not be negative, got {self.context_weight}")
        if self.temperature <= 0 or self.learning_rate <= 0:
            raise ValueError("temperature and learning_rate must be positive")

    @classmethod
    def from_dict(cls, data: dict) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown training options {unknown}; valid options are {sorted(known)}")
        return cls(**data)

    @classmethod
    def from_file(cls, path: str | Path) -> TrainConfig:
        return cls.from_dict(json.loads(Path(path).read_text()))

    def to_dict(self) -> dict:
        data = asdict(self)
        return {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}


DEFAULT_CONFIG_FILE = Path(__file__).with_name("default_config.json")
