"""Saved node-encoder models: one directory a worker can load without any training code.

    config.json         format tag, encoder hyper-parameters, names of the other two files
    model.safetensors   weights of both encoders (`slg.*`, `opg.*`)
    vocab.json          the featurizer (frequent values + number of hash buckets)
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from ml.models.encoders import EncoderConfig, NodeEncoderModel
from ml.models.features import NodeFeaturizer

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


def save_model(model: NodeEncoderModel, directory: Path) -> None:
    """Write the model to `directory` atomically: a reader sees the old or the new model, never half of one."""
    directory = Path(directory)
    staging = directory.with_name(directory.name + ".saving")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    config = {"format": FORMAT, "format_version": FORMAT_VERSION, **model.config.to_dict(),
              "vocab_file": VOCAB_FILE, "weights_file": WEIGHTS_FILE}
    (staging / CONFIG_FILE).write_text(json.dumps(config, indent=2) + "\n")
    model.featurizer.save(staging / VOCAB_FILE)
    save_file({name: t.detach().contiguous() for name, t in model.state_dict().items()}, str(staging / WEIGHTS_FILE))
    (staging / WEIGHTS_FILE).chmod(0o644)  # safetensors writes 0600; workers may run as another user
    for name in (CONFIG_FILE, VOCAB_FILE, WEIGHTS_FILE):
        directory.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, directory / name)
    staging.rmdir()


def load_model(directory: Path) -> NodeEncoderModel:
    """The model saved in `directory`, in eval mode; raises CheckpointError naming the bad file and why."""
    directory = Path(directory)
    config, vocab_path, weights_path = _read_config(directory / CONFIG_FILE)
    try:
        featurizer = NodeFeaturizer.load(vocab_path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CheckpointError(vocab_path, f"unreadable vocabulary ({error})") from error
    model = NodeEncoderModel(featurizer, config)
    _load_weights(model, weights_path)
    return model.eval()


def _read_config(path: Path) -> tuple[EncoderConfig, Path, Path]:
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


def _load_weights(model: NodeEncoderModel, path: Path) -> None:
    try:
        weights = load_file(str(path))
    except (OSError, SafetensorError) as error:
        raise CheckpointError(path, f"unreadable weights ({error})") from error
    expected = model.state_dict()
    missing, unexpected = sorted(set(expected) - set(weights)), sorted(set(weights) - set(expected))
    if missing or unexpected:
        raise CheckpointError(path, f"weights do not match the config: missing {missing}, unexpected {unexpected}")
    for name, tensor in expected.items():
        if weights[name].shape != tensor.shape:
            raise CheckpointError(path, f"shape of {name} expected {tuple(tensor.shape)} got "
                                        f"{tuple(weights[name].shape)}")
    with torch.no_grad():
        model.load_state_dict(weights)
