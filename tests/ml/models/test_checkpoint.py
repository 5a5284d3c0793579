import json

import pytest
import torch
from torch_geometric.data import Batch

from ml.models.checkpoint import load_model, save_model
from ml.models.config import CheckpointError, EncoderConfig
from ml.models.encoders import NodeEncoderModel


def outputs(model, graphs):
    slg = model.slg.encode(Batch.from_data_list([model.featurizer.graph(graphs.slt)]))
    opg = model.opg.encode(Batch.from_data_list([model.featurizer.graph(graphs.opt)]))
    return slg.detach(), opg.detach()


def test_round_trip_gives_the_same_vectors(model, formulas, tmp_path):
    save_model(model, tmp_path / "m")
    loaded = load_model(tmp_path / "m")
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["config.json", "model.safetensors", "vocab.json"]
    assert loaded.config == model.config and loaded.featurizer == model.featurizer
    for before, after in zip(outputs(model, formulas[0]), outputs(loaded, formulas[0])):
        assert torch.equal(before, after)


def test_saving_again_overwrites(model, tmp_path):
    save_model(model, tmp_path / "m")
    with torch.no_grad():
        model.slg.layers[0].root.add_(1.0)
    save_model(model, tmp_path / "m")
    assert torch.equal(load_model(tmp_path / "m").slg.layers[0].root, model.slg.layers[0].root)


def test_shape_mismatch_names_the_tensor_and_both_shapes(featurizer, tmp_path):
    save_model(NodeEncoderModel(featurizer, EncoderConfig(dim=8, layers=1)), tmp_path / "m")
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    (tmp_path / "m" / "config.json").write_text(json.dumps({**config, "dim": 16}))
    with pytest.raises(CheckpointError, match=r"model.safetensors: shape of slg.type_embedding.weight expected \(10, 16\) got \(10, 8\)"):
        load_model(tmp_path / "m")


def test_depth_mismatch_lists_missing_tensors(featurizer, tmp_path):
    save_model(NodeEncoderModel(featurizer, EncoderConfig(dim=8, layers=1)), tmp_path / "m")
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    (tmp_path / "m" / "config.json").write_text(json.dumps({**config, "layers": 2}))
    with pytest.raises(CheckpointError, match=r"missing \['opg.layers.1.bias'"):
        load_model(tmp_path / "m")


@pytest.mark.parametrize(
    "file, content, problem",
    [
        pytest.param("model.safetensors", b"\x00garbage", "unreadable weights", id="corrupt-weights"),
        pytest.param("config.json", b"{not json", "unreadable config", id="corrupt-config"),
        pytest.param("config.json", b'{"format": "other"}', "not a mathsearch-node-encoder config", id="foreign-config"),
        pytest.param("vocab.json", b"[]", "unreadable vocabulary", id="bad-vocab"),
    ],
)
def test_corrupted_files_name_file_and_problem(model, tmp_path, file, content, problem):
    save_model(model, tmp_path / "m")
    (tmp_path / "m" / file).write_bytes(content)
    with pytest.raises(CheckpointError, match=problem) as error:
        load_model(tmp_path / "m")
    assert error.value.path == tmp_path / "m" / file


def test_missing_directory(tmp_path):
    with pytest.raises(CheckpointError, match="config.json: unreadable config"):
        load_model(tmp_path / "nowhere")


def test_bad_hyper_parameters_in_config(model, tmp_path):
    save_model(model, tmp_path / "m")
    config = json.loads((tmp_path / "m" / "config.json").read_text())
    (tmp_path / "m" / "config.json").write_text(json.dumps({**config, "dim": 0}))
    with pytest.raises(CheckpointError, match="config.json: bad hyper-parameters"):
        load_model(tmp_path / "m")


def test_saved_files_are_readable_by_other_users(model, tmp_path):
    save_model(model, tmp_path / "m")
    assert all(path.stat().st_mode & 0o044 == 0o044 for path in (tmp_path / "m").iterdir())
