"""A saved model's `config.json`: the encoder's hyper-parameters and the names of its other files.

Without torch, so a process that only needs to know the model (its vectors' dimension, to check a codebook against it)
reads it without loading the model.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

FORMAT = "mathsearch-node-encoder"
FORMAT_VERSION = 1
CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"
VOCAB_FILE = "vocab.json"


class CheckpointError(ValueError):
    """A model directory is missing, corrupted or does not match the model its config describes."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


@dataclass(frozen=True)
class EncoderConfig:
    """Hyper-parameters a saved model needs to rebuild itself (written to `config.json`)."""

    dim: int = 64
    layers: int = 2

    def __post_init__(self) -> None:
        if self.dim < 1 or self.layers < 1:
            raise ValueError(f"dim and layers must be positive, got dim={self.dim} layers={self.layers}")

    def to_dict(self) -> dict:
        return asdict(self)


def read_config(path: Path) -> tuple[EncoderConfig, Path, Path]:
    """The encoder hyper-parameters and the vocabulary and weights paths named by a config.json."""
    try:
        config = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise CheckpointError(path, f"unreadable config ({error})") from error
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        raise CheckpointError(path, f"not a {FORMAT} config")
    if config.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(path, f"format_version {config.get('format_version')} is not {FORMAT_VERSION}")
    fields = {key: config[key] for key in EncoderConfig.__dataclass_fields__ if key in config}
    try:
        encoder = EncoderConfig(**fields)
    except (TypeError, ValueError) as error:
        raise CheckpointError(path, f"bad hyper-parameters ({error})") from error
    folder = path.parent
    return encoder, folder / config.get("vocab_file", VOCAB_FILE), folder / config.get("weights_file", WEIGHTS_FILE)
