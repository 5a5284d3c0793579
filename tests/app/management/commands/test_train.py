import json
import logging

import pytest
from django.core.management import CommandError, call_command

FORMULAS = ["x^2", "a+b", r"\frac{1}{2}", r"e^{i\pi}", "x_1+x_2", r"\sqrt{x}", "a=b", "y-1"]
TINY = {"dim": 8, "layers": 1, "epochs": 1, "batch_size": 4, "min_count": 1, "hash_buckets": 16}


@pytest.fixture
def train_args(tmp_path):
    corpus = tmp_path / "formulas.txt"
    corpus.write_text("\n".join(FORMULAS) + "\n")

    def args(**options):
        config = tmp_path / "config.json"
        config.write_text(json.dumps({**TINY, **options}))
        return ["train", "--config", str(config), "--corpus", f"{corpus}:latex", "--out", str(tmp_path / "model"),
                "--graph-cache", str(tmp_path / "cache")]

    return args


def test_a_second_run_reads_the_parsed_graphs_from_the_cache(train_args, capsys, caplog):
    call_command(*train_args())
    assert "trained on 8 formulas (skipped {})" in capsys.readouterr().out
    with caplog.at_level(logging.INFO, logger="ml.training.parsing"):
        call_command(*train_args(epochs=2))
    assert "read 8 parsed graphs from" in caplog.text
    assert "epoch 1: loss" in capsys.readouterr().out


def test_another_runs_checkpoint_is_a_clear_error(train_args):
    call_command(*train_args())
    with pytest.raises(CommandError, match=r"different options \['dim'\]; use a new output directory"):
        call_command(*train_args(dim=16))


def test_sample_trains_on_a_seeded_random_subset(train_args, capsys):
    call_command(*train_args(), "--sample", "5")
    assert "trained on 5 formulas" in capsys.readouterr().out


def test_context_weight_without_thread_pages_is_a_clear_error(train_args):
    with pytest.raises(CommandError, match="context_weight: give thread pages with --context PATH"):
        call_command(*train_args(context_weight=1.0))
