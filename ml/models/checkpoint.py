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

from ml.models.config import CONFIG_FILE, FORMAT, FORMAT_VERSION, VOCAB_FILE, WEIGHTS_FILE, CheckpointError, read_config
from ml.models.encoders import NodeEncoderModel
from ml.models.features import NodeFeaturizer


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
    config, vocab_path, weights_path = read_config(directory / CONFIG_FILE)
    try:
        featurizer = NodeFeaturizer.load(vocab_path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CheckpointError(vocab_path, f"unreadable vocabulary ({error})") from error
    model = NodeEncoderModel(featurizer, config)
    _load_weights(model, weights_path)
    return model.eval()


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
