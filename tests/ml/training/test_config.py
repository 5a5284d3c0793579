import json

import pytest

from ml.training.config import DEFAULT_CONFIG_FILE, TrainConfig


def test_default_file_reads_and_round_trips(tmp_path):
    config = TrainConfig.from_file(DEFAULT_CONFIG_FILE)
    assert (config.condition, config.context_weight, config.temperature) == ("opg", 1.0, 0.1)
    (tmp_path / "c.json").write_text(json.dumps(config.to_dict()))
    assert TrainConfig.from_file(tmp_path / "c.json") == config


def test_condition_is_case_insensitive():
    assert TrainConfig(condition="Inner+Outer").condition == "inner+outer"


@pytest.mark.parametrize(
    "options, message",
    [
        pytest.param({"condition": "both"}, r"condition 'both' is not one of \['inner', 'inner\+outer', 'opg'",
                     id="bad-condition"),
        pytest.param({"augmentations": ["node_drop"]}, r"\['node_drop'\] are not among \['substitute_variables'",
                     id="bad-augmentation"),
        pytest.param({"batch_size": 1}, "batch_size must be at least 2", id="no-negatives"),
        pytest.param({"dim": 0}, r"\['dim'\] must be positive", id="zero-dim"),
        pytest.param({"schedule": "linear"}, r"schedule 'linear' is not one of \['constant', 'cosine'\]",
                     id="bad-schedule"),
        pytest.param({"warmup_steps": -1}, r"\['warmup_steps'\] must not be negative", id="negative-warmup"),
        pytest.param({"checkpoint_every": 0}, r"\['checkpoint_every'\] must be positive", id="no-checkpoints"),
        pytest.param({"temperature": 0.0}, "temperature and learning_rate must be positive", id="zero-temperature"),
        pytest.param({"lr": 0.1}, r"unknown training options \['lr'\]; valid options are \['augmentations'",
                     id="unknown-option"),
    ],
)
def test_bad_options_name_the_valid_choices(options, message):
    with pytest.raises(ValueError, match=message):
        TrainConfig.from_dict(options)
