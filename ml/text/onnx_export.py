"""The text encoder's ONNX file, exported here from the installed all-MiniLM-L6-v2 package and never downloaded.

    python -m ml.text.onnx_export [--force]

`make setup` and the Docker image run it. The steps are fixed (`ml.text.onnx_file.RECIPE` counts their versions),
so the same package and tools write the same bytes:

1. torch.onnx.export of the packaged BertModel (opset 17, TorchScript exporter), its token ids the one input, with
   dynamic batch and length;
2. onnxruntime's dynamic quantisation of every MatMul and Gather weight to int8, one scale per output channel.

One scale per channel is what keeps the vectors: per tensor, a post's vector moved by a cosine of 0.93 on average
(0.81 at worst); per channel, by 0.994 (0.984 at worst), at the same speed (docs/scaling.md). A JSON file beside
the model names the package version and the recipe it was made from; a second run with both unchanged does
nothing, so the command is cheap to repeat. Files are written under a temporary name and renamed, so a reader
(or a second export) never sees half a file.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import warnings
from contextlib import contextmanager
from pathlib import Path

from ml.text.onnx_file import INPUT, OUTPUT, is_current, onnx_path, provenance, provenance_file


def export(path: Path | None = None, force: bool = False) -> bool:
    """Write the quantised model to `path` unless it is current; whether it wrote."""
    path = path or onnx_path()
    if not force and is_current(path):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".onnx-export-") as work, _quiet():
        fp32, int8 = Path(work) / "fp32.onnx", Path(work) / "int8.onnx"
        _export_fp32(fp32)
        _quantise(fp32, int8)
        os.replace(int8, path)
    info = provenance_file(path)
    temporary = info.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(provenance(), indent=2) + "\n")
    os.replace(temporary, info)
    return True


@contextmanager
def _quiet():
    """Without the tracer's warnings about Python control flow (the shapes are dynamic axes) and the quantiser's
    advice to pre-process (its shape inference changes nothing here)."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        root.setLevel(level)


def _export_fp32(target: Path) -> None:
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as transformers_logging

    from ml.text.encoder import model_dir

    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder; never ask the network
    transformers_logging.disable_progress_bar()
    bert = AutoModel.from_pretrained(str(model_dir())).eval()
    axes = {name: {0: "batch", 1: "tokens"} for name in (INPUT, OUTPUT)}
    with torch.inference_mode():
        torch.onnx.export(_last_hidden_state(bert), (torch.ones(1, 16, dtype=torch.long),), str(target),
                          input_names=[INPUT],
                          output_names=[OUTPUT], dynamic_axes=axes, opset_version=17, dynamo=False)


def _last_hidden_state(bert):
    """BertModel with the token ids as its one input and one output.

    The encoder runs each text alone and unpadded, so an attention mask would be all ones and the token types all
    zeros (BERT's defaults). Without the mask the graph has no masking steps (`Where`, `IsNaN`): on 200 thread posts
    27.1 ms a post against 36.3, the same vectors (cosine 1.0000 at worst)."""
    import torch

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids):
            return self.bert(input_ids=input_ids).last_hidden_state

    return LastHiddenState().eval()


def _quantise(source: Path, target: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ml.text.onnx_export", description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="export even when the file is current")
    parser.add_argument("--path", type=Path, help=f"where to write (default {onnx_path()})")
    parser.add_argument("--quiet", action="store_true", help="say nothing when the file is current")
    args = parser.parse_args(argv)
    path = args.path or onnx_path()
    if export(path, force=args.force):
        sys.stdout.write(f"exported the text encoder to {path}\n")
    elif not args.quiet:
        sys.stdout.write(f"current, kept: {path}\n")


if __name__ == "__main__":
    main()
