import subprocess
import sys

import pytest

from ml.models.config import CheckpointError, EncoderConfig, read_config
from tests.conftest import REPO

SHIPPED = REPO / "models" / "default" / "config.json"


@pytest.mark.parametrize("kwargs", [pytest.param({"dim": 0}, id="dim"), pytest.param({"layers": 0}, id="layers")])
def test_bad_hyper_parameters_are_refused(kwargs):
    with pytest.raises(ValueError, match="must be positive"):
        EncoderConfig(**kwargs)


def test_the_shipped_config_is_read_without_importing_torch():
    code = ("import sys\nfrom pathlib import Path\nfrom ml.models.config import read_config\n"
            f"config, vocab, weights = read_config(Path({str(SHIPPED)!r}))\n"
            "print(config.dim, vocab.name, weights.name, 'torch' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert run.stdout.split() == [str(read_config(SHIPPED)[0].dim), "vocab.json", "model.safetensors", "False"]


def test_a_config_of_another_format_is_named(tmp_path):
    (tmp_path / "config.json").write_text('{"format": "something-else"}')
    with pytest.raises(CheckpointError, match="not a mathsearch-node-encoder config"):
        read_config(tmp_path / "config.json")
